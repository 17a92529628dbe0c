package io.github.dra4j.examples.gpu.nvml;

import static org.junit.jupiter.api.Assertions.fail;

import io.github.dra4j.examples.gpu.NativeTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The NVML stub ({@code src/test/c/nvml-stub/*.c}) for tests: {@link #compile} builds it once per
 * test class with gcc (skipping the class where gcc is missing); {@link #install} copies
 * it into a test's own driver root as {@code usr/lib64/libnvidia-ml.so.1}, so that each test
 * loads its own copy with its own state, and controls it through the files next to it (see the
 * C file's header). Owned by one test.
 */
final class NvmlStub {

  /** The driver version the stub reports, as NVML's {@code nvmlSystemGetDriverVersion} gives it. */
  static final String DRIVER_VERSION = "570.86.15";

  /** The GPUs the stub presents, by NVML index: UUID, minor number, sysfs bus ID. */
  record StubGpu(int index, String uuid, int minor, String busId) {}

  static final List<StubGpu> GPUS = List.of(
      new StubGpu(0, "GPU-1b7f3c52-8a44-4e0d-b6c1-3f9d2a7e0b11", 1, "0000:1b:00.0"),
      new StubGpu(1, "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22", 0, "0000:43:00.0"),
      new StubGpu(2, "GPU-52c8d1f4-9e3a-4f6b-8d20-7a1e5b3c6d33", 2, "0000:52:00.0"),
      new StubGpu(3, "GPU-61e4b7a9-2d58-4c93-9f1e-0b8c7d2a5e44", 3, "0000:61:00.0"),
      new StubGpu(4, "GPU-9d3f6a18-7b2c-4e5d-a8f9-6c1b0e4d7f55", 4, "0000:9d:00.0"),
      new StubGpu(5, "GPU-c3b5e2d7-4f19-4a6c-b7e8-2d9f3a1c8b66", 5, "0000:c3:00.0"),
      new StubGpu(6, "GPU-d1a9c4e6-3b7f-4d28-9e5a-5f2c8b0d1a77", 6, "0000:d1:00.0"),
      new StubGpu(7, "GPU-df6e8b3c-1a4d-4f79-8c2b-9e7a6d5f3c88", 7, "0000:df:00.0"));

  private final Path root;
  private final Path library;

  private NvmlStub(Path root, Path library) {
    this.root = root;
    this.library = library;
  }

  /**
   * Compiles the stub into {@code dir}; skips the calling test class if gcc is not installed.
   *
   * @return the compiled library
   */
  static Path compile(Path dir) throws IOException, InterruptedException {
    Path sourceDir = NativeTools.moduleDir().resolve("src/test/c/nvml-stub");
    List<String> sources;
    try (Stream<Path> files = Files.list(sourceDir)) {
      sources = files.filter(p -> p.toString().endsWith(".c")).map(Path::toString).sorted()
          .toList();
    }
    if (!sources.contains(sourceDir.resolve("nvml_stub.c").toString())) {
      fail("the NVML stub's source is missing: " + sourceDir.resolve("nvml_stub.c"));
    }
    String gcc = NativeTools.gcc("the NVML tests compile the NVML stub");
    Path library = dir.resolve("libnvidia-ml.so.1");
    List<String> command = new ArrayList<>(List.of(gcc, "-shared", "-fPIC", "-Wall", "-o",
        library.toString()));
    command.addAll(sources);
    NativeTools.run(command);
    return library;
  }

  /** Copies the compiled stub into {@code root}/usr/lib64. */
  static NvmlStub install(Path compiled, Path root) throws IOException {
    Path libDir = Files.createDirectories(root.resolve("usr/lib64"));
    Path library = libDir.resolve("libnvidia-ml.so.1");
    Files.copy(compiled, library, StandardCopyOption.REPLACE_EXISTING);
    return new NvmlStub(root, library);
  }

  /** The driver root. */
  Path root() {
    return root;
  }

  /** The installed library. */
  Path library() {
    return library;
  }

  /** Options for the stub's driver root, with sysfs and procfs under it. */
  NvmlOptions.Builder options() {
    return NvmlOptions.builder().containerDriverRoot(root).sysfsRoot(root.resolve("sys"))
        .procRoot(root.resolve("proc"));
  }

  /** Writes {@code nvml-stub.conf}, read at each NVML initialization. */
  void configure(String... lines) throws IOException {
    Files.writeString(library.resolveSibling("nvml-stub.conf"),
        String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  /** Appends lines to {@code nvml-stub-events}, read on every {@code nvmlEventSetWait_v2}. */
  void events(String... lines) throws IOException {
    Files.writeString(library.resolveSibling("nvml-stub-events"),
        String.join("\n", lines) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

}
