package io.github.dra4j.resourceapi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
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

  private ResourceApiRules(FeatureGates gates, Clock clock) {
    this.gates = gates;
    this.clock = clock;
  }

  /**
   * Returns the rules of Kubernetes 1.36 with its default feature gates.
   *
   * @return the rules
   */
  public static ResourceApiRules kubernetes136() {
    return new ResourceApiRules(FeatureGates.kubernetes136(), Clock.systemUTC());
  }

  /**
   * Returns these rules with other feature gates.
   *
   * @param gates the gates
   * @return the changed rules
   */
  public ResourceApiRules withFeatureGates(FeatureGates gates) {
    return new ResourceApiRules(Objects.requireNonNull(gates, "gates"), clock);
  }

  /**
   * Returns these rules with another clock for the times the server sets (such as when a device
   * taint was added).
   *
   * @param clock the clock
   * @return the changed rules
   */
  public ResourceApiRules withClock(Clock clock) {
    return new ResourceApiRules(gates, Objects.requireNonNull(clock, "clock"));
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
   */
  public boolean governs(String apiVersion, String kind) {
    return false; // IN PROGRESS
  }

  /**
   * Runs a create through the server's write path: defaults, the create strategy (status dropped,
   * fields behind disabled gates dropped, server-set fields filled in) and validation.
   *
   * @param object the object as sent, in any served version (not changed)
   * @return the object as it would be stored, or the refused fields
   * @throws IllegalArgumentException if the object is not of a kind these rules govern, or does
   *     not decode as its kind (a field of the wrong JSON type), naming the field
   */
  public Admission create(ObjectNode object) {
    return new Admission(object, List.of(), List.of()); // IN PROGRESS
  }

  /**
   * Runs an update of the main resource through the server's write path: the update strategy
   * (status kept as stored, fields behind disabled gates dropped unless stored already) and
   * update validation.
   *
   * @param object the object as sent, in any served version (not changed)
   * @param stored the object as stored now, in the same version
   * @return the object as it would be stored, or the refused fields
   * @throws IllegalArgumentException as {@link #create}
   */
  public Admission update(ObjectNode object, ObjectNode stored) {
    return new Admission(object, List.of(), List.of()); // IN PROGRESS
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
    return new Admission(object, List.of(), List.of()); // IN PROGRESS
  }
}
