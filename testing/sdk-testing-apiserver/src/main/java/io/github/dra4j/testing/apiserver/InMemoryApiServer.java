package io.github.dra4j.testing.apiserver;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.resourceapi.GeneratedNames;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.dispatch.Discovery;
import io.github.dra4j.testing.apiserver.internal.dispatch.InMemoryDispatcher;
import io.github.dra4j.testing.apiserver.internal.dispatch.ServerBehaviour;
import io.github.dra4j.testing.apiserver.internal.http.HttpFrontEnd;
import io.github.dra4j.testing.apiserver.internal.schema.ModelTypes;
import io.github.dra4j.testing.apiserver.internal.schema.OpenApiDocuments;
import io.github.dra4j.testing.apiserver.internal.watch.WatchHub;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An in-memory Kubernetes API server for tests and local development: the store of the fabric8
 * mock server in CRUD mode behind an HTTP layer of its own, extended with what DRA code needs from
 * a real server and what {@code kubectl} and client-go need from its wire protocol.
 *
 * <ul>
 *   <li>Label and field selectors on list, watch and delete-collection, with the fields the real
 *       server supports (ResourceSlice {@code spec.driver} and {@code spec.nodeName}, where {@code
 *       spec.nodeName=} selects slices without a node; Pod {@code spec.nodeName}; {@code
 *       metadata.name} and {@code metadata.namespace} everywhere). Unsupported fields answer 400.
 *   <li>Watches that resume from a resource version, deliver selection changes as ADDED/DELETED
 *       and answer 410 Expired beyond their history.
 *   <li>kube-apiserver's rules for {@code resource.k8s.io} ({@link ResourceApiRules}):
 *       validation answered with 422 and the real server's causes, defaults, and the create,
 *       update and status strategies, with the DRA feature gates of Kubernetes 1.36 (a builder
 *       option); {@code dryRun=All} checks a write without storing it; unknown fields are dropped
 *       from what is stored. The rules decide {@code metadata.generation}: slices, classes and
 *       taint rules count spec changes from 1, claims and claim templates have none unless their
 *       client sent one.
 *   <li>Real-looking {@code generateName} suffixes, delete preconditions (uid, resourceVersion),
 *       discovery documents and {@code /version}.
 *   <li>Test hooks: disabled group-versions (404), injected faults, injected hangs (requests
 *       read and never answered until the hang is cleared), stored-object transformers (to
 *       simulate disabled feature gates), a request log, and closing all watches.
 *   <li>The wire protocol of a real server, for clients other than fabric8: every answer carries
 *       its {@code Content-Type}; JSON is the one format spoken, so a client that asks for
 *       protobuf first ({@code Accept: application/vnd.kubernetes.protobuf, application/json},
 *       as client-go does) gets JSON and one that rules JSON out gets 406; every error is a
 *       {@code Status} object. Watches are served as chunked HTTP (newline-delimited JSON events)
 *       and over WebSocket (as fabric8 watches), including {@code sendInitialEvents} with its end
 *       bookmark.
 *   <li>OpenAPI v3 documents ({@code /openapi/v3}) whose operations offer {@code fieldValidation},
 *       with schemas read from the fabric8 model classes, so {@code kubectl create} and {@code
 *       replace} validate without extra flags: kubectl sends {@code fieldValidation=Strict} and
 *       this server rejects fields the kind's fabric8 model does not declare (400), or warns about
 *       them by default, in the object sent or in the object a patch makes. A warning comes with
 *       every answer after it arose, also an error. {@code /openapi/v2} is not served.
 *   <li>A {@code status} subresource only for kinds whose objects have a status (claims, pods,
 *       taint rules); for others (slices, classes) it answers 404.
 *   <li>Patches as JSON patch, JSON merge patch (RFC 7386) and strategic merge patch, which is
 *       applied as a merge patch: lists are replaced, also those a real server merges by key, and
 *       {@code $}-directives are refused. Server-side apply answers 415.
 * </ul>
 *
 * <p>As Kubernetes 1.36 does by default, only {@code resource.k8s.io/v1} is served; the builder's
 * {@code enableGroupVersion} turns {@code v1beta2}, {@code v1beta1} or {@code v1alpha3} on (as
 * {@code --runtime-config} does), and {@code disableGroupVersion} simulates an older server. Each
 * group-version is a separate store: objects created through {@code v1beta2} are not visible
 * through {@code v1} (a real server converts between versions).
 *
 * <p>Typical use: {@code try (var server = InMemoryApiServer.builder().build().start()) {
 * server.client()... }}. Thread-safe; the hooks may be changed while clients are connected.
 */
public final class InMemoryApiServer implements AutoCloseable {

