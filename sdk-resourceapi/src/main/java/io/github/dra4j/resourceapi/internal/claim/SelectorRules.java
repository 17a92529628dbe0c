package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.cel.CompiledSelector;
import io.github.dra4j.cel.SelectorCompileException;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of device selectors, in requests, sub-requests and DeviceClasses (Go's {@code
 * validateSelectorSlice}, {@code validateSelector} and {@code validateCELSelector}): the list's
 * size, a {@code cel} selector in each, and its expression: at most 10 KiB (a longer one is not
 * compiled), compiling in the API server's CEL environment, and within the cost limit. Stateless.
 */
public final class SelectorRules {

  private static final String COMPILATION_FAILED = "compilation failed: ";
  private static final String WRONG_TYPE = "must evaluate to ";

  private SelectorRules() {}

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
   * estimated cost (sdk-cel's static estimate, the one the API server compares with 1,000,000).
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
    List<FieldError> errors = new ArrayList<>();
    if (text.getBytes(StandardCharsets.UTF_8).length > ResourceLimits.CEL_SELECTOR_MAX_LENGTH) {
      errors.add(Errors.tooLong(path, ResourceLimits.CEL_SELECTOR_MAX_LENGTH));
      return errors;
    }
    CompiledSelector compiled;
    try {
      compiled = SelectorEnvironments.forExpression(gates, stored).compile(text);
    } catch (SelectorCompileException e) {
      errors.add(compileError(path, text, e.getMessage()));
      return errors;
    }
    if (compiled.exceedsCostLimit()) {
      errors.add(Errors.forbidden(path, "too complex, exceeds cost limit"));
    }
    return errors;
  }

  /**
   * Turns a compile failure into the error the API server gives: the compiler's invalid-input
   * failures ({@code compilation failed: ...}, {@code must evaluate to bool ...}) as {@code
   * Invalid value} with the expression, anything else ({@code program instantiation failed: ...})
   * as {@code Internal error}.
   */
  private static FieldError compileError(FieldPath path, String expression, String message) {
    String detail = message == null ? "" : message;
    if (detail.startsWith(COMPILATION_FAILED) || detail.startsWith(WRONG_TYPE)) {
      return Errors.invalid(path, expression, detail);
    }
    return Errors.internal(path, detail);
  }
}
