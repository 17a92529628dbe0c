package io.github.dra4j.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;
import java.util.Optional;

/**
 * A compiled DRA selector expression, ready to be evaluated against many devices. Obtain it from
 * {@link DeviceSelectorEnvironment#compile}. Immutable and safe to use from several threads at
 * once.
 */
public final class CompiledSelector {

  private final String expression;
  private final CelRuntime.Program program;

  CompiledSelector(String expression, CelRuntime.Program program) {
    this.expression = expression;
    this.program = program;
  }

  /**
   * Returns the expression text this selector was compiled from.
   *
   * @return the expression exactly as given to {@link DeviceSelectorEnvironment#compile}
   */
  public String expression() {
    return expression;
  }

  /**
   * Evaluates the selector for one device.
   *
   * <p>A device whose values Kubernetes could not convert (see {@link
   * SelectorDevice#conversionError()}) fails every expression. A result that is not a boolean
   * fails with {@code CEL result of type <type> could not be converted to bool: ...}; runtime
   * errors carry the Kubernetes text ({@code no such key: <id>}, {@code no such overload}, {@code
   * actual cost limit exceeded}...).
   *
   * @param device the device view
   * @return match, no match, or failure with the reason
   */
  public SelectorResult evaluate(SelectorDevice device) {
    Optional<String> conversionError = device.conversionError();
    if (conversionError.isPresent()) {
      return new SelectorResult.Failure(conversionError.get());
    }
    Map<String, Object> variable = device.variable();
    Object result;
    try {
      result =
          program.eval(
              name ->
                  DeviceSelectorEnvironment.VARIABLE.equals(name)
                      ? Optional.of(variable)
                      : Optional.empty());
    } catch (CelEvaluationException e) {
      return new SelectorResult.Failure(RuntimeErrors.describe(e));
    }
    if (result instanceof Boolean) {
      return (Boolean) result ? SelectorResult.MATCH : SelectorResult.NO_MATCH;
    }
    String type = CelValues.typeName(result);
    return new SelectorResult.Failure(
        "CEL result of type "
            + type
            + " could not be converted to bool: unsupported native conversion from "
            + type
            + " to 'bool'");
  }

  @Override
  public String toString() {
    return "CompiledSelector[" + expression + "]";
  }
}
