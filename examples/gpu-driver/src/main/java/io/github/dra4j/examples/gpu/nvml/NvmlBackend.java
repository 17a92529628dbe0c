package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.GpuDiscovery;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.health.HealthSource;
import io.github.dra4j.examples.gpu.mps.ControlDaemons;
import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsTimeouts;
import io.github.dra4j.examples.gpu.mps.ProcessTable;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFileEdits;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFiles;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesException;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesFinder;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesOptions;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverRootFs;
import io.github.dra4j.examples.gpu.nvml.driverfiles.DriverVersion;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlLibrary;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVIDIA GPUs through NVML ({@code libnvidia-ml.so.1}, loaded with JNA from the driver root):
 * discovery, health from NVML events, sharing through {@code nvidia-smi}, and the device nodes
 * and driver files containers need. Open it with {@link #open(NvmlOptions)}.
 *
 * <p>Ownership: the driver owns the backend and closes it when it stops; the backend owns the
 * NVML session ({@code nvmlInitWithFlags} in {@link #open}, {@code nvmlShutdown} in {@link
 * #close}) and lends it to the discovery and the health source, which must not be used after the
 * backend is closed. {@link #discovery()} and {@link #health()} return the same instance on
 * every call; closing the discovery does nothing, closing the health source stops it. All
 * methods are thread-safe (NVML is).
 */
public final class NvmlBackend implements GpuBackend {

  private static final Logger LOG = LoggerFactory.getLogger(NvmlBackend.class);

  private final NvmlSession session;
  private final NvmlDiscovery discovery;
  private final NvmlHealthSource health;
  private final SharingCommands sharing;
  private final NvmlDeviceNodes deviceNodes;
  private final DriverFilesFinder driverFiles;
  private final DriverFilesOptions driverFilesOptions;

  private NvmlBackend(NvmlSession session, NvmlOptions options, DriverRoot driverRoot) {
    this.session = session;
    this.driverFiles = new DriverFilesFinder(new DriverRootFs(options.containerDriverRoot(),
        options.hostDriverRoot()));
    this.driverFilesOptions = options.driverFiles();
    this.discovery = new NvmlDiscovery(session, options.sysfsRoot());
    this.health = new NvmlHealthSource(session, options);
    this.deviceNodes = new NvmlDeviceNodes(driverRoot, options.procRoot());
    MpsDaemons mps = mpsDaemons(driverRoot, session.path(), options.mpsTimeouts());
    Optional<Path> nvidiaSmi = driverRoot.findNvidiaSmi();
    if (nvidiaSmi.isPresent()) {
      CommandRunner runner = new ProcessCommandRunner(
          Map.of("LD_PRELOAD", session.path().toString()), options.commandTimeout());
      this.sharing = new NvidiaSmiCommands(nvidiaSmi.get().toString(), runner, mps);
    } else {
      LOG.warn("nvidia-smi not found (tried {}); time slicing and MPS cannot be applied",
          DriverRoot.joined(driverRoot.nvidiaSmiCandidates()));
      this.sharing = NvidiaSmiCommands.missing(driverRoot.nvidiaSmiCandidates(), mps);
    }
  }

  /** MPS daemons from the driver root's control program, with NVML's directory as libraries. */
  private static MpsDaemons mpsDaemons(DriverRoot driverRoot, Path library,
      MpsTimeouts timeouts) {
    ProcessTable processes = new ProcessTable(Path.of("/proc"));
    Optional<Path> control = driverRoot.findExecutable(ControlDaemons.CONTROL);
    if (control.isEmpty()) {
      List<Path> tried = DriverRoot.BIN_DIRS.stream().map(dir -> driverRoot.containerRoot()
          .resolve(dir.substring(1)).resolve(ControlDaemons.CONTROL)).toList();
      LOG.warn("{} not found (tried {}); MPS claims will fail", ControlDaemons.CONTROL,
          DriverRoot.joined(tried));
      return ControlDaemons.notFound(tried, processes);
    }
    return new ControlDaemons(control.get(), Optional.ofNullable(library.getParent()), true,
        timeouts, processes);
  }

  /**
   * Loads and initializes NVML: from {@link NvmlOptions#libraryPath()} if set, otherwise the
   * first {@code libnvidia-ml.so.1} under the container driver root in {@code /usr/lib64},
   * {@code /usr/lib/x86_64-linux-gnu}, {@code /usr/lib/aarch64-linux-gnu}, {@code /lib64},
   * {@code /lib/x86_64-linux-gnu}, {@code /lib/aarch64-linux-gnu}. Also looks up {@code
   * nvidia-smi} under the driver root in {@code /opt/bin}, {@code /usr/bin}, {@code /usr/sbin},
   * {@code /bin}, {@code /sbin}; without it, sharing commands fail when used.
   *
   * @param options where the driver is and how to watch it
   * @return the backend, which the caller owns and must close
   * @throws DiscoveryException if the library is not found (naming every path tried), cannot be
   *     loaded, or NVML does not initialize (naming {@code nvmlErrorString})
   */
  public static NvmlBackend open(NvmlOptions options) throws DiscoveryException {
    DriverRoot driverRoot = new DriverRoot(options.containerDriverRoot(),
        options.hostDriverRoot());
    Path library = options.libraryPath().isPresent() ? options.libraryPath().get()
        : driverRoot.findLibrary();
    NvmlSession session = NvmlSession.open(library);
    try {
      NvmlBackend backend = new NvmlBackend(session, options, driverRoot);
      LOG.info("{}; device nodes {}", backend.discovery.describe(),
          driverRoot.devicesUnderDriverRoot() ? "under the driver root "
              + options.containerDriverRoot() + ", on the host under "
              + options.hostDriverRoot() : "in /dev");
      return backend;
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  /**
   * The library this backend loaded.
   *
   * @return its path
   */
  public Path libraryPath() {
    return session.path();
  }

  @Override
  public GpuDiscovery discovery() {
    return discovery;
  }

  @Override
  public HealthSource health() {
    return health;
  }

  @Override
  public SharingCommands sharing() {
    return sharing;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code /dev/nvidia<minor>}, and for a MIG device its GPU and compute instance's {@code
   * /dev/nvidia-caps/nvidia-cap<N>}, with N from {@code
   * /proc/driver/nvidia/capabilities/gpu<minor>/mig/gi<gi>[/ci<ci>]/access}.
   *
   * @throws IllegalStateException if a MIG device's capability file is missing or unreadable
   */
  @Override
  public List<HostDeviceNode> deviceNodes(Gpu gpu, Optional<MigDevice> mig) {
    return deviceNodes.forDevice(gpu, mig);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The device nodes: those of {@code /dev/nvidiactl}, {@code /dev/nvidia-uvm}, {@code
   * /dev/nvidia-uvm-tools} and {@code /dev/nvidia-modeset} that exist where the driver's device
   * nodes are: under the container driver root if it has {@code dev/nvidiactl} (host paths then
   * under the host driver root), otherwise in this container's {@code /dev}. The files: those
   * {@link DriverFilesFinder} finds under the driver root for the driver version NVML reports,
   * as {@link DriverFileEdits} mounts them, with its hooks.
   *
   * @throws DiscoveryException if NVML cannot tell the driver version, or a required library of
   *     a chosen capability is missing
   */
  @Override
  public ContainerEdits commonEdits() throws DiscoveryException {
    DriverVersion version;
    try {
      version = new DriverVersion(session.text("nvmlSystemGetDriverVersion", "",
          NvmlLibrary.SYSTEM_VERSION_BUFFER_SIZE, session.library()::nvmlSystemGetDriverVersion)
          .strip());
    } catch (NvmlException | IllegalArgumentException e) {
      throw new DiscoveryException("cannot tell the driver version for the driver files: "
          + e.getMessage() + " (NVML from " + session.path() + ")", e);
    }
    DriverFiles files;
    try {
      files = driverFiles.find(version, driverFilesOptions);
    } catch (DriverFilesException e) {
      throw new DiscoveryException(e.getMessage(), e);
    }
    ContainerEdits.Builder edits = ContainerEdits.builder();
    deviceNodes.common().stream().map(HostDeviceNode::toCdi).forEach(edits::deviceNode);
    return edits.edits(DriverFileEdits.of(files, driverFilesOptions)).build();
  }

  /** Stops the health source, then shuts NVML down; never throws. */
  @Override
  public void close() {
    try {
      health.close();
    } catch (RuntimeException e) {
      LOG.warn("Stopping the NVML health source failed", e);
    }
    session.close();
  }
}
