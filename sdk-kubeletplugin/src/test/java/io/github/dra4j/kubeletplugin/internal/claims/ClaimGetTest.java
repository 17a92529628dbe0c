package io.github.dra4j.kubeletplugin.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.github.dra4j.kubeletplugin.internal.api.ApiDeadline;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim GET without fabric8's DSL answers as the DSL does: a claim, null for 404, the API
 * server's status for other errors, the client's request timeout, and an interrupt. Against
 * fabric8's mock API server, which can answer with errors and delays.
 */
class ClaimGetTest {

  private static final String PATH = "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/a";

  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = new KubernetesMockServer(false);
    server.init();
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private static ResourceClaim claim() {
    return new ResourceClaimBuilder().withNewMetadata().withName("a").withNamespace("ns")
        .withUid("uid-a").endMetadata().withNewSpec().withNewDevices().addNewRequest()
        .withName("gpu").withNewExactly().withDeviceClassName("gpu.example.com").endExactly()
        .endRequest().endDevices().endSpec().build();
  }

  private static ApiDeadline deadline() {
    return ApiDeadline.after(Duration.ofSeconds(30), "the test");
  }

  @Test
  void readsTheClaimAsTheDslDoes() throws InterruptedException {
    server.expect().get().withPath(PATH).andReturn(200, claim()).times(2);

    ResourceClaim lean = ClaimGet.of(client).get("v1", ResourceClaim.class, "ns", "a", deadline());
    ResourceClaim dsl = client.resources(ResourceClaim.class).inNamespace("ns").withName("a")
        .get();

    assertThat(lean).isEqualTo(dsl);
    assertThat(lean.getMetadata().getUid()).isEqualTo("uid-a");
    assertThat(server.getLastRequest().getPath()).isEqualTo(PATH);
  }

  @Test
  void aMissingClaimIsNull() {
    assertThat(ClaimGet.of(client).get("v1", ResourceClaim.class, "ns", "a", deadline())).isNull();
  }

  @Test
  void anotherErrorCarriesTheApiServersStatus() {
    server.expect().get().withPath(PATH).andReturn(403, new StatusBuilder().withCode(403)
        .withReason("Forbidden").withMessage("resourceclaims.resource.k8s.io \"a\" is forbidden:"
            + " User \"node\" cannot get resource")
        .build()).once();

    assertThatThrownBy(() -> ClaimGet.of(client).get("v1", ResourceClaim.class, "ns", "a",
        deadline()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(403);
          assertThat(e.getMessage()).contains("GET at: " + client.getMasterUrl().toString()
              .replaceAll("/$", "") + PATH).contains("is forbidden");
        });
  }

  @Test
  void theClientsRequestTimeoutBoundsAGet() {
    Config config = new ConfigBuilder(client.getConfiguration()).withRequestTimeout(200)
        .withRequestRetryBackoffLimit(0).build();
    try (KubernetesClient impatient = new KubernetesClientBuilder().withConfig(config).build()) {
      server.expect().get().delay(5, TimeUnit.SECONDS).withPath(PATH).andReturn(200, claim())
          .once();
      long start = System.nanoTime();

      assertThatThrownBy(() -> ClaimGet.of(impatient).get("v1", ResourceClaim.class, "ns", "a",
          deadline()))
          .isInstanceOf(KubernetesClientException.class);
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(3));
    }
  }

  @Test
  void anInterruptEndsTheWaitAndIsKept() throws InterruptedException {
    server.expect().get().delay(5, TimeUnit.SECONDS).withPath(PATH).andReturn(200, claim())
        .once();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean flagKept = new AtomicBoolean();
    Thread reader = new Thread(() -> {
      try {
        ClaimGet.of(client).get("v1", ResourceClaim.class, "ns", "a", deadline());
      } catch (RuntimeException e) {
        thrown.set(e);
        flagKept.set(Thread.currentThread().isInterrupted());
      }
    });
    reader.start();
    Thread.sleep(200);
    reader.interrupt();
    reader.join(TimeUnit.SECONDS.toMillis(3));

    assertThat(reader.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("interrupted");
    assertThat(flagKept).isTrue();
  }

  @Test
  void aMasterUrlWithAPathKeepsIt() {
    Config config = new ConfigBuilder(client.getConfiguration())
        .withMasterUrl("https://api.example.com:6443/k8s/").build();
    try (KubernetesClient prefixed = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThat(ClaimGet.of(prefixed).url("v1beta1", "ns", "a")).isEqualTo(
          "https://api.example.com:6443/k8s/apis/resource.k8s.io/v1beta1/namespaces/ns/"
              + "resourceclaims/a");
    }
  }
}
