package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.INT;
import static io.github.dra4j.cel.KubernetesTypes.SEMVER;
import static io.github.dra4j.cel.KubernetesTypes.STRING;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * The Kubernetes semver library: {@code semver()}, {@code isSemver()} and the member functions of
 * {@code kubernetes.Semver}. Comes in two parts because Kubernetes added them at different times:
 * {@link #strict()} is version 0 (strict parsing, comparisons, parts), which DRA itself registered
 * from the start; {@link #normalizing()} is what version 1 adds, the overloads taking a {@code
 * normalize} flag ({@code semver("v1.2", true)}). Stateless.
 */
final class SemverFunctions implements FunctionLibrary {

  private final boolean normalizing;

  private SemverFunctions(boolean normalizing) {
    this.normalizing = normalizing;
  }

  /** Returns version 0 of the library: strict parsing, comparisons and parts. */
  static SemverFunctions strict() {
    return new SemverFunctions(false);
  }

  /** Returns the overloads version 1 of the library adds: parsing with a normalize flag. */
  static SemverFunctions normalizing() {
    return new SemverFunctions(true);
  }

  @Override
  public List<CelFunctionDecl> declarations() {
    if (normalizing) {
      return List.of(
          global("semver", "string_bool_to_semver", SEMVER, STRING, BOOL),
          global("isSemver", "is_semver_string_bool", BOOL, STRING, BOOL));
    }
    return List.of(
        global("semver", "string_to_semver", SEMVER, STRING),
        global("isSemver", "is_semver_string", BOOL, STRING),
        member("isGreaterThan", "semver_is_greater_than", BOOL, SEMVER, SEMVER),
        member("isLessThan", "semver_is_less_than", BOOL, SEMVER, SEMVER),
        member("compareTo", "semver_compare_to", INT, SEMVER, SEMVER),
        member("major", "semver_major", INT, SEMVER),
        member("minor", "semver_minor", INT, SEMVER),
        member("patch", "semver_patch", INT, SEMVER));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    if (normalizing) {
      return List.of(
          CelFunctionBinding.from(
              "string_bool_to_semver",
              ImmutableList.of(String.class, Boolean.class),
              args -> parse((String) args[0], (Boolean) args[1])),
          CelFunctionBinding.from(
              "is_semver_string_bool",
              String.class,
              Boolean.class,
              (s, normalize) -> SemverValue.isValid(s, normalize)));
    }
    Class<SemverValue> v = SemverValue.class;
    return List.of(
        CelFunctionBinding.from("string_to_semver", String.class, s -> parse(s, false)),
        CelFunctionBinding.from(
            "is_semver_string", String.class, s -> SemverValue.isValid(s, false)),
        CelFunctionBinding.from("semver_is_greater_than", v, v, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("semver_is_less_than", v, v, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("semver_compare_to", v, v, (a, b) -> (long) a.compareTo(b)),
        CelFunctionBinding.from("semver_major", v, SemverValue::major),
        CelFunctionBinding.from("semver_minor", v, SemverValue::minor),
        CelFunctionBinding.from("semver_patch", v, SemverValue::patch));
  }

  private static SemverValue parse(String text, boolean normalize) throws CelEvaluationException {
    try {
      return normalize ? SemverValue.parseNormalized(text) : SemverValue.parse(text);
    } catch (IllegalArgumentException e) {
      throw FunctionLibrary.error(e);
    }
  }
}
