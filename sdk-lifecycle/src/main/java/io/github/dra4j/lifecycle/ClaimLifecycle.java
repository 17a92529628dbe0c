package io.github.dra4j.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.name.NameRules;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.core.option.OptionChecks;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.lifecycle.internal.store.LifecycleSettings;
import io.github.dra4j.lifecycle.internal.store.RunningLifecycle;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns a {@link ClaimDriver} into the {@link DraDriver} a {@link KubeletPlugin} serves, and runs
 * the part of a claim's life every driver needs and few get right: a crash-safe checkpoint of the
 * claims prepared on this node, one CDI spec file per claim, repeated calls after restarts and
 * reboots, half-done work, and clean-up.
 *
 * <pre>{@code
 * KubeletPlugin plugin = KubeletPlugin.builder(
 *         ClaimLifecycle.builder(new MyGpus(), MyGpus.State.class)
 *             .cdiKind(Kind.of("k8s.gpu.example.com", "claim"))
 *             .build())
 *     .driverName("gpu.example.com")
 *     ...
 *     .start();
 * }</pre>
 *
 * <p>What it guarantees:
 *
 * <ul>
 *   <li><b>Checkpoint.</b> {@code <plugin data directory>/checkpoint.json} records every claim
 *       being prepared (with its allocation) and prepared (with the answer, the CDI spec and the
 *       driver's state), with the node's boot ID. Versioned, checksummed over the bytes written,
 *       replaced atomically and durably, locked across processes (both pods of a rolling update
 *       use it), written twice per prepare call and twice per unprepare call, whatever the
 *       number of claims. A corrupt checkpoint, or anything at its path that is not one (too
 *       large, a directory, a FIFO, a link), is kept aside under a new name and reported to
 *       {@link ClaimDriver#handleError}; the driver goes on.
 *   <li><b>Prepared again, same boot</b> (plugin or kubelet restart): the stored answer is
 *       returned without calling the driver, and the claim's CDI spec is rewritten if it is
 *       missing or differs.
 *   <li><b>Prepared again after a reboot</b> (boot ID changed): the driver prepares the claim
 *       again; the old entry does not short-cut it.
 *   <li><b>Half-done work</b> (the process died during a prepare) is rolled back at the next
 *       start, or before the claim is prepared or unprepared again.
 *   <li><b>Unprepare</b>: the claim marked as being unprepared, then the driver's undo, then the
 *       CDI spec, then the entry, in that order; an unknown claim is a success. A claim whose
 *       unprepare failed or was cut short is never answered from its record: the next prepare
 *       finishes the undo and prepares it afresh. Something at a claim's CDI spec path that the
 *       lifecycle did not write (a directory a bind mount left) is reported and left alone.
 *   <li><b>Conflicts</b>: a device already prepared for another claim (not admin access, not a
 *       share) fails the new claim with a message naming the other one.
 *   <li><b>Start-up repair</b>: unfinished unprepares are finished; lost CDI specs of prepared
 *       claims are written again; this driver's specs of claims it does not hold and temporary
 *       files of crashed writers are removed (a file it cannot read, too large or not a regular
 *       file, is left alone and logged); in
 *       the background, claims that no longer exist in the API server are unprepared ({@link
 *       Builder#goneClaimCheckInterval}).
 * </ul>
 *
 * <p>Thread-safe; one instance serves one plugin. The checkpoint's lock serializes calls, across
 * processes too.
 *
 * @param <S> the driver's state record
 */
public final class ClaimLifecycle<S> implements DraDriver {

  /** The checkpoint's file name in the plugin data directory, unless configured otherwise. */
  public static final String DEFAULT_CHECKPOINT_FILE = "checkpoint.json";

  /** How often claims are checked against the API server, unless configured otherwise. */
  public static final Duration DEFAULT_GONE_CLAIM_CHECK_INTERVAL = Duration.ofMinutes(10);

  private final LifecycleSettings<S> settings;

  private volatile RunningLifecycle<S> running;

  private ClaimLifecycle(Builder<S> builder) {
    this.settings = new LifecycleSettings<>(builder.driver, builder.stateType, builder.cdiKind,
        builder.cdiDirectory, builder.checkpointFile, builder.bootIdSource,
        builder.goneClaimCheckInterval, builder.commonDeviceName, builder.commonDeviceEdits);
  }

  /**
   * Starts configuring the lifecycle of a driver.
   *
   * @param driver the driver's per-claim hardware work
   * @param stateType the type of its state record ({@link Void} for none), stored as JSON
   * @param <S> that type
   * @return a builder; finish with {@link Builder#build()} and hand the result to {@link
   *     KubeletPlugin#builder}
   */
  public static <S> Builder<S> builder(ClaimDriver<S> driver, Class<S> stateType) {
    return new Builder<>(driver, stateType);
  }

  /**
   * The driver inside, for tests that want to look at it (the {@code @DraTest} extension injects
   * it as a parameter).
   *
   * @return the driver given to {@link #builder}
   */
  public ClaimDriver<S> claimDriver() {
    return settings.driver();
  }

  /**
   * The default CDI kind of a driver's claim specs: vendor {@code k8s.<driver name>}, class
   * {@code claim}.
   *
   * @param driverName the driver name
   * @return for example {@code k8s.gpu.example.com/claim}
   */
  public static Kind defaultCdiKind(String driverName) {
    return Kind.of("k8s." + driverName, "claim");
  }

  /**
   * Opens the checkpoint, starts the driver, repairs what a crash, restart or reboot left, then
   * starts the background check of claims against the API server. Called by the plugin.
   *
   * @param plugin the plugin's settings
   * @throws io.github.dra4j.kubeletplugin.PluginStartException before anything is written, if
   *     the plugin data directory or the CDI directory is not a writable directory and cannot be
   *     created in one, naming the path and its setting
   * @throws Exception if the plugin data directory or the checkpoint's lock file cannot be
   *     created, the boot ID cannot be read, or the driver fails to start; a checkpoint that
   *     cannot be read is reported to the driver instead, and every call fails naming it
   */
  @Override
  public void start(PluginContext plugin) throws Exception {
    if (running != null) {
      throw new IllegalStateException("this ClaimLifecycle already serves a plugin");
    }
    running = RunningLifecycle.start(settings, plugin);
  }

  private RunningLifecycle<S> running() {
    RunningLifecycle<S> current = running;
    if (current == null) {
      throw new IllegalStateException(
          "ClaimLifecycle is not started: hand it to KubeletPlugin.builder(...).start()");
    }
    return current;
  }

  @Override
  public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
      CallContext context) throws Exception {
    return running().store().prepare(claims, context);
  }

  /**
   * True for a claim the checkpoint, as this process last saw it, holds as prepared in this boot:
   * its prepare is answered from the checkpoint (the CDI spec rewritten if missing), so the
   * plugin need not read it. If the checkpoint changed since (the other pod of a rolling update
   * unprepared the claim), the prepare reads the claim itself ({@link
   * PluginContext#claimLookup()}) and prepares it: the claim goes through the driver once.
   */
  @Override
  public boolean isPrepared(ClaimReference claim) {
    RunningLifecycle<S> current = running;
    return current != null && current.store().preparedInThisBoot(claim);
  }

  @Override
  public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
      CallContext context) throws Exception {
    return running().store().unprepare(claims, context);
  }

  /** Stops the background check, stops the driver, and closes the checkpoint. */
  @Override
  public void stop() {
    RunningLifecycle<S> current = running;
    running = null;
    if (current != null) {
      current.stop();
    }
  }

  @Override
  public void handleError(Throwable error, String message) {
    settings.driver().handleError(error, message);
  }

  @Override
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  public boolean reportsDeviceHealth() {
    return settings.driver().reportsDeviceHealth();
  }

  @Override
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  public HealthTaints healthTaints() {
    return settings.driver().healthTaints();
  }

  /**
   * Configures a {@link ClaimLifecycle}. Not thread-safe; every option refuses null at once,
   * naming the option.
   *
   * @param <S> the driver's state record
   */
  public static final class Builder<S> {
    private final ClaimDriver<S> driver;
    private final Class<S> stateType;
    private Kind cdiKind;
    private Path cdiDirectory;
    private String checkpointFile = DEFAULT_CHECKPOINT_FILE;
    private Path bootIdSource;
    private Duration goneClaimCheckInterval = DEFAULT_GONE_CLAIM_CHECK_INTERVAL;
    private String commonDeviceName;
    private ContainerEdits commonDeviceEdits;

    private Builder(ClaimDriver<S> driver, Class<S> stateType) {
      this.driver = Objects.requireNonNull(driver, "driver");
      this.stateType = Objects.requireNonNull(stateType, "stateType");
    }

    /**
     * The vendor and class of the claims' CDI devices and spec files.
     *
     * @param kind for example {@code k8s.gpu.example.com/claim}; default {@link
     *     #defaultCdiKind(String)}
     * @return this builder
     */
    public Builder<S> cdiKind(Kind kind) {
      this.cdiKind = Objects.requireNonNull(kind, "cdiKind");
      return this;
    }

    /**
     * Where the claims' CDI specs are written.
     *
     * @param directory the directory; default the plugin's, {@link PluginContext#cdiDirectory()}
     *     ({@code /var/run/cdi})
     * @return this builder
     */
    public Builder<S> cdiDirectory(Path directory) {
      this.cdiDirectory = Objects.requireNonNull(directory, "cdiDirectory");
      return this;
    }

    /**
     * The checkpoint's file name in the plugin data directory.
     *
     * @param fileName a plain file name; default {@value #DEFAULT_CHECKPOINT_FILE}
     * @return this builder
     * @throws IllegalArgumentException if the name is empty or has a path separator
     */
    public Builder<S> checkpointFile(String fileName) {
      Objects.requireNonNull(fileName, "checkpointFile");
      if (fileName.isEmpty() || fileName.contains("/") || fileName.equals(".")
          || fileName.equals("..")) {
        throw new IllegalArgumentException(
            "checkpointFile \"" + fileName + "\" must be a plain file name");
      }
      this.checkpointFile = fileName;
      return this;
    }

    /**
     * Where the node's boot ID is read, which tells a reboot from a restart.
     *
     * @param source default: the plugin's ({@code KubeletPluginBuilder.bootIdSource}, itself
     *     {@code /proc/sys/kernel/random/boot_id} unless set); a simulated node sets the plugin's
     *     to a file it rewrites when it simulates a reboot
     * @return this builder
     */
    public Builder<S> bootIdSource(Path source) {
      this.bootIdSource = Objects.requireNonNull(source, "bootIdSource");
      return this;
    }

    /**
     * How often the claims of the checkpoint are looked up in the API server, so those deleted
     * while the kubelet could not unprepare them are unprepared. The first check runs in the
     * background after a random half to whole interval, so that a restart or an upgrade, on
     * every node a rollout reaches, does not read all prepared claims at once.
     *
     * @param interval positive, or zero to turn the check off; default 10 minutes
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder<S> goneClaimCheckInterval(Duration interval) {
      this.goneClaimCheckInterval = OptionChecks.nonNegative(interval, "goneClaimCheckInterval");
      return this;
    }

    /**
     * A node-wide CDI device that every container with one of the driver's devices gets too, for
     * what all devices share (control device nodes, the node's name in the environment). The
     * lifecycle writes it at start in its own spec, {@code <vendor>-<class>_common.json}, keeps
     * it while claims come and go, and answers every prepared device with its ID before the
     * device's own.
     *
     * @param name the device's name, for example {@code common}
     * @param edits what a container gets from it
     * @return this builder
     * @throws IllegalArgumentException if the name is not a valid CDI device name
     */
    public Builder<S> commonDevice(String name, ContainerEdits edits) {
      Objects.requireNonNull(name, "commonDevice name");
      Objects.requireNonNull(edits, "commonDevice edits");
      NameRules.deviceNameProblem(name).ifPresent(problem -> {
        throw new IllegalArgumentException("commonDevice name \"" + name + "\": " + problem);
      });
      this.commonDeviceName = name;
      this.commonDeviceEdits = edits;
      return this;
    }

    /**
     * Finishes; the checkpoint is opened when the plugin starts.
     *
     * @return the lifecycle, a {@link DraDriver}
     */
    public ClaimLifecycle<S> build() {
      return new ClaimLifecycle<>(this);
    }
  }
}
