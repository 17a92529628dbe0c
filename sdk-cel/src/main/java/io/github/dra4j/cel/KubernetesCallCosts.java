package io.github.dra4j.cel;

import static io.github.dra4j.cel.CostEstimator.REGEX_LENGTH;
import static io.github.dra4j.cel.CostEstimator.STRING_TRAVERSAL;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The costs of the Kubernetes CEL libraries as the API server estimates them (the {@code
 * EstimateCallCost} of {@code k8s.io/apiserver/pkg/cel/library}), plus the DRA {@code includes()}
 * function, over the sizes a {@link CostModel} gives for variables. Functions are matched by name
 * as Kubernetes does; a few Kubernetes cases only apply to member calls although the function is
 * global ({@code quantity()}, {@code semver()}, {@code ip()}, {@code cidr()}, {@code isIP()},
 * {@code isCIDR()}, {@code ip.isCanonical()}), so those cost 1 plus their argument, as in
 * Kubernetes. Stateless.
 */
final class KubernetesCallCosts implements CostModel {

  /** {@code resource.ResourceSliceMaxAttributeValuesPerDevice}: the longest list attribute. */
  static final long MAX_ATTRIBUTE_VALUES = 48;

  /** {@code cel.MaxFormatSize}. */
  private static final long MAX_FORMAT_SIZE = 64;
  /** {@code cel.MaxNameFormatRegexSize}. */
  private static final long MAX_NAME_FORMAT_REGEX_SIZE = 128;

  private static final CostRange ONE = CostRange.fixed(1);
  private static final CostRange IP_BYTES = new CostRange(4, 16);

  private static final Set<String> NOMINAL = Set.of(
      "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
      "isLinkLocalUnicast", "isGlobalUnicast", "format.named", "sign", "asInteger", "isInteger",
      "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add", "sub", "major",
      "minor", "patch", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath",
      "getQuery");

  private static final Set<String> LIST_TRAVERSALS = Set.of("isSorted", "sum", "max", "min",
      "indexOf", "lastIndexOf");

  private static final Set<String> ONE_COST_TYPES = Set.of(
      "net.IP", "net.CIDR", KubernetesTypes.QUANTITY.name(), KubernetesTypes.SEMVER.name());

  private final CostModel sizes;

  /**
   * Builds the estimator.
   *
   * @param sizes where sizes of variables come from (only its {@link #estimateSize} is used)
   */
  KubernetesCallCosts(CostModel sizes) {
    this.sizes = sizes;
  }

  @Override
  public CostRange estimateSize(CostNode node) {
    return sizes.estimateSize(node);
  }

