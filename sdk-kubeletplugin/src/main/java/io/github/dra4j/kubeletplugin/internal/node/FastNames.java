package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.core.name.NameRules;

/**
 * Character-loop checks of the references every call carries, for the hot path: each says
 * whether a value is certainly valid by the same rule as {@code RequestReference.parse} or
 * {@link DeviceCheck}'s CDI ID pattern, without a regular expression. A value they reject is
 * checked again by the full rule, which also words the error, so they decide nothing alone. Names
 * and UIDs have their fast checks in {@link NameRules} itself. Stateless.
 */
final class FastNames {

  private FastNames() {}

  /** A request reference as {@code RequestReference.parse} accepts it: a label or label/label. */
  static boolean isRequestReference(String value) {
    int slash = value.indexOf('/');
    if (slash < 0) {
      return NameRules.isDnsLabel(value);
    }
    return NameRules.isDnsLabel(value.substring(0, slash))
        && NameRules.isDnsLabel(value.substring(slash + 1));
  }

  /**
   * A fully qualified CDI device ID, {@code vendor/class=name}: vendor and class without {@code
   * /}, {@code =} or white space, the name without {@code =} or white space, none empty.
   */
  static boolean isCdiDeviceId(String value) {
    int slash = -1;
    int equals = -1;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == ' ' || c >= '\t' && c <= '\r') {
        return false; // \s: space, \t, \n, \u000B, \f, \r
      }
      if (c == '=') {
        if (equals >= 0 || slash < 0) {
          return false;
        }
        equals = i;
      } else if (c == '/' && equals < 0) {
        if (slash >= 0) {
          return false;
        }
        slash = i;
      }
    }
    return slash > 0 && equals > slash + 1 && equals < value.length() - 1;
  }
}
