package io.github.dra4j.benchmarks.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The claim the plugin benchmarks prepare: one device of one driver, allocated. */
public final class BenchmarkClaims {

  private BenchmarkClaims() {}

  /**
   * Stores an allocated claim in namespace {@code default}, with its allocation in the status as
   * the scheduler writes it.
   *
   * @param client the API server's client
   * @param driver the driver of the claim's one device
   * @param name the claim's name
   * @return the claim as stored, with its UID
   */
  public static ResourceClaim store(KubernetesClient client, String driver, String name) {
    ResourceClaim claim = new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices().endSpec()
        .withNewStatus().withNewAllocation().withNewDevices().addNewResult().withRequest("gpu")
        .withDriver(driver).withPool("node").withDevice("gpu-0").endResult().endDevices()
        .endAllocation().endStatus()
        .build();
    ResourceClaim stored = client.resource(claim).create();
    stored.setStatus(claim.getStatus());
    return client.resource(stored).updateStatus();
  }
}
