package io.github.dra4j.testing.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.grpc.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallLogTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static CallRecord append(CallLog log, KubeletMethod method, String driver) {
    return log.append(T0, method, driver, "/sock", "svc", InfoRequest.getDefaultInstance(), null,
        Status.OK);
  }

  @Test
  void keepsTheNewestRecordsInOrderWithSequenceNumbersAndDurations() {
    CallLog log = new CallLog(2, Clock.fixed(T0.plusMillis(250), ZoneOffset.UTC));

    append(log, KubeletMethod.GET_INFO, "a");
    append(log, KubeletMethod.NOTIFY_REGISTRATION_STATUS, "a");
    append(log, KubeletMethod.NODE_PREPARE_RESOURCES, "b");

    assertThat(log.entries()).extracting(CallRecord::sequence, CallRecord::method)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, KubeletMethod.NOTIFY_REGISTRATION_STATUS),
            org.assertj.core.groups.Tuple.tuple(3L, KubeletMethod.NODE_PREPARE_RESOURCES));
    assertThat(log.entries().get(0).duration()).isEqualTo(Duration.ofMillis(250));
    assertThat(log.total()).isEqualTo(3);
    assertThat(log.entries(KubeletMethod.NODE_PREPARE_RESOURCES)).singleElement()
        .extracting(CallRecord::driver).isEqualTo("b");
    assertThat(log.matching(r -> r.driver().equals("a"))).hasSize(1);

    log.clear();

    assertThat(log.entries()).isEmpty();
    assertThat(append(log, KubeletMethod.GET_INFO, "c").sequence()).isEqualTo(4);
  }

  @Test
  void concurrentAppendsLoseNothing() throws Exception {
    CallLog log = new CallLog(100_000, Clock.systemUTC());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<java.util.concurrent.Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < 1000; i++) {
          append(log, KubeletMethod.GET_INFO, "d");
        }
        return null;
      }));
    }
    start.countDown();
    for (var future : done) {
      future.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(log.entries()).hasSize(4000)
        .extracting(CallRecord::sequence).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void capacityMustBePositive() {
    assertThatThrownBy(() -> new CallLog(0, Clock.systemUTC()))
        .hasMessage("callLogCapacity must be at least 1, got 0");
  }
}
