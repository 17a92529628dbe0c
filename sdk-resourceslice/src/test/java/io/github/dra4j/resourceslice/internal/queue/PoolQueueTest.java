package io.github.dra4j.resourceslice.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PoolQueueTest {

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  @Test
  void backoffDoublesFromFiveMillisecondsAndResetsOnForget() {
    SyncRateLimiter limiter = new SyncRateLimiter(clock::get);
    assertThat(limiter.when("p")).isEqualTo(Duration.ofMillis(5));
    assertThat(limiter.when("p")).isEqualTo(Duration.ofMillis(10));
    assertThat(limiter.when("p")).isEqualTo(Duration.ofMillis(20));
    assertThat(limiter.when("other")).isEqualTo(Duration.ofMillis(5));
    limiter.forget("p");
    assertThat(limiter.when("p")).isEqualTo(Duration.ofMillis(5));
    for (int i = 0; i < 60; i++) {
      limiter.when("stuck");
    }
    assertThat(limiter.when("stuck")).isEqualTo(Duration.ofSeconds(1000));
  }

  @Test
  void tokenBucketLimitsToTenPerSecondAfterABurstOfHundred() {
    SyncRateLimiter limiter = new SyncRateLimiter(clock::get);
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.when("item" + i)).isEqualTo(Duration.ofMillis(5));
    }
    assertThat(limiter.when("item100")).isEqualTo(Duration.ofMillis(100));
    assertThat(limiter.when("item101")).isEqualTo(Duration.ofMillis(200));
    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(limiter.when("item102")).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void itemsAreQueuedOnceAndRequeuedWhenAddedDuringProcessing() throws InterruptedException {
    PoolQueue queue = new PoolQueue(new SyncRateLimiter(System::nanoTime), System::nanoTime);
    queue.add("a");
    queue.add("b");
    queue.add("a");
    assertThat(queue.size()).isEqualTo(2);
    assertThat(queue.take()).isEqualTo("a");
    queue.add("a");
    assertThat(queue.take()).isEqualTo("b");
    queue.done("b");
    assertThat(queue.size()).isZero();
    queue.done("a");
    assertThat(queue.take()).isEqualTo("a");
  }

  @Test
  void delayedAdditionKeepsTheEarliestDueTime() throws InterruptedException {
    PoolQueue queue = new PoolQueue(new SyncRateLimiter(System::nanoTime), System::nanoTime);
    queue.addAfter("a", Duration.ofHours(1));
    queue.addAfter("a", Duration.ofMillis(20));
    queue.addAfter("a", Duration.ofHours(2));
    assertThat(queue.isWaiting("a")).isTrue();
    long start = System.nanoTime();
    assertThat(queue.take()).isEqualTo("a");
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isGreaterThanOrEqualTo(Duration.ofMillis(15));
    assertThat(queue.isWaiting("a")).isFalse();
  }

  @Test
  void shutDownReleasesTheConsumer() throws InterruptedException {
    PoolQueue queue = new PoolQueue(new SyncRateLimiter(System::nanoTime), System::nanoTime);
    Thread consumer = new Thread(() -> {
      try {
        assertThat(queue.take()).isNull();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    consumer.start();
    queue.shutDown();
    consumer.join(10_000);
    assertThat(consumer.isAlive()).isFalse();
    queue.add("x");
    assertThat(queue.size()).isZero();
  }
}
