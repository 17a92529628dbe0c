package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import io.github.dra4j.resourceapi.GeneratedNames;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import io.github.dra4j.testing.apiserver.internal.watch.WatchHub;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Creates, updates and patches as kube-apiserver handles them, in front of the fabric8 store: the
 * namespace and name settled, {@code fieldValidation} of the object sent or made by a patch, the
 * API rules for the kinds they govern (the store then replaces the whole object with what they
 * decided), optimistic concurrency, {@code dryRun}, stored-object transformers and the warnings
 * of the write. Not thread-safe: the dispatcher calls it under its write lock.
 */
final class ObjectWrites {

  private final JsonMapper mapper;
  private final ServerBehaviour behaviour;
  private final WatchHub watches;
  private final GeneratedNames names;
  private final RulesAdmission rules;
  private final StoredGenerations generations;
  private final FieldValidation fieldValidation;
  private final RequestBodies bodies;
  private final StoreAnswers answers;
  private final Function<RecordedRequest, MockResponse> store;

  /**
   * Creates the handler.
   *
   * @param mapper JSON mapper
   * @param behaviour the test hooks (transformers)
   * @param watches the list/watch view of the store, for what is stored now
   * @param names generator of {@code generateName} suffixes
   * @param rules the API rules on the write path
   * @param generations the generations the rules decide
   * @param fieldValidation the unknown-field check
   * @param store the fabric8 store, which answers a request it is handed
   */
  ObjectWrites(JsonMapper mapper, ServerBehaviour behaviour, WatchHub watches,
      GeneratedNames names, RulesAdmission rules, StoredGenerations generations,
      FieldValidation fieldValidation, Function<RecordedRequest, MockResponse> store) {
    this.mapper = mapper;
    this.behaviour = behaviour;
    this.watches = watches;
    this.names = names;
    this.rules = rules;
    this.generations = generations;
    this.fieldValidation = fieldValidation;
    this.bodies = new RequestBodies(mapper);
    this.answers = new StoreAnswers(mapper);
    this.store = store;
  }

  /**
   * Answers a create.
   *
   * @param request the POST request
   * @param target what it addresses
   * @param info the resource
   * @return the answer
   * @throws ApiError for a write the server refuses
   */
  MockResponse create(RecordedRequest request, RequestTarget target, ResourceInfo info) {
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
      if (EventRules.governs(info, behaviour)) {
        EventRules.validate(admitted);
      }
      String name = admitted.path("metadata").path("name").asString("");
      if (watches.exists(target.resource(), target.namespace(), name)) {
        throw ApiError.alreadyExists(target.resource(), name);
      }
      if (options.dryRun()) {
        return answers.json(201, DryRuns.created(admitted));
      }
      MockResponse stored = governed ? storeAdmitted(request, admitted)
          : store.apply(bodies.withBody(request, admitted));
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
      MockResponse stored = store.apply(bodies.withBody(request, admitted));
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

  /**
   * Answers an update (PUT) or a patch, of the main resource or of its status.
   *
   * @param request the PUT or PATCH request
   * @param target what it addresses
   * @param info the resource
   * @return the answer
   * @throws ApiError for a write the server refuses
   */
  MockResponse update(RecordedRequest request, RequestTarget target, ResourceInfo info) {
    WriteOptions options = WriteOptions.of(target);
    JsonNode current = watches.get(target.resource(), target.namespace(), target.name());
    if (target.verb() == ApiVerb.UPDATE) {
      ObjectNode body = bodies.object(request);
      List<String> warnings = new ArrayList<>(
          fieldValidation.check(options.fieldValidation(), info, body));
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
    List<String> warnings = new ArrayList<>(
        fieldValidation.check(options.fieldValidation(), info, patched));
    return warned(warnings, () -> {
      if (!rules.governs(info) && !options.dryRun()) {
        RecordedRequest forwarded = PatchTypes.forStore(request, patch, current, target);
        MockResponse response = StoreAnswers.updated(store.apply(forwarded));
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
    if (EventRules.governs(info, behaviour)) {
      EventRules.validate(body);
    }
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
      return answers.json(200, body);
    }
    MockResponse response = StoreAnswers.updated(store.apply(forwarded));
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
      throw ApiError.modified(target.resource(), target.name());
    }
  }

  private MockResponse transformed(MockResponse response, GroupVersionResource resource) {
    if (!behaviour.hasTransformers(resource) || response.code() < 200 || response.code() >= 300
        || response.getBody() == null || response.getBody().size() == 0) {
      return response;
    }
    JsonNode body = bodies.parse(new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
    if (!(body instanceof ObjectNode object)) {
      return response;
    }
    return response.setBody(mapper.writeValueAsString(behaviour.transform(resource, object)));
  }

  private static String kindOf(JsonNode body, ResourceInfo info) {
    String kind = body.path("kind").asString("");
    return kind.isEmpty() && info.kind() != null ? info.kind() : kind;
  }
}
