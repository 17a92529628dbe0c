package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.device.GoStructs.list;
import static io.github.dra4j.resourceapi.internal.device.GoStructs.struct;
import static io.github.dra4j.resourceapi.internal.device.GoStructs.text;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import io.github.dra4j.resourceapi.internal.device.GoStructs;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders a claim spec as the API server prints it in {@code spec: Invalid value: ...: field is
 * immutable}: Go's {@code json.Marshal} of its internal (untagged) structs of Kubernetes 1.36,
 * with Go's field names in declaration order, {@code null} for absent pointers and lists,
 * quantities in canonical form and opaque parameters as sent (keys in their order). An empty list
 * prints as {@code null} here, where Go prints {@code []} if one was sent. Stateless.
 */
final class InternalSpecJson {

  private InternalSpecJson() {}

  /**
   * Renders a {@code resource.ResourceClaimSpec}.
   *
   * @param spec the spec, may be null
   * @return the JSON
   */
  static GoValues.Raw claimSpec(ResourceClaimSpec spec) {
    return GoValues.json(claimSpecStruct(spec));
  }

  /**
   * Renders a {@code resource.ResourceClaimTemplateSpec}: the embedded object metadata's fields
   * (with their JSON names, empty ones left out, {@code creationTimestamp} always), then {@code
   * Spec}.
   *
   * @param spec the spec, may be null
   * @return the JSON
   */
  static GoValues.Raw templateSpec(ResourceClaimTemplateSpec spec) {
    Map<String, Object> fields = new LinkedHashMap<>(objectMeta(
        spec == null || spec.getMetadata() == null ? new ObjectMeta() : spec.getMetadata()));
    fields.put("Spec", claimSpecStruct(spec == null ? null : spec.getSpec()));
    return GoValues.json(new GoValues.Struct(fields));
  }

  private static GoValues.Struct claimSpecStruct(ResourceClaimSpec spec) {
    DeviceClaim devices = spec == null || spec.getDevices() == null ? new DeviceClaim()
        : spec.getDevices();
    return struct("Devices", struct(
        "Requests", list(devices.getRequests(), InternalSpecJson::request),
        "Constraints", list(devices.getConstraints(), InternalSpecJson::constraint),
        "Config", list(devices.getConfig(), InternalSpecJson::config)));
  }

  private static GoValues.Struct request(DeviceRequest request) {
    ExactDeviceRequest exactly = request.getExactly();
    return struct("Name", text(request.getName()),
        "Exactly", exactly == null ? null : struct(
            "DeviceClassName", text(exactly.getDeviceClassName()),
            "Selectors", list(exactly.getSelectors(), InternalSpecJson::selector),
            "AllocationMode", text(exactly.getAllocationMode()),
            "Count", number(exactly.getCount()),
            "AdminAccess", exactly.getAdminAccess(),
            "Tolerations", list(exactly.getTolerations(), GoStructs::toleration),
            "Capacity", capacity(exactly.getCapacity())),
        "FirstAvailable", list(request.getFirstAvailable(), InternalSpecJson::subRequest));
  }

  private static GoValues.Struct subRequest(DeviceSubRequest sub) {
    return struct("Name", text(sub.getName()),
        "DeviceClassName", text(sub.getDeviceClassName()),
        "Selectors", list(sub.getSelectors(), InternalSpecJson::selector),
        "AllocationMode", text(sub.getAllocationMode()),
        "Count", number(sub.getCount()),
        "Tolerations", list(sub.getTolerations(), GoStructs::toleration),
        "Capacity", capacity(sub.getCapacity()));
  }

  private static GoValues.Struct selector(DeviceSelector selector) {
    return struct("CEL", selector.getCel() == null ? null
        : struct("Expression", text(selector.getCel().getExpression())));
  }

  private static GoValues.Struct capacity(CapacityRequirements capacity) {
    if (capacity == null) {
      return null;
    }
    Map<String, Object> requests = null;
    if (capacity.getRequests() != null && !capacity.getRequests().isEmpty()) {
      requests = new TreeMap<>();
      for (Map.Entry<String, Quantity> entry : capacity.getRequests().entrySet()) {
        requests.put(entry.getKey(), GoStructs.quantity(entry.getValue()));
      }
    }
    return struct("Requests", requests);
  }

  private static GoValues.Struct constraint(DeviceConstraint constraint) {
    return struct("Requests", list(constraint.getRequests(), name -> name),
        "MatchAttribute", constraint.getMatchAttribute(),
        "DistinctAttribute", constraint.getDistinctAttribute());
  }

  private static GoValues.Struct config(DeviceClaimConfiguration config) {
    OpaqueDeviceConfiguration opaque = config.getOpaque();
    // DeviceConfiguration is embedded without a tag: its field Opaque is promoted.
    return struct("Requests", list(config.getRequests(), name -> name),
        "Opaque", opaque == null ? null : struct("Driver", text(opaque.getDriver()),
            "Parameters", GoStructs.opaqueJson(opaque.getParameters())));
  }

  /** The JSON fields of a metav1.ObjectMeta, in Go's order, as its tags name them. */
  private static Map<String, Object> objectMeta(ObjectMeta meta) {
    Map<String, Object> fields = new LinkedHashMap<>();
    putIfSet(fields, "name", meta.getName());
    putIfSet(fields, "generateName", meta.getGenerateName());
    putIfSet(fields, "namespace", meta.getNamespace());
    putIfSet(fields, "selfLink", meta.getSelfLink());
    putIfSet(fields, "uid", meta.getUid());
    putIfSet(fields, "resourceVersion", meta.getResourceVersion());
    putIfSet(fields, "generation", meta.getGeneration());
    fields.put("creationTimestamp", meta.getCreationTimestamp());
    putIfSet(fields, "deletionTimestamp", meta.getDeletionTimestamp());
    putIfSet(fields, "deletionGracePeriodSeconds", meta.getDeletionGracePeriodSeconds());
    putIfSet(fields, "labels", meta.getLabels());
    putIfSet(fields, "annotations", meta.getAnnotations());
    putIfSet(fields, "ownerReferences", list(meta.getOwnerReferences(),
        InternalSpecJson::ownerReference));
    putIfSet(fields, "finalizers", meta.getFinalizers());
    putIfSet(fields, "managedFields", GoStructs.opaqueJson(meta.getManagedFields()));
    return fields;
  }

  private static GoValues.Struct ownerReference(OwnerReference ref) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("apiVersion", text(ref.getApiVersion()));
    fields.put("kind", text(ref.getKind()));
    fields.put("name", text(ref.getName()));
    fields.put("uid", text(ref.getUid()));
    putIfSet(fields, "controller", ref.getController());
    putIfSet(fields, "blockOwnerDeletion", ref.getBlockOwnerDeletion());
    return new GoValues.Struct(fields);
  }

  private static void putIfSet(Map<String, Object> fields, String name, Object value) {
    boolean empty = value == null || (value instanceof String text && text.isEmpty())
        || (value instanceof Map<?, ?> map && map.isEmpty())
        || (value instanceof List<?> list && list.isEmpty());
    if (!empty) {
      fields.put(name, value);
    }
  }

  private static long number(Long value) {
    return value == null ? 0 : value;
  }
}
