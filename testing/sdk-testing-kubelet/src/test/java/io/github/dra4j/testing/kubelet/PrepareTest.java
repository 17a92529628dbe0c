package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How the fake kubelet judges prepare and unprepare answers the SDK never gives. */
class PrepareTest extends NodeTest {

  private FakeKubelet kubelet;

  @BeforeEach
  void start() {
    kubelet = node.kubelet();
  }

  /** Registers a hand-made plugin whose prepare answers the first claim and maybe a stranger. */
  private void rawPlugin(boolean addStranger) {
    Path endpoint = node.data.resolve("raw.sock");
    NodePrepareResourceResponse empty = NodePrepareResourceResponse.getDefaultInstance();
    node.own(new UnixServer(endpoint, new RawDraService(
        request -> {
          NodePrepareResourcesResponse.Builder answer = NodePrepareResourcesResponse.newBuilder()
              .putClaims(request.getClaims(0).getUid(), empty);
          return (addStranger ? answer.putClaims("stranger", empty) : answer).build();
        },
        request -> NodeUnprepareResourcesResponse.getDefaultInstance())));
    Path registration = node.registry.resolve("raw-reg.sock");
    node.own(RawPlugin.serve(registration, RawPlugin.info(DRIVER, endpoint, "v1.DRAPlugin")));
    kubelet.awaitRegistered(registration, LONG);
  }

  @Test
  void answersForUnknownClaimsAreErrors() {
    rawPlugin(true);
    ClaimReference first = new ClaimReference("default", "first", "uid-1");

    PrepareOutcome outcome = kubelet.prepare(DRIVER, first);

    assertThat(outcome.error())
        .isEqualTo("NodePrepareResources returned result for unknown claim UID stranger");
    assertThat(outcome.results()).containsOnlyKeys("uid-1", "stranger");
  }

  @Test
  void missingEntriesAreSkippedClaims() {
    rawPlugin(false);

    PrepareOutcome outcome = kubelet.prepare(DRIVER, new ClaimReference("default", "a", "uid-a"),
        new ClaimReference("default", "b", "uid-b"), new ClaimReference("default", "c", "uid-c"));

    assertThat(outcome.error()).isEqualTo("NodePrepareResources skipped 2 ResourceClaims");
    assertThat(outcome.result("uid-a").isFailed()).isFalse();
    assertThatThrownBy(() -> outcome.result("uid-b"))
        .hasMessageContaining("no prepare result for claim UID uid-b");
    assertThat(kubelet.unprepare(DRIVER, new ClaimReference("default", "a", "uid-a"),
        new ClaimReference("default", "b", "uid-b")).error())
        .isEqualTo("NodeUnprepareResources skipped 2 ResourceClaims");
  }

  @Test
  void callsForAnUnregisteredDriverFailWithoutAPlugin() {
    ClaimReference claim = new ClaimReference("default", "c", "uid-c");

    PrepareOutcome outcome = kubelet.prepare("nope.example.com", claim);

    assertThat(outcome.plugin()).isNull();
    assertThat(outcome.error()).isEqualTo("DRA driver nope.example.com is not registered");
    assertThat(kubelet.unprepare("nope.example.com", claim).error())
        .isEqualTo("DRA driver nope.example.com is not registered");
    assertThat(kubelet.calls().entries()).isEmpty();
    assertThatThrownBy(() -> kubelet.prepare(DRIVER, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("claims must not be empty");
  }
}
