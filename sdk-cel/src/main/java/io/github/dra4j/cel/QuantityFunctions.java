package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.DOUBLE;
import static io.github.dra4j.cel.KubernetesTypes.INT;
import static io.github.dra4j.cel.KubernetesTypes.QUANTITY;
import static io.github.dra4j.cel.KubernetesTypes.STRING;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.List;

/**
 * The Kubernetes quantity library: {@code quantity()}, {@code isQuantity()}, the global {@code
 * sign()} and the member functions of {@code kubernetes.Quantity}. There is deliberately no
 * comparison operator and no overload taking a double, as in Kubernetes. Holds a thread-safe
 * cache of parsed literals.
 */
final class QuantityFunctions implements FunctionLibrary {

  /** Parsed quantity literals; selectors repeat the same few, so parsing once pays off. */
  private final Cache<String, QuantityValue> literals = CacheBuilder.newBuilder().maximumSize(1024)
      .build();

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        global("quantity", "string_to_quantity", QUANTITY, STRING),
        global("isQuantity", "is_quantity_string", BOOL, STRING),
        global("sign", "quantity_sign", INT, QUANTITY),
        member("isGreaterThan", "quantity_is_greater_than", BOOL, QUANTITY, QUANTITY),
        member("isLessThan", "quantity_is_less_than", BOOL, QUANTITY, QUANTITY),
        member("compareTo", "quantity_compare_to", INT, QUANTITY, QUANTITY),
        member("add", "quantity_add", QUANTITY, QUANTITY, QUANTITY),
        member("add", "quantity_add_int", QUANTITY, QUANTITY, INT),
        member("sub", "quantity_sub", QUANTITY, QUANTITY, QUANTITY),
        member("sub", "quantity_sub_int", QUANTITY, QUANTITY, INT),
        member("asInteger", "quantity_get_int", INT, QUANTITY),
        member("isInteger", "quantity_is_integer", BOOL, QUANTITY),
        member("asApproximateFloat", "quantity_get_float", DOUBLE, QUANTITY));
  }

  // The overloads share this object's cache, which is thread-safe and only saves repeating a
  // pure parse: what an overload returns never depends on it, so they are as good as
  // immutable.
  @SuppressWarnings("Immutable")
  @Override
  public List<CelFunctionBinding> bindings() {
    Class<QuantityValue> q = QuantityValue.class;
    return List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, this::parse),
        CelFunctionBinding.from(
            "is_quantity_string", String.class, s -> QuantityValue.tryParse(s).isPresent()),
        CelFunctionBinding.from("quantity_sign", q, v -> (long) v.signum()),
        CelFunctionBinding.from("quantity_is_greater_than", q, q, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("quantity_is_less_than", q, q, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("quantity_compare_to", q, q, (a, b) -> (long) a.compareTo(b)),
        CelFunctionBinding.from("quantity_add", q, q, QuantityValue::add),
        CelFunctionBinding.from(
            "quantity_add_int", q, Long.class, (a, b) -> a.add(QuantityValue.ofLong(b))),
        CelFunctionBinding.from("quantity_sub", q, q, QuantityValue::subtract),
        CelFunctionBinding.from(
            "quantity_sub_int", q, Long.class, (a, b) -> a.subtract(QuantityValue.ofLong(b))),
        CelFunctionBinding.from("quantity_get_int", q, QuantityFunctions::asInteger),
        CelFunctionBinding.from("quantity_is_integer", q, v -> v.asLong().isPresent()),
        CelFunctionBinding.from("quantity_get_float", q, QuantityValue::asApproximateDouble));
  }

  private QuantityValue parse(String text) throws CelEvaluationException {
    QuantityValue cached = literals.getIfPresent(text);
    if (cached != null) {
      return cached;
    }
    try {
      QuantityValue value = QuantityValue.parse(text);
      literals.put(text, value);
      return value;
    } catch (IllegalArgumentException e) {
      throw FunctionLibrary.error(e);
    }
  }

  private static Long asInteger(QuantityValue value) throws CelEvaluationException {
    if (value.asLong().isEmpty()) {
      throw FunctionLibrary.error("cannot convert value to integer");
    }
    return value.asLong().getAsLong();
  }
}
