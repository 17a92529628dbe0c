package io.github.dra4j.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo really runs the whole story and says so. */
class DemoTest {

  @Test
  void runsEveryStepAndExitsZero() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    int code = new Demo(new PrintStream(buffer, true, StandardCharsets.UTF_8)).run();
    String output = buffer.toString(StandardCharsets.UTF_8);

    assertThat(code).as(output).isZero();
    assertThat(output)
        .contains("[1] Started an in-memory API server")
        .contains("Driver gpu.example.com registered with the kubelet")
        .contains("the kubelet uses v1.DRAPlugin")
        .contains("Published 4 simulated GPUs as 1 ResourceSlice(s)")
        .contains("request gpus -> gpu.example.com / pool node-1 / gpu-")
        .contains("a second claim asking for 8 devices is refused: claim default/too-big cannot"
            + " be allocated: cannot allocate all claims")
        .containsPattern("CDI spec written: example.com-gpu_[0-9a-f-]+\\.json")
        .containsPattern("checkpoint of prepared claims: \\S+/gpu.example.com/checkpoint.json")
        .containsPattern("env \\[SIMGPU_GPU_\\d=1, SIMGPU_GPU_\\d=1\\]")
        .containsPattern("device nodes \\[/dev/simgpu\\d, /dev/simgpu\\d\\]")
        .contains("CDI specs left: none")
        .contains("its sockets are removed (removed)");
  }
}
