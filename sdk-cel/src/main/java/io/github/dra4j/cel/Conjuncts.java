package io.github.dra4j.cel;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an expression's source text into its top-level {@code &&} operands, so that a person can
 * be told which condition was false. Only splits when the top level has no {@code ||} and no
 * conditional operator (otherwise precedence would make the parts meaningless); string literals
 * and brackets are respected. Stateless.
 */
final class Conjuncts {

  private Conjuncts() {}

  /** Returns the operands, or a single element (the whole text) when there is nothing to split. */
  static List<String> split(String expression) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    int i = 0;
    while (i < expression.length()) {
      char c = expression.charAt(i);
      if (c == '"' || c == '\'') {
        i = skipString(expression, i);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (depth == 0 && (c == '?' || expression.startsWith("||", i))) {
        return List.of(expression.trim());
      } else if (depth == 0 && expression.startsWith("&&", i)) {
        parts.add(expression.substring(start, i).trim());
        start = i + 2;
        i++;
      }
      i++;
    }
    parts.add(expression.substring(start).trim());
    return parts.size() > 1 ? parts : List.of(expression.trim());
  }

  private static int skipString(String s, int open) {
    char quote = s.charAt(open);
    boolean triple = s.startsWith(String.valueOf(quote).repeat(3), open);
    boolean raw = open > 0 && (s.charAt(open - 1) == 'r' || s.charAt(open - 1) == 'R');
    int i = open + (triple ? 3 : 1);
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\\' && !raw) {
        i += 2;
        continue;
      }
      if (triple ? s.startsWith(String.valueOf(quote).repeat(3), i) : c == quote) {
        return i + (triple ? 3 : 1);
      }
      i++;
    }
    return s.length();
  }
}
