package io.github.dra4j.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.CelCall;
import dev.cel.common.ast.CelExpr.CelComprehension;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.types.CelKind;
import io.github.dra4j.cel.CostScope.EntrySize;
import java.util.ArrayList;
import java.util.List;

/**
 * The static cost of a checked CEL expression, as cel-go's checker estimates it ({@code
 * checker.Cost}): a walk over the cel-java AST that adds up the cost of each node, multiplies the
 * cost of comprehension bodies by the estimated size of their ranges, and tracks sizes of strings,
 * lists and maps along field paths ({@link CostScope}) so that a {@link CostModel} can bound
 * variables. One instance estimates one expression once; not thread-safe.
 */
final class CostEstimator {

  /** cel-go's {@code common.StringTraversalCostFactor}. */
  static final double STRING_TRAVERSAL = 0.1;
  /** cel-go's {@code common.RegexStringLengthCostFactor}. */
  static final double REGEX_LENGTH = 0.25;
  /** cel-go's {@code common.ListCreateBaseCost}. */
  static final long LIST_CREATE = 10;
  /** cel-go's {@code common.MapCreateBaseCost}. */
  static final long MAP_CREATE = 30;
  /** cel-go's {@code common.StructCreateBaseCost}. */
  static final long STRUCT_CREATE = 40;

  private static final CostRange SELECT_AND_IDENT = CostRange.fixed(1);

  private final CelAbstractSyntaxTree ast;
  private final CostModel model;
  private final OverloadCosts overloads;
  private final CostRange presenceTestCost;
  private final CostScope scope;

  /**
   * Prepares an estimate.
   *
   * @param ast a checked AST
   * @param model the sizes of variables and the costs of library functions
   * @param overloads the estimates libraries bind to overload ids
   * @param presenceTestHasCost whether {@code has()} costs 1 (cel-go's default) or nothing (what
   *     Kubernetes configures)
   */
  CostEstimator(CelAbstractSyntaxTree ast, CostModel model, OverloadCosts overloads,
      boolean presenceTestHasCost) {
    this.ast = ast;
    this.model = model;
    this.overloads = overloads;
    this.presenceTestCost = CostRange.fixed(presenceTestHasCost ? 1 : 0);
    this.scope = new CostScope(ast, model);
  }

  /** Estimates the cost range of the whole expression. */
  CostRange estimate() {
    return cost(ast.getExpr());
  }

  private CostRange cost(CelExpr e) {
    return switch (e.exprKind().getKind()) {
      case CONSTANT -> CostRange.ZERO;
      case IDENT -> costIdent(e);
      case SELECT -> costSelect(e);
      case CALL -> costCall(e);
      case LIST -> costList(e);
      case MAP -> costMap(e);
      case STRUCT -> costStruct(e);
      case COMPREHENSION -> isBind(e) ? costBind(e) : costComprehension(e);
      default -> CostRange.ZERO;
    };
  }

  private CostRange costIdent(CelExpr e) {
    String name = e.ident().name();
    scope.setPath(e, scope.isLocal(name) ? scope.localPath(name) : List.of(name));
    return SELECT_AND_IDENT;
  }

