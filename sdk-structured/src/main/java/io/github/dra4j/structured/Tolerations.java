package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.List;

/**
 * Device taints and request tolerations: a taint with effect {@code NoSchedule} or {@code
 * NoExecute} blocks allocation unless some toleration tolerates it; other effects are ignored.
 * Stateless.
 */
final class Tolerations {

  private Tolerations() {}

  /** Returns true when every blocking taint of the device is tolerated. */
  static boolean allTolerated(List<DeviceTaint> taints, List<DeviceToleration> tolerations) {
    return firstUntolerated(taints, tolerations) == null;
  }

  /** Returns the first blocking taint no toleration tolerates, or null when there is none. */
  static DeviceTaint firstUntolerated(List<DeviceTaint> taints,
      List<DeviceToleration> tolerations) {
    for (DeviceTaint taint : taints) {
      String effect = String.valueOf(taint.getEffect());
      if (!effect.equals("NoSchedule") && !effect.equals("NoExecute")) {
        continue;
      }
      if (tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
        return taint;
      }
    }
    return null;
  }

  /**
   * Returns true when the toleration tolerates the taint: effect empty or equal, key empty or
   * equal, and operator {@code Exists} or {@code Equal} (empty means Equal) with equal values.
   */
  static boolean tolerates(DeviceToleration toleration, DeviceTaint taint) {
    if (!isEmpty(toleration.getEffect()) && !toleration.getEffect().equals(taint.getEffect())) {
      return false;
    }
    if (!isEmpty(toleration.getKey()) && !toleration.getKey().equals(taint.getKey())) {
      return false;
    }
    String operator = isEmpty(toleration.getOperator()) ? "Equal" : toleration.getOperator();
    return switch (operator) {
      case "Exists" -> true;
      case "Equal" -> nullToEmpty(toleration.getValue()).equals(nullToEmpty(taint.getValue()));
      default -> false;
    };
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
