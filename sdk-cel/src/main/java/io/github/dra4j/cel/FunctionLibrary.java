package io.github.dra4j.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * One group of Kubernetes CEL functions: the declarations the type checker needs and the
 * bindings the runtime dispatches to (by Java argument class). Implementations are stateless.
 */
interface FunctionLibrary {

  /** Returns the function declarations, one per function name or several to be merged. */
  List<CelFunctionDecl> declarations();

  /** Returns one runtime binding per declared overload id. */
  List<CelFunctionBinding> bindings();

  /** Declares a member overload {@code receiver.name(args) -> result}. */
  static CelFunctionDecl member(String name, String overloadId, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newMemberOverload(overloadId, result, args));
  }

  /** Declares a global overload {@code name(args) -> result}. */
  static CelFunctionDecl global(String name, String overloadId, CelType result, CelType... args) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newGlobalOverload(overloadId, result, args));
  }

  /** Returns an evaluation error whose message is exactly {@code message}. */
  static CelEvaluationException error(String message) {
    return new CelEvaluationException(message);
  }

  /** Returns an evaluation error for a parse failure, keeping the cause. */
  static CelEvaluationException error(IllegalArgumentException cause) {
    return new CelEvaluationException(cause.getMessage(), cause);
  }
}
