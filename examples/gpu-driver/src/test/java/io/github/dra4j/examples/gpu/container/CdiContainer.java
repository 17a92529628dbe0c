package io.github.dra4j.examples.gpu.container;

import io.github.dra4j.testing.cdi.injection.OciContainer;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a real container from a claim's CDI edits, as a container runtime on a node would: the
 * spec directories are loaded and the claim's device names resolved with the SDK's {@link
 * CdiRegistry}, the edits applied to the container with the SDK's injection code (device nodes
 * completed from this machine's files), the result written as the bundle's {@code config.json},
 * and the container run to its end with {@code crun run} or {@code runc run}. Hooks in the specs
 * are real OCI hooks the runtime executes.
 *
 * <pre>{@code
 * CdiContainer containers = new CdiContainer(runtime, workDir, Duration.ofSeconds(30));
 * ContainerRun run = containers.run(specDir, List.of("k8s.gpu.example.com/gpu=gpu-1"), rootfs,
 *     List.of("/usr/local/bin/cuda-probe"));
 * }</pre>
 *
 * <p>Needs root. Immutable; each run gets its own bundle directory under the work directory, so
 * runs may happen from several threads. The root file system is used in place (hooks write into
 * it): give each run its own copy ({@link ContainerRootFs#copyTo}).
 */
public final class CdiContainer {
  private static final Logger LOG = LoggerFactory.getLogger(CdiContainer.class);

  private final OciRuntime runtime;
  private final Path workDir;
  private final Duration timeout;

  /**
   * Creates a runner.
   *
   * @param runtime the OCI runtime that runs the containers
   * @param workDir where bundles and the runtime's state go; must exist
   * @param timeout how long a container may run before it is killed
   */
  public CdiContainer(OciRuntime runtime, Path workDir, Duration timeout) {
    this.runtime = runtime;
    this.workDir = workDir.toAbsolutePath();
    this.timeout = timeout;
  }

  /**
   * Returns the runtime this runner uses.
   *
   * @return the runtime
   */
  public OciRuntime runtime() {
    return runtime;
  }

  /**
   * Runs a container from one spec directory.
   *
   * @param specDir the CDI spec directory (e.g. the driver's {@code /var/run/cdi})
   * @param devices the claim's qualified device names ({@code vendor/class=name})
   * @param rootfs the container's root file system; hooks may change it
   * @param command the process's arguments (container paths)
   * @return the exit code and output
   * @throws IllegalStateException if a spec file in the directory does not load
   * @throws io.github.dra4j.testing.cdi.registry.UnresolvableDevicesException if a name does not
   *     resolve
   * @throws IOException if the bundle cannot be written or the runtime not started
   * @throws InterruptedException if interrupted while waiting for the container
   */
  public ContainerRun run(Path specDir, List<String> devices, Path rootfs, List<String> command)
      throws IOException, InterruptedException {
    return run(List.of(specDir), devices, rootfs, command);
  }

  /**
   * Runs a container from several spec directories (lowest priority first, as runtimes scan
   * {@code /etc/cdi} then {@code /var/run/cdi}).
   *
   * @param specDirs the CDI spec directories
   * @param devices the claim's qualified device names ({@code vendor/class=name}); may be empty
   * @param rootfs the container's root file system; hooks may change it
   * @param command the process's arguments (container paths)
   * @return the exit code and output
   * @throws IllegalStateException if a spec file in a directory does not load
   * @throws io.github.dra4j.testing.cdi.registry.UnresolvableDevicesException if a name does not
   *     resolve
   * @throws IOException if the bundle cannot be written or the runtime not started
   * @throws InterruptedException if interrupted while waiting for the container
   */
  public ContainerRun run(List<Path> specDirs, List<String> devices, Path rootfs,
      List<String> command) throws IOException, InterruptedException {
    OciContainer edited = edit(specDirs, devices);
    Path bundle = Files.createTempDirectory(workDir, "bundle-");
    Path root = rootfs.toAbsolutePath();
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException("rootfs: not a directory: " + root);
    }
    Files.writeString(bundle.resolve("config.json"),
        OciBundleConfig.write(edited, root, command), StandardCharsets.UTF_8);
    String id = "dra4j-" + bundle.getFileName().toString().replaceAll("[^A-Za-z0-9-]", "-");
    Path stateRoot = Files.createDirectories(workDir.resolve("runtime-state"));
    Path out = bundle.resolve("stdout");
    Path err = bundle.resolve("stderr");
    List<String> runCommand = runtime.command(stateRoot, "run", "--bundle", bundle.toString(), id);
    LOG.debug("Starting container {}: {}", id, runCommand);
    Process process = new ProcessBuilder(runCommand)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    int exit;
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      exit = process.exitValue();
    } else {
      LOG.warn("Container {} still runs after {}; killing it", id, timeout);
      quietly(runtime.command(stateRoot, "kill", id, "KILL"));
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      exit = -1;
    }
    quietly(runtime.command(stateRoot, "delete", "--force", id));
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    if (exit == -1) {
      stderr += "\n(killed after " + timeout + ")\n";
    }
    LOG.debug("Container {} exited with {}", id, exit);
    return new ContainerRun(exit, Files.readString(out, StandardCharsets.UTF_8), stderr, bundle,
        root);
  }

  /**
   * Returns the container a runtime would start for a claim: the base container (kernel mounts,
   * {@code PATH}, root user) with the claim's CDI edits applied by the SDK.
   *
   * @param specDirs the CDI spec directories, lowest priority first
   * @param devices the claim's qualified device names
   * @return the edited container
   * @throws IllegalStateException if a spec file in a directory does not load
   * @throws io.github.dra4j.testing.cdi.registry.UnresolvableDevicesException if a name does not
   *     resolve
   */
  public static OciContainer edit(List<Path> specDirs, List<String> devices) {
    CdiRegistry registry = CdiRegistry.load(specDirs);
    Map<Path, List<String>> errors = registry.errors();
    if (!errors.isEmpty()) {
      throw new IllegalStateException("CDI specs in " + specDirs + " did not load: " + errors
          .entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
          .collect(Collectors.joining("; ")));
    }
    return registry.inject(devices, OciBundleConfig.baseContainer());
  }

  private static void quietly(List<String> command) throws InterruptedException {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (IOException e) {
      LOG.debug("{} failed: {}", command, e.toString());
    }
  }
}
