package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceclaim.ClaimReference;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Several instances of one driver: which one the kubelet calls when none is connected. */
class RollingUpdateTest extends NodeTest {

  private FakeKubelet kubelet;

  @BeforeEach
  void start() {
    kubelet = node.kubelet(b -> b.wipingDelay(Duration.ofMillis(300)));
  }

  @Test
  void withoutAConnectedInstanceTheNewestRegisteredIsCalled() {
    node.own(RawPlugin.serve(node.registry.resolve("first.sock"),
        RawPlugin.info(DRIVER, node.data.resolve("gone-1.sock"), "v1.DRAPlugin")));
    kubelet.awaitPlugins(all -> all.size() == 1, LONG);
    node.own(RawPlugin.serve(node.registry.resolve("second.sock"),
        RawPlugin.info(DRIVER, node.data.resolve("gone-2.sock"), "v1.DRAPlugin")));
    kubelet.awaitPlugins(all -> all.size() == 2, LONG);

    PrepareOutcome outcome = kubelet.prepare(DRIVER, new ClaimReference("default", "c", "uid"));

    assertThat(outcome.plugin().endpoint()).isEqualTo(node.data.resolve("gone-2.sock").toString());
    assertThat(outcome.error()).startsWith("rpc error: code = Unavailable desc = ");
  }
}
