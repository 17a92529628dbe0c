package io.github.dra4j.kubeletplugin.internal.env;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The plugin's own Vert.x client: every answer, whichever thread asked, is handled on its one
 * event loop, and closing what it registered stops that thread.
 */
class NodeAgentVertxTest {

  private InMemoryApiServer server;

  @BeforeEach
  void setUp() {
    server = InMemoryApiServer.builder().build().start();
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  @Test
  void answersToManyThreadsShareOneEventLoopThatStopsWithTheClient() throws Exception {
    List<AutoCloseable> alsoClosed = new CopyOnWriteArrayList<>();
    Config config = Config.fromKubeconfig(server.kubeconfig());
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientFactory(NodeAgentVertx.factory(alsoClosed::add)).build();
    Set<Thread> answeredOn = ConcurrentHashMap.newKeySet();
    HttpClient http = client.getHttpClient();
    HttpRequest request = http.newHttpRequestBuilder()
        .uri(client.getMasterUrl() + "api/v1/namespaces").build();

    List<CompletableFuture<Void>> callers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      callers.add(CompletableFuture.runAsync(() -> {
        for (int j = 0; j < 10; j++) {
          http.sendAsync(request, byte[].class)
              .thenAccept(response -> {
                assertThat(response.code()).isEqualTo(200);
                answeredOn.add(Thread.currentThread());
              }).join();
        }
      }, command -> new Thread(command).start()));
    }
    CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

    assertThat(answeredOn).singleElement()
        .satisfies(thread -> assertThat(thread.getName()).startsWith("vert.x-eventloop-thread-"));
    assertThat(alsoClosed).hasSize(1);
    client.close();
    for (AutoCloseable resource : alsoClosed) {
      resource.close();
    }
    Thread loop = answeredOn.iterator().next();
    loop.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(loop.isAlive()).as("the event loop stopped").isFalse();
  }
}
