package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.schema.ModelTypes;
import io.github.dra4j.testing.apiserver.internal.selection.InvalidSelectorException;
import io.github.dra4j.testing.apiserver.internal.selection.Selection;
import io.github.dra4j.testing.apiserver.internal.watch.WatchHub;
import java.nio.charset.StandardCharsets;
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
 * disabled group-versions, injected faults, the request log, real-looking {@code generateName}
 * suffixes, delete preconditions, ResourceSlice validation, {@code fieldValidation} and content
 * negotiation (JSON only). It answers list, watch and delete-collection itself from the {@link
 * WatchHub}, honouring label and field selectors and watch resource versions; a watch is handed
 * back as an open stream for the HTTP layer to serve over a WebSocket or a chunked response.
 *
 * <p>Thread safety: the dispatcher is called concurrently by the HTTP server's event loops. All
 * writes are serialized by {@link #writes}; the mock's own lock guards its store; the hub guards
 * itself.
 */
public final class InMemoryDispatcher extends KubernetesCrudDispatcher {

  /** The real server's message for a write based on an old copy. */
  private static final String MODIFIED = "the object has been modified; please apply your changes"
      + " to the latest version and try again";

  private static final Logger LOG = LoggerFactory.getLogger(InMemoryDispatcher.class);

  private final JsonMapper mapper;
  private final ResourceCatalog catalog;
  private final ServerBehaviour behaviour;
  private final WatchHub watches;
  private final Discovery discovery;
  private final GeneratedNames names;
  private final ModelTypes types;
  private final RulesAdmission rules;
  private final StoredGenerations generations;
  private final FieldValidation fieldValidation;
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
    this.rules = new RulesAdmission(apiRules, behaviour);
    this.generations = new StoredGenerations(rules);
    this.fieldValidation = new FieldValidation(types);
    this.bodies = new RequestBodies(mapper);
    this.answers = new StoreAnswers(mapper);
    this.catalog = catalog;
    this.behaviour = behaviour;
    this.watches = watches;
    this.discovery = discovery;
    this.names = names;
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
      case CREATE -> locked(() -> create(request, target, info));
      case UPDATE, PATCH -> locked(() -> update(request, target, info));
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
      return ApiError.conflict(target.resource(), name, MODIFIED);
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
    return json(200, listBody(info, snapshot.resourceVersion(), snapshot.items()));
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

  private MockResponse create(RecordedRequest request, RequestTarget target, ResourceInfo info) {
    WriteOptions options = WriteOptions.of(target);
    ObjectNode body = bodies.object(request);
    ObjectNode metadata = body.withObjectProperty("metadata");
    matchNamespace(target, info, metadata);
    boolean governed = rules.governs(info);
    if (metadata.path("name").asString("").isEmpty()) {
      String prefix = metadata.path("generateName").asString("");
      if (!prefix.isEmpty()) {
        String name;
        do {
          name = names.generate(prefix);
        } while (watches.exists(target.resource(), target.namespace(), name));
        metadata.put("name", name);
      } else if (!governed) {
        throw ApiError.invalid(kindOf(body, info), target.resource().group(), "",
            List.of(new FieldError(FieldErrorType.REQUIRED, "metadata.name", null,
                "name or generateName is required")));
      }
    }
    List<String> warnings = new ArrayList<>(
        fieldValidation.check(options.fieldValidation(), info, body));
    fieldValidation.dropUnknown(info, body);
    return warned(warnings, () -> {
      ObjectNode admitted = governed ? rules.create(info, body, warnings) : body;
      String name = admitted.path("metadata").path("name").asString("");
      if (watches.exists(target.resource(), target.namespace(), name)) {
        throw ApiError.alreadyExists(target.resource(), name);
      }
      if (options.dryRun()) {
        return json(201, DryRuns.created(admitted));
      }
      MockResponse stored = governed ? storeAdmitted(request, admitted)
          : super.dispatch(bodies.withBody(request, admitted));
      return transformed(stored, target.resource());
    });
  }

  /**
   * Answers the rest of a write whose body has been read, with the warnings of reading it (and
   * those the rules add): a real server writes each warning as a header as soon as it arises, so
   * an error answer after that carries them too.
   */
  private static MockResponse warned(List<String> warnings, Supplier<MockResponse> rest) {
    try {
      return StoreAnswers.withWarnings(rest.get(), warnings);
    } catch (ApiError e) {
      throw e.withWarnings(warnings);
    }
  }

  /**
   * Hands an object the rules admitted to the store, keeping the generation they decided (the
   * store would give it generation 1) in what is stored and in the answer.
   */
  private MockResponse storeAdmitted(RecordedRequest request, ObjectNode admitted) {
    generations.creating(admitted);
    try {
      MockResponse stored = super.dispatch(bodies.withBody(request, admitted));
      if (stored.code() == 201 && stored.getBody() != null) {
        ObjectNode answer = (ObjectNode) bodies.parse(
            new String(stored.getBody().getBytes(), StandardCharsets.UTF_8));
        generations.onCreate(answer);
        stored.setBody(mapper.writeValueAsString(answer));
      }
      return stored;
    } finally {
      generations.created();
    }
  }

  private MockResponse update(RecordedRequest request, RequestTarget target, ResourceInfo info) {
    WriteOptions options = WriteOptions.of(target);
    JsonNode current = watches.get(target.resource(), target.namespace(), target.name());
    if (target.verb() == ApiVerb.UPDATE) {
      ObjectNode body = bodies.object(request);
      List<String> warnings =
          new ArrayList<>(fieldValidation.check(options.fieldValidation(), info, body));
      return warned(warnings,
          () -> replace(request, target, info, options, body, current, warnings));
    }
    PatchTypes.checkContentType(request);
    JsonNode patch = bodies.json(request);
    if (current == null) {
      // the server reads the stored object before it applies and decodes the patch
      throw ApiError.objectNotFound(target.resource(), target.name());
    }
    if (!(PatchTypes.apply(request, patch, current, target) instanceof ObjectNode patched)) {
      throw new ApiError(400, "BadRequest", "the patched object is not a JSON object");
    }
    // the server decodes the patched object, so unknown fields are named where they end up
    List<String> warnings =
        new ArrayList<>(fieldValidation.check(options.fieldValidation(), info, patched));
    return warned(warnings, () -> {
      if (!rules.governs(info) && !options.dryRun()) {
        RecordedRequest forwarded = PatchTypes.forStore(request, patch, current, target);
        MockResponse response = StoreAnswers.updated(super.dispatch(forwarded));
        return transformed(answers.notFoundWithStatus(response, target), target.resource());
      }
      return replace(request, target, info, options, patched, current, warnings);
    });
  }

  /** Stores the whole new state of an object sent with PUT or made by a patch. */
  private MockResponse replace(RecordedRequest request, RequestTarget target, ResourceInfo info,
      WriteOptions options, ObjectNode sent, JsonNode current, List<String> warnings) {
    ObjectNode body = sent;
    matchNamespace(target, info, body.withObjectProperty("metadata"));
    checkResourceVersion(target, body);
    if (current == null) {
      throw ApiError.objectNotFound(target.resource(), target.name());
    }
    if (body.path("metadata").path("resourceVersion").asString("").isEmpty()) {
      // an unconditional update: the server takes the stored version before it validates
      body.withObjectProperty("metadata").put("resourceVersion",
          current.path("metadata").path("resourceVersion").asString(""));
    }
    fieldValidation.dropUnknown(info, body);
    boolean status = "status".equals(target.subresource());
    RecordedRequest forwarded;
    if (rules.governs(info)) {
      body = rules.update(info, body, (ObjectNode) current, status, warnings);
      // the rules decided what is stored, status or not: the store replaces the whole object
      forwarded = RequestBodies.copy(request, request.getHeaders(), mapper.writeValueAsBytes(body),
          RequestTarget.objectPath(target.resource(), target.namespace(), target.name()),
          HttpMethod.PUT);
    } else {
      forwarded = bodies.withBody(request, body);
      if (target.verb() == ApiVerb.PATCH) {
        forwarded = RequestBodies.copy(request, request.getHeaders(),
            mapper.writeValueAsBytes(body), request.getPath(), HttpMethod.PUT);
      }
    }
    if (options.dryRun()) {
      return json(200, body);
    }
    MockResponse response = StoreAnswers.updated(super.dispatch(forwarded));
    return transformed(answers.notFoundWithStatus(response, target), target.resource());
  }

  /**
   * The namespace of a written object, as the real server settles it before anything else: taken
   * from the request path when the object has none, cleared for a cluster-scoped kind, and a 400
   * when the object names another namespace than the path.
   */
  private static void matchNamespace(RequestTarget target, ResourceInfo info,
      ObjectNode metadata) {
    String expected = info.namespaced() && target.namespace() != null ? target.namespace() : "";
    String sent = metadata.path("namespace").asString("");
    if (sent.equals(expected)) {
      return;
    }
    if (sent.isEmpty()) {
      metadata.put("namespace", expected);
    } else if (expected.isEmpty()) {
      metadata.remove("namespace");
    } else {
      throw new ApiError(400, "BadRequest",
          "the namespace of the provided object does not match the namespace sent on the request");
    }
  }

  /**
   * Optimistic concurrency, as the real server does it: an update that names a resourceVersion
   * other than the stored one is refused with 409, so a writer that read an old copy cannot
   * overwrite a newer one. An update without a resourceVersion is unconditional.
   */
  private void checkResourceVersion(RequestTarget target, ObjectNode body) {
    String sent = body.path("metadata").path("resourceVersion").asString("");
    if (sent.isEmpty()) {
      return;
    }
    JsonNode current = watches.get(target.resource(), target.namespace(), target.name());
    if (current != null
        && !sent.equals(current.path("metadata").path("resourceVersion").asString(""))) {
      throw ApiError.conflict(target.resource(), target.name(), MODIFIED);
    }
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
      return json(200, (ObjectNode) current);
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
    return json(200, listBody(info, watches.latestResourceVersion(), deleted));
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
    if (newState != null && oldState == null && generations.isCreating()) {
      ObjectNode state = (ObjectNode) bodies.parse(newState);
      generations.onCreate(state);
      stored = mapper.writeValueAsString(state);
    }
    if (stored != null && gvr != null && behaviour.hasTransformers(gvr)) {
      ObjectNode state = (ObjectNode) bodies.parse(stored);
      stored = mapper.writeValueAsString(behaviour.transform(gvr, state));
    }
    super.processEvent(path, pathAttributes, oldAttributes, stored == newState ? resource : null,
        stored);
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

  private MockResponse transformed(MockResponse response, GroupVersionResource resource) {
    if (!behaviour.hasTransformers(resource) || response.code() < 200 || response.code() >= 300
        || response.getBody() == null || response.getBody().size() == 0) {
      return response;
    }
    JsonNode body =
        bodies.parse(new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
    if (!(body instanceof ObjectNode object)) {
      return response;
    }
    return response.setBody(mapper.writeValueAsString(behaviour.transform(resource, object)));
  }

  private static String kindOf(JsonNode body, ResourceInfo info) {
    String kind = body.path("kind").asString("");
    return kind.isEmpty() && info.kind() != null ? info.kind() : kind;
  }

  private MockResponse json(int code, ObjectNode body) {
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", AcceptHeader.JSON)
        .setBody(mapper.writeValueAsString(body));
  }
}
