package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.KubernetesTypes.LIST_T;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelIssue;
import dev.cel.common.Operator;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelMacro;
import dev.cel.parser.CelMacroExprFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lists extension's {@code <list>.sortBy(var, keyExpr)} macro. cel-java 0.14.0 types its own
 * expansion as a list of key/value pairs, so this replacement expands {@code
 * l.sortBy(v, key)} into {@code @dra_sort_by(l, <keys of l>)}, typed {@code list(T)}; the list is
 * sorted by the keys (stable, CEL ordering).
 */
final class SortByFunction implements FunctionLibrary {

  static final String FUNCTION = "@dra_sort_by";

  /** Returns the {@code sortBy} receiver macro. */
  static CelMacro macro() {
    return CelMacro.newReceiverMacro("sortBy", 2, SortByFunction::expand);
  }

  private static Optional<CelExpr> expand(
      CelMacroExprFactory factory, CelExpr target, List<CelExpr> arguments) {
    CelExpr variable = arguments.get(0);
    if (variable.exprKind().getKind() != CelExpr.ExprKind.Kind.IDENT) {
      return Optional.of(factory.reportError(CelIssue.formatError(
          factory.getSourceLocation(variable),
          "sortBy(var, ...) variable name must be a simple identifier")));
    }
    String accumulator = factory.getAccumulatorVarName();
    CelExpr step = factory.newGlobalCall(
        Operator.ADD.getFunction(),
        factory.newIdentifier(accumulator),
        factory.newList(arguments.get(1)));
    CelExpr keys = factory.fold(
        variable.ident().name(),
        factory.copy(target),
        accumulator,
        factory.newList(),
        factory.newBoolLiteral(true),
        step,
        factory.newIdentifier(accumulator));
    return Optional.of(factory.newGlobalCall(FUNCTION, target, keys));
  }

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(global(FUNCTION, "dra_sort_by_list_list", LIST_T, LIST_T,
        ListType.create(SimpleType.DYN)));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    return List.of(CelFunctionBinding.from(
        "dra_sort_by_list_list", List.class, List.class, SortByFunction::sortBy));
  }

  private static List<Object> sortBy(List<?> values, List<?> keys) throws CelEvaluationException {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      order.add(i);
    }
    // insertion sort: stable, and lets the comparison throw a checked CEL error
    for (int i = 1; i < order.size(); i++) {
      int current = order.get(i);
      int j = i - 1;
      while (j >= 0 && CelValues.compare(keys.get(order.get(j)), keys.get(current)) > 0) {
        order.set(j + 1, order.get(j));
        j--;
      }
      order.set(j + 1, current);
    }
    List<Object> sorted = new ArrayList<>();
    for (int index : order) {
      sorted.add(values.get(index));
    }
    return sorted;
  }
}