  private CostRange costSelect(CelExpr e) {
    CelExpr operand = e.select().operand();
    if (e.select().testOnly()) {
      return presenceTestCost.add(cost(operand));
    }
    CostRange sum = cost(operand);
    CelKind kind = scope.typeOf(operand).kind();
    if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
      sum = sum.add(SELECT_AND_IDENT);
    }
    scope.setPath(e, CostScope.append(scope.pathOf(operand), e.select().field()));
    return sum;
  }

  private CostRange costCall(CelExpr e) {
    CelCall call = e.call();
    if (call.function().equals("dyn") && call.args().size() == 1) {
      CelExpr arg = call.args().get(0);
      CostRange argCost = cost(arg);
      scope.copySizes(e, arg);
      return CostRange.fixed(1).add(argCost);
    }
    List<CelExpr> args = call.args();
    List<CostRange> argCosts = new ArrayList<>(args.size());
    List<CostNode> argNodes = new ArrayList<>(args.size());
    for (CelExpr arg : args) {
      argCosts.add(cost(arg));
      argNodes.add(scope.node(arg));
    }
    List<String> overloadIds = ast.getReference(e.id())
        .map(reference -> (List<String>) reference.overloadIds()).orElse(List.of());
    if (overloadIds.isEmpty()) {
      return CostRange.ZERO;
    }
    CostRange sum = CostRange.ZERO;
    CostNode target = null;
    if (call.target().isPresent()) {
      sum = sum.add(cost(call.target().get()));
      target = scope.node(call.target().get());
    }
    CostRange functionCost = new CostRange(CostRange.UNSIGNED_MAX, 0);
    CostRange resultSize = null;
    for (String overloadId : overloadIds) {
      CostModel.CallCost callCost = functionCost(e, call.function(), overloadId, target, argNodes,
          argCosts);
      functionCost = functionCost.union(callCost.cost());
      if (callCost.resultSize() != null) {
        resultSize = resultSize == null ? callCost.resultSize()
            : resultSize.union(callCost.resultSize());
      }
      if (!args.isEmpty() && (overloadId.equals("index_list") || overloadId.equals("index_map"))) {
        EntrySize entries = scope.computeEntrySize(args.get(0));
        resultSize = entries == null ? null : entries.value();
        String step = overloadId.equals("index_list") ? "@items" : "@values";
        scope.setPath(e, CostScope.append(scope.pathOf(args.get(0)), step));
      }
      if (resultSize == null) {
        resultSize = scope.computeSize(e);
      }
    }
    scope.setSize(e, resultSize);
    return sum.add(functionCost);
  }

  private CostModel.CallCost functionCost(CelExpr e, String function, String overloadId,
      CostNode target, List<CostNode> args, List<CostRange> argCosts) {
    CostRange argCostSum = CostRange.ZERO;
    for (CostRange argCost : argCosts) {
      argCostSum = argCostSum.add(argCost);
    }
    CostModel.CallCost estimate = overloads.estimate(model, overloadId, target, args, argCosts);
    if (estimate == null) {
      estimate = model.estimateCall(function, overloadId, target, args);
    }
    if (estimate != null) {
      return new CostModel.CallCost(estimate.cost().add(argCostSum), estimate.resultSize());
    }
    CostModel.CallCost standard = StandardCallCosts.estimate(scope, e, overloadId, target, args,
        argCosts, argCostSum);
    if (standard != null) {
      return standard;
    }
    return CostModel.CallCost.of(CostRange.fixed(1).add(argCostSum));
  }

  private CostRange costList(CelExpr e) {
    List<CelExpr> elements = e.list().elements();
    CostRange sum = CostRange.ZERO;
    CostRange itemSize = new CostRange(elements.isEmpty() ? 0 : CostRange.UNSIGNED_MAX, 0);
    for (CelExpr element : elements) {
      sum = sum.add(cost(element));
      itemSize = itemSize.union(scope.sizeOrUnknown(element));
    }
    scope.setEntrySize(e, new EntrySize(CelKind.LIST, CostRange.fixed(1), itemSize));
    return sum.add(CostRange.fixed(LIST_CREATE));
  }

  private CostRange costMap(CelExpr e) {
    List<CelExpr.CelMap.Entry> entries = e.map().entries();
    CostRange sum = CostRange.ZERO;
    long emptyMin = entries.isEmpty() ? 0 : CostRange.UNSIGNED_MAX;
    CostRange keySize = new CostRange(emptyMin, 0);
    CostRange valueSize = new CostRange(emptyMin, 0);
    for (CelExpr.CelMap.Entry entry : entries) {
      sum = sum.add(cost(entry.key()));
      sum = sum.add(cost(entry.value()));
      keySize = keySize.union(scope.sizeOrUnknown(entry.key()));
      valueSize = valueSize.union(scope.sizeOrUnknown(entry.value()));
    }
    scope.setEntrySize(e, new EntrySize(CelKind.MAP, keySize, valueSize));
    return sum.add(CostRange.fixed(MAP_CREATE));
  }

  private CostRange costStruct(CelExpr e) {
    CostRange sum = CostRange.ZERO;
    for (CelExpr.CelStruct.Entry entry : e.struct().entries()) {
      sum = sum.add(cost(entry.value()));
    }
    return sum.add(CostRange.fixed(STRUCT_CREATE));
  }

  private CostRange costComprehension(CelExpr e) {
    CelComprehension comp = e.comprehension();
    CostRange sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
    scope.pushLocal(comp.accuVar(), comp.accuInit());
    boolean twoVariables = !comp.iterVar2().isEmpty();
    if (twoVariables) {
      scope.pushIteration(comp.iterVar(), comp.iterRange(), true, false);
      scope.pushIteration(comp.iterVar2(), comp.iterRange(), false, false);
    } else {
      scope.pushIteration(comp.iterVar(), comp.iterRange(), true, true);
    }
    CostRange loopCost = cost(comp.loopCondition());
    CostRange stepCost = cost(comp.loopStep());
    scope.pop(comp.iterVar());
    if (twoVariables) {
      scope.pop(comp.iterVar2());
    }
    sum = sum.add(cost(comp.result()));
    scope.pop(comp.accuVar());
    CostRange rangeCount = scope.sizeOrUnknown(comp.iterRange());
    sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
    Kind initKind = comp.accuInit().exprKind().getKind();
    if (initKind == Kind.CONSTANT) {
      scope.setSize(e, scope.computeSize(comp.accuInit()));
    } else if (initKind == Kind.LIST || initKind == Kind.MAP) {
      scope.setSize(e, rangeCount);
      EntrySize stepEntries = scope.computeEntrySize(comp.loopStep());
      if (stepEntries != null) {
        scope.setEntrySize(e, stepEntries);
      }
    }
    return sum;
  }

  private boolean isBind(CelExpr e) {
    CelComprehension comp = e.comprehension();
    CelExpr range = comp.iterRange();
    CelExpr condition = comp.loopCondition();
    return range.exprKind().getKind() == Kind.LIST && range.list().elements().isEmpty()
        && condition.exprKind().getKind() == Kind.CONSTANT
        && condition.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
        && !condition.constant().booleanValue()
        && !CostScope.isAccumulator(comp.accuVar());
  }

  private CostRange costBind(CelExpr e) {
    CelComprehension comp = e.comprehension();
    CostRange sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
    scope.pushLocal(comp.accuVar(), comp.accuInit());
    sum = sum.add(cost(comp.result()));
    scope.pop(comp.accuVar());
    scope.copySizes(e, comp.result());
    return sum;
  }
}
