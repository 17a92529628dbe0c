package io.github.dra4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: the CEL console explains matches; bad usage exits 2. */
class DraToolTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void capture() {
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  @Test
  void celExplainsWhichDevicesMatch(@TempDir Path dir) throws Exception {
    Path slices = dir.resolve("slices.yaml");
    Files.writeString(slices, """
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata:
          name: node-1-gpus
        spec:
          driver: gpu.example.com
          nodeName: node-1
          pool: {name: node-1, generation: 1, resourceSliceCount: 1}
          devices:
          - name: gpu-0
            attributes:
              model: {string: A100}
          - name: gpu-1
            attributes:
              model: {string: T4}
        """);

    int code = DraTool.run("cel", "--slices", slices.toString(),
        "device.attributes[\"gpu.example.com\"].model == \"A100\"");

    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(text).contains("gpu-0").contains("gpu-1");
    assertThat(text.lines().filter(l -> l.contains("gpu-0")).findFirst().orElseThrow())
        .containsIgnoringCase("match");
  }

  @Test
  void aMissingOptionIsAUsageError() {
    assertThat(DraTool.run("cel", "device.driver == \"x\"")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--slices");
  }
}
