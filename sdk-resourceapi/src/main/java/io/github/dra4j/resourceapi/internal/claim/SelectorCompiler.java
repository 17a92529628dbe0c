package io.github.dra4j.resourceapi.internal.claim;

import io.github.dra4j.cel.CompiledSelector;
import io.github.dra4j.cel.SelectorCompileException;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;

/**
 * Compiles a device selector with dra4j-cel and turns the outcome into the API server's errors. The
 * one class of this module that names dra4j-cel's types: dra4j-cel is an optional dependency, and
 * loading this class needs dra4j-cel's classes (the verifier resolves the exception it catches), so
 * {@link SelectorRules} makes sure dra4j-cel is present before it first calls {@link #check}.
 * Stateless.
 */
final class SelectorCompiler {

  private static final String COMPILATION_FAILED = "compilation failed: ";
  private static final String WRONG_TYPE = "must evaluate to ";

  private SelectorCompiler() {}

  /**
   * Compiles an expression of allowed length and checks its estimated cost (dra4j-cel's static
   * estimate, the one the API server compares with 1,000,000).
   *
   * @param text the expression
   * @param path its field
   * @param gates the API server's feature gates
   * @param stored whether it was stored before
   * @return the compile error ({@code Invalid}, or {@code Internal error} for a failure of the
   *     compiler itself) or {@code Forbidden: too complex, exceeds cost limit}; empty if it is fine
   */
  static List<FieldError> check(String text, FieldPath path, FeatureGates gates, boolean stored) {
    CompiledSelector compiled;
    try {
      compiled = SelectorEnvironments.forExpression(gates, stored).compile(text);
    } catch (SelectorCompileException e) {
      return List.of(compileError(path, text, e.getMessage()));
    }
    if (compiled.exceedsCostLimit()) {
      return List.of(Errors.forbidden(path, "too complex, exceeds cost limit"));
    }
    return List.of();
  }

  /**
   * Turns a compile failure into the error the API server gives: the compiler's invalid-input
   * failures ({@code compilation failed: ...}, {@code must evaluate to bool ...}) as {@code
   * Invalid value} with the expression, anything else ({@code program instantiation failed: ...})
   * as {@code Internal error}.
   */
  private static FieldError compileError(FieldPath path, String expression, String message) {
    String detail = message == null ? "" : message;
    if (detail.startsWith(COMPILATION_FAILED) || detail.startsWith(WRONG_TYPE)) {
      return Errors.invalid(path, expression, detail);
    }
    return Errors.internal(path, detail);
  }
}
