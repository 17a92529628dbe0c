package io.github.dra4j.examples.gpu.backend;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.GpuDiscovery;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.discovery.SimulatedGpus;
import io.github.dra4j.examples.gpu.health.HealthFile;
import io.github.dra4j.examples.gpu.health.HealthSource;
import io.github.dra4j.examples.gpu.sharing.LoggedSharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Simulated GPUs (the default backend): {@link SimulatedGpus}, health from a {@link HealthFile},
 * sharing settings only logged, no device nodes or driver files. Owns the health file's thread.
 */
public final class SimulatedBackend implements GpuBackend {

  private final SimulatedGpus gpus;
  private final HealthFile health;
  private final SharingCommands sharing;

  /**
   * Creates the backend.
   *
   * @param nodeName the node's name, which seeds the GPUs' UUIDs
   * @param count how many GPUs
   * @param healthFile the file that drives the GPUs' health
   * @param healthInterval how often the file is read
   * @param sharing how sharing settings are applied (logged, or recorded by a test)
   */
  public SimulatedBackend(String nodeName, int count, Path healthFile, Duration healthInterval,
      SharingCommands sharing) {
    this.gpus = new SimulatedGpus(nodeName, count);
    this.health = new HealthFile(healthFile, healthInterval, name -> gpuUuid(name, count));
    this.sharing = sharing;
  }

  /**
   * Creates the backend with logged sharing commands and the health file read every second.
   *
   * @param nodeName the node's name
   * @param count how many GPUs
   * @param healthFile the file that drives the GPUs' health
   */
  public SimulatedBackend(String nodeName, int count, Path healthFile) {
    this(nodeName, count, healthFile, Duration.ofSeconds(1), new LoggedSharingCommands());
  }

  private Optional<String> gpuUuid(String name, int count) {
    for (int i = 0; i < count; i++) {
      if (name.equals("gpu-" + i) || name.equals(gpus.uuid(i))) {
        return Optional.of(gpus.uuid(i));
      }
    }
    return Optional.empty();
  }

  @Override
  public GpuDiscovery discovery() {
    return gpus;
  }

  @Override
  public HealthSource health() {
    return health;
  }

  @Override
  public SharingCommands sharing() {
    return sharing;
  }

  @Override
  public List<HostDeviceNode> deviceNodes(Gpu gpu, Optional<MigDevice> mig) {
    return List.of();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Simulated GPUs have no driver files: the edits are empty.
   */
  @Override
  public ContainerEdits commonEdits() {
    return ContainerEdits.EMPTY;
  }

  @Override
  public void close() {
    health.close();
  }
}
