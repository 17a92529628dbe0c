package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.INT;
import static io.github.dra4j.cel.KubernetesTypes.LIST_T;
import static io.github.dra4j.cel.KubernetesTypes.T;

import com.google.common.primitives.UnsignedLong;
import com.google.errorprone.annotations.Immutable;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.time.Duration;
import java.util.List;

/**
 * The Kubernetes lists library: {@code isSorted()}, {@code sum()}, {@code min()}, {@code max()},
 * {@code indexOf()} and {@code lastIndexOf()} on lists. Each function has one overload over
 * {@code list(T)}; element types are checked when the function runs.
 */
@Immutable
final class ListFunctions implements FunctionLibrary {

  private final EqualityFunctions equality;

  ListFunctions(EqualityFunctions equality) {
    this.equality = equality;
  }

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        member("isSorted", "list_is_sorted", BOOL, LIST_T),
        member("sum", "list_sum", T, LIST_T),
        member("min", "list_min", T, LIST_T),
        member("max", "list_max", T, LIST_T),
        member("indexOf", "list_index_of", INT, LIST_T, T),
        member("lastIndexOf", "list_last_index_of", INT, LIST_T, T));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("list_is_sorted", List.class, ListFunctions::isSorted),
        CelFunctionBinding.from("list_sum", List.class, ListFunctions::sum),
        CelFunctionBinding.from("list_min", List.class, list -> extreme(list, -1, "min")),
        CelFunctionBinding.from("list_max", List.class, list -> extreme(list, 1, "max")),
        CelFunctionBinding.from("list_index_of", List.class, Object.class, this::indexOf),
        CelFunctionBinding.from(
            "list_last_index_of", List.class, Object.class, this::lastIndexOf));
  }

  private static boolean isSorted(List<?> list) throws CelEvaluationException {
    for (int i = 1; i < list.size(); i++) {
      if (CelValues.compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object sum(List<?> list) throws CelEvaluationException {
    if (list.isEmpty()) {
      return 0L;
    }
    Object total = list.get(0);
    for (int i = 1; i < list.size(); i++) {
      total = add(total, list.get(i));
    }
    if (!(total instanceof Long
        || total instanceof UnsignedLong
        || total instanceof Double
        || total instanceof Duration)) {
      throw FunctionLibrary.error("no such overload: sum(list(" + CelValues.typeName(total) + "))");
    }
    return total;
  }

  private static Object add(Object a, Object b) throws CelEvaluationException {
    try {
      if (a instanceof Long x && b instanceof Long y) {
        return Math.addExact(x, y);
      }
      if (a instanceof UnsignedLong x && b instanceof UnsignedLong y) {
        UnsignedLong sum = x.plus(y);
        if (sum.compareTo(x) < 0) {
          throw FunctionLibrary.error("unsigned integer overflow");
        }
        return sum;
      }
      if (a instanceof Double x && b instanceof Double y) {
        return x + y;
      }
      if (a instanceof Duration x && b instanceof Duration y) {
        return x.plus(y);
      }
    } catch (ArithmeticException overflow) {
      throw FunctionLibrary.error("integer overflow");
    }
    throw FunctionLibrary.error(
        "no such overload: " + CelValues.typeName(a) + " + " + CelValues.typeName(b));
  }

  private static Object extreme(List<?> list, int direction, String name)
      throws CelEvaluationException {
    if (list.isEmpty()) {
      throw FunctionLibrary.error(name + " called on empty list");
    }
    Object best = list.get(0);
    for (int i = 1; i < list.size(); i++) {
      Object candidate = list.get(i);
      if (CelValues.compare(candidate, best) * direction > 0) {
        best = candidate;
      }
    }
    return best;
  }

  private long indexOf(List<?> list, Object value) throws CelEvaluationException {
    for (int i = 0; i < list.size(); i++) {
      if (equality.equal(list.get(i), value)) {
        return i;
      }
    }
    return -1L;
  }

  private long lastIndexOf(List<?> list, Object value) throws CelEvaluationException {
    for (int i = list.size() - 1; i >= 0; i--) {
      if (equality.equal(list.get(i), value)) {
        return i;
      }
    }
    return -1L;
  }
}
