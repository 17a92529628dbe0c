package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.DYN;

import com.google.errorprone.annotations.Immutable;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * DRA's {@code includes()}: on a list attribute, true when some element equals the argument
 * (lists longer than 48 values are refused, as in Kubernetes); on a scalar attribute, plain
 * equality.
 */
@Immutable
final class IncludesFunction implements FunctionLibrary {

  static final int MAX_LIST_VALUES = 48;

  private final EqualityFunctions equality;

  IncludesFunction(EqualityFunctions equality) {
    this.equality = equality;
  }

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(member("includes", "dra_includes_dyn_dyn", BOOL, DYN, DYN));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("dra_includes_dyn_dyn", Object.class, Object.class,
            this::includes));
  }

  private boolean includes(Object receiver, Object value) throws CelEvaluationException {
    if (!(receiver instanceof List)) {
      return equality.equal(receiver, value);
    }
    List<?> list = (List<?>) receiver;
    if (list.size() > MAX_LIST_VALUES) {
      throw FunctionLibrary.error(
          "'includes' function cannot be applied to lists longer than "
              + MAX_LIST_VALUES
              + " values");
    }
    for (Object element : list) {
      if (equality.equal(element, value)) {
        return true;
      }
    }
    return false;
  }
}