  private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1",
      "namespaces");

  private final int requestedPort;
  private final ServerBehaviour behaviour;
  private final WatchHub watches;
  private final HttpFrontEnd http;
  private final ResourceApiRules rules;
  private final Object clientLock = new Object();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private KubernetesClient sharedClient;
  private volatile int port;
  private volatile boolean started;
  private volatile boolean closed;

  InMemoryApiServer(InMemoryApiServerBuilder builder) {
    JsonMapper mapper = JsonMapper.builder().build();
    ResourceCatalog catalog = ResourceCatalog.standard();
    this.requestedPort = builder.port();
    this.behaviour = new ServerBehaviour();
    builder.disabledGroupVersions().forEach(behaviour::disable);
    builder.transformers()
        .forEach((gvr, list) -> list.forEach(t -> behaviour.addTransformer(gvr, t)));
    behaviour.enforceApiRules(builder.enforceApiRules());
    this.watches = new WatchHub(mapper, builder.historyLimit());
    this.rules = ResourceApiRules.kubernetes136().withFeatureGates(builder.featureGates())
        .withNamespaceLabels(this::namespaceLabels);
    ModelTypes types = new ModelTypes();
    OpenApiDocuments openApi = new OpenApiDocuments(mapper, catalog, types,
        builder.kubernetesVersion());
    Discovery discovery = new Discovery(mapper, catalog, behaviour, builder.kubernetesVersion(),
        openApi);
    InMemoryDispatcher dispatcher = new InMemoryDispatcher(
        mapper, catalog, behaviour, watches, discovery, new GeneratedNames(builder.random()),
        types, rules);
    this.http = new HttpFrontEnd(dispatcher, mapper);
  }

  /**
   * Starts configuring a server.
   *
   * @return a builder with defaults: random port, the group-versions Kubernetes 1.36 serves by
   *     default, the API server's rules enforced with 1.36's feature gates, 10,000 watch events of
   *     history, {@code /version} reporting v1.36.0
   */
  public static InMemoryApiServerBuilder builder() {
    return new InMemoryApiServerBuilder();
  }

  /**
   * Starts listening on the loopback interface.
   *
   * @return this server
   * @throws IllegalStateException if already started or closed
   */
  public synchronized InMemoryApiServer start() {
    if (started || closed) {
      throw new IllegalStateException("in-memory API server was already started or closed");
    }
    port = http.start(InetAddress.getLoopbackAddress(), requestedPort);
    started = true;
    return this;
  }

  /**
   * Returns the client shared by everyone who asks; it is closed with the server. Like every client
   * from this server it does not retry failed requests itself, so injected faults reach the code
   * under test.
   *
   * @return the shared client, default namespace {@code default}
   */
  public KubernetesClient client() {
    synchronized (clientLock) {
      if (sharedClient == null) {
        sharedClient = newClient();
      }
      return sharedClient;
    }
  }

  /**
   * Creates a separate client (own connection pool and informer threads); it is closed with the
   * server if the caller does not close it earlier.
   *
   * @return a new client, default namespace {@code default}
   */
  public KubernetesClient newClient() {
    requireStarted();
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withNamespace("default")
        .withRequestRetryBackoffLimit(0)
        .withWatchReconnectInterval(200)
        .withHttp2Disable(true)
        .build();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
    synchronized (clientLock) {
      clients.add(client);
    }
    return client;
  }

  /**
   * Returns the base URL.
   *
   * @return e.g. {@code http://localhost:41234/}
   */
  public String url() {
    requireStarted();
    return "http://localhost:" + port + "/";
  }

  /**
   * Returns the port the server listens on.
   *
   * @return the TCP port
   */
  public int port() {
    requireStarted();
    return port;
  }

  /**
   * Makes every request on a group-version answer 404 from now on.
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   */
  public void disableGroupVersion(String groupVersion) {
    behaviour.disable(groupVersion);
  }

  /**
   * Serves a disabled group-version again.
   *
   * @param groupVersion e.g. {@code resource.k8s.io/v1}
   */
  public void enableGroupVersion(String groupVersion) {
    behaviour.enable(groupVersion);
  }

  /**
   * Answers the next {@code times} requests with this verb on this resource with an error status.
   * A 409 carries the real server's optimistic-concurrency message.
   *
   * @param verb e.g. {@link ApiVerb#UPDATE}
   * @param resource plural resource name in any version, e.g. {@code resourceslices}; null for
   *     every resource
   * @param status HTTP status, 400 to 599
   * @param times how many requests fail
   */
  public void failNext(ApiVerb verb, String resource, int status, int times) {
    behaviour.faults().add(verb, resource, status, times);
  }

  /**
   * Holds the next {@code times} requests with this verb on this resource without an answer: the
   * request is read and no response is written until {@link #clearHangs()} or {@link #close()},
   * as a server whose storage has stalled. A held request is answered as usual when the hangs are
   * cleared, if its client is still waiting; it appears in the request log once answered.
   *
   * @param verb e.g. {@link ApiVerb#GET}
   * @param resource plural resource name in any version, e.g. {@code resourceclaims}; null for
   *     every resource
   * @param times how many requests hang, at least 1 ({@code Integer.MAX_VALUE} for all of them)
   */
  public void hangNext(ApiVerb verb, String resource, int times) {
    behaviour.hangs().add(verb, resource, times);
  }

  /**
   * Holds every request from now on without an answer, whatever its path (discovery, {@code
   * /version} and health checks included), until {@link #clearHangs()}. New connections are
   * still accepted and requests read; watches already open stay open.
   */
  public void hangAll() {
    behaviour.hangs().hangEverything();
  }

  /**
   * Ends every hang: the rules of {@link #hangNext} and {@link #hangAll} are dropped and every
   * held request is answered now, as a server that recovers answers what it had read.
   *
   * @return how many held requests were released
   */
  public int clearHangs() {
    List<Runnable> released = behaviour.hangs().clear();
    released.forEach(Runnable::run);
    return released.size();
  }

  /**
   * Counts the requests held by a hang now.
   *
   * @return requests read and not answered
   */
  public int hungRequests() {
    return behaviour.hangs().held();
  }

  /**
   * Counts injected failures not yet used.
   *
   * @return remaining failures over all faults
   */
  public int pendingFaults() {
    return behaviour.faults().pending();
  }

  /** Drops every injected fault not yet used. */
  public void clearFaults() {
    behaviour.faults().clear();
  }

  /**
   * Transforms every state stored for a resource from now on (see {@link StoredObjectTransformer}).
   *
   * @param resource the resource, e.g. {@link GroupVersionResource#RESOURCE_SLICES_V1}
   * @param transformer the transformer, e.g. {@code StoredObjectTransformer.removeField(
   *     "spec.devices[].taints")}
   */
  public void addTransformer(GroupVersionResource resource, StoredObjectTransformer transformer) {
    behaviour.addTransformer(resource, transformer);
  }

  /** Removes every stored-object transformer. */
  public void clearTransformers() {
    behaviour.clearTransformers();
  }

  /**
   * Switches the API server's rules for {@code resource.k8s.io} on or off from now on.
   *
   * @param enabled false to store what clients send as it is, e.g. to plant an object a real
   *     server would refuse, as one written by an older server might be
   */
  public void enforceApiRules(boolean enabled) {
    behaviour.enforceApiRules(enabled);
  }

  /**
   * Returns the rules this server enforces, with its feature gates.
   *
   * @return the rules
   */
  public ResourceApiRules apiRules() {
    return rules;
  }

  /**
   * Returns the request log.
   *
   * @return every request answered since start or the last {@link #clearRequests()}
   */
  public List<ApiRequest> requests() {
    return behaviour.requests().snapshot();
  }

  /**
   * Counts logged requests that satisfy a condition.
   *
   * @param condition the condition
   * @return how many requests satisfy it
   */
  public long countRequests(Predicate<ApiRequest> condition) {
    return requests().stream().filter(condition).count();
  }

  /**
   * Counts successful writes (create, update, patch, delete, delete-collection) on a resource.
   *
   * @param resource plural resource name in any version, e.g. {@code resourceslices}
   * @return how many writes the server accepted
   */
  public long countWrites(String resource) {
    return countRequests(
        r -> r.isSuccessfulWrite() && r.resource() != null
            && r.resource().resource().equals(resource));
  }

  /** Empties the request log. */
  public void clearRequests() {
    behaviour.requests().clear();
  }

  /**
   * Ends every open watch from the server side; clients resume from their last resource version.
   *
   * @return how many watches were closed
   */
  public int closeWatches() {
    return watches.closeAll();
  }

  /**
   * Counts open watches.
   *
   * @return watches currently served
   */
  public int openWatches() {
    return watches.openCount();
  }

  /**
   * Renders a kubeconfig that points at this server (plain HTTP, a dummy token).
   *
   * @return kubeconfig YAML
   */
  public String kubeconfig() {
    return Kubeconfig.render(url());
  }

  /**
   * Writes {@link #kubeconfig()} to a file, atomically (a reader never sees a partial file).
   *
   * @param file where to write; parent directories are created
   * @return the file
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  public Path writeKubeconfig(Path file) {
    return Kubeconfig.write(kubeconfig(), file);
  }

  /**
   * The labels of a namespace, for the admin-access rule. This server does not model namespace
   * lifecycle (objects may live in namespaces that were never created), so a namespace without an
   * object reads as one without labels, as {@code default} is on a real cluster.
   */
  private Map<String, String> namespaceLabels(String namespace) {
    JsonNode object = watches.get(NAMESPACES, null, namespace);
    Map<String, String> labels = new HashMap<>();
    if (object != null) {
      object.path("metadata").path("labels").properties()
          .forEach(entry -> labels.put(entry.getKey(), entry.getValue().asString("")));
    }
    return labels;
  }

  private void requireStarted() {
    if (!started) {
      throw new IllegalStateException("in-memory API server is not started");
    }
    if (closed) {
      throw new IllegalStateException("in-memory API server is closed");
    }
  }

  /** Closes the clients it handed out, ends all watches and stops listening. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<KubernetesClient> toClose;
    synchronized (clientLock) {
      toClose = new ArrayList<>(clients);
      clients.clear();
      sharedClient = null;
    }
    toClose.forEach(KubernetesClient::close);
    behaviour.hangs().close();
    watches.close();
    http.close();
  }
}
