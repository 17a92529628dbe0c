package io.github.dra4j.kubeletplugin.process;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.internal.claims.ApiServerClaimSource;

/**
 * Reads one claim the way the plugin does, in a fresh JVM (the API client logs its version
 * warnings once per JVM): {@code ClaimReadProcess <namespace> <name>}, API server from {@code
 * KUBECONFIG}. Prints the first request's device class, or the error.
 */
public final class ClaimReadProcess {

  private ClaimReadProcess() {}

  /**
   * Reads the claim.
   *
   * @param args namespace and name
   */
  public static void main(String[] args) {
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      ApiServerClaimSource source = new ApiServerClaimSource(client);
      System.out.println("device class: " + source.get(args[0], args[1], "").getSpec()
          .getDevices().getRequests().get(0).getExactly().getDeviceClassName());
      try {
        source.get(args[0], "missing", "");
      } catch (RuntimeException e) {
        System.out.println("missing: " + e.getMessage());
      }
    }
  }
}
