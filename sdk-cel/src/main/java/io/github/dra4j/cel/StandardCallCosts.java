package io.github.dra4j.cel;

import static io.github.dra4j.cel.CostEstimator.REGEX_LENGTH;
import static io.github.dra4j.cel.CostEstimator.STRING_TRAVERSAL;
import static io.github.dra4j.cel.CostScope.sizeOrUnknown;

import dev.cel.common.ast.CelExpr;
import io.github.dra4j.cel.CostScope.EntrySize;
import io.github.dra4j.cel.CostModel.CallCost;
import java.util.List;
import java.util.Set;

/**
 * cel-go's own estimates for the standard functions whose cost depends on sizes (the overload
 * switch of the checker's {@code functionCost}): string traversals, regular expressions, list
 * membership, concatenation, comparison and equality, and the logical and conditional operators,
 * which only count their arguments. Every other standard function costs 1 plus its arguments.
 */
final class StandardCallCosts {

  private static final Set<String> COMPARISONS = Set.of(
      "less_string", "greater_string", "less_equals_string", "greater_equals_string",
      "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes",
      "equals", "not_equals");

  private StandardCallCosts() {}

  /**
   * Returns the estimate of a standard overload including its arguments' cost, or null when the
   * overload has no size-dependent estimate.
   *
   * @param coster the scope, whose entry sizes concatenation and conditionals update
   * @param e the call
   * @param overloadId the overload id
   * @param target the receiver, null for a global call
   * @param args the arguments
   * @param argCosts the cost of each argument
   * @param argCostSum the sum of {@code argCosts}
   */
  static CallCost estimate(CostScope coster, CelExpr e, String overloadId, CostNode target,
      List<CostNode> args, List<CostRange> argCosts, CostRange argCostSum) {
    if (COMPARISONS.contains(overloadId)) {
      return comparison(args, argCostSum);
    }
    switch (overloadId) {
      case "string_to_bytes" -> {
        if (args.size() == 1) {
          CostRange size = sizeOrUnknown(args.get(0));
          return new CallCost(traversal(size).add(argCostSum),
              new CostRange(size.min(), size.max() * 4));
        }
        return null;
      }
      case "bytes_to_string" -> {
        if (args.size() == 1) {
          CostRange size = sizeOrUnknown(args.get(0));
          return new CallCost(traversal(size).add(argCostSum),
              new CostRange(Long.divideUnsigned(size.min(), 4), size.max()));
        }
        return null;
      }
      case "strings_quote" -> {
        if (args.size() == 1) {
          CostRange size = sizeOrUnknown(args.get(0));
          return new CallCost(traversal(size).add(argCostSum),
              new CostRange(size.min() + 2, size.max() * 2 + 2));
        }
        return null;
      }
      case "starts_with_string", "ends_with_string" -> {
        if (args.size() == 1) {
          return CallCost.of(traversal(sizeOrUnknown(args.get(0))).add(argCostSum));
        }
        return null;
      }
      case "in_list" -> {
        if (args.size() == 2) {
          return CallCost.of(sizeOrUnknown(args.get(1)).multiplyByFactor(1).add(argCostSum));
        }
        return null;
      }
      case "matches_string" -> {
        if (target != null && args.size() == 1) {
          CostRange text = traversal(sizeOrUnknown(target).add(CostRange.fixed(1)));
          CostRange regex = sizeOrUnknown(args.get(0)).multiplyByFactor(REGEX_LENGTH);
          return CallCost.of(text.multiply(regex).add(argCostSum));
        }
        return null;
      }
      case "contains_string" -> {
        if (target != null && args.size() == 1) {
          CostRange text = traversal(sizeOrUnknown(target));
          CostRange part = traversal(sizeOrUnknown(args.get(0)));
          return CallCost.of(text.multiply(part).add(argCostSum));
        }
        return null;
      }
      case "logical_or", "logical_and" -> {
        CostRange lhs = argCosts.get(0);
        CostRange rhs = argCosts.get(1);
        return CallCost.of(new CostRange(lhs.min(), lhs.add(rhs).max()));
      }
      case "conditional" -> {
        return conditional(coster, e, args, argCosts);
      }
      case "add_string", "add_bytes", "add_list" -> {
        if (args.size() == 2) {
          return concatenation(coster, e, overloadId, args, argCostSum);
        }
        return null;
      }
      default -> {
        return null;
      }
    }
  }

  private static CostRange traversal(CostRange size) {
    return size.multiplyByFactor(STRING_TRAVERSAL);
  }

  private static CallCost comparison(List<CostNode> args, CostRange argCostSum) {
    CostRange lhs = sizeOrUnknown(args.get(0));
    CostRange rhs = sizeOrUnknown(args.get(1));
    long smallestMax = Long.compareUnsigned(rhs.max(), lhs.max()) < 0 ? rhs.max() : lhs.max();
    long min = smallestMax != 0 ? 1 : 0;
    return CallCost.of(traversal(new CostRange(min, smallestMax)).add(argCostSum));
  }

  private static CallCost conditional(
      CostScope coster, CelExpr e, List<CostNode> args, List<CostRange> argCosts) {
    CostRange size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
    coster.setEntrySize(e, EntrySize.union(coster.computeEntrySize(args.get(1).expr()),
        coster.computeEntrySize(args.get(2).expr())));
    CostRange cost = argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
    return new CallCost(cost, size);
  }

  private static CallCost concatenation(CostScope coster, CelExpr e, String overloadId,
      List<CostNode> args, CostRange argCostSum) {
    CostRange resultSize = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
    EntrySize entries = EntrySize.union(coster.computeEntrySize(args.get(0).expr()),
        coster.computeEntrySize(args.get(1).expr()));
    coster.setEntrySize(e, entries);
    if (overloadId.equals("add_list")) {
      // concatenating lists is O(1); the size is tracked for iterations over the result
      return new CallCost(CostRange.fixed(1).add(argCostSum), resultSize);
    }
    return new CallCost(traversal(resultSize).add(argCostSum), resultSize);
  }
}
