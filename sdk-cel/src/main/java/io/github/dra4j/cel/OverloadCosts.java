package io.github.dra4j.cel;

import java.util.List;

/**
 * Cost estimates bound to overload ids by CEL libraries (cel-go's {@code
 * checker.OverloadCostEstimate} options), consulted before the {@link CostModel}. Implementations
 * are stateless.
 */
interface OverloadCosts {

  /**
   * Returns the cost of a call to the overload, not counting its arguments, or null when the
   * overload has no estimate of its own.
   *
   * @param model the size and call estimates of the environment
   * @param overloadId the overload id the checker chose
   * @param target the receiver of a member call, null for a global call
   * @param args the arguments
   * @param argCosts the estimated cost of each argument
   */
  CostModel.CallCost estimate(CostModel model, String overloadId, CostNode target,
      List<CostNode> args, List<CostRange> argCosts);
}
