package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The rules of device selectors, in requests, sub-requests and DeviceClasses (Go's {@code
 * validateSelectorSlice}, {@code validateSelector} and {@code validateCELSelector}): the list's
 * size, a {@code cel} selector in each, and its expression: at most 10 KiB (a longer one is not
 * compiled), compiling in the API server's CEL environment, and within the cost limit. Stateless.
 *
 * <p>The compiler is dra4j-cel, an optional dependency of this module: the SDK's own writers
 * (slices, claim status) never check a selector, so a driver does not carry a CEL compiler it does
 * not use. Without dra4j-cel on the class path a selector is not passed unchecked: it gets an
 * {@code Internal error} that says which artifact to add. Only {@link SelectorCompiler} names
 * dra4j-cel's types, so this class loads without them.
 */
public final class SelectorRules {

  /** The error detail when dra4j-cel is missing: what to add, not a class name to search for. */
  static final String CEL_MISSING = "device selectors cannot be checked without a CEL compiler: add"
      + " the dependency io.github.dra4j:dra4j-cel (same version as dra4j-resourceapi)";

  private static final String CEL_CLASS = "io.github.dra4j.cel.SelectorCompileException";

  /** Whether dra4j-cel is on the class path: looked up once, as the class path never changes. */
  private static final boolean CEL_PRESENT = celPresent();

  private SelectorRules() {}

  /**
   * Tells whether dra4j-cel is on the class path of this module's class loader; asked here, in a
   * class that names none of dra4j-cel's types, because {@link SelectorCompiler} cannot even be
   * loaded without them.
   */
  private static boolean celPresent() {
    try {
      Class.forName(CEL_CLASS, false, SelectorRules.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Checks a list of selectors.
   *
   * @param selectors the selectors, may be null
   * @param path the list's field, e.g. {@code spec.selectors}
   * @param gates the API server's feature gates
   * @param stored whether the selectors were stored before: their expressions are then compiled
   *     in the stored-expressions environment, which accepts everything any version accepted
   * @return the errors: only {@code Too many} if there are more than 32
   */
  public static List<FieldError> selectors(List<DeviceSelector> selectors, FieldPath path,
      FeatureGates gates, boolean stored) {
    return Collections.list(selectors, ResourceLimits.DEVICE_SELECTORS_MAX,
        (selector, itemPath) -> selector(selector, itemPath, gates, stored), path);
  }

  /**
   * Checks one selector: {@code cel} is required, then its expression.
   *
   * @param selector the selector, may be null
   * @param path its field
   * @param gates the API server's feature gates
   * @param stored whether it was stored before
   * @return the errors
   */
  public static List<FieldError> selector(DeviceSelector selector, FieldPath path,
      FeatureGates gates, boolean stored) {
    CELDeviceSelector cel = selector == null ? null : selector.getCel();
    if (cel == null) {
      return List.of(Errors.required(path.child("cel"), ""));
    }
    return celExpression(cel.getExpression(), path.child("cel", "expression"), gates, stored);
  }

  /**
   * Checks a CEL selector expression: its length in bytes, then that it compiles, then its
   * estimated cost (dra4j-cel's static estimate, the one the API server compares with 1,000,000).
   * Kubernetes 1.37 skips all of this for a stored expression; 1.36 compiles it in the
   * stored-expressions environment and checks its cost again.
   *
   * @param expression the expression, null for empty
   * @param path its field, {@code ...cel.expression}
   * @param gates the API server's feature gates
   * @param stored whether it was stored before
   * @return the errors: {@code Too long}, the compile error ({@code Invalid}, or {@code Internal
   *     error} for a failure of the compiler itself), or {@code Forbidden: too complex, exceeds
   *     cost limit}
   */
  public static List<FieldError> celExpression(String expression, FieldPath path,
      FeatureGates gates, boolean stored) {
    String text = expression == null ? "" : expression;
    if (text.getBytes(StandardCharsets.UTF_8).length > ResourceLimits.CEL_SELECTOR_MAX_LENGTH) {
      return List.of(Errors.tooLong(path, ResourceLimits.CEL_SELECTOR_MAX_LENGTH));
    }
    if (!CEL_PRESENT) {
      return List.of(Errors.internal(path, CEL_MISSING));
    }
    return SelectorCompiler.check(text, path, gates, stored);
  }
}
