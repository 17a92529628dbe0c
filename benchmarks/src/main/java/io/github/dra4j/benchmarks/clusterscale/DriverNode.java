package io.github.dra4j.benchmarks.clusterscale;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One simulated node of a cluster, as far as its DRA driver is concerned: a Node object and one
 * allocated claim in the shared API server, the node's own registry, plugin data and CDI
 * directories and boot ID, and the driver's DaemonSet pod: a {@link KubeletPlugin} in
 * rolling-update mode with a pod UID and its own API client, publishing one pool of a few
 * devices. The kubelet's side is a {@link KubeletClient} calling the plugin's DRA socket.
 *
 * <p>Used by one thread at a time; owns its plugin instances and their clients.
 */
final class DriverNode implements AutoCloseable {

  /** The driver name every node's plugin serves. */
  static final String DRIVER = "scale.example.com";

  /** Devices in the node's pool. */
  static final int DEVICES = 4;

  /** A short slice sync delay so an event settles fast; the requests are the same. */
  static final Duration SLICE_SYNC_DELAY = Duration.ofMillis(100);

  /**
   * How long both pods of an upgrade serve side by side before the old one stops: the DaemonSet
   * deletes the old pod once the new one is ready, so the two overlap.
   */
  static final Duration UPGRADE_OVERLAP = Duration.ofMillis(200);

  /**
   * How long {@link #publish()} waits at most for the ResourceSlice controller's background sync
   * to show; after that the event's quiet period is all that waits.
   */
  static final Duration SYNC_WAIT = Duration.ofSeconds(10);

  private final String name;
  private final InMemoryApiServer server;
  private final DriverSetup setup;
  private final KubeletClient kubelet;
  private final Path registry;
  private final Path data;
  private final Path cdi;
  private final Path bootId;
  private final Claim claim;
  private final List<Device> devices = new ArrayList<>();
  private Pod running;
  private boolean slicePublished;

  /** One driver pod: its plugin and the API client it was given. */
  private record Pod(String uid, KubernetesClient client, KubeletPlugin plugin) {}

  private DriverNode(String name, InMemoryApiServer server, DriverSetup setup,
      KubeletClient kubelet, Path root, Claim claim) throws IOException {
    this.name = name;
    this.server = server;
    this.setup = setup;
    this.kubelet = kubelet;
    this.registry = Files.createDirectories(root.resolve("reg"));
    this.data = Files.createDirectories(root.resolve("data"));
    this.cdi = Files.createDirectories(root.resolve("cdi"));
    this.bootId = Files.writeString(root.resolve("boot_id"), UUID.randomUUID() + "\n");
    this.claim = claim;
    for (int i = 0; i < DEVICES; i++) {
      devices.add(new DeviceBuilder().withName("gpu-" + i).build());
    }
  }

