package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.github.dra4j.resourceapi.GeneratedNames;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.schema.ModelTypes;
import io.github.dra4j.testing.apiserver.internal.selection.InvalidSelectorException;
import io.github.dra4j.testing.apiserver.internal.selection.Selection;
import io.github.dra4j.testing.apiserver.internal.watch.WatchHub;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request handler of the in-memory API server: the fabric8 CRUD dispatcher (which stores
 * objects, assigns UIDs and resource versions, and checks optimistic concurrency on update)
 * wrapped with what the plain mock lacks. Before the mock sees a request this class applies
 * disabled group-versions, unserved status subresources, injected faults, the request log, delete
 * preconditions and content negotiation (JSON only); creates, updates and patches go through
 * {@link ObjectWrites} (names, {@code fieldValidation}, the API rules, {@code dryRun}), and the
 * store keeps the generation the rules decide. It answers list, watch and delete-collection
 * itself from the {@link
 * WatchHub}, honouring label and field selectors and watch resource versions; a watch is handed
 * back as an open stream for the HTTP layer to serve over a WebSocket or a chunked response.
 *
 * <p>Thread safety: the dispatcher is called concurrently by the HTTP server's event loops. All
 * writes are serialized by {@link #writes}; the mock's own lock guards its store; the hub guards
 * itself.
 */
public final class InMemoryDispatcher extends KubernetesCrudDispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(InMemoryDispatcher.class);

  private final JsonMapper mapper;
  private final ResourceCatalog catalog;
  private final ServerBehaviour behaviour;
  private final WatchHub watches;
  private final Discovery discovery;
  private final ModelTypes types;
  private final StoredGenerations generations;
  private final ObjectWrites objectWrites;
  private final RequestBodies bodies;
  private final StoreAnswers answers;
  private final ReentrantLock writes = new ReentrantLock();

  /**
   * Creates the dispatcher.
   *
   * @param mapper JSON mapper
   * @param catalog served resources and their selectable fields
   * @param behaviour the test hooks
   * @param watches the list/watch view of the store
   * @param discovery the non-resource responder
   * @param names generator of {@code generateName} suffixes
   * @param types the fabric8 model lookup behind {@code fieldValidation}
   * @param apiRules the API server's rules for {@code resource.k8s.io}
   */
  public InMemoryDispatcher(
      JsonMapper mapper,
      ResourceCatalog catalog,
      ServerBehaviour behaviour,
      WatchHub watches,
      Discovery discovery,
      GeneratedNames names,
      ModelTypes types,
      ResourceApiRules apiRules) {
    this.mapper = mapper;
    this.types = types;
    RulesAdmission rules = new RulesAdmission(apiRules, behaviour);
    this.generations = new StoredGenerations(rules);
    this.objectWrites = new ObjectWrites(mapper, behaviour, watches, names, rules, generations,
        new FieldValidation(types), super::dispatch);
    this.bodies = new RequestBodies(mapper);
    this.answers = new StoreAnswers(mapper);
    this.catalog = catalog;
    this.behaviour = behaviour;
    this.watches = watches;
    this.discovery = discovery;
  }

  /**
   * Answers one request. Every complete answer carries a {@code Content-Type}; every error is a
   * {@code Status} object.
   *
   * @param request the request with its body
   * @return the response, or the watch to stream
   */
  public Answer handle(RecordedRequest request) {
    RequestTarget target = null;
    Answer answer;
    int loggedStatus;
    try {
      target = RequestTarget.parse(request.getMethod(), request.getPath());
      answer = route(request, target);
      loggedStatus = answer instanceof Answer.Complete complete
          ? complete.response().code()
          : isWebSocketUpgrade(request.getHeader("Upgrade")) ? 101 : 200;
    } catch (ApiError e) {
      answer = new Answer.Complete(e.toResponse(mapper));
      loggedStatus = e.code();
    } catch (RuntimeException e) {
      LOG.warn("In-memory API server failed on {} {}", request.getMethod(), request.getPath(), e);
      ApiError error = new ApiError(500, "InternalError", "in-memory API server: " + e);
      answer = new Answer.Complete(error.toResponse(mapper));
      loggedStatus = 500;
    }
    LOG.debug("{} {} -> {}", request.getMethod(), request.getPath(), loggedStatus);
    behaviour.requests().record(target, request.getPath(), loggedStatus);
    return answer;
  }

  /**
   * Holds a request instead of answering it if an injected hang matches it ({@link HangPlan}).
   * A path that is not a resource (discovery, {@code /version}) or cannot be parsed is held only
   * while everything hangs.
   *
   * @param request the request as read
   * @param answer what answers it once the hang is cleared
   * @return true if it is held: nothing is to be answered now
   */
  public boolean holdIfHung(RecordedRequest request, Runnable answer) {
    ApiVerb verb = null;
    GroupVersionResource resource = null;
    try {
      RequestTarget target = RequestTarget.parse(request.getMethod(), request.getPath());
      verb = target.verb();
      resource = target.resource();
    } catch (RuntimeException unparseable) {
      // held only when everything hangs; answered with its error otherwise
    }
    boolean held = behaviour.hangs().hold(verb, resource, answer);
    if (held) {
      LOG.debug("{} {} held by an injected hang", request.getMethod(), request.getPath());
    }
    return held;
  }

  /**
   * Answers one request the way fabric8's mock web server expects; a watch, which needs the
   * streaming HTTP layer, is closed again and answered with 400.
   *
   * @param request the request with its body
   * @return the complete response
   */
  @Override
  public MockResponse dispatch(RecordedRequest request) {
    Answer answer = handle(request);
    if (answer instanceof Answer.Watch watch) {
      watch.stream().clientClosed();
      return new ApiError(400, "BadRequest", "watch requires the in-memory API server's HTTP layer")
          .toResponse(mapper);
    }
    return ((Answer.Complete) answer).response();
  }

  /**
   * Tells whether a request asks for a WebSocket (as fabric8 watches do) rather than plain HTTP.
   *
   * @param upgrade the request's {@code Upgrade} header, or null
   * @return true if it names {@code websocket}
   */
  public static boolean isWebSocketUpgrade(String upgrade) {
    return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
  }

  private Answer route(RecordedRequest request, RequestTarget target) {
    if (target.kind() != RequestTarget.Kind.RESOURCE) {
      if (target.kind() != RequestTarget.Kind.HEALTH && target.kind() != RequestTarget.Kind.OTHER) {
        requireJson(request);
      }
      return complete(discovery.answer(target));
    }
    GroupVersionResource resource = target.resource();
    ResourceInfo info = catalog.describe(resource, target.namespace() != null);
    if (behaviour.isDisabled(resource.groupVersion()) || !served(info, target.subresource())) {
      throw ApiError.pathNotFound();
    }
    requireJson(request);
    OptionalInt fault = behaviour.faults().take(target.verb(), resource);
    if (fault.isPresent()) {
      throw injected(fault.getAsInt(), target);
    }
    if (target.verb() == ApiVerb.WATCH) {
      return new Answer.Watch(watches.open(selection(target, info), WatchQuery.parse(target)));
    }
    return complete(switch (target.verb()) {
      case LIST -> list(target, info);
      case GET -> answers.notFoundWithStatus(super.dispatch(request), target);
      case CREATE -> locked(() -> objectWrites.create(request, target, info));
      case UPDATE, PATCH -> locked(() -> objectWrites.update(request, target, info));
      case DELETE -> locked(() -> delete(request, target));
      case DELETE_COLLECTION -> locked(() -> deleteCollection(target, info));
      case WATCH -> throw new IllegalStateException("watch answered above");
    });
  }

  /**
   * Tells whether the server serves a subresource: {@code status} only for kinds whose objects
   * have a status (not for slices, classes or config maps, say); others as the store does.
   */
  private boolean served(ResourceInfo info, String subresource) {
    return !"status".equals(subresource) || info.kind() == null
        || types.hasStatus(info.gvr().groupVersion(), info.kind()).orElse(true);
  }

  private static void requireJson(RecordedRequest request) {
    if (!AcceptHeader.allowsJson(request.getHeader("Accept"))) {
      throw AcceptHeader.notAcceptable();
    }
  }

  private Answer complete(MockResponse response) {
    return new Answer.Complete(answers.normalized(response));
  }

  private ApiError injected(int status, RequestTarget target) {
    String name = target.name() == null ? "" : target.name();
    if (status == 409) {
      return ApiError.modified(target.resource(), name);
    }
    return new ApiError(status, ApiError.reasonFor(status),
        "injected fault for " + target.verb() + " " + target.resource().qualifiedResource()
            + (name.isEmpty() ? "" : " \"" + name + "\""));
  }

  private MockResponse locked(Supplier<MockResponse> action) {
    writes.lock();
    try {
      return action.get();
    } finally {
      writes.unlock();
    }
  }

  private Selection selection(RequestTarget target, ResourceInfo info) {
    try {
      return Selection.parse(
          info,
          target.namespace(),
          target.queryParameter("labelSelector"),
          target.queryParameter("fieldSelector"));
    } catch (InvalidSelectorException e) {
      throw new ApiError(400, "BadRequest", e.getMessage());
    }
  }

  private MockResponse list(RequestTarget target, ResourceInfo info) {
    WatchHub.Snapshot snapshot = watches.list(selection(target, info));
    return answers.json(200, listBody(info, snapshot.resourceVersion(), snapshot.items()));
  }

  private ObjectNode listBody(ResourceInfo info, long resourceVersion, List<JsonNode> items) {
    ObjectNode list = mapper.createObjectNode();
    list.put("apiVersion", info.kind() == null ? "v1" : info.gvr().groupVersion());
    list.put("kind", info.listKind());
    list.putObject("metadata").put("resourceVersion", Long.toString(resourceVersion));
    ArrayNode array = list.putArray("items");
    items.forEach(array::add);
    return list;
  }

  private MockResponse delete(RecordedRequest request, RequestTarget target) {
    boolean dryRun = WriteOptions.of(target).dryRun();
    String body = RequestBodies.text(request);
    if (body != null && !body.isBlank()) {
      JsonNode preconditions = bodies.parse(body).path("preconditions");
      String uid = preconditions.path("uid").asString("");
      String resourceVersion = preconditions.path("resourceVersion").asString("");
      if (!uid.isEmpty() || !resourceVersion.isEmpty()) {
        JsonNode current = watches.get(target.resource(), target.namespace(), target.name());
        if (current == null) {
          throw ApiError.objectNotFound(target.resource(), target.name());
        }
        checkPrecondition(target, "UID", uid, current.path("metadata").path("uid"));
        checkPrecondition(target, "ResourceVersion", resourceVersion,
            current.path("metadata").path("resourceVersion"));
      }
    }
    if (dryRun) {
      JsonNode current = watches.get(target.resource(), target.namespace(), target.name());
      if (current == null) {
        throw ApiError.objectNotFound(target.resource(), target.name());
      }
      return answers.json(200, (ObjectNode) current);
    }
    return answers.notFoundWithStatus(super.dispatch(request), target);
  }

  private static void checkPrecondition(
      RequestTarget target, String field, String expected, JsonNode actual) {
    if (!expected.isEmpty() && !expected.equals(actual.asString(""))) {
      throw ApiError.conflict(target.resource(), target.name(),
          "Precondition failed: " + field + " in precondition: " + expected + ", " + field
              + " in object meta: " + actual.asString(""));
    }
  }

  private MockResponse deleteCollection(RequestTarget target, ResourceInfo info) {
    WatchHub.Snapshot snapshot = watches.list(selection(target, info));
    List<JsonNode> deleted = new ArrayList<>();
    for (JsonNode item : snapshot.items()) {
      JsonNode metadata = item.path("metadata");
      String path = RequestTarget.objectPath(target.resource(),
          metadata.path("namespace").asString(""), metadata.path("name").asString(""));
      MockResponse response = super.handleDelete(path);
      if (response.code() >= 200 && response.code() < 300) {
        deleted.add(item);
      }
    }
    return answers.json(200, listBody(info, watches.latestResourceVersion(), deleted));
  }

  /**
   * Stores a state change and feeds it to watches, after applying the registered transformers.
   * Every write path of the mock (create, update, patch, delete) ends here.
   */
  @Override
  public void processEvent(
      String path,
      AttributeSet pathAttributes,
      AttributeSet oldAttributes,
      GenericKubernetesResource resource,
      String newState) {
    RequestTarget target = RequestTarget.parse("GET", path);
    GroupVersionResource gvr = target.resource();
    String oldState = oldAttributes == null ? null : map.get(oldAttributes);
    String stored = newState;
    boolean rewritten = false;
    if (newState != null && oldState == null && generations.isCreating()) {
      ObjectNode state = (ObjectNode) bodies.parse(newState);
      generations.onCreate(state);
      stored = mapper.writeValueAsString(state);
      rewritten = true;
    }
    if (stored != null && gvr != null && behaviour.hasTransformers(gvr)) {
      ObjectNode state = (ObjectNode) bodies.parse(stored);
      stored = mapper.writeValueAsString(behaviour.transform(gvr, state));
      rewritten = true;
    }
    super.processEvent(path, pathAttributes, oldAttributes, rewritten ? null : resource, stored);
    if (gvr != null) {
      watches.record(gvr, oldState, stored, this::requestResourceVersion);
    }
  }

  /**
   * Copies the stored metadata into an update, as the store does, but leaves the generation to
   * {@link StoredGenerations} (the rules' decision for the kinds they govern) and writes no
   * namespace for a cluster-scoped object.
   */
  @Override
  public void preserveMetadata(JsonNode stored, JsonNode updated) {
    JsonNode sent = updated.path("metadata").get("generation");
    super.preserveMetadata(StoredGenerations.withGeneration(stored), updated);
    generations.onUpdate(stored, updated, sent == null ? null : sent.deepCopy());
    if (updated.path("metadata").path("namespace").isNull()) {
      // the store copies an absent namespace as null; a real server writes none
      ((ObjectNode) updated.get("metadata")).remove("namespace");
    }
  }

  /** Counts spec changes in the generation, as the store does, where the rules do not. */
  @Override
  public void touchGeneration(JsonNode stored, JsonNode updated) {
    if (!generations.governs(updated)) {
      super.touchGeneration(stored, updated);
    }
  }
}
