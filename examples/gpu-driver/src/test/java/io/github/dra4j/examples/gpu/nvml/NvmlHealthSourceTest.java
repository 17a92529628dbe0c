package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.health.GpuCondition;
import io.github.dra4j.examples.gpu.health.HealthSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health through NVML events and checks, against the stub: events are appended to its control
 * file while the source runs, with a 50 ms poll interval and a 400 ms quiet period.
 */
class NvmlHealthSourceTest {

  private static final Duration QUIET = Duration.ofMillis(400);
  private static final Duration WAIT = Duration.ofSeconds(5);

  @TempDir
  static Path buildDir;

  private static Path compiled;

  @TempDir
  Path root;

  private NvmlStub stub;
  private NvmlBackend backend;
  private final Recorder recorder = new Recorder();

  @BeforeAll
  static void compileStub() throws Exception {
    compiled = NvmlStub.compile(buildDir);
  }

  @BeforeEach
  void installStub() throws Exception {
    stub = NvmlStub.install(compiled, root);
  }

  @AfterEach
  void closeBackend() {
    if (backend != null) {
      backend.close();
    }
  }

  @Test
  void startsWithTheCompleteListThenAnXidAppearsAndClearsAfterTheQuietPeriod() throws Exception {
    start(options());
    await().atMost(WAIT).until(() -> !recorder.calls.isEmpty());
    assertThat(recorder.calls.get(0)).isEmpty();
    String uuid = NvmlStub.GPUS.get(3).uuid();

    long appended = System.nanoTime();
    stub.events("xid 3 79");
    await().atMost(WAIT).pollInterval(Duration.ofMillis(10))
        .until(() -> recorder.latest().size() == 1);
    GpuCondition xid = recorder.latest().get(0);
    assertThat(xid.uuid()).isEqualTo(uuid);
    assertThat(xid.key()).isEqualTo("xid");
    assertThat(xid.value()).isEqualTo("79");
    assertThat(xid.blocking()).isTrue();
    assertThat(xid.message()).contains("Xid 79");

    await().atMost(WAIT).pollInterval(Duration.ofMillis(10))
        .until(() -> recorder.latest().isEmpty());
    assertThat(Duration.ofNanos(System.nanoTime() - appended)).as("not before the quiet period")
        .isGreaterThanOrEqualTo(QUIET);
    assertThat(recorder.threads).containsOnly("nvml-health");
    assertThat(recorder.maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void ignoredXidsAreNotReportedAtAll() throws Exception {
    start(options().additionalXidsToIgnore(Set.of(48)));
    String uuid = NvmlStub.GPUS.get(0).uuid();

    stub.events("xid 0 13", "xid 0 31", "xid 0 43", "xid 0 45", "xid 0 68", "xid 0 109",
        "xid 0 48", "xid 0 79");
    await().atMost(WAIT).until(() -> recorder.latest().size() == 1);

    assertThat(recorder.latest().get(0)).extracting(GpuCondition::uuid, GpuCondition::key,
        GpuCondition::value).containsExactly(uuid, "xid", "79");
    assertThat(recorder.calls).flatExtracting(list -> list).extracting(GpuCondition::value)
        .containsOnly("79");
  }

  @Test
  void aDoubleBitEccErrorIsBlockingAndASingleBitOneIsNoCondition() throws Exception {
    start(options());

    stub.events("sbe 4", "ecc 5");
    await().atMost(WAIT).until(() -> recorder.latest().size() == 1);

    assertThat(recorder.latest().get(0)).extracting(GpuCondition::uuid, GpuCondition::key,
        GpuCondition::value, GpuCondition::blocking)
        .containsExactly(NvmlStub.GPUS.get(5).uuid(), "ecc", "double-bit", true);
    assertThat(recorder.calls).flatExtracting(list -> list).extracting(GpuCondition::uuid)
        .doesNotContain(NvmlStub.GPUS.get(4).uuid());
    await().atMost(WAIT).until(() -> recorder.latest().isEmpty());
  }

  @Test
  void aLostGpuIsReportedAndClearsWhenItAnswersAgain() throws Exception {
    start(options());
    String uuid = NvmlStub.GPUS.get(1).uuid();

    stub.events("lost 1");
    await().atMost(WAIT).until(() -> recorder.latest().size() == 1);
    assertThat(recorder.latest().get(0)).extracting(GpuCondition::uuid, GpuCondition::key,
        GpuCondition::blocking).containsExactly(uuid, "gpu-lost", true);
    assertThat(recorder.latest().get(0).message()).contains("GPU is lost (15)");
    assertThatThrownBy(() -> backend.discovery().discover())
        .isInstanceOf(DiscoveryException.class)
        .hasMessageContaining("nvmlDeviceGetHandleByIndex_v2 for GPU index 1 failed: GPU is lost"
            + " (15)");

    stub.events("found 1");
    await().atMost(WAIT).until(() -> recorder.latest().isEmpty());
    assertThat(backend.discovery().discover()).hasSize(8);
  }

  @Test
  void aPendingRowRemappingKeepsTheConditionUntilItIsDone() throws Exception {
    start(options());

    stub.events("pending 2", "ecc 2");
    await().atMost(WAIT).until(() -> recorder.latest().size() == 1);
    Thread.sleep(QUIET.multipliedBy(3).toMillis());
    assertThat(recorder.latest()).extracting(GpuCondition::key).containsExactly("ecc");

    stub.events("clear 2");
    await().atMost(WAIT).until(() -> recorder.latest().isEmpty());
  }

  @Test
  void aNewEventRestartsTheQuietPeriod() throws Exception {
    start(options());

    stub.events("xid 6 48");
    await().atMost(WAIT).until(() -> recorder.latest().size() == 1);
    long first = System.nanoTime();
    Thread.sleep(QUIET.toMillis() / 2);
    stub.events("xid 6 94");
    await().atMost(WAIT).until(() -> !recorder.latest().isEmpty()
        && recorder.latest().get(0).value().equals("94"));
    await().atMost(WAIT).until(() -> recorder.latest().isEmpty());

    assertThat(Duration.ofNanos(System.nanoTime() - first)).isGreaterThan(QUIET);
  }

  @Test
  void aGpuWithoutEventsIsUnmonitoredButNotBlocking() throws Exception {
    stub.configure("no-events 5");
    start(options());
    await().atMost(WAIT).until(() -> !recorder.calls.isEmpty());

    assertThat(recorder.calls.get(0)).singleElement().satisfies(condition -> {
      assertThat(condition.uuid()).isEqualTo(NvmlStub.GPUS.get(5).uuid());
      assertThat(condition.key()).isEqualTo("unmonitored");
      assertThat(condition.blocking()).isFalse();
      assertThat(condition.message()).contains("nvmlDeviceRegisterEvents: Not Supported (3)");
    });
  }

  @Test
  void startsOnceAndCallsNothingAfterClose() throws Exception {
    HealthSource health = start(options());
    await().atMost(WAIT).until(() -> !recorder.calls.isEmpty());
    assertThatThrownBy(() -> health.start(list -> {}))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");

    health.close();
    int calls = recorder.calls.size();
    stub.events("xid 0 79", "ecc 1", "lost 2");
    Thread.sleep(300);

    assertThat(recorder.calls).hasSize(calls);
  }

  private NvmlOptions.Builder options() {
    return stub.options().healthPollInterval(Duration.ofMillis(50)).recoveryQuietPeriod(QUIET);
  }

  private HealthSource start(NvmlOptions.Builder options) throws Exception {
    backend = NvmlBackend.open(options.build());
    HealthSource health = backend.health();
    health.start(recorder);
    return health;
  }

  /** Records the listener's calls. */
  private static final class Recorder implements Consumer<List<GpuCondition>> {
    final List<List<GpuCondition>> calls = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();

    @Override
    public void accept(List<GpuCondition> conditions) {
      maxConcurrent.accumulateAndGet(running.incrementAndGet(), Math::max);
      threads.add(Thread.currentThread().getName());
      calls.add(conditions);
      running.decrementAndGet();
    }

    List<GpuCondition> latest() {
      return calls.isEmpty() ? List.of() : calls.get(calls.size() - 1);
    }
  }
}
