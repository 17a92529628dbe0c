package io.github.dra4j.testing.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import io.github.dra4j.testing.kubelet.FakeKubelet;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.kubelet.UnprepareOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A Kubernetes node in one JVM, for developing and testing a DRA driver without a cluster: an
 * in-memory API server, a fake kubelet watching a plugin registry directory, the scheduler's
 * structured allocator and a CDI spec directory, all in a temporary directory.
 *
 * <p>A test starts its driver with {@link #startDriver}, which configures the plugin for this node
 * and waits until the kubelet registered it; then it creates a class and a claim, {@link
 * #allocate}s, {@link #prepare}s, reads the {@link #containerEdits} a container would get, and
 * {@link #unprepare}s. Owns everything it starts; {@link #close()} stops it all and deletes the
 * directory. Thread-safe for use from one test at a time.
 */
public final class SimulatedNode implements AutoCloseable {

  /** How long waits for registration and convergence may take on a loaded machine. */
  public static final Duration WAIT = Duration.ofSeconds(60);

  private final String nodeName;
  private final Path root;
  private final boolean deleteRoot;
  private final InMemoryApiServer apiServer;
  private final Node node;
  private final NodeScheduler scheduler;
  private final List<KubeletPlugin> plugins = new CopyOnWriteArrayList<>();
  private volatile FakeKubelet kubelet;
  private final SimulatedPods pods = new SimulatedPods(this);

  private SimulatedNode(String nodeName, Path root, boolean deleteRoot) throws IOException {
    this.nodeName = nodeName;
    this.root = root;
    this.deleteRoot = deleteRoot;
    Files.createDirectories(registryDirectory());
    Files.createDirectories(cdiDirectory());
    Files.writeString(bootIdFile(), UUID.randomUUID() + "\n");
    this.apiServer = InMemoryApiServer.builder().build().start();
    this.node = apiServer.client().nodes().resource(new NodeBuilder()
        .withNewMetadata().withName(nodeName)
        .withLabels(Map.of("kubernetes.io/hostname", nodeName)).endMetadata()
        .build()).create();
    this.kubelet = newKubelet();
    this.scheduler = new NodeScheduler(apiServer.client(), node);
  }

  /**
   * Starts a node named {@code node-1} in a new temporary directory, deleted on close.
   *
   * @return the running node
   */
  public static SimulatedNode start() {
    return start("node-1");
  }

  /**
   * Starts a node with a given name in a new temporary directory, deleted on close.
   *
   * @param nodeName the Node name
   * @return the running node
   */
  public static SimulatedNode start(String nodeName) {
    try {
      return new SimulatedNode(nodeName, NodeDirectory.create(), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the node's directory", e);
    }
  }

  /**
   * Starts a node in a given directory (kept on close), for example a JUnit {@code @TempDir}.
   *
   * @param nodeName the Node name
   * @param root a directory; socket paths under it must stay below 107 bytes
   * @return the running node
   */
  public static SimulatedNode start(String nodeName, Path root) {
    try {
      return new SimulatedNode(nodeName, root, false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the node's directories in " + root, e);
    }
  }

  private FakeKubelet newKubelet() {
    return FakeKubelet.builder()
        .registryDirectory(registryDirectory())
        .nodeName(nodeName)
        .kubeClient(apiServer.client())
        .start();
  }

  /**
   * Starts a driver's kubelet plugin on this node, as its DaemonSet pod would: rolling-update
   * mode with a fresh pod UID, the node's registry, plugin data and CDI directories and boot ID,
   * a short ResourceSlice sync delay, no shutdown hook. Returns once the kubelet has registered it.
   *
   * @param driverName the DRA driver name
   * @param driver the driver
   * @param customize further builder settings (may override the defaults), or null
   * @return the running plugin (closed by {@link #close()} if not before)
   */
  public KubeletPlugin startDriver(
      String driverName, DraDriver driver, Consumer<KubeletPluginBuilder> customize) {
    Path dataDirectory = pluginDataDirectory(driverName);
    try {
      Files.createDirectories(dataDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    KubeletPluginBuilder builder = KubeletPlugin.builder(driver)
        .driverName(driverName)
        .kubeClient(apiServer.client())
        .nodeName(nodeName)
        .nodeUid(node.getMetadata().getUid())
        .registrarDirectory(registryDirectory())
        .pluginDataDirectory(dataDirectory)
        .cdiDirectory(cdiDirectory())
        .bootIdSource(bootIdFile())
        .rollingUpdate(UUID.randomUUID().toString())
        .slices(s -> s.withSyncDelay(Duration.ofMillis(200)))
        .shutdown(s -> s.withCloseOnShutdown(false));
    if (customize != null) {
      customize.accept(builder);
    }
    KubeletPlugin plugin = builder.start();
    plugins.add(plugin);
    kubelet.awaitRegistered(plugin.registrationSocket(), WAIT);
    return plugin;
  }

  /**
   * Upgrades a driver the way a DaemonSet rolling update with surge does: starts the new instance,
   * waits until the kubelet registered it, then stops the old one.
   *
   * @param old the running instance
   * @param driverName the driver name
   * @param next the new driver version
   * @param customize further builder settings for the new instance, or null
   * @return the new instance
   */
  public KubeletPlugin upgradeDriver(KubeletPlugin old, String driverName, DraDriver next,
      Consumer<KubeletPluginBuilder> customize) {
    KubeletPlugin fresh = startDriver(driverName, next, customize);
    Path oldSocket = old.registrationSocket();
    old.close();
    plugins.remove(old);
    kubelet.awaitDeregistered(oldSocket, WAIT);
    return fresh;
  }

  /**
   * Creates a DeviceClass selecting devices with CEL expressions (all must match).
   *
   * @param name the class name
   * @param celSelectors selector expressions, e.g. {@code device.driver == "gpu.example.com"}
   * @return the stored class
   */
  public DeviceClass createDeviceClass(String name, String... celSelectors) {
    DeviceClassBuilder builder = new DeviceClassBuilder()
        .withNewMetadata().withName(name).endMetadata().withNewSpec().endSpec();
    for (String expression : celSelectors) {
      builder.editSpec().addNewSelector().withNewCel().withExpression(expression).endCel()
          .endSelector().endSpec();
    }
    return client().resource(builder.build()).create();
  }

  /**
   * Creates a claim with one request for {@code count} devices of a class.
   *
   * @param namespace the namespace
   * @param name the claim name
   * @param request the request name
   * @param deviceClassName the class
   * @param count how many devices
   * @return the stored claim (not yet allocated)
   */
  public ResourceClaim createClaim(
      String namespace, String name, String request, String deviceClassName, long count) {
    return createClaim(claim(namespace, name, request, deviceClassName, count));
  }

  /**
   * Creates a claim with one request for {@code count} devices of a class and the device
   * configurations a user would write for it ({@code spec.devices.config[]}, in this order).
   *
   * @param namespace the namespace
   * @param name the claim name
   * @param request the request name
   * @param deviceClassName the class
   * @param count how many devices
   * @param configs the configurations, such as {@code OpaqueConfig.of(driver, apiVersion, kind,
   *     "{\"sharing\": \"TimeSlicing\"}", request)}
   * @return the stored claim (not yet allocated)
   */
  public ResourceClaim createClaim(String namespace, String name, String request,
      String deviceClassName, long count, OpaqueConfig... configs) {
    return createClaim(claim(namespace, name, request, deviceClassName, count, configs));
  }

  /**
   * A claim with one request for {@code count} devices of a class and device configurations, not
   * stored: for an admission webhook's tests, or to change before {@link
   * #createClaim(ResourceClaim)}.
   *
   * @param namespace the namespace
   * @param name the claim name
   * @param request the request name
   * @param deviceClassName the class
   * @param count how many devices
   * @param configs the configurations, in {@code spec.devices.config[]} order
   * @return the claim
   */
  public static ResourceClaim claim(String namespace, String name, String request,
      String deviceClassName, long count, OpaqueConfig... configs) {
    ResourceClaimBuilder claim = new ResourceClaimBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName(request).withNewExactly()
        .withDeviceClassName(deviceClassName).withAllocationMode("ExactCount").withCount(count)
        .endExactly().endRequest().endDevices().endSpec();
    for (OpaqueConfig config : configs) {
      claim.editSpec().editDevices().addToConfig(config.toClaimConfig()).endDevices().endSpec();
    }
    return claim.build();
  }

  /**
   * Creates a DeviceClass with configurations ({@code spec.config[]}, which the scheduler copies
   * into every claim allocated from it, before the claim's own) and CEL selectors.
   *
   * @param name the class name
   * @param configs the configurations, each without requests
   * @param celSelectors selector expressions, all of which must match
   * @return the stored class
   */
  public DeviceClass createDeviceClass(String name, List<OpaqueConfig> configs,
      String... celSelectors) {
    DeviceClass created = createDeviceClass(name, celSelectors);
    DeviceClassBuilder updated = new DeviceClassBuilder(created);
    configs.forEach(c -> updated.editSpec().addToConfig(c.toClassConfig()).endSpec());
    return client().resource(updated.build()).update();
  }

  /**
   * Stores any claim.
   *
   * @param claim the claim
   * @return the stored claim
   */
  public ResourceClaim createClaim(ResourceClaim claim) {
    return client().resource(claim).create();
  }

  /**
   * Allocates a claim on this node as the scheduler would, from the DeviceClasses and
   * ResourceSlices in the API server and the claims already allocated, and stores the allocation.
   *
   * @param claim the claim (its current version is read from the API server)
   * @return the stored claim with {@code status.allocation}
   * @throws AllocationFailedException with the scheduler's reason if it cannot be allocated
   */
  public ResourceClaim allocate(ResourceClaim claim) {
    // All slices: the allocator itself picks those that reach this node (nodeName, allNodes,
    // nodeSelector, per-device), and judges pool completeness from every slice of a pool.
    return scheduler.allocate(claim, client().dynamicResourceAllocation().v1().resourcesSlices()
        .list().getItems());
  }

  /**
   * Asks the kubelet to prepare claims with the driver, as it does before starting a pod.
   *
   * @param driverName the driver
   * @param claims the allocated claims
   * @return what the kubelet saw, with its verdict
   */
  public PrepareOutcome prepare(String driverName, ResourceClaim... claims) {
    return kubelet.prepare(driverName, references(claims));
  }

  /**
   * Asks the kubelet to unprepare claims, as it does after the last pod using them is gone.
   *
   * @param driverName the driver
   * @param claims the claims
   * @return what the kubelet saw, with its verdict
   */
  public UnprepareOutcome unprepare(String driverName, ResourceClaim... claims) {
    return kubelet.unprepare(driverName, references(claims));
  }

  /**
   * The container edits a CDI-enabled runtime applies for the devices a prepare returned: the CDI
   * specs in this node's CDI directory, resolved the way containerd and CRI-O resolve them.
   *
   * @param outcome a successful prepare
   * @param claim the claim whose devices to resolve
   * @return the merged edits (env, device nodes, mounts, hooks)
   */
  public ContainerEdits containerEdits(PrepareOutcome outcome, ResourceClaim claim) {
    List<String> ids = outcome.devices(claim.getMetadata().getUid()).stream()
        .map(PrepareOutcome.Device::cdiDeviceIds).flatMap(List::stream).toList();
    return CdiRegistry.load(List.of(cdiDirectory())).resolve(ids).edits();
  }

  /**
   * Runs pods on this node: their claims made from templates, allocated and prepared, and what
   * each container gets.
   *
   * @return the node's pods
   */
  public SimulatedPods pods() {
    return pods;
  }

  /**
   * The ResourceSlices of this node in the API server.
   *
   * @return slices whose {@code spec.nodeName} is this node
   */
  public List<ResourceSlice> slices() {
    return client().dynamicResourceAllocation().v1().resourcesSlices()
        .withField("spec.nodeName", nodeName).list().getItems();
  }

  /**
   * Waits until a driver's slices on this node list the given number of devices in total.
   *
   * @param driverName the driver
   * @param devices how many devices are expected
   * @return the driver's slices on this node
   * @throws IllegalStateException if that does not happen within {@link #WAIT}
   */
  public List<ResourceSlice> awaitDevices(String driverName, int devices) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    List<ResourceSlice> slices = List.of();
    while (System.nanoTime() < deadline) {
      slices = slices().stream()
          .filter(s -> driverName.equals(s.getSpec().getDriver())).toList();
      int published = slices.stream().mapToInt(s -> s.getSpec().getDevices() == null
          ? 0 : s.getSpec().getDevices().size()).sum();
      if (published == devices) {
        return slices;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for slices", e);
      }
    }
    throw new IllegalStateException("driver " + driverName + " did not publish " + devices
        + " devices on node " + nodeName + " within " + WAIT + "; last seen: " + slices.size()
        + " slice(s)");
  }

  /**
   * Restarts the kubelet: it forgets all plugins, wipes this node's ResourceSlices, and
   * rediscovers the registration sockets. Running drivers republish their slices.
   */
  public void restartKubelet() {
    kubelet.restart();
  }

  /**
   * Reboots the node: its drivers' plugins stop (as their processes die), the CDI directory is
   * emptied (it is a tmpfs), the boot ID changes, and the kubelet starts again, deleting the
   * node's ResourceSlices. Plugin data directories, with the drivers' checkpoints, survive, and
   * the API server keeps its objects. The test then starts its drivers again and, as the kubelet
   * does for the pods it restarts, prepares their claims again ({@link SimulatedPods#prepareAgain}).
   */
  public void reboot() {
    for (KubeletPlugin plugin : plugins) {
      plugin.close();
    }
    plugins.clear();
    try (Stream<Path> specs = Files.list(cdiDirectory())) {
      for (Path spec : specs.toList()) {
        Files.delete(spec);
      }
      Files.writeString(bootIdFile(), UUID.randomUUID() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reboot node " + nodeName, e);
    }
    kubelet.restart();
  }

  /**
   * The API client of the in-memory API server.
   *
   * @return a client (owned by the node)
   */
  public KubernetesClient client() {
    return apiServer.client();
  }

  /**
   * The in-memory API server, for fault injection and request counts.
   *
   * @return the server
   */
  public InMemoryApiServer apiServer() {
    return apiServer;
  }

  /**
   * The fake kubelet, for its call log, registered plugins and device health.
   *
   * @return the kubelet
   */
  public FakeKubelet kubelet() {
    return kubelet;
  }

  /**
   * The Node name.
   *
   * @return the name
   */
  public String nodeName() {
    return nodeName;
  }

  /**
   * The kubelet's plugin registry directory.
   *
   * @return {@code <root>/registry}
   */
  public Path registryDirectory() {
    return root.resolve("registry");
  }

  /**
   * A driver's plugin data directory.
   *
   * @param driverName the driver
   * @return {@code <root>/plugins/<driver>}
   */
  public Path pluginDataDirectory(String driverName) {
    return root.resolve("plugins").resolve(driverName);
  }

  /**
   * The CDI spec directory the runtime reads (the node's {@code /var/run/cdi}).
   *
   * @return {@code <root>/cdi}
   */
  public Path cdiDirectory() {
    return root.resolve("cdi");
  }

  /**
   * The node's boot ID, which {@link #reboot()} changes; every plugin started here reads it.
   *
   * @return {@code <root>/boot_id}
   */
  public Path bootIdFile() {
    return root.resolve("boot_id");
  }

  /** Stops the drivers, the kubelet and the API server, and deletes a temporary directory. */
  @Override
  public void close() {
    for (KubeletPlugin plugin : plugins) {
      plugin.close();
    }
    plugins.clear();
    kubelet.close();
    apiServer.close();
    if (deleteRoot) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      } catch (IOException e) {
        // A leftover temporary directory is harmless.
      }
    }
  }

  private static List<ClaimReference> references(ResourceClaim... claims) {
    List<ClaimReference> refs = new ArrayList<>();
    for (ResourceClaim claim : Arrays.asList(claims)) {
      refs.add(new ClaimReference(claim.getMetadata().getNamespace(),
          claim.getMetadata().getName(), claim.getMetadata().getUid()));
    }
    return refs;
  }
}