  @Override
  public CallCost estimateCall(
      String function, String overloadId, CostNode target, List<CostNode> args) {
    if (function.equals("includes") && overloadId.equals("dra_includes_dyn_dyn")) {
      if (target != null) {
        // like "<arg> in <target>": linear in the longest list attribute
        return CallCost.of(new CostRange(0, MAX_ATTRIBUTE_VALUES).multiply(ONE));
      }
    }
    if (NOMINAL.contains(function)) {
      return CallCost.of(ONE);
    }
    if (LIST_TRAVERSALS.contains(function)) {
      return target == null ? null : listTraversal(target);
    }
    switch (function) {
      case "url" -> {
        if (args.size() == 1) {
          CostRange size = size(args.get(0));
          return new CallCost(traversal(size), size);
        }
        return null;
      }
      case "lowerAscii", "upperAscii", "substring", "trim" -> {
        if (target != null) {
          CostRange size = size(target);
          return new CallCost(traversal(size), size);
        }
        return null;
      }
      case "replace" -> {
        return target != null && args.size() >= 2 ? replace(target, args) : null;
      }
      case "split" -> {
        return target != null ? split(target, args) : null;
      }
      case "join" -> {
        return target != null ? join(target, args) : null;
      }
      case "find", "findAll" -> {
        if (target != null && !args.isEmpty()) {
          CostRange size = size(target);
          CostRange text = traversal(size.add(ONE));
          CostRange regex = size(args.get(0)).multiplyByFactor(REGEX_LENGTH);
          return new CallCost(text.multiply(regex), new CostRange(0, size.max()));
        }
        return null;
      }
      case "ip" -> {
        if (target != null && !args.isEmpty()) {
          return overloadId.equals("cidr_ip")
              ? CallCost.of(ONE) : CallCost.of(traversal(size(args.get(0))));
        }
        return target != null ? CallCost.of(ONE) : null;
      }
      case "containsIP", "containsCIDR" -> {
        return target != null && !args.isEmpty() ? containment(function, overloadId, args) : null;
      }
      case "validate" -> {
        if (target != null && !args.isEmpty()) {
          return CallCost.of(traversal(size(args.get(0)))
              .multiplyByFactor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH));
        }
        return null;
      }
      case "_==_" -> {
        return args.size() == 2 ? equality(args.get(0), args.get(1)) : null;
      }
      default -> {
        return null;
      }
    }
  }

  private static CostRange traversal(CostRange size) {
    return size.multiplyByFactor(STRING_TRAVERSAL);
  }

  /** The size of a node: what the expression tells, else the variable sizes, else unknown. */
  private CostRange size(CostNode node) {
    if (node.computedSize() != null) {
      return node.computedSize();
    }
    CostRange estimated = sizes.estimateSize(node);
    return estimated != null ? estimated : CostRange.UNKNOWN;
  }

  /** The element of a list node (its first type parameter), with the path to the elements. */
  private static CostNode listElement(CostNode list) {
    List<CelType> parameters = list.type().parameters();
    if (parameters.isEmpty()) {
      return null;
    }
    List<String> path = null;
    if (list.path() != null) {
      path = new ArrayList<>(list.path());
      path.add("@items");
    }
    return new CostNode(path, parameters.get(0), null, null);
  }

  private CallCost listTraversal(CostNode target) {
    CostNode element = listElement(target);
    if (element == null) {
      // indexOf and lastIndexOf on a string
      return CallCost.of(traversal(size(target)));
    }
    CostRange elementCost = ONE;
    CelKind kind = element.type().kind();
    if (kind == CelKind.STRING || kind == CelKind.BYTES) {
      elementCost = elementCost.add(traversal(size(element)));
    }
    return CallCost.of(size(target).multiply(elementCost));
  }

  private CallCost replace(CostNode target, List<CostNode> args) {
    CostRange size = size(target);
    CostRange toReplace = size(args.get(0));
    CostRange replaceWith = size(args.get(1));
    long countMax;
    long retainedMax = 0;
    if (toReplace.min() == 0) {
      countMax = size.max() != CostRange.UNSIGNED_MAX ? size.max() + 1 : size.max();
      retainedMax = size.max();
    } else if (Long.compareUnsigned(replaceWith.max(), toReplace.min()) <= 0) {
      countMax = 0;
      retainedMax = size.max();
    } else {
      countMax = ceilDivide(size.max(), toReplace.min());
    }
    long countMin;
    long retainedMin = 0;
    if (toReplace.max() == 0) {
      countMin = size.min() != CostRange.UNSIGNED_MAX ? size.min() + 1 : size.min();
      retainedMin = size.min();
    } else if (Long.compareUnsigned(toReplace.max(), replaceWith.min()) <= 0) {
      countMin = 0;
      retainedMin = size.min();
    } else {
      countMin = ceilDivide(size.min(), toReplace.max());
    }
    CostRange resultSize = new CostRange(countMin, countMax).multiply(replaceWith)
        .add(new CostRange(retainedMin, retainedMax));
    return new CallCost(size.multiplyByFactor(2 * STRING_TRAVERSAL), resultSize);
  }

  /** {@code uint64(math.Ceil(float64(x) / float64(y)))}. */
  private static long ceilDivide(long x, long y) {
    double quotient = Math.ceil(CostRange.toDouble(x) / CostRange.toDouble(y));
    return quotient >= 0x1p64 ? CostRange.UNSIGNED_MAX : CostRange.fromDouble(quotient);
  }

  private CallCost split(CostNode target, List<CostNode> args) {
    CostRange size = size(target);
    long max = size.max();
    if (args.size() > 1) {
      CelExpr limit = args.get(1).expr();
      if (limit != null && limit.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
          && limit.constant().getKind() == CelConstant.Kind.INT64_VALUE) {
        max = limit.constant().int64Value();
      }
    }
    return new CallCost(size.multiplyByFactor(2 * STRING_TRAVERSAL), new CostRange(0, max));
  }

  private CallCost join(CostNode target, List<CostNode> args) {
    CostRange size = CostRange.ZERO;
    CostRange listSize = size(target);
    CostNode element = listElement(target);
    if (element != null) {
      size = listSize.multiply(size(element));
    }
    if (!args.isEmpty()) {
      CostRange separators = new CostRange(listSize.min() != 0 ? listSize.min() - 1 : 0,
          listSize.max() != 0 ? listSize.max() - 1 : 0);
      size = size.add(size(args.get(0)).multiply(separators));
    }
    return new CallCost(traversal(size), size);
  }

  private CallCost containment(String function, String overloadId, List<CostNode> args) {
    CostRange cost = traversal(IP_BYTES.add(IP_BYTES));
    if (function.equals("containsCIDR")) {
      cost = cost.add(traversal(IP_BYTES)).add(ONE);
    }
    if (overloadId.equals("cidr_contains_ip_string")
        || overloadId.equals("cidr_contains_cidr_string")) {
      cost = cost.add(traversal(size(args.get(0))));
    }
    return CallCost.of(cost);
  }

  /**
   * {@code ==} between two values of the same Kubernetes type: O(1) for quantities, semantic
   * versions, IPs and CIDRs, a string comparison for named formats and URLs. (Kubernetes' older
   * library tests still expect the unknown-size string comparison of cel-go for quantities; the
   * estimator code this follows has the O(1) case.) {@code !=} has no such case in Kubernetes.
   */
  private static CallCost equality(CostNode lhs, CostNode rhs) {
    CelType type = lhs.type();
    if (!type.equals(rhs.type())) {
      return null;
    }
    String name = type.name();
    if (ONE_COST_TYPES.contains(name)) {
      return CallCost.of(ONE);
    }
    if (name.equals(KubernetesTypes.FORMAT.name())) {
      return CallCost.of(traversal(new CostRange(1, MAX_FORMAT_SIZE)));
    }
    if (name.equals(KubernetesTypes.URL.name())) {
      // Kubernetes reads the right-hand size twice
      CostRange size = rhs.computedSize() != null ? rhs.computedSize() : ONE;
      return CallCost.of(traversal(new CostRange(1, size.max())));
    }
    return null;
  }
}
