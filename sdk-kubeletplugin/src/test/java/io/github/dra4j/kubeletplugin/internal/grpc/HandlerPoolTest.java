package io.github.dra4j.kubeletplugin.internal.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The handler threads: one per call up to the cap, named, daemon, one kept warm. */
class HandlerPoolTest {

  @Test
  void runsEveryCallAtOnceUpToTheCapAndRefusesOneMore() throws Exception {
    ThreadPoolExecutor pool = HandlerPool.create("dra4j-grpc");
    CountDownLatch running = new CountDownLatch(HandlerPool.MAX);
    CountDownLatch release = new CountDownLatch(1);
    Set<String> names = ConcurrentHashMap.newKeySet();
    try {
      for (int i = 0; i < HandlerPool.MAX; i++) {
        pool.execute(() -> {
          Thread self = Thread.currentThread();
          names.add(self.getName() + (self.isDaemon() ? "" : " (not a daemon)"));
          running.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
      assertThat(running.await(10, TimeUnit.SECONDS)).as("all run at once, none queued").isTrue();
      assertThatThrownBy(() -> pool.execute(() -> {}))
          .isInstanceOf(HandlerPool.Busy.class)
          .hasMessage("64 calls are in progress, the most this plugin runs at once");
      assertThat(names).hasSize(HandlerPool.MAX).allMatch(name -> name.matches("dra4j-grpc-\\d+"));
    } finally {
      release.countDown();
      pool.shutdown();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThatThrownBy(() -> pool.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class)
        .isNotInstanceOf(HandlerPool.Busy.class);
    assertThat(pool.getCorePoolSize()).isEqualTo(HandlerPool.WARM);
    assertThat(pool.allowsCoreThreadTimeOut()).isFalse();
    assertThat(pool.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(HandlerPool.IDLE_SECONDS);
  }
}
