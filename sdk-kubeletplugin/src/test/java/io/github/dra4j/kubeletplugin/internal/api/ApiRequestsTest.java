package io.github.dra4j.kubeletplugin.internal.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.grpc.Context;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests bounded by a deadline, against the in-memory API server's hangs and faults, through
 * a client with fabric8's default settings (a 10 s request timeout, ten retries): the deadline
 * ends every wait, the client's own timeout and retries are honoured within it, and a kubelet
 * call's deadline and cancellation are the ones used.
 */
class ApiRequestsTest {

  private static final String MAP = "/api/v1/namespaces/default/configmaps/a";

  private InMemoryApiServer server;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().build().start();
    server.client().configMaps().resource(new ConfigMapBuilder().withNewMetadata()
        .withName("a").endMetadata().addToData("k", "v").build()).create();
  }

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    server.clearHangs();
    server.close();
  }

  /** A client from the server's kubeconfig: fabric8's defaults unless changed. */
  private KubernetesClient client(UnaryOperator<ConfigBuilder> settings) {
    Config config = settings.apply(new ConfigBuilder(Config.fromKubeconfig(server.kubeconfig())))
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static ApiDeadline after(Duration span) {
    return ApiDeadline.after(span, "the test");
  }

  @Test
  void aHangEndsAtTheDeadlineWhateverTheClientsTimeoutAndRetries() {
    try (KubernetesClient client = client(b -> b)) {
      assertThat(client.getConfiguration().getRequestRetryBackoffLimit()).isEqualTo(10);
      ApiRequests requests = ApiRequests.of(client);
      server.hangAll();
      long start = System.nanoTime();

      assertThatThrownBy(() -> requests.get(requests.url(MAP), ConfigMap.class,
          after(Duration.ofMillis(800))))
          .isInstanceOf(KubernetesClientException.class)
          .hasMessage("GET " + server.url() + MAP.substring(1) + ": no answer from the API"
              + " server within 0.8 s (the test)");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
  }

  @Test
  void aTryThatTimesOutIsRepeatedWithinTheDeadline() {
    try (KubernetesClient client = client(b -> b.withRequestTimeout(300)
        .withRequestRetryBackoffInterval(10))) {
      ApiRequests requests = ApiRequests.of(client);
      server.hangNext(ApiVerb.GET, "configmaps", 2);

      ConfigMap read = requests.get(requests.url(MAP), ConfigMap.class,
          after(Duration.ofSeconds(10)));

      assertThat(read.getData()).containsEntry("k", "v");
      assertThat(server.hungRequests()).isEqualTo(2);
    }
  }

  @Test
  void serverErrorsAreRepeatedUpToTheClientsLimitAndThenAnswered() {
    try (KubernetesClient patient = client(b -> b.withRequestRetryBackoffInterval(10));
        KubernetesClient impatient = client(b -> b.withRequestRetryBackoffLimit(1)
            .withRequestRetryBackoffInterval(10))) {
      server.failNext(ApiVerb.GET, "configmaps", 500, 3);
      ApiRequests requests = ApiRequests.of(patient);
      assertThat(requests.get(requests.url(MAP), ConfigMap.class, after(Duration.ofSeconds(10))))
          .isNotNull();

      server.failNext(ApiVerb.GET, "configmaps", 503, 3);
      ApiRequests once = ApiRequests.of(impatient);
      assertThatThrownBy(() -> once.get(once.url(MAP), ConfigMap.class,
          after(Duration.ofSeconds(10))))
          .isInstanceOfSatisfying(KubernetesClientException.class,
              e -> assertThat(e.getCode()).isEqualTo(503));
      assertThat(server.pendingFaults()).isEqualTo(1);
    }
  }

  @Test
  void aPutSendsTheObjectAndAConflictKeepsItsCode() {
    try (KubernetesClient client = client(b -> b)) {
      ApiRequests requests = ApiRequests.of(client);
      ConfigMap current = requests.get(requests.url(MAP), ConfigMap.class,
          after(Duration.ofSeconds(10)));
      current.getData().put("k", "w");

      ConfigMap stored = requests.put(requests.url(MAP), current, ConfigMap.class,
          after(Duration.ofSeconds(10)));

      assertThat(stored.getData()).containsEntry("k", "w");
      assertThatThrownBy(() -> requests.put(requests.url(MAP), current, ConfigMap.class,
          after(Duration.ofSeconds(10))))
          .isInstanceOfSatisfying(KubernetesClientException.class,
              e -> assertThat(e.getCode()).isEqualTo(409));
    }
  }

  @Test
  void aKubeletCallsDeadlineAndCancellationAreTheOnesUsed() throws Exception {
    try (KubernetesClient client = client(b -> b)) {
      ApiRequests requests = ApiRequests.of(client);
      server.hangAll();

      Context.CancellableContext call = Context.current().withDeadlineAfter(1, TimeUnit.SECONDS,
          scheduler);
      long start = System.nanoTime();
      assertThatThrownBy(() -> call.call(() -> {
        try (ApiDeadline deadline = ApiDeadline.ofCurrentCall()) {
          return requests.get(requests.url(MAP), ConfigMap.class, deadline);
        }
      })).hasMessageContaining("no answer from the API server within 0.7") // 1 s less 250 ms
          .hasMessageEndingWith(" s (the time the kubelet gave the call)");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));

      Context.CancellableContext cancelled = Context.current().withCancellation();
      // The test waits for the call to end cancelled, not for the cancel itself.
      var unused = scheduler.schedule(() -> cancelled.cancel(null), 200, TimeUnit.MILLISECONDS);
      long cancelStart = System.nanoTime();
      assertThatThrownBy(() -> cancelled.call(() -> {
        try (ApiDeadline deadline = ApiDeadline.ofCurrentCall()) {
          return requests.get(requests.url(MAP), ConfigMap.class, deadline);
        }
      })).hasMessage("GET " + server.url() + MAP.substring(1)
          + ": the kubelet cancelled the call");
      assertThat(Duration.ofNanos(System.nanoTime() - cancelStart))
          .isLessThan(Duration.ofSeconds(1));
    }
  }

  @Test
  void outsideACallTheBoundIsTheKubeletsOwnDeadline() {
    try (ApiDeadline deadline = ApiDeadline.ofCurrentCall()) {
      assertThat(deadline.describe()).isEqualTo("45.0 s (the plugin's bound for a claim read)");
      assertThat(deadline.remainingNanos()).isGreaterThan(TimeUnit.SECONDS.toNanos(44));
      assertThat(deadline.isCancelled()).isFalse();
    }
  }
}
