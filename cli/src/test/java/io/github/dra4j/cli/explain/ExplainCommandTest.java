package io.github.dra4j.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.cli.DraTool;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code dra4j explain} against the in-memory API server holding {@link ExplainFixture}: one
 * known answer per rejection reason, the allocation it would make, allocated claims' checks, pods,
 * templates, JSON and exit statuses.
 */
class ExplainCommandTest {

  @TempDir
  static Path dir;

  private static InMemoryApiServer server;
  private static Path kubeconfig;

  /** What a run printed. */
  record Run(int status, String out, String err) {}

  @BeforeAll
  static void start() {
    server = InMemoryApiServer.builder().build().start();
    kubeconfig = dir.resolve("kubeconfig");
    server.writeKubeconfig(kubeconfig);
    ExplainFixture.create(server.client());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Run explain(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new DraTool());
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of("explain"));
    all.addAll(List.of(args));
    all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    int status = line.execute(all.toArray(String[]::new));
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void eachDeviceOfTheNodeWithItsReason() {
    Run run = explain("claim", "gpu-claim", "-n", "gpu-test", "--node", "node-1");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains(
        "Claim gpu-test/gpu-claim: pending",
        "Node node-1: cannot allocate all claims",
        "    request gpu (class gpu.example.com, ExactCount 1): 0 of 7 devices usable",
        "      gpu.example.com/node-1/gpu-0: class selector false - class gpu.example.com selector"
            + " #0 is false: device.attributes[\"gpu.example.com\"].model == \"A100\"",
        "      gpu.example.com/node-1/gpu-1: request selector false - request selector #0 is"
            + " false: device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
        "      gpu.example.com/node-1/gpu-2: taint not tolerated - taint health=bad:NoSchedule is"
            + " not tolerated by the request",
        "      gpu.example.com/node-1/gpu-3: already allocated - allocated to claim gpu-test/holder",
        "      gpu.example.com/node-1/gpu-4: counters exhausted - counter set node-1-memory:"
            + " counter memory: needs 80Gi, the counter set has only 60Gi",
        "      gpu.example.com/node-1/gpu-5: capacity insufficient - capacity memory: needs 80Gi,"
            + " 60Gi of 80Gi already consumed by other allocations",
        "      gpu.example.com/node-2/gpu-0: wrong node - slice node-2-gpus is published for node"
            + " node-2");
  }

  @Test
  void theAllocationItWouldMakeAndAdminAccess() {
    Run tolerant = explain("claim", "tolerant", "-n", "gpu-test", "--node", "node-1");
    assertThat(tolerant.out()).contains("Node node-1: would allocate",
        "      would get gpu.example.com/node-1/gpu-2",
        "      gpu.example.com/node-1/gpu-2: usable");
    Run admin = explain("claim", "inspect", "-n", "admin-ns", "--node", "node-1");
    assertThat(admin.out()).contains("Node node-1: would allocate",
        "      gpu.example.com/node-1/gpu-3: usable - allocated to claim gpu-test/holder; admin"
            + " access may use it all the same");
  }

  @Test
  void aDeviceClassThatDoesNotExist() {
    Run run = explain("claim", "typo", "-n", "gpu-test", "--node", "node-1");
    assertThat(run.out()).contains("    request gpu: error: claim gpu-test/typo, request gpu: could"
        + " not retrieve device class gpu.exmaple.com: deviceclass.resource.k8s.io"
        + " \"gpu.exmaple.com\" not found");
  }

  @Test
  void anAllocatedClaimWhoseDriverStoppedPublishing() {
    Run run = explain("claim", "orphan", "-n", "gpu-test");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains(
        "Claim gpu-test/orphan: allocated on node node-3",
        "  request nic: nic.example.com/node-3/nic-0",
        "  !! reserved for no pod: no pod using it is scheduled, and the claim will be deallocated",
        "  !! device nic.example.com/node-3/nic-0 is no longer published by its driver",
        "  !! driver nic.example.com publishes no ResourceSlice for node node-3: its kubelet"
            + " plugin is not running there, not registered with the kubelet, or cannot reach"
            + " the API server; the kubelet cannot prepare the claim");
    assertThat(run.out()).doesNotContain("Node ");
  }

  @Test
  void aPodWithAClaimAndATemplate() {
    Run run = explain("pod", "pod0", "-n", "gpu-test");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains(
        "Pod gpu-test/pod0",
        "  pod claim own: no claim made from template gpu-template yet, the template stands in"
            + " for it",
        "  pending claims tried on node node-1 (the node of pod pod0)",
        "Claim gpu-test/holder (pod claim shared): allocated on node node-1",
        "  !! not reserved for pod pod0",
        "  ok driver gpu.example.com publishes 2 ResourceSlices for node node-1 (pool node-1"
            + " generation 1)",
        "Claim gpu-test/gpu-template (pod claim own) (from template): pending",
        "Node node-1: would allocate",
        "      would get gpu.example.com/node-1/gpu-1");
  }

  @Test
  void aTemplateOnEveryNode() {
    Run run = explain("template", "gpu-template", "-n", "gpu-test");
    assertThat(run.out()).contains("pending claims tried on every node (3); --node picks one",
        "Node node-1: would allocate", "      would get gpu.example.com/node-1/gpu-1",
        "Node node-2: would allocate", "      would get gpu.example.com/node-2/gpu-0",
        "Node node-3: cannot allocate all claims");
  }

  @Test
  void jsonForScripts() throws Exception {
    Run run = explain("claim", "gpu-claim", "-n", "gpu-test", "--node", "node-1", "-o", "json");
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(run.out());
    assertThat(root.get("apiVersion").asString()).isEqualTo("dra4j.io/explain/v1");
    assertThat(root.at("/target/kind").asString()).isEqualTo("ResourceClaim");
    assertThat(root.at("/claims/0/state").asString()).isEqualTo("pending");
    JsonNode node = root.at("/nodes/0");
    assertThat(node.get("node").asString()).isEqualTo("node-1");
    assertThat(node.get("outcome").asString()).isEqualTo("unsatisfiable");
    JsonNode request = node.at("/claims/0/requests/0");
    assertThat(request.get("usable").asLong()).isZero();
    List<String> reasons = new ArrayList<>();
    request.get("devices").forEach(d -> reasons.add(d.get("device").asString() + "="
        + d.get("reason").asString()));
    assertThat(reasons).containsExactly("gpu-0=CLASS_SELECTOR_FALSE",
        "gpu-1=REQUEST_SELECTOR_FALSE", "gpu-2=TAINT_NOT_TOLERATED", "gpu-3=ALREADY_ALLOCATED",
        "gpu-4=COUNTERS_EXHAUSTED", "gpu-5=CAPACITY_INSUFFICIENT", "gpu-0=WRONG_NODE");
    assertThat(request.at("/devices/3/detail").asString())
        .isEqualTo("allocated to claim gpu-test/holder");
  }

  @Test
  void failuresExitOneWithOneLineAndUsageExitsTwo() {
    Run missing = explain("claim", "nope", "-n", "gpu-test");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err().strip())
        .isEqualTo("dra4j explain: resourceclaim nope not found in namespace gpu-test");
    Run node = explain("claim", "gpu-claim", "-n", "gpu-test", "--node", "node-9");
    assertThat(node.status()).isEqualTo(1);
    assertThat(node.err().strip()).isEqualTo("dra4j explain: node node-9 not found");
    assertThat(explain("claim").status()).isEqualTo(2);
    assertThat(explain("claim", "x", "-o", "yaml").status()).isEqualTo(2);
    assertThat(explain().status()).isEqualTo(2);
  }
}
