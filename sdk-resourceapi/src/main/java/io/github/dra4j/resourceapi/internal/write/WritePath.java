package io.github.dra4j.resourceapi.internal.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.github.dra4j.resourceapi.Admission;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.GeneratedNames;
import io.github.dra4j.resourceapi.internal.conversion.FieldsNewerThan136;
import io.github.dra4j.resourceapi.internal.conversion.ServedVersions;
import io.github.dra4j.resourceapi.internal.conversion.VersionConversion;
import io.github.dra4j.resourceapi.internal.strategy.MetaUpdates;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's write path for {@code resource.k8s.io} objects sent as JSON in any served
 * version: convert to {@code v1} (the shape of the server's internal type), drop the fields 1.36
 * does not know, decode, default as the sent version does, name a new object from its {@code
 * generateName} ({@code rest.BeforeCreate}), take the stored resource version for an
 * unconditional update and keep what an update may not change ({@code rest.BeforeUpdate}), run
 * the kind's strategy and validation, collect its warnings, and encode what would be stored in
 * the sent version. Immutable and thread-safe.
 */
public final class WritePath {

  private final FeatureGates gates;
  private final Supplier<Instant> clock;
  private final Function<String, Map<String, String>> namespaceLabels;
  private final GeneratedNames names = new GeneratedNames();

  /**
   * Creates the write path.
   *
   * @param gates the server's feature gates
   * @param clock the server's clock
   * @param namespaceLabels a namespace's labels by name (null for a namespace that does not
   *     exist), or null if namespaces are not known
   */
  public WritePath(FeatureGates gates, Supplier<Instant> clock,
      Function<String, Map<String, String>> namespaceLabels) {
    this.gates = gates;
    this.clock = clock;
    this.namespaceLabels = namespaceLabels;
  }

  /**
   * Tells whether the write path covers a kind in an API version.
   *
   * @param apiVersion e.g. {@code resource.k8s.io/v1}
   * @param kind e.g. {@code ResourceSlice}
   * @return true if Kubernetes 1.36 serves the kind in that version (enabled or not)
   */
  public static boolean covers(String apiVersion, String kind) {
    String prefix = ServedVersions.GROUP + "/";
    return apiVersion != null && kind != null && apiVersion.startsWith(prefix)
        && Kinds.of(kind).isPresent()
        && ServedVersions.serves(kind, apiVersion.substring(prefix.length()));
  }

  /**
   * Runs a create.
   *
   * @param sent the object as sent
   * @return the outcome
   */
  public Admission create(ObjectNode sent) {
    return create(rulesOf(sent), sent);
  }

  /**
   * Runs an update of the main resource.
   *
   * @param sent the object as sent
   * @param stored the object as stored, in the same version
   * @return the outcome
   */
  public Admission update(ObjectNode sent, ObjectNode stored) {
    return update(rulesOf(sent), sent, stored, false);
  }

  /**
   * Runs an update of the status subresource.
   *
   * @param sent the object as sent
   * @param stored the object as stored, in the same version
   * @return the outcome
   */
  public Admission updateStatus(ObjectNode sent, ObjectNode stored) {
    return update(rulesOf(sent), sent, stored, true);
  }

  private <T extends HasMetadata> Admission create(KindRules<T> rules, ObjectNode sent) {
    WriteContext context = context(sent);
    T object = decoded(rules, sent, context);
    ObjectMeta meta = object.getMetadata();
    if (meta != null && isEmpty(meta.getName()) && !isEmpty(meta.getGenerateName())) {
      meta.setName(names.generate(meta.getGenerateName())); // rest.BeforeCreate names it first
    }
    List<FieldError> errors = rules.create().apply(object, context);
    if (!errors.isEmpty()) {
      return new Admission(sent, errors, List.of());
    }
    return new Admission(encoded(object, sent), List.of(),
        rules.warningsOnCreate().apply(object));
  }

  private <T extends HasMetadata> Admission update(KindRules<T> rules, ObjectNode sent,
      ObjectNode stored, boolean status) {
    if (status && !rules.hasStatus()) {
      throw new IllegalArgumentException(rules.kind() + " has no status subresource");
    }
    WriteContext context = context(sent);
    T object = decoded(rules, sent, context);
    T old = decoded(rules, withVersionOf(sent, stored), context(stored));
    ObjectMeta meta = object.getMetadata();
    if (meta != null && isEmpty(meta.getResourceVersion()) && old.getMetadata() != null) {
      // an unconditional update: the server takes the stored version before it validates
      meta.setResourceVersion(old.getMetadata().getResourceVersion());
    }
    MetaUpdates.keepServerFields(object, old);
    List<FieldError> errors = (status ? rules.updateStatus() : rules.update())
        .apply(object, old, context);
    if (!errors.isEmpty()) {
      return new Admission(sent, errors, List.of());
    }
    return new Admission(encoded(object, sent), List.of(),
        rules.warningsOnUpdate().apply(object, old));
  }

  private <T extends HasMetadata> T decoded(KindRules<T> rules, ObjectNode sent,
      WriteContext context) {
    ObjectNode v1 = VersionConversion.toV1(sent);
    FieldsNewerThan136.strip(v1);
    T object = ModelJson.decode(v1, rules.type());
    rules.defaults().accept(object, context);
    return object;
  }

  private static ObjectNode encoded(HasMetadata object, ObjectNode sent) {
    ObjectNode v1 = ModelJson.encode(object);
    v1.put("apiVersion", VersionConversion.V1);
    v1.put("kind", sent.path("kind").asString(""));
    return VersionConversion.fromV1(v1, sent.path("apiVersion").asString(""));
  }

  private static boolean isEmpty(String text) {
    return text == null || text.isEmpty();
  }

  private WriteContext context(ObjectNode sent) {
    return new WriteContext(gates, clock, sent.path("apiVersion").asString(""), namespaceLabels);
  }

  /** The stored object read in the version of the request, as the server's storage does. */
  private static ObjectNode withVersionOf(ObjectNode sent, ObjectNode stored) {
    if (!stored.has("apiVersion") || !stored.has("kind")) {
      ObjectNode copy = stored.deepCopy();
      copy.put("apiVersion", sent.path("apiVersion").asString(""));
      copy.put("kind", sent.path("kind").asString(""));
      return copy;
    }
    return stored;
  }

  private static KindRules<?> rulesOf(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asString("");
    String kind = object.path("kind").asString("");
    if (!covers(apiVersion, kind)) {
      throw new IllegalArgumentException(
          "not a resource.k8s.io kind these rules cover: apiVersion \""
              + apiVersion + "\", kind \"" + kind + "\"");
    }
    return Kinds.of(kind).orElseThrow();
  }
}
