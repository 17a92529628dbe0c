package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The rules of a new {@code status.allocation}, as the scheduler writes it
 * (validateAllocationResult of Kubernetes 1.36): the allocated devices with the requests they
 * satisfy, the configuration copied from the claim and its classes, and the node selector. Only a
 * new allocation is checked this way; a stored one may only stay as it is. Stateless.
 */
final class AllocationResultValidation {

  /** The allowed configuration sources, in the order the server lists them. */
  private static final List<String> CONFIG_SOURCES = List.of("FromClaim", "FromClass");

  private AllocationResultValidation() {}

  /**
   * validateAllocationResult for a new allocation.
   *
   * @param allocation the allocation, not null
   * @param path {@code status.allocation}
   * @param requestNames the claim's request names
   * @return the errors
   */
  static List<FieldError> allocation(AllocationResult allocation, FieldPath path,
      RequestNames requestNames) {
    List<FieldError> errors = new ArrayList<>();
    DeviceAllocationResult devices = allocation.getDevices();
    FieldPath devicesPath = path.child("devices");
    errors.addAll(Collections.list(devices == null ? null : devices.getResults(),
        ResourceLimits.ALLOCATION_RESULTS_MAX,
        (result, resultPath) -> result(result, resultPath, requestNames),
        devicesPath.child("results")));
    // The configuration of the claim and of its classes: twice the limit of one of them.
    errors.addAll(Collections.list(devices == null ? null : devices.getConfig(),
        2 * ResourceLimits.DEVICE_CONFIG_MAX,
        (config, configPath) -> config(config, configPath, requestNames),
        devicesPath.child("config")));
    if (allocation.getNodeSelector() != null) {
      errors.addAll(CoreRules.nodeSelector(allocation.getNodeSelector(),
          path.child("nodeSelector")));
    }
    return errors;
  }

  private static List<FieldError> result(DeviceRequestAllocationResult result, FieldPath path,
      RequestNames requestNames) {
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(requestNames.checkReference(result.getRequest(), path.child("request")));
    errors.addAll(DeviceFieldRules.driverName(nullToEmpty(result.getDriver()),
        path.child("driver")));
    errors.addAll(DeviceFieldRules.poolName(nullToEmpty(result.getPool()), path.child("pool")));
    errors.addAll(DeviceFieldRules.deviceName(nullToEmpty(result.getDevice()),
        path.child("device")));
    errors.addAll(DeviceFieldRules.bindingParameters(result.getBindingConditions(),
        result.getBindingFailureConditions(), path));
    // Kubernetes 1.37: each of tolerations is also checked as a device toleration (1.36 leaves
    // them to declarative validation, which only shadows for ResourceClaims).
    if (result.getShareID() != null) {
      errors.addAll(DeviceFieldRules.uid(result.getShareID(), path.child("shareID")));
    }
    errors.addAll(skipNodeOperations(result.getSkipNodeOperations(),
        path.child("skipNodeOperations")));
    return errors;
  }

  /**
   * validateSkipNodeOperations. Kubernetes 1.37: the field came with the DRAOptionalNodeOperations
   * gate (alpha); a 1.36 server drops it on write, before validation, so this only matters for
   * objects of a later one.
   */
  private static List<FieldError> skipNodeOperations(List<String> operations, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (operations != null && operations.contains("NodePrepareResources")
        && !operations.contains("NodeUnprepareResources") && !operations.contains("*")) {
      // A []resource.SkipNodeOperation, printed as JSON.
      errors.add(Errors.invalid(path, operations,
          "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped"));
    }
    return errors;
  }

  private static List<FieldError> config(DeviceAllocationConfiguration config, FieldPath path,
      RequestNames requestNames) {
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(source(config.getSource(), path.child("source")));
    errors.addAll(Collections.set(config.getRequests(), ResourceLimits.DEVICE_REQUESTS_MAX,
        (name, namePath) -> requestNames.checkReference(name, namePath),
        Function.identity(), path.child("requests")));
    errors.addAll(DeviceConfigRules.deviceConfiguration(config.getOpaque(), path, false));
    return errors;
  }

  private static List<FieldError> source(String source, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (source == null || source.isEmpty()) {
      errors.add(Errors.required(path, ""));
    } else if (!CONFIG_SOURCES.contains(source)) {
      errors.add(Errors.notSupported(path, GoValues.typed(source), CONFIG_SOURCES));
    }
    return errors;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
