package io.github.dra4j.benchmarks.crash;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;

/** Claims of the crash-test driver as the scheduler leaves them: stored and allocated. */
final class CrashClaims {

  private CrashClaims() {}

  /**
   * Stores a claim in namespace {@code default} asking for one device of class {@code gpu}, and
   * allocates it that device of the crash-test driver's pool {@code node-1}.
   *
   * @param server the API server
   * @param name the claim's name
   * @param device the device allocated
   * @return the claim's UID
   */
  static String allocated(InMemoryApiServer server, String name, String device) {
    ResourceClaim created = server.client().resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu").endExactly().endRequest().endDevices().endSpec()
        .build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withRequest("gpu")
        .withDriver(CrashTestDriverProcess.DRIVER).withPool("node-1").withDevice(device)
        .endResult().endDevices().endAllocation().endStatus().build().getStatus());
    return server.client().resource(created).updateStatus().getMetadata().getUid();
  }
}
