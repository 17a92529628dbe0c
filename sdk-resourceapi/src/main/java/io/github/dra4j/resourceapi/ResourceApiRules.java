package io.github.dra4j.resourceapi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.dra4j.resourceapi.internal.conversion.ServedVersions;
import io.github.dra4j.resourceapi.internal.conversion.VersionConversion;
import io.github.dra4j.resourceapi.internal.field.Json;
import io.github.dra4j.resourceapi.internal.write.WritePath;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's rules for {@code resource.k8s.io} (Kubernetes 1.36): the one entry point to
 * check ResourceSlices, ResourceClaims (spec and status), ResourceClaimTemplates, DeviceClasses
 * and DeviceTaintRules of any served version the way the API server does, and to see what it
 * would store.
 *
 * <p>A driver checks its own objects in a unit test: {@code
 * ResourceApiRules.kubernetes136().requireValid(deviceClass)} throws {@link
 * InvalidResourceException} with the server's message if a cluster would refuse it. The in-memory
 * API server runs every write through {@link #create}, {@link #update} and {@link
 * #updateStatus}; the SDK checks the slices and claim status it writes with {@link #validate} and
 * {@link #validateStatusUpdate} before sending them.
 *
 * <p>Immutable and thread-safe.
 */
public final class ResourceApiRules {

  private final FeatureGates gates;
  private final Clock clock;
  private final Function<String, Map<String, String>> namespaceLabels;
  private final WritePath writes;

  private ResourceApiRules(FeatureGates gates, Clock clock,
      Function<String, Map<String, String>> namespaceLabels) {
    this.gates = gates;
    this.clock = clock;
    this.namespaceLabels = namespaceLabels;
    this.writes = new WritePath(gates, clock::instant, namespaceLabels);
  }

  /**
   * Returns the rules of Kubernetes 1.36 with its default feature gates, the system clock, and
   * no knowledge of namespaces (admin access to devices is then not checked).
   *
   * @return the rules
   */
  public static ResourceApiRules kubernetes136() {
    return new ResourceApiRules(FeatureGates.kubernetes136(), Clock.systemUTC(), null);
  }

  /**
   * Returns these rules with other feature gates.
   *
   * @param gates the gates
   * @return the changed rules
   */
  public ResourceApiRules withFeatureGates(FeatureGates gates) {
    return new ResourceApiRules(Objects.requireNonNull(gates, "gates"), clock, namespaceLabels);
  }

  /**
   * Returns these rules with another clock for the times the server sets (such as when a device
   * taint was added).
   *
   * @param clock the clock
   * @return the changed rules
   */
  public ResourceApiRules withClock(Clock clock) {
    return new ResourceApiRules(gates, Objects.requireNonNull(clock, "clock"), namespaceLabels);
  }

  /**
   * Returns these rules with a way to read namespaces, so that admin access to devices is checked
   * as the server does: only in a namespace labelled {@code
   * resource.kubernetes.io/admin-access: "true"}.
   *
   * @param labels a namespace's labels by name; null for a namespace that does not exist
   * @return the changed rules
   */
  public ResourceApiRules withNamespaceLabels(Function<String, Map<String, String>> labels) {
    return new ResourceApiRules(gates, clock, Objects.requireNonNull(labels, "labels"));
  }

  /**
   * Returns the feature gates.
   *
   * @return the gates
   */
  public FeatureGates featureGates() {
    return gates;
  }

  /**
   * Tells whether these rules cover a kind in an API version.
   *
   * @param apiVersion e.g. {@code resource.k8s.io/v1beta1}
   * @param kind e.g. {@code ResourceClaim}
   * @return true for the {@code resource.k8s.io} kinds and versions Kubernetes 1.36 serves
   *     (enabled by default or not)
   */
  public boolean governs(String apiVersion, String kind) {
    return WritePath.covers(apiVersion, kind);
  }

  /**
   * Lists the kinds and versions of {@code resource.k8s.io} Kubernetes 1.36 serves, and which of
   * them are enabled by default ({@code v1}; the beta and alpha versions need {@code
   * --runtime-config}).
   *
   * @return the served versions, by kind, newest version first
   */
  public static List<ServedVersion> servedVersions() {
    return ServedVersions.all();
  }

  /**
   * Converts an object between two versions the server serves, as the server does when a client
   * reads or writes another version than the stored one: through {@code v1}, with each version's
   * own shape ({@code v1beta1} nests a slice device's fields under {@code basic} and a request's
   * fields beside, not in, {@code exactly}) and its zero values ({@code v1beta1}'s {@code
   * nodeName: ""} and {@code allNodes: false} of a slice are unset in {@code v1}). No defaults
   * are applied and nothing is validated. Fields the target version has no place for are
   * dropped, as the server drops them; fields it has but does not know of in Kubernetes 1.36
   * travel along.
   *
   * @param object an object of a kind these rules govern, or a list of them ({@code apiVersion}
   *     and {@code kind} set); not changed
   * @param apiVersion the target, e.g. {@code resource.k8s.io/v1beta1}
   * @return a new tree in the target version
   * @throws IllegalArgumentException if the object's version or the target does not serve its
   *     kind
   */
  public static ObjectNode convert(ObjectNode object, String apiVersion) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(apiVersion, "apiVersion");
    return VersionConversion.fromV1(VersionConversion.toV1(object), apiVersion);
  }

  /**
   * Runs a create through the server's write path: the sent version's defaults, the create
   * strategy (status dropped, fields behind disabled gates dropped, server-set fields filled in)
   * and validation.
   *
   * @param object the object as sent, in any served version (not changed)
   * @return the object as it would be stored, or the refused fields
   * @throws IllegalArgumentException if the object is not of a kind these rules govern, or does
   *     not decode as its kind (a field of the wrong JSON type), naming the field
   */
  public Admission create(ObjectNode object) {
    return writes.create(object);
  }

  /**
   * Runs an update of the main resource through the server's write path: what the client may not
   * change kept as stored, the update strategy (status kept as stored, fields behind disabled
   * gates dropped unless stored already) and update validation.
   *
   * @param object the object as sent, in any served version (not changed)
   * @param stored the object as stored now, in the same version
   * @return the object as it would be stored, or the refused fields
   * @throws IllegalArgumentException as {@link #create}
   */
  public Admission update(ObjectNode object, ObjectNode stored) {
    return writes.update(object, stored);
  }

  /**
   * Runs an update of the {@code status} subresource through the server's write path: the status
   * strategy (everything but the status kept as stored) and status validation.
   *
   * @param object the object as sent, in any served version (not changed)
   * @param stored the object as stored now, in the same version
   * @return the object as it would be stored, or the refused fields
   * @throws IllegalArgumentException as {@link #create}, or if the kind has no status
   */
  public Admission updateStatus(ObjectNode object, ObjectNode stored) {
    return writes.updateStatus(object, stored);
  }

  /**
   * Checks an object as the server checks a create of it (after its defaults and create
   * strategy).
   *
   * @param object a ResourceSlice, ResourceClaim, ResourceClaimTemplate, DeviceClass or
   *     DeviceTaintRule of fabric8's model, in any served version
   * @return the refused fields; empty if a cluster would accept it
   * @throws IllegalArgumentException if the object is not of a kind these rules govern
   */
  public List<FieldError> validate(HasMetadata object) {
    return create(json(object)).errors();
  }

  /**
   * Checks an update of an object as the server checks it.
   *
   * @param object the new object
   * @param stored the object as stored now
   * @return the refused fields; empty if a cluster would accept the update
   * @throws IllegalArgumentException as {@link #validate}
   */
  public List<FieldError> validateUpdate(HasMetadata object, HasMetadata stored) {
    return update(json(object), json(stored)).errors();
  }

  /**
   * Checks an update of an object's status as the server checks it.
   *
   * @param object the object with the new status
   * @param stored the object as stored now
   * @return the refused fields; empty if a cluster would accept the update
   * @throws IllegalArgumentException as {@link #validate}, or if the kind has no status
   */
  public List<FieldError> validateStatusUpdate(HasMetadata object, HasMetadata stored) {
    return updateStatus(json(object), json(stored)).errors();
  }

  /**
   * Checks an object as {@link #validate} does and throws if a cluster would refuse it.
   *
   * @param object the object
   * @throws InvalidResourceException with the server's message if any field is refused
   * @throws IllegalArgumentException if the object is not of a kind these rules govern
   */
  public void requireValid(HasMetadata object) {
    List<FieldError> errors = validate(object);
    if (!errors.isEmpty()) {
      throw new InvalidResourceException(object.getKind(),
          object.getMetadata() == null || object.getMetadata().getName() == null ? ""
              : object.getMetadata().getName(),
          errors);
    }
  }

  private static ObjectNode json(HasMetadata object) {
    Objects.requireNonNull(object, "object");
    return (ObjectNode) Json.tree(object);
  }
}
