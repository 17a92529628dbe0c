package io.github.dra4j.cel;

import com.google.errorprone.annotations.Immutable;
import dev.cel.common.CelOptions;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.util.List;
import java.util.Map;

/**
 * Runtime bindings that replace cel-java's standard {@code ==}, {@code !=} and {@code in} (map)
 * so that they behave like Kubernetes:
 *
 * <ul>
 *   <li>a Kubernetes value (quantity, semver, IP, CIDR, URL) on the <em>left</em> of {@code ==} or
 *       {@code !=} compared with a value of another type is a {@code no such overload} error
 *       (with the standard value on the left it is plain {@code false});
 *   <li>{@code in} on {@code device.attributes}/{@code device.capacity} only sees real domains.
 * </ul>
 *
 * <p>Everything else delegates to cel-java's heterogeneous equality. Immutable; thread-safe.
 */
@Immutable
final class EqualityFunctions {

  private final RuntimeEquality equality;

  EqualityFunctions(CelOptions options) {
    this.equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
  }

  /** CEL equality with the Kubernetes custom-type rule. */
  boolean equal(Object left, Object right) throws CelEvaluationException {
    if (left instanceof String || left instanceof Boolean) {
      return left.equals(right);
    }
    if (left instanceof Long x && right instanceof Long y) {
      return x.longValue() == y.longValue();
    }
    if (CelValues.kubernetesTypeName(left).isPresent()
        && (right == null || left.getClass() != right.getClass())) {
      throw FunctionLibrary.error(
          "no such overload: "
              + CelValues.typeName(left)
              + " == "
              + CelValues.typeName(right));
    }
    return equality.objectEquals(left, right);
  }

  List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("equals", Object.class, Object.class, this::equal),
        CelFunctionBinding.from(
            "not_equals", Object.class, Object.class, (a, b) -> !equal(a, b)),
        CelFunctionBinding.from("in_map", Object.class, Map.class, this::inMap));
  }

  @SuppressWarnings("unchecked")
  private boolean inMap(Object key, Map<?, ?> map) {
    if (map instanceof DomainMap domainMap) {
      return domainMap.containsRealKey(key);
    }
    return equality.inMap((Map<Object, Object>) map, key);
  }
}
