package io.github.dra4j.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;
import java.util.Optional;

/**
 * A compiled DRA selector expression, ready to be evaluated against many devices. Obtain it from
 * {@link DeviceSelectorEnvironment#compile}. Immutable (apart from its cost estimate, computed
 * once on first request) and safe to use from several threads at once.
 */
public final class CompiledSelector {

  private final String expression;
  private final CelRuntime.Program program;
  private final CelAbstractSyntaxTree ast;
  private volatile CostRange cost;

  CompiledSelector(String expression, CelRuntime.Program program, CelAbstractSyntaxTree ast) {
    this.expression = expression;
    this.program = program;
    this.ast = ast;
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
      result = program.eval(
          name -> DeviceSelectorEnvironment.VARIABLE.equals(name)
              ? Optional.of(variable)
              : Optional.empty());
    } catch (CelEvaluationException e) {
      return new SelectorResult.Failure(RuntimeErrors.describe(e));
    }
    if (result instanceof Boolean b) {
      return b ? SelectorResult.MATCH : SelectorResult.NO_MATCH;
    }
    String type = CelValues.typeName(result);
    return new SelectorResult.Failure(
        "CEL result of type "
            + type
            + " could not be converted to bool: unsupported native conversion from "
            + type
            + " to 'bool'");
  }

  /**
   * Returns the worst-case cost the Kubernetes API server estimates for this selector before
   * accepting it: the maximum of cel-go's static cost estimate, with the Kubernetes library
   * function costs and the largest sizes the API allows for the {@code device} variable (driver
   * name, attribute domains, names and values, capacity), the number Go's {@code
   * dracel.CompileCELExpression} returns as {@code MaxCost}. The API server rejects a new or
   * changed selector whose estimate exceeds {@link DeviceSelectorEnvironment#COST_LIMIT} with
   * {@code Forbidden: too complex, exceeds cost limit} ({@link #exceedsCostLimit()}).
   *
   * <p>The estimate depends only on the expression; it is computed on the first call (a walk over
   * the checked expression, no evaluation) and kept. cel-go counts in unsigned 64-bit numbers
   * that saturate at 2<sup>64</sup>-1; estimates above {@link Long#MAX_VALUE} are returned as
   * {@link Long#MAX_VALUE}.
   *
   * @return the estimated maximum cost, at least 0
   */
  public long estimatedMaxCost() {
    return estimatedCost().maxOrLongMax();
  }

  /**
   * Tells whether the API server would reject this selector as too expensive when it is created
   * or changed: whether {@link #estimatedMaxCost()} exceeds {@link
   * DeviceSelectorEnvironment#COST_LIMIT}. Selectors already stored are not checked again.
   *
   * @return true if Kubernetes reports {@code too complex, exceeds cost limit} for it
   */
  public boolean exceedsCostLimit() {
    return Long.compareUnsigned(estimatedCost().max(), DeviceSelectorEnvironment.COST_LIMIT) > 0;
  }

  private CostRange estimatedCost() {
    CostRange estimate = cost;
    if (estimate == null) {
      estimate = new CostEstimator(ast, new KubernetesCallCosts(DeviceSizes.INSTANCE),
          ExtensionCallCosts.INSTANCE, false).estimate();
      cost = estimate;
    }
    return estimate;
  }

  @Override
  public String toString() {
    return "CompiledSelector[" + expression + "]";
  }
}
