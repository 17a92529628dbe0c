package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.mps.LoggedMpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.examples.gpu.sharing.SharingSetting.TimeSliceInterval;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nvidia-smi command lines, recorded and run against a fake nvidia-smi script. */
class NvidiaSmiCommandsTest {

  private static final String SMI = "/driver-root/usr/bin/nvidia-smi";
  private static final String A = "GPU-1b7f3c52-8a44-4e0d-b6c1-3f9d2a7e0b11";
  private static final String B = "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22";
  private static final MpsDaemons MPS = new LoggedMpsDaemons();

  @TempDir
  Path dir;

  private final List<List<String>> recorded = new ArrayList<>();
  private final CommandRunner recorder = command -> {
    recorded.add(command);
    return "";
  };

  @Test
  void timeSlicingSetsTheDefaultComputeModeThenTheTimeSliceOfEachGpu() throws Exception {
    new NvidiaSmiCommands(SMI, recorder, MPS).apply(
        new SharingSetting.TimeSlicing(TimeSliceInterval.Long), List.of(A, B));

    assertThat(recorded).containsExactly(
        List.of(SMI, "-i", A, "-c", "DEFAULT"),
        List.of(SMI, "compute-policy", "-i", A, "--set-timeslice", "3"),
        List.of(SMI, "-i", B, "-c", "DEFAULT"),
        List.of(SMI, "compute-policy", "-i", B, "--set-timeslice", "3"));
  }

  @Test
  void everyTimeSliceIntervalHasItsNumber() throws Exception {
    NvidiaSmiCommands commands = new NvidiaSmiCommands(SMI, recorder, MPS);
    for (TimeSliceInterval interval : TimeSliceInterval.values()) {
      commands.apply(new SharingSetting.TimeSlicing(interval), List.of(A));
    }

    assertThat(recorded).filteredOn(c -> c.contains("compute-policy"))
        .extracting(c -> c.get(5)).containsExactly("0", "1", "2", "3");
  }

  @Test
  void mpsSetsExclusiveProcess() throws Exception {
    NvidiaSmiCommands commands = new NvidiaSmiCommands(SMI, recorder, MPS);
    commands.apply(new SharingSetting.Mps(OptionalInt.of(50), OptionalLong.empty(), Map.of(),
        false), List.of(A, B));

    assertThat(recorded).containsExactly(
        List.of(SMI, "-i", A, "-c", "EXCLUSIVE_PROCESS"),
        List.of(SMI, "-i", B, "-c", "EXCLUSIVE_PROCESS"));
  }

  @Test
  void resetRestoresTheDefaultsAndDoesNothingWithoutGpus() throws Exception {
    NvidiaSmiCommands commands = new NvidiaSmiCommands(SMI, recorder, MPS);
    commands.reset(new SharingSetting.TimeSlicing(TimeSliceInterval.Long), List.of());
    commands.reset(new SharingSetting.TimeSlicing(TimeSliceInterval.Long), List.of(B));
    commands.reset(SharingSetting.Mps.unlimited(), List.of(A));

    assertThat(recorded).as("MPS changed only the compute mode, so only that is reset")
        .containsExactly(
            List.of(SMI, "-i", B, "-c", "DEFAULT"),
            List.of(SMI, "compute-policy", "-i", B, "--set-timeslice", "0"),
            List.of(SMI, "-i", A, "-c", "DEFAULT"));
  }

