package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Injected hangs: a request is read and left without an answer until the hang is cleared (then
 * it is answered as usual) or the server closes (then its connection drops), as a server whose
 * storage stalls. Seen with a plain HTTP client, so that no client-side retry or timeout hides
 * what the server does.
 */
class HangTest {

  private static final String MAPS = "/api/v1/namespaces/default/configmaps";

  private InMemoryApiServer server;
  private HttpClient http;

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().build().start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    server.client().configMaps().resource(map("a")).create();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ConfigMap map(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("k", "v").build();
  }

  private CompletableFuture<HttpResponse<String>> get(String path, Duration timeout) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + path.substring(1)))
        .timeout(timeout).GET().build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aHungRequestGetsNoAnswerUntilTheHangIsClearedAndThenItsUsualOne() throws Exception {
    server.hangNext(ApiVerb.GET, "configmaps", 1);

    CompletableFuture<HttpResponse<String>> held = get(MAPS + "/a", Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.hungRequests() == 1);
    assertThatThrownBy(() -> held.get(500, TimeUnit.MILLISECONDS))
        .isInstanceOf(java.util.concurrent.TimeoutException.class);
    // Only that request: the next GET of the same object and other verbs are answered.
    assertThat(get(MAPS + "/a", Duration.ofSeconds(10)).get().statusCode()).isEqualTo(200);
    assertThat(get(MAPS, Duration.ofSeconds(10)).get().statusCode()).isEqualTo(200);

    assertThat(server.clearHangs()).isEqualTo(1);
    HttpResponse<String> answer = held.get(10, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("\"name\":\"a\"");
    assertThat(server.hungRequests()).isZero();
  }

  @Test
  void aClientThatGivesUpSeesItsTimeoutAndTheHangHoldsOnlyAsManyRequestsAsAsked() {
    server.hangNext(ApiVerb.GET, "configmaps", 2);
    server.hangNext(ApiVerb.LIST, null, 1);

    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> get(MAPS + "/a", Duration.ofMillis(300)).get())
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(HttpTimeoutException.class);
    }
    assertThatThrownBy(() -> get("/api/v1/pods", Duration.ofMillis(300)).get())
        .hasCauseInstanceOf(HttpTimeoutException.class);
    assertThat(server.hungRequests()).isEqualTo(3);

    // Rules used up: served again, and clearing answers nothing to clients that left.
    assertThat(get(MAPS + "/a", Duration.ofSeconds(10)).join().statusCode()).isEqualTo(200);
    assertThat(server.clearHangs()).isEqualTo(3);
    assertThat(get("/api/v1/pods", Duration.ofSeconds(10)).join().statusCode()).isEqualTo(200);
  }

  @Test
  void hangAllHoldsEveryPathUntilClearedWhileConnectionsAreStillAccepted() throws Exception {
    server.hangAll();
    List<CompletableFuture<HttpResponse<String>>> held = List.of(
        get("/version", Duration.ofSeconds(30)), get("/apis", Duration.ofSeconds(30)),
        get("/healthz", Duration.ofSeconds(30)), get(MAPS, Duration.ofSeconds(30)),
        get("/no/such/path", Duration.ofSeconds(30)));

    await().atMost(Duration.ofSeconds(10)).until(() -> server.hungRequests() == held.size());
    assertThat(held).noneMatch(CompletableFuture::isDone);

    assertThat(server.clearHangs()).isEqualTo(held.size());
    assertThat(held.stream().map(f -> f.join().statusCode()).toList())
        .containsExactly(200, 200, 200, 200, 404);
    assertThat(get("/version", Duration.ofSeconds(10)).join().statusCode()).isEqualTo(200);
  }

  @Test
  void closingTheServerDropsHeldRequestsWithTheirConnections() {
    server.hangAll();
    CompletableFuture<HttpResponse<String>> held = get(MAPS, Duration.ofSeconds(30));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.hungRequests() == 1);

    long start = System.nanoTime();
    server.close();

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThatThrownBy(() -> held.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IOException.class);
  }

  @Test
  void aHeldWatchOpensWhenTheHangIsClearedAndDeliversEvents() throws Exception {
    KubernetesClient client = server.client();
    server.hangNext(ApiVerb.WATCH, "configmaps", 1);
    List<String> events = new CopyOnWriteArrayList<>();
    CompletableFuture<Watch> watch = CompletableFuture.supplyAsync(() -> client.configMaps()
        .watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap resource) {
            events.add(action + " " + resource.getMetadata().getName());
          }

          @Override
          public void onClose(WatcherException cause) {}
        }));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.hungRequests() == 1);

    server.clearHangs();
    try (Watch open = watch.get(10, TimeUnit.SECONDS)) {
      client.configMaps().resource(map("b")).create();
      await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ADDED b"));
    }
  }

  @Test
  void aHangNeedsAVerbAndAtLeastOneRequest() {
    assertThatThrownBy(() -> server.hangNext(null, "configmaps", 1))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> server.hangNext(ApiVerb.GET, "configmaps", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hang times must be at least 1: 0");
  }
}
