package io.github.dra4j.kubeletplugin.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The errors after which a plugin cannot serve become one fatal report: a thread of the event
 * loops that dies, an event loop that ends, a JVM error caught while serving; nothing once the
 * plugin is stopping.
 */
class FatalErrorsTest {

  private final List<Map.Entry<Throwable, String>> reported = new CopyOnWriteArrayList<>();
  private final FatalErrors fatal = new FatalErrors(
      (e, where) -> reported.add(Map.entry(e, where)));

  @Test
  void anEventLoopThreadThatDiesOfAnErrorIsFatal() throws Exception {
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space (simulated)");
    Thread thread = fatal.essentialThreads("dra4j-test").newThread(() -> {
      throw oom;
    });

    thread.start();
    thread.join(10_000);

    assertThat(reported).singleElement().satisfies(entry -> {
      assertThat(entry.getKey()).isSameAs(oom);
      assertThat(entry.getValue()).isEqualTo("event loop thread dra4j-test-1 died");
    });
    assertThat(fatal.failed()).isTrue();
  }

  @Test
  void anEventLoopThatEndsWhileThePluginServesIsFatalButNotWhileItStops() {
    EpollEventLoops loops = new EpollEventLoops(2, fatal.essentialThreads("dra4j-test"));
    fatal.watch(loops.group());

    // The test waits for the fatal report below, not for the shutdown itself.
    var unused = loops.group().next().shutdownGracefully(0, 0, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(10)).until(() -> reported.size() == 1);
    assertThat(reported.get(0).getValue()).isEqualTo("event loop ended");

    fatal.stopping();
    loops.close();
    assertThat(reported).hasSize(1);
  }

  @Test
  void onlyJvmErrorsAreFatalWhereverTheyAreInTheCauseChain() {
    assertThat(fatal.offer(new IllegalStateException("driver bug"), "a call")).isFalse();
    assertThat(fatal.offer(new RuntimeException(new StackOverflowError()), "a call")).isTrue();
    assertThat(fatal.offer(new OutOfMemoryError("Direct buffer memory"), "a call")).isTrue();

    assertThat(reported).as("reported once").hasSize(1);
    assertThat(reported.get(0).getKey()).hasCauseInstanceOf(StackOverflowError.class);
  }

  @Test
  void aHandlerThreadThatDiesOfAnotherErrorIsOnlyLogged() throws Exception {
    Thread thread = fatal.workerThreads("dra4j-grpc").newThread(() -> {
      throw new IllegalStateException("driver bug");
    });

    thread.start();
    thread.join(10_000);

    assertThat(reported).isEmpty();
  }
}