  @Test
  void aUuidThatLooksLikeAnOptionIsRefused() {
    assertThatThrownBy(() -> new NvidiaSmiCommands(SMI, recorder, MPS)
        .reset(SharingSetting.Mps.unlimited(), List.of("-r")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"-r\"");
    assertThat(recorded).isEmpty();
  }

  @Test
  void aRealScriptGetsTheArgumentListsAndTheEnvironment() throws Exception {
    Path log = dir.resolve("calls.log");
    Path script = script("nvidia-smi", "printf '%s|' \"$@\" >> '" + log + "'\n"
        + "printf 'LD_PRELOAD=%s\\n' \"$LD_PRELOAD\" >> '" + log + "'\n");
    CommandRunner runner = new ProcessCommandRunner(Map.of("LD_PRELOAD", "/x/libnvidia-ml.so.1"),
        Duration.ofSeconds(10));

    new NvidiaSmiCommands(script.toString(), runner, MPS).apply(
        new SharingSetting.TimeSlicing(TimeSliceInterval.Medium), List.of(A));

    assertThat(Files.readAllLines(log)).containsExactly(
        "-i|" + A + "|-c|DEFAULT|LD_PRELOAD=/x/libnvidia-ml.so.1",
        "compute-policy|-i|" + A + "|--set-timeslice|2|LD_PRELOAD=/x/libnvidia-ml.so.1");
  }

  @Test
  void aFailingCommandStopsWithItsLineExitCodeAndOutput() throws Exception {
    Path log = dir.resolve("calls.log");
    Path script = script("nvidia-smi", "printf '%s|' \"$@\" >> '" + log + "'; echo >> '" + log
        + "'\n"
        + "if [ \"$2\" = '" + B + "' ]; then\n"
        + "  echo 'Unable to set the compute mode for GPU " + B + ": Insufficient Permissions'\n"
        + "  exit 4\n"
        + "fi\n");
    NvidiaSmiCommands commands = new NvidiaSmiCommands(script.toString(),
        new ProcessCommandRunner(Map.of(), Duration.ofSeconds(10)), MPS);

    assertThatThrownBy(() -> commands.apply(SharingSetting.Mps.unlimited(),
        List.of(A, B, A)))
        .isInstanceOf(IOException.class)
        .hasMessage("`" + script + " -i " + B + " -c EXCLUSIVE_PROCESS` failed with exit code 4;"
            + " output: Unable to set the compute mode for GPU " + B + ": Insufficient"
            + " Permissions");
    assertThat(Files.readAllLines(log)).as("stops at the failure")
        .containsExactly("-i|" + A + "|-c|EXCLUSIVE_PROCESS|",
            "-i|" + B + "|-c|EXCLUSIVE_PROCESS|");
  }

  @Test
  void aCommandThatHangsIsKilledAfterTheTimeout() throws Exception {
    Path script = script("slow", "echo starting\nexec sleep 30\n");
    CommandRunner runner = new ProcessCommandRunner(Map.of(), Duration.ofMillis(300));

    long start = System.nanoTime();
    assertThatThrownBy(() -> runner.run(List.of(script.toString(), "-q")))
        .isInstanceOf(IOException.class)
        .hasMessage("`" + script + " -q` did not finish within PT0.3S and was killed; output:"
            + " starting");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aProgramThatDoesNotExistIsNamed() {
    CommandRunner runner = new ProcessCommandRunner(Map.of(), Duration.ofSeconds(5));
    Path missing = dir.resolve("no such/nvidia-smi");

    assertThatThrownBy(() -> runner.run(List.of(missing.toString(), "-L")))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot run `'" + missing + "' -L`");
  }

  @Test
  void withoutNvidiaSmiOnlyCallsWithGpusFailAndNameThePathsTried() throws Exception {
    SharingCommands missing = NvidiaSmiCommands.missing(List.of(Path.of("/r/opt/bin/nvidia-smi"),
        Path.of("/r/usr/bin/nvidia-smi")), MPS);
    missing.reset(SharingSetting.Mps.unlimited(), List.of());

    assertThatThrownBy(() -> missing.reset(SharingSetting.Mps.unlimited(), List.of(A)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot reset (nvidia-smi -c DEFAULT) the sharing of GPU " + A)
        .hasMessageContaining("nvidia-smi was not found; tried /r/opt/bin/nvidia-smi,"
            + " /r/usr/bin/nvidia-smi");
  }

  private Path script(String name, String body) throws IOException {
    Path script = dir.resolve(name);
    Files.writeString(script, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
