package io.github.dra4j.cel;

import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.CelCall;
import dev.cel.common.internal.DateTimeHelpers;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.runtime.RuntimeHelpers;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Compile-time checks of literal arguments that Kubernetes validates before an expression runs:
 * regular expressions in {@code matches()}, {@code find()} and {@code findAll()}, and duration and
 * timestamp literals. Stateless.
 */
final class LiteralChecks {

  private LiteralChecks() {}

  /**
   * Returns the first problem as a Kubernetes-style message, or empty.
   *
   * @param expression the source text (for the caret line)
   * @param ast the checked syntax tree
   */
  static Optional<String> firstProblem(String expression, CelAbstractSyntaxTree ast) {
    List<CelNavigableExpr> calls = CelNavigableAst.fromAst(ast)
        .getRoot()
        .allNodes()
        .filter(node -> node.expr().exprKind().getKind() == CelExpr.ExprKind.Kind.CALL)
        .collect(Collectors.toList());
    for (CelNavigableExpr node : calls) {
      Optional<String> problem = check(expression, ast, node.expr());
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> check(String expression, CelAbstractSyntaxTree ast,
      CelExpr expr) {
    CelCall call = expr.call();
    Optional<CelExpr> literal = literalArgument(call);
    if (literal.isEmpty()) {
      return Optional.empty();
    }
    String value = literal.get().constant().stringValue();
    switch (call.function()) {
      case "matches" -> {
        try {
          RegexFunctions.checkSyntax(value);
        } catch (PatternSyntaxException e) {
          return Optional.of(
              "compilation failed: "
                  + located(expression, ast, literal.get(), "invalid matches argument"));
        }
        return Optional.empty();
      }
      case "find", "findAll" -> {
        try {
          RegexFunctions.checkSyntax(value);
        } catch (PatternSyntaxException e) {
          return Optional.of("program instantiation failed: " + e.getMessage());
        }
        return Optional.empty();
      }
      case "duration" -> {
        return literal(
            expression,
            ast,
            literal.get(),
            "duration",
            () -> RuntimeHelpers.createJavaDurationFromString(value));
      }
      case "timestamp" -> {
        return literal(
            expression, ast, literal.get(), "timestamp", () -> DateTimeHelpers.parse(value));
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static Optional<String> literal(
      String expression, CelAbstractSyntaxTree ast, CelExpr at, String kind, Runnable parse) {
    try {
      parse.run();
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("compilation failed: "
          + located(expression, ast, at, "invalid " + kind + " argument: " + e.getMessage()));
    }
  }

  private static Optional<CelExpr> literalArgument(CelCall call) {
    List<CelExpr> args = call.args();
    CelExpr candidate;
    if (call.target().isPresent()) {
      candidate = args.isEmpty() ? null : args.get(0);
    } else if (call.function().equals("matches")) {
      candidate = args.size() == 2 ? args.get(1) : null;
    } else {
      candidate = args.size() == 1 ? args.get(0) : null;
    }
    if (candidate == null
        || candidate.exprKind().getKind() != CelExpr.ExprKind.Kind.CONSTANT
        || candidate.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
      return Optional.empty();
    }
    return Optional.of(candidate);
  }

  /** Formats {@code ERROR: <input>:line:col: message} plus the source line and a caret. */
  static String located(String expression, CelAbstractSyntaxTree ast, CelExpr at, String message) {
    int offset = ast.getSource().getPositionsMap().getOrDefault(at.id(), 0);
    int lineStart = expression.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
    if (offset == 0) {
      lineStart = 0;
    }
    int line = 1 + (int) expression.substring(0, lineStart).chars().filter(c -> c == '\n').count();
    int column = offset - lineStart;
    int lineEnd = expression.indexOf('\n', lineStart);
    String source = expression.substring(lineStart, lineEnd < 0 ? expression.length() : lineEnd);
    return "ERROR: <input>:" + line + ":" + (column + 1) + ": " + message
        + "\n | " + source + "\n | " + ".".repeat(column) + "^";
  }
}
