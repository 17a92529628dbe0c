package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.examples.gpu.health.GpuCondition;
import io.github.dra4j.examples.gpu.nvml.HealthState.Check;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The health rules, with a clock of the test's own (seconds as nanoseconds). */
class HealthStateTest {

  private static final String A = "GPU-a";
  private static final String B = "GPU-b";
  private static final long S = 1_000_000_000L;

  private final HealthState state = new HealthState(List.of(A, B),
      NvmlOptions.builder().additionalXidsToIgnore(Set.of(48)).build().ignoredXids(),
      Duration.ofSeconds(60));

  @Test
  void anXidClearsOnlyAfterTheQuietPeriodAndAHealthyCheck() {
    assertThat(state.xid(A, 79, 0)).isTrue();
    assertThat(keys(state.conditions(1))).containsExactly("GPU-a xid=79 blocking");

    state.checked(A, Check.HEALTHY, "");
    assertThat(keys(state.conditions(59 * S))).as("quiet period not over")
        .containsExactly("GPU-a xid=79 blocking");
    assertThat(state.conditions(60 * S)).isEmpty();
  }

  @Test
  void aCheckBeforeTheEventDoesNotCount() {
    state.checked(A, Check.HEALTHY, "");
    state.doubleBitEcc(A, 0);

    assertThat(keys(state.conditions(120 * S))).containsExactly("GPU-a ecc=double-bit blocking");
    state.checked(A, Check.HEALTHY, "");
    assertThat(state.conditions(121 * S)).isEmpty();
  }

  @Test
  void aNewEventRestartsThePeriodAndTheLatestXidIsTheValue() {
    state.xid(A, 79, 0);
    state.xid(A, 94, 30 * S);
    state.checked(A, Check.HEALTHY, "");

    assertThat(keys(state.conditions(60 * S))).containsExactly("GPU-a xid=94 blocking");
    assertThat(state.conditions(90 * S)).isEmpty();
  }

  @Test
  void anUnhealthyOrLostGpuDoesNotRecover() {
    state.xid(B, 79, 0);
    state.checked(B, Check.NOT_HEALTHY, "row remapping pending");
    assertThat(keys(state.conditions(600 * S))).containsExactly("GPU-b xid=79 blocking");

    state.checked(B, Check.LOST, "nvmlDeviceGetMemoryInfo: GPU is lost (15)");
    assertThat(keys(state.conditions(700 * S)))
        .containsExactly("GPU-b gpu-lost= blocking", "GPU-b xid=79 blocking");

    state.checked(B, Check.HEALTHY, "");
    assertThat(state.conditions(701 * S)).isEmpty();
  }

  @Test
  void ignoredXidsChangeNothing() {
    for (int xid : List.of(13, 31, 43, 45, 48, 68, 109)) {
      assertThat(state.xid(A, xid, 0)).as("Xid %d", xid).isFalse();
    }
    assertThat(state.xid("GPU-unknown", 79, 0)).isFalse();
    assertThat(state.conditions(0)).isEmpty();
  }

  @Test
  void conditionsAreOrderedByGpuThenKindAndUnmonitoredIsNotBlocking() {
    state.unmonitored(A, "nvmlDeviceRegisterEvents: Not Supported (3)");
    state.doubleBitEcc(B, 0);
    state.xid(B, 79, 0);
    state.checked(A, Check.LOST, "GPU is lost (15)");

    List<GpuCondition> conditions = state.conditions(1);
    assertThat(keys(conditions)).containsExactly("GPU-a gpu-lost= blocking",
        "GPU-a unmonitored= non-blocking", "GPU-b xid=79 blocking",
        "GPU-b ecc=double-bit blocking");
    assertThat(conditions.get(1).message()).contains("Not Supported (3)");
    assertThat(state.conditions(2)).as("equal histories give equal lists")
        .isEqualTo(conditions);
  }

  private static List<String> keys(List<GpuCondition> conditions) {
    return conditions.stream().map(c -> c.uuid() + " " + c.key() + "=" + c.value()
        + (c.blocking() ? " blocking" : " non-blocking")).toList();
  }
}
