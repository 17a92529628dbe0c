package io.github.dra4j.examples.gpu.container;

import io.github.dra4j.examples.gpu.NativeTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The stub CUDA driver library and the probe program linked against it ({@code
 * src/test/c/cuda-container}), compiled with gcc.
 *
 * @param library the stub library, named like a driver's ({@code libcuda.so.<version>}) with the
 *     SONAME {@code libcuda.so.1}
 * @param probe the program; needs {@code libcuda.so.1} to start
 * @param inspector a program that reports paths, environment variables and mounts as the
 *     container sees them, then runs a command ({@code inspect.c}); needs only the C library
 * @param triplet the compiler's target (e.g. {@code x86_64-linux-gnu}), the multiarch directory
 *     name under {@code /usr/lib}
 */
public record CudaProbeBuild(Path library, Path probe, Path inspector, String triplet) {
  /** The driver version in the library's file name. */
  public static final String DRIVER_VERSION = "575.57.08";

  /**
   * Compiles the library and the program into {@code dir}; skips the calling test if gcc is
   * missing.
   *
   * @param dir the output directory
   * @return the built files
   * @throws IOException if the sources are missing or do not compile
   * @throws InterruptedException if interrupted
   */
  public static CudaProbeBuild compile(Path dir) throws IOException, InterruptedException {
    Path sources = sources();
    if (!Files.isRegularFile(sources.resolve("cuda_probe.c"))) {
      throw new IOException("the probe's source is missing: " + sources.resolve("cuda_probe.c"));
    }
    String gcc = NativeTools.gcc("the container tests compile a stub libcuda.so.1 and a program"
        + " with it");
    String triplet = NativeTools.run(List.of(gcc, "-dumpmachine")).strip();
    Path library = dir.resolve("libcuda.so." + DRIVER_VERSION);
    NativeTools
        .run(List.of(gcc, "-shared", "-fPIC", "-Wall", "-Werror", "-Wl,-soname,libcuda.so.1", "-o",
            library.toString(), sources.resolve("libcuda_stub.c").toString()));
    Files.createSymbolicLink(dir.resolve("libcuda.so"), library.getFileName());
    Path probe = dir.resolve("cuda-probe");
    NativeTools.run(List.of(gcc, "-Wall", "-Werror", "-o", probe.toString(),
        sources.resolve("cuda_probe.c").toString(), "-L" + dir, "-lcuda", "-Wl,--as-needed",
        "-ldl"));
    Path inspector = dir.resolve("inspect");
    NativeTools.run(List.of(gcc, "-Wall", "-Werror", "-o", inspector.toString(),
        sources.resolve("inspect.c").toString()));
    return new CudaProbeBuild(library, probe, inspector, triplet);
  }

  /**
   * Returns the stub library's C source as one file, its header inlined, for builders that
   * compile a single file (such as a fake driver root's {@code librarySource}).
   *
   * @return the source text
   * @throws IOException if a source file cannot be read
   */
  public static String stubLibrarySource() throws IOException {
    Path sources = sources();
    String header = Files.readString(sources.resolve("cuda_stub.h"), StandardCharsets.UTF_8);
    String library = Files.readString(sources.resolve("libcuda_stub.c"), StandardCharsets.UTF_8);
    String include = "#include \"cuda_stub.h\"\n";
    if (!library.contains(include)) {
      throw new IOException("libcuda_stub.c no longer includes cuda_stub.h as expected");
    }
    return library.replace(include, header);
  }

  private static Path sources() {
    return NativeTools.moduleDir().resolve("src/test/c/cuda-container");
  }
}
