package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.kubeletplugin.spi.DirectoryChecks;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.internal.checkpoint.BootId;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * What a started {@link ClaimLifecycle} holds until it stops: the claim store (which owns the
 * checkpoint), the background sweep if one runs, and the meters it registered. Made by {@link
 * #start}, ended by {@link #stop}; owned by the lifecycle.
 *
 * @param <S> the driver's state record
 */
public final class RunningLifecycle<S> {

  private final LifecycleSettings<S> settings;
  private final ClaimStore<S> store;
  private final GoneClaimSweep sweep;
  private final MeterRegistry registry;
  private final List<Meter> meters;

  private RunningLifecycle(LifecycleSettings<S> settings, ClaimStore<S> store,
      GoneClaimSweep sweep, MeterRegistry registry, List<Meter> meters) {
    this.settings = settings;
    this.store = store;
    this.sweep = sweep;
    this.registry = registry;
    this.meters = meters;
  }

  /**
   * Checks the directories, opens the checkpoint, starts the driver, repairs what a crash,
   * restart or reboot left, then starts the background check of claims against the API server.
   *
   * @param settings what the lifecycle was built with
   * @param plugin the plugin's context
   * @param <S> the driver's state record
   * @return the running lifecycle
   * @throws io.github.dra4j.kubeletplugin.PluginStartException before anything is written, if a
   *     directory is not a writable directory and cannot be created in one
   * @throws Exception if the plugin data directory or the checkpoint's lock file cannot be
   *     created, the boot ID cannot be read, or the driver fails to start
   */
  public static <S> RunningLifecycle<S> start(LifecycleSettings<S> settings, PluginContext plugin)
      throws Exception {
    Path directory = plugin.pluginDataDirectory();
    Path cdi = settings.cdiDirectory() != null ? settings.cdiDirectory() : plugin.cdiDirectory();
    // Both before anything is written: CDI specs in a directory the runtime never reads are
    // worse than no start.
    DirectoryChecks.creatable(directory, "plugin data directory",
        DirectoryChecks.PLUGIN_DATA_DIRECTORY_SETTING);
    DirectoryChecks.creatable(cdi, "CDI directory", settings.cdiDirectory() != null
        ? "ClaimLifecycle.Builder.cdiDirectory" : DirectoryChecks.CDI_DIRECTORY_SETTING);
    Files.createDirectories(directory);
    String bootId = BootId.read(settings.bootIdSource() != null ? settings.bootIdSource()
        : plugin.bootIdSource());
    Kind kind = settings.cdiKind() != null ? settings.cdiKind()
        : ClaimLifecycle.defaultCdiKind(plugin.driverName());
    // Claim specs are written atomically but not fsynced: the checkpoint, which is durable and
    // written after them, holds each completed claim's spec, and the repair at start rewrites any
    // that a power loss lost or emptied before the plugin serves. That saves two fsyncs per claim.
    SpecDirectory specs = SpecDirectory.at(cdi).withDurableWrites(false);
    CheckpointFile checkpoint = CheckpointFile.open(directory.resolve(settings.checkpointFile()));
    MeterRegistry registry = plugin.meterRegistry();
    List<Meter> meters = meters(checkpoint, registry, plugin.driverName());
    Counter corruptions = (Counter) meters.get(1);
    // Nothing the lifecycle reports stops the plugin: each concerns a file or one claim.
    BiConsumer<Throwable, String> report = (error, message) -> plugin
        .reportError(new RecoverableException(error), message);
    GoneClaimSweep sweep = null;
    try {
      settings.driver().start(plugin);
      ClaimSpecs claimSpecs = new ClaimSpecs(kind,
          Optional.ofNullable(settings.commonDeviceName()));
      writeCommonSpec(settings, specs, claimSpecs);
      ClaimStore<S> store = new ClaimStore<>(settings.driver(), plugin.driverName(), bootId,
          checkpoint, specs, claimSpecs, new StateCodec<>(settings.stateType()),
          plugin.claimLookup(), report, corruptions::increment);
      try {
        store.repairOnStart(directory,
            CallContext.detached("StartupRepair", plugin.nodeName(), directory));
      } catch (IOException e) {
        // An unreadable checkpoint must not make the pod crash-loop: the plugin serves, and each
        // call fails with this error (naming the file) until the disk is fixed.
        report.accept(e, "repair claims at start: " + e.getMessage());
      }
      if (!settings.goneClaimCheckInterval().isZero()) {
        sweep = new GoneClaimSweep(plugin.driverName(), store,
            () -> CallContext.detached("GoneClaimSweep", plugin.nodeName(), directory));
        sweep.start(settings.goneClaimCheckInterval());
      }
      return new RunningLifecycle<>(settings, store, sweep, registry, meters);
    } catch (Exception | Error e) {
      if (sweep != null) {
        sweep.close();
      }
      meters.forEach(registry::remove);
      checkpoint.close();
      throw e;
    }
  }

  /** The checkpoint's meters: writes, corruptions (second), prepared claims and devices. */
  private static List<Meter> meters(CheckpointFile checkpoint, MeterRegistry registry,
      String driverName) {
    return List.of(
        FunctionCounter.builder(MetricNames.CHECKPOINT_WRITES, checkpoint, CheckpointFile::writes)
            .description("Writes of the claim checkpoint (a file and a directory fsync each)")
            .tag(MetricNames.DRIVER_NAME, driverName).register(registry),
        Counter.builder(MetricNames.CHECKPOINT_CORRUPTIONS)
            .description("Claim checkpoints found unreadable and kept aside")
            .tag(MetricNames.DRIVER_NAME, driverName).register(registry),
        Gauge.builder(MetricNames.PREPARED_CLAIMS, checkpoint, CheckpointFile::preparedClaims)
            .description("Claims prepared on this node, as the checkpoint last read holds them")
            .tag(MetricNames.DRIVER_NAME, driverName).register(registry),
        Gauge.builder(MetricNames.PREPARED_DEVICES, checkpoint, CheckpointFile::preparedDevices)
            .description("Devices of the claims prepared on this node")
            .tag(MetricNames.DRIVER_NAME, driverName).register(registry));
  }

  /** Writes the node-wide spec of the common device, or removes one an earlier run wrote. */
  private static void writeCommonSpec(LifecycleSettings<?> settings, SpecDirectory specs,
      ClaimSpecs claimSpecs) throws IOException {
    if (settings.commonDeviceName() == null) {
      specs.removeTransient(claimSpecs.kind(), ClaimSpecs.COMMON_SPEC_ID);
      return;
    }
    specs.withDurableWrites(true).writeTransient(
        claimSpecs.commonSpec(settings.commonDeviceName(), settings.commonDeviceEdits()),
        ClaimSpecs.COMMON_SPEC_ID, WriteMode.REPLACE_IF_CHANGED);
  }

  /**
   * The claim store.
   *
   * @return the store the lifecycle's calls go to
   */
  public ClaimStore<S> store() {
    return store;
  }

  /** Stops the background check, stops the driver, and closes the checkpoint. */
  public void stop() {
    if (sweep != null) {
      sweep.close();
    }
    try {
      settings.driver().stop();
    } finally {
      meters.forEach(registry::remove);
      store.close();
    }
  }
}