  /**
   * Adds a node to the cluster: its Node object and one allocated claim in the API server (made
   * with the server's own client, so not counted against the driver), and its directories.
   *
   * @param server the cluster's API server
   * @param setup how the node's driver is built
   * @param kubelet the kubelet side's client
   * @param root a fresh directory for this node
   * @param name the node name, {@code node-<n>}
   * @return the node; its driver is not started
   * @throws IOException if the directories cannot be made
   */
  static DriverNode create(InMemoryApiServer server, DriverSetup setup, KubeletClient kubelet,
      Path root, String name) throws IOException {
    KubernetesClient admin = server.client();
    admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of("kubernetes.io/hostname", name)).endMetadata().build()).create();
    ResourceClaim stored = BenchmarkClaims.store(admin, DRIVER, "claim-" + name);
    Claim claim = KubeletClient.claim("default", stored.getMetadata().getName(),
        stored.getMetadata().getUid());
    return new DriverNode(name, server, setup, kubelet, Files.createDirectories(root), claim);
  }

  /**
   * The node name.
   *
   * @return {@code node-<n>}
   */
  String name() {
    return name;
  }

  /** Starts the driver pod with a new pod UID. */
  void start() {
    if (running != null) {
      throw new IllegalStateException(name + ": the driver already runs");
    }
    running = launch(UUID.randomUUID().toString());
  }

  /**
   * Publishes the node's pool (the first call starts the ResourceSlice controller) and waits for
   * the controller's first sync, which runs in the background once the informer has listed: it
   * reads the Node (the slices' owner) and creates the slice if there is none. The waits read the
   * server's request log and the controller's counts, neither of which asks the API server; on a
   * loaded machine the sync can come later than any fixed quiet period.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  void publish() throws InterruptedException {
    KubeletPlugin plugin = running().plugin();
    plugin.publishResources(DriverResources.of(name, Pool.builder().devices(devices).build()));
    String nodePath = "/api/v1/nodes/" + name;
    boolean create = !slicePublished;
    long deadline = System.nanoTime() + SYNC_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      boolean nodeRead = server.requests().stream().anyMatch(r -> r.path().equals(nodePath));
      if (nodeRead && (!create || plugin.sliceStats().creates() > 0)) {
        break;
      }
      Thread.sleep(10);
    }
    slicePublished = slicePublished || plugin.sliceStats().creates() > 0;
  }

  /** Prepares the node's claim, as the kubelet does before a pod starts or after a restart. */
  void prepare() {
    String error = kubelet.prepare(running().plugin().draSocket(), claim)
        .getClaimsOrThrow(claim.getUid()).getError();
    if (!error.isEmpty()) {
      throw new IllegalStateException(name + ": prepare failed: " + error);
    }
  }

  /** Unprepares the node's claim. */
  void unprepare() {
    String error = kubelet.unprepare(running().plugin().draSocket(), claim)
        .getClaimsOrThrow(claim.getUid()).getError();
    if (!error.isEmpty()) {
      throw new IllegalStateException(name + ": unprepare failed: " + error);
    }
  }

  /**
   * The driver container restarts: same pod UID, same directories, a new process's client.
   *
   * @throws InterruptedException if interrupted while publishing
   */
  void restartPlugin() throws InterruptedException {
    String uid = running().uid();
    stop(running);
    running = null;
    running = launch(uid);
    publish();
  }

  /**
   * A rolling update with surge: the new pod starts and publishes, both serve for {@link
   * #UPGRADE_OVERLAP}, then the old one stops.
   *
   * @throws InterruptedException if interrupted while publishing or during the overlap
   */
  void upgrade() throws InterruptedException {
    Pod old = running();
    running = launch(UUID.randomUUID().toString());
    publish();
    Thread.sleep(UPGRADE_OVERLAP.toMillis());
    stop(old);
  }

  /** The driver pod stops. */
  void shutdown() {
    Pod pod = running();
    running = null;
    stop(pod);
  }

  private Pod running() {
    if (running == null) {
      throw new IllegalStateException(name + ": the driver does not run");
    }
    return running;
  }

  private Pod launch(String podUid) {
    KubernetesClient client = server.newClient();
    try {
      KubeletPlugin plugin = KubeletPlugin.builder(ScaleDrivers.create(setup, cdi))
          .driverName(DRIVER)
          .kubeClient(client)
          .nodeName(name)
          .registrarDirectory(registry)
          .pluginDataDirectory(data)
          .cdiDirectory(cdi)
          .bootIdSource(bootId)
          .rollingUpdate(podUid)
          .apiServer(a -> a.withClaimCache(setup.claimCache()))
          .slices(s -> s.withSyncDelay(SLICE_SYNC_DELAY))
          .shutdown(s -> s.withCloseOnShutdown(false))
          .start();
      return new Pod(podUid, client, plugin);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static void stop(Pod pod) {
    try {
      pod.plugin().close();
    } finally {
      pod.client().close();
    }
  }

  /** Stops the driver pod if it runs. */
  @Override
  public void close() {
    if (running != null) {
      Pod pod = running;
      running = null;
      stop(pod);
    }
  }
}
