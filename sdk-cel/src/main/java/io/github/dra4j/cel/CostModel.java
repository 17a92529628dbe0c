package io.github.dra4j.cel;

import java.util.List;

/**
 * Where the cost estimator gets what the expression does not tell: the sizes of variables and the
 * costs of library functions, cel-go's {@code checker.CostEstimator}. Implementations are
 * stateless.
 */
interface CostModel {

  /**
   * Returns the size range of a value (string length, list or map entry count) that the
   * expression does not tell, or null when unknown.
   */
  CostRange estimateSize(CostNode node);

  /**
   * Returns the cost of a call, not counting its arguments and receiver, or null to leave it to
   * the standard estimate.
   *
   * @param function the function name
   * @param overloadId the overload id the checker chose
   * @param target the receiver of a member call, null for a global call
   * @param args the arguments
   */
  CallCost estimateCall(String function, String overloadId, CostNode target, List<CostNode> args);

  /**
   * The estimated cost of a call and, for calls returning strings, bytes, lists or maps, the size
   * of the result.
   *
   * @param cost the cost range of the call itself
   * @param resultSize the size range of the result, or null when unknown
   */
  record CallCost(CostRange cost, CostRange resultSize) {

    /** Returns a call estimate without a result size. */
    static CallCost of(CostRange cost) {
      return new CallCost(cost, null);
    }
  }
}
