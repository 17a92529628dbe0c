package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Creates ResourceClaims in the (mock) API server the way the scheduler leaves them. */
public final class ClaimFixtures {

  private ClaimFixtures() {}

  /**
   * An allocated v1 claim with one device result of the given driver.
   *
   * @param namespace namespace
   * @param name name
   * @param driver the driver of the allocation result
   * @return the claim (not yet stored)
   */
  public static ResourceClaim allocated(String namespace, String name, String driver) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec()
        .withNewDevices()
        .addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .endDevices()
        .endSpec()
        .withNewStatus()
        .withNewAllocation()
        .withNewDevices()
        .addNewResult().withRequest("gpu").withDriver(driver).withPool("node-1")
        .withDevice("gpu-0").endResult()
        .endDevices()
        .endAllocation()
        .endStatus()
        .build();
  }

  /**
   * Stores a claim (with its status) and returns the stored object with its UID.
   *
   * @param client API client
   * @param claim the claim
   * @return the stored claim
   */
  public static ResourceClaim store(KubernetesClient client, ResourceClaim claim) {
    ResourceClaim created = client.resource(claim).create();
    if (claim.getStatus() != null) {
      created.setStatus(claim.getStatus());
      created = client.resource(created).updateStatus();
    }
    return created;
  }
}
