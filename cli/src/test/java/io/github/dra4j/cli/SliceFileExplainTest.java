package io.github.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorExplainer;
import io.github.dra4j.cel.SelectorExplanation.Outcome;
import io.github.dra4j.cel.SelectorExplanation.Verdict;
import io.github.dra4j.cel.SelectorExplanation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CEL console engine over slices read from real files. */
class SliceFileExplainTest {

  private static final String SLICES = """
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-1-gpus}
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool: {name: node-1, generation: 1, resourceSliceCount: 1}
        devices:
        - name: gpu-0
          attributes:
            model: {string: A100}
            family: {string: ampere}
          capacity:
            memory: {value: 80Gi}
        - name: gpu-1
          attributes:
            model: {string: H100}
            family: {string: hopper}
          capacity:
            memory: {value: 80Gi}
        - name: gpu-2
          capacity:
            memory: {value: 40Gi}
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: unrelated}
      """;

  private static SelectorExplainer explainer;

  @TempDir
  Path dir;

  @BeforeAll
  static void build() {
    explainer = new SelectorExplainer(DeviceSelectorEnvironment.create());
  }

  private Path file(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  @Test
  void explainsEachDeviceAndTheFirstFalseCondition() throws Exception {
    SliceFile slices = SliceFile.read(file("slices.yaml", SLICES));
    String expression = "device.driver == \"gpu.example.com\""
        + " && device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity(\"64Gi\"))"
        + " && device.attributes[\"gpu.example.com\"].model == \"A100\"";

    SelectorExplanation explanation = slices.explain(explainer, expression);

    assertThat(explanation.devices()).containsExactly(
        new Verdict("node-1-gpus", "gpu.example.com", "node-1", "gpu-0", Outcome.MATCH, ""),
        new Verdict("node-1-gpus", "gpu.example.com", "node-1", "gpu-1", Outcome.NO_MATCH,
            "false: device.attributes[\"gpu.example.com\"].model == \"A100\""),
        new Verdict("node-1-gpus", "gpu.example.com", "node-1", "gpu-2", Outcome.NO_MATCH,
            "false: device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity(\"64Gi\"))"));
    assertThat(explanation.notes())
        .containsExactly("v1 ConfigMap unrelated: not a resource.k8s.io/v1 ResourceSlice, skipped");
    assertThat(explanation.render()).contains(
        "3 devices: 1 match, 2 no match, 0 errors\n",
        "MATCH     gpu.example.com/node-1/gpu-0  (slice node-1-gpus)\n",
        """
            NO MATCH  gpu.example.com/node-1/gpu-1  (slice node-1-gpus)
                      false: device.attributes["gpu.example.com"].model == "A100"
            """,
        "Note: v1 ConfigMap unrelated: not a resource.k8s.io/v1 ResourceSlice, skipped\n");
  }

  @Test
  void errorsAreShownWithTheSchedulersHint() throws Exception {
    SelectorExplanation explanation = SliceFile.read(file("slices.yaml", SLICES)).explain(
        explainer, "device.attributes[\"gpu.example.com\"].family == \"ampere\"");
    assertThat(explanation.devices()).extracting(Verdict::outcome)
        .containsExactly(Outcome.MATCH, Outcome.NO_MATCH, Outcome.ERROR);
    assertThat(explanation.devices().get(2).why())
        .startsWith("no such key: family. consider using CEL optional chaining");
    assertThat(explanation.render()).contains("ERROR     gpu.example.com/node-1/gpu-2",
        "1 error\n");
  }

  @Test
  void aCompileErrorIsReportedInsteadOfVerdicts() throws Exception {
    SelectorExplanation explanation = SliceFile.read(file("slices.yaml", SLICES))
        .explain(explainer, "device.model == \"A100\"");
    assertThat(explanation.devices()).isEmpty();
    assertThat(explanation.compileError())
        .hasValueSatisfying(e -> assertThat(e).contains("undefined field 'model'"));
    assertThat(explanation.render())
        .contains("Does not compile:\n          compilation failed: ERROR:");
  }

  @Test
  void readsJsonListsOfSlices() throws Exception {
    String json = "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSliceList\", \"items\": [{"
        + "\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\", \"metadata\": {\"name\": \"s\"},"
        + "\"spec\": {\"driver\": \"nic.example.com\", \"allNodes\": true,"
        + " \"pool\": {\"name\": \"p\", \"generation\": 1, \"resourceSliceCount\": 1},"
        + " \"devices\": [{\"name\": \"eth0\"}, {\"name\": \"eth1\"}]}}]}";
    SelectorExplanation explanation = SliceFile.read(file("slices.json", json))
        .explain(explainer, "device.driver == \"nic.example.com\"");
    assertThat(explanation.devices()).extracting(Verdict::device).containsExactly("eth0", "eth1");
    assertThat(explanation.count(Outcome.MATCH)).isEqualTo(2);
  }

  @Test
  void anUnreadableFileNamesTheFile() throws Exception {
    Path bad = file("bad.yaml", "foo: [");
    assertThatThrownBy(() -> SliceFile.read(bad))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(bad + ": not valid YAML or JSON Kubernetes objects");
  }
}
