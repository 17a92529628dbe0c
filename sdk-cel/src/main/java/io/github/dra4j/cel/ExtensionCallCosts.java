package io.github.dra4j.cel;

import static io.github.dra4j.cel.CostEstimator.LIST_CREATE;
import static io.github.dra4j.cel.CostEstimator.STRING_TRAVERSAL;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import io.github.dra4j.cel.CostModel.CallCost;
import java.util.List;

/**
 * The estimates the cel-go extensions Kubernetes enables bind to their overloads: the sets
 * extension ({@code sets.contains}, {@code sets.intersects}, {@code sets.equivalent}: the product
 * of the list sizes) and version 3 of the lists extension ({@code slice}, {@code flatten}, {@code
 * lists.range}, {@code reverse}, {@code distinct}, {@code sort}, {@code sortBy}: the size of the
 * result, quadratic for sorting and de-duplication, plus the call and the new list). cel-java's
 * overload ids are mapped to cel-go's. Stateless.
 */
final class ExtensionCallCosts implements OverloadCosts {

  /** The one instance. */
  static final ExtensionCallCosts INSTANCE = new ExtensionCallCosts();

  private static final CostRange CALL = CostRange.fixed(1);

  private ExtensionCallCosts() {}

  @Override
  public CallCost estimate(CostModel model, String overloadId, CostNode target,
      List<CostNode> args, List<CostRange> argCosts) {
    switch (overloadId) {
      case "list_sets_contains_list", "list_sets_intersects_list" -> {
        return sets(model, args, 1);
      }
      case "list_sets_equivalent_list" -> {
        // two containment checks
        return sets(model, args, 2);
      }
      case "list_slice" -> {
        if (target == null || args.size() != 2) {
          return null;
        }
        long end = uintLiteral(args.get(1), size(model, target).max());
        long start = uintLiteral(args.get(0), 0);
        return allocatingListCall(1, CostRange.fixed(end - start));
      }
      case "lists_range" -> {
        if (target != null || args.size() != 1) {
          return null;
        }
        return allocatingListCall(1, CostRange.fixed(uintLiteral(args.get(0), -1L)));
      }
      case "list_reverse" -> {
        return target == null || !args.isEmpty()
            ? null
            : allocatingListCall(1, size(model, target));
      }
      case "list_flatten", "list_flatten_list_int" -> {
        if (target == null || args.size() > 1) {
          return null;
        }
        long depth = args.size() == 1 ? uintLiteral(args.get(0), -1L) : 1;
        return allocatingListCall(CostRange.toDouble(depth), size(model, target));
      }
      case "list_distinct" -> {
        if (target == null || !args.isEmpty()) {
          return null;
        }
        CostRange size = size(model, target);
        return allocatingListCall(2, size.multiply(size));
      }
      case "list_sort" -> {
        return target == null || !args.isEmpty() ? null : sort(model, target);
      }
      case "dra_sort_by_list_list" -> {
        return sortBy(model, args, argCosts);
      }
      default -> {
        return null;
      }
    }
  }

  private static CallCost sets(CostModel model, List<CostNode> args, double factor) {
    if (args.size() != 2) {
      return null;
    }
    CostRange product = size(model, args.get(0)).multiply(size(model, args.get(1)));
    return CallCost.of(product.multiplyByFactor(factor).add(CALL));
  }

  /**
   * Sorting compares elements pairwise: cel-go has one overload per element type, factor 2, plus
   * the string traversal factor for strings and bytes; a list of {@code dyn} matches all of them.
   */
  private static CallCost sort(CostModel model, CostNode keys) {
    CostRange size = size(model, keys);
    CostRange squared = size.multiply(size);
    CelType element = keys.type().parameters().isEmpty() ? null : keys.type().parameters().get(0);
    CelKind kind = element == null ? CelKind.DYN : element.kind();
    CallCost plain = allocatingListCall(2, squared);
    CallCost text = allocatingListCall(2 + STRING_TRAVERSAL, squared);
    return switch (kind) {
      case STRING, BYTES -> text;
      case DYN, ANY, TYPE_PARAM -> new CallCost(plain.cost().union(text.cost()), squared);
      default -> plain;
    };
  }

  /**
   * {@code l.sortBy(v, key)}: cel-java's expansion here is {@code @dra_sort_by(l, l.map(v, key))}
   * while cel-go's is {@code cel.bind(in, l, in.@sortByAssociatedKeys(in.map(v, key)))}. The
   * estimate returned makes the total what cel-go computes for its expansion: the empty list of
   * the bind, the two reads of the bound variable instead of a second evaluation of {@code l},
   * and the sort by the keys.
   */
  private static CallCost sortBy(CostModel model, List<CostNode> args, List<CostRange> argCosts) {
    if (args.size() != 2) {
      return null;
    }
    CallCost sort = sort(model, args.get(1));
    CostRange listCost = argCosts.get(0);
    CostRange cost = CostRange.fixed(LIST_CREATE + 2).add(sort.cost());
    return new CallCost(new CostRange(subtract(cost.min(), listCost.min()),
        subtract(cost.max(), listCost.max())), sort.resultSize());
  }

  private static long subtract(long x, long y) {
    return Long.compareUnsigned(x, y) > 0 ? x - y : 0;
  }

  private static CallCost allocatingListCall(double factor, CostRange listSize) {
    CostRange cost = listSize.multiplyByFactor(factor).add(CALL).add(CostRange.fixed(LIST_CREATE));
    return new CallCost(cost, listSize);
  }

  private static CostRange size(CostModel model, CostNode node) {
    if (node.computedSize() != null) {
      return node.computedSize();
    }
    CostRange estimated = model.estimateSize(node);
    return estimated != null ? estimated : CostRange.UNKNOWN;
  }

  /** The value of a non-negative int literal, 0 for a negative one, else the default. */
  private static long uintLiteral(CostNode node, long defaultValue) {
    CelExpr expr = node.expr();
    if (expr == null || expr.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT
        || expr.constant().getKind() != CelConstant.Kind.INT64_VALUE) {
      return defaultValue;
    }
    return Math.max(0, expr.constant().int64Value());
  }
}
