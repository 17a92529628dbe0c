package io.github.dra4j.testing.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceclaim.ClaimReference;
import io.grpc.Status;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The kubelet's small rules: backoff steps, answer checks, Go error texts, service choice. */
class RulesTest {

  @Test
  void registrationBackoffDoublesFrom500msUpToTheCap() {
    Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofMinutes(2));

    assertThat(List.of(1, 2, 3, 4, 8, 9, 100)).map(backoff::delay).containsExactly(
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(4), Duration.ofSeconds(64), Duration.ofMinutes(2),
        Duration.ofMinutes(2));
  }

  @Test
  void answerChecksReportTheFirstProblemInAnswerOrder() {
    List<ClaimReference> asked = List.of(
        new ClaimReference("ns", "one", "u1"), new ClaimReference("ns", "two", "u2"));
    Map<String, String> answer = new LinkedHashMap<>();
    answer.put("u2", "");
    answer.put("u1", "broken");
    answer.put("u9", "");

    assertThat(ResponseCheck.check("NodePrepareResources", asked, answer))
        .isEqualTo("NodePrepareResources failed for ResourceClaim one: broken");
    answer.put("u1", "");
    assertThat(ResponseCheck.check("NodePrepareResources", asked, answer))
        .isEqualTo("NodePrepareResources returned result for unknown claim UID u9");
    answer.remove("u9");
    assertThat(ResponseCheck.check("NodePrepareResources", asked, answer)).isNull();
    answer.remove("u2");
    assertThat(ResponseCheck.check("NodeUnprepareResources", asked, answer))
        .isEqualTo("NodeUnprepareResources skipped 1 ResourceClaims");
  }

  @Test
  void grpcFailuresReadLikeGrpcGoErrors() {
    assertThat(RecordedCalls.goErrorText(Status.DEADLINE_EXCEEDED.withDescription("too slow")))
        .isEqualTo("rpc error: code = DeadlineExceeded desc = too slow");
    assertThat(RecordedCalls.goErrorText(Status.CANCELLED))
        .isEqualTo("rpc error: code = Canceled desc = ");
    assertThat(RecordedCalls.goErrorText(Status.UNKNOWN.withDescription("x")))
        .isEqualTo("rpc error: code = Unknown desc = x");
  }

  @Test
  void healthServicePreferenceIsV1ThenV1alpha1() {
    assertThat(HealthService.choose(List.of("v1alpha1.DRAResourceHealth", "v1.DRAResourceHealth")))
        .isEqualTo(HealthService.V1);
    assertThat(HealthService.choose(List.of("v1.DRAPlugin", "v1alpha1.DRAResourceHealth")))
        .isEqualTo(HealthService.V1ALPHA1);
    assertThat(HealthService.choose(List.of("v1.DRAPlugin"))).isNull();
    assertThat(DraService.fromAdvertised("v1alpha3.NodeService")).isEmpty();
  }
}
