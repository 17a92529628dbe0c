package io.github.dra4j.examples.gpu.container;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A minimal driver root for the container tests: the stub {@code libcuda.so.<version>} where
 * Debian's driver packages put it ({@code usr/lib/<triplet>/nvidia/current}, a folder the dynamic
 * linker does not search unless the linker cache lists it), the stub {@code nvidia-cdi-hook} in
 * {@code usr/bin}, and fake device nodes in {@code dev}: {@code nvidia0..3} (char 195:N, the
 * numbers of real GPUs), {@code nvidiactl} (195:255) and {@code nvidia-uvm} (a made-up 511:0).
 * The nodes are never opened. Owned by one test.
 *
 * @param root the driver root
 * @param libraryDir the library's folder in the container (and under the root)
 * @param library the library file under the root
 * @param hook the stub hook
 */
public record StubDriverRoot(Path root, String libraryDir, Path library, Path hook) {
  /** How many fake GPUs {@code dev} has. */
  public static final int GPUS = 4;

  /**
   * Builds the root; skips the calling test if device nodes cannot be made here.
   *
   * @param root the directory to fill
   * @param build the compiled stub library
   * @return the driver root
   * @throws IOException if a file cannot be written
   * @throws InterruptedException if interrupted
   */
  public static StubDriverRoot create(Path root, CudaProbeBuild build)
      throws IOException, InterruptedException {
    String libraryDir = "/usr/lib/" + build.triplet() + "/nvidia/current";
    Path library = Files.createDirectories(root.resolve(libraryDir.substring(1)))
        .resolve(build.library().getFileName());
    Files.copy(build.library(), library, StandardCopyOption.COPY_ATTRIBUTES);
    Path hook = installCdiHook(root.resolve("usr/bin/nvidia-cdi-hook"));
    Path dev = Files.createDirectories(root.resolve("dev"));
    for (int minor = 0; minor < GPUS; minor++) {
      mknod(dev.resolve("nvidia" + minor), 195, minor);
    }
    mknod(dev.resolve("nvidiactl"), 195, 255);
    mknod(dev.resolve("nvidia-uvm"), 511, 0);
    return new StubDriverRoot(root, libraryDir, library, hook);
  }

  /**
   * Installs the stub {@code nvidia-cdi-hook} (a test resource) as an executable file. It does
   * {@code update-ldcache} and {@code create-symlinks} on the container's root file system, as the
   * real one does, and appends each call to {@code calls} next to itself (see the script's header).
   *
   * @param file where to put it, e.g. {@code <driver root>/usr/bin/nvidia-cdi-hook}
   * @return {@code file}
   * @throws IOException if it cannot be written
   */
  public static Path installCdiHook(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    try (InputStream script = StubDriverRoot.class.getResourceAsStream("nvidia-cdi-hook")) {
      if (script == null) {
        throw new IOException("test resource nvidia-cdi-hook is missing");
      }
      Files.copy(script, file, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /**
   * Returns a device node's path under the root.
   *
   * @param name e.g. {@code nvidia1}
   * @return {@code <root>/dev/<name>}
   */
  public Path devNode(String name) {
    return root.resolve("dev").resolve(name);
  }

  /**
   * Returns the library's path in the container.
   *
   * @return e.g. {@code /usr/lib/x86_64-linux-gnu/nvidia/current/libcuda.so.575.57.08}
   */
  public String containerLibraryPath() {
    return libraryDir + "/" + library.getFileName();
  }

  /**
   * Returns the hook's calls so far, one line each: subcommand, arguments and {@code
   * rootfs=<path>}, tab-separated.
   *
   * @return the lines; empty if the hook never ran
   * @throws IOException if the file cannot be read
   */
  public List<String> hookCalls() throws IOException {
    Path calls = hook.resolveSibling("calls");
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  /**
   * Makes a character device node with mode {@code 0666}; skips the calling test if that is not
   * allowed here. The node is never opened by the tests.
   *
   * @param node the node's path
   * @param major its major number
   * @param minor its minor number
   * @throws IOException if {@code mknod} cannot be started
   * @throws InterruptedException if interrupted
   */
  public static void mknod(Path node, int major, int minor)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("mknod", "-m", "0666", node.toString(), "c",
        Integer.toString(major), Integer.toString(minor)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      Assumptions.abort("cannot make device nodes here (" + String.join(" ", command) + ": "
          + output.strip() + "); the container tests need them, skipped");
    }
  }
}
