package io.github.dra4j.kubeletplugin.internal.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client made on its own thread: readers wait for it, failures and close reach it. */
class DeferredClientTest {

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
  void aReaderWaitsUntilTheClientIsMadeOnItsOwnThread() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<String> maker = new AtomicReference<>();
    DeferredClient deferred = DeferredClient.make(() -> {
      maker.set(Thread.currentThread().getName());
      await(release);
      return server.newClient();
    }, "https://example", "dra4j-client-test");
    CompletableFuture<KubernetesClient> reader = CompletableFuture.supplyAsync(deferred);

    Thread.sleep(200);
    assertThat(reader).as("the client is not made yet").isNotDone();
    assertThat(deferred.masterUrl()).isEqualTo("https://example");
    release.countDown();
    KubernetesClient client = reader.get(10, TimeUnit.SECONDS);

    assertThat(maker.get()).isEqualTo("dra4j-client-test");
    assertThat(deferred.get()).isSameAs(client);
    assertThat(client.namespaces().list().getItems()).isNotNull();
    deferred.close();
  }

  @Test
  void aFailureReachesEveryReaderAndTheFailureHandlerOnce() throws Exception {
    IllegalStateException cause = new IllegalStateException("bad CA data");
    DeferredClient deferred = DeferredClient.make(() -> {
      throw cause;
    }, "https://example", "dra4j-client-test");
    CompletableFuture<Throwable> reported = new CompletableFuture<>();
    deferred.whenFailed(reported::complete);
    deferred.begin();

    assertThat(reported.get(10, TimeUnit.SECONDS)).isSameAs(cause);
    assertThatThrownBy(deferred::get).isInstanceOf(KubernetesClientException.class)
        .hasMessage("the API client could not be made: " + cause).hasCause(cause);
    assertThatThrownBy(deferred::get).isInstanceOf(KubernetesClientException.class);
    deferred.close(); // nothing to close, and no error
  }

  @Test
  void closeBeforeTheClientIsMadeClosesItOnceItIs() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    KubernetesClient client = server.newClient();
    DeferredClient deferred = DeferredClient.make(() -> {
      await(release);
      return client;
    }, "https://example", "dra4j-client-test");
    deferred.begin();

    deferred.close();
    release.countDown();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!client.getHttpClient().isClosed() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(client.getHttpClient().isClosed()).isTrue();
  }

  @Test
  void nothingIsMadeUntilBegunAndBeginningTwiceMakesOneClient() throws Exception {
    AtomicInteger made = new AtomicInteger();
    DeferredClient deferred = DeferredClient.make(() -> {
      made.incrementAndGet();
      return server.newClient();
    }, "https://example", "dra4j-client-test");

    Thread.sleep(200);
    assertThat(made).as("made before it was begun").hasValue(0);
    deferred.begin();
    deferred.begin();
    KubernetesClient client = deferred.get();

    assertThat(made).hasValue(1);
    assertThat(deferred.get()).isSameAs(client);
    deferred.close();
  }

  @Test
  void aClientClosedBeforeItWasBegunIsNeverMadeAndReportsNoFailure() throws Exception {
    AtomicInteger made = new AtomicInteger();
    DeferredClient deferred = DeferredClient.make(() -> {
      made.incrementAndGet();
      return server.newClient();
    }, "https://example", "dra4j-client-test");
    AtomicReference<Throwable> reported = new AtomicReference<>();
    deferred.whenFailed(reported::set);

    deferred.close();
    deferred.begin();

    assertThatThrownBy(deferred::get).isInstanceOf(KubernetesClientException.class)
        .hasMessage("the API client was closed before it was made");
    Thread.sleep(100);
    assertThat(made).hasValue(0);
    assertThat(reported).hasValue(null);
  }

  @Test
  void theClientsOwnResourcesAreClosedAfterIt() throws Exception {
    KubernetesClient client = server.newClient();
    List<String> order = new CopyOnWriteArrayList<>();
    List<AutoCloseable> alsoClosed = new CopyOnWriteArrayList<>();
    DeferredClient deferred = DeferredClient.make(() -> {
      alsoClosed.add(() -> order.add("event loops, client closed: "
          + client.getHttpClient().isClosed()));
      alsoClosed.add(() -> {
        throw new IllegalStateException("already closed");
      });
      alsoClosed.add(() -> order.add("after a failing one"));
      return client;
    }, "https://example", "dra4j-client-test", alsoClosed);
    deferred.get();

    deferred.close();

    assertThat(order).containsExactly("event loops, client closed: true", "after a failing one");
  }

  @Test
  void aGivenClientIsReadyAtOnce() {
    KubernetesClient client = server.newClient();
    DeferredClient deferred = DeferredClient.of(client);

    assertThat(deferred.get()).isSameAs(client);
    assertThat(deferred.masterUrl()).isEqualTo(client.getMasterUrl().toString());
    client.close();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
