package io.github.dra4j.testing.apiserver.internal.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A parsed label selector in the Kubernetes string form: comma-separated requirements {@code
 * key}, {@code !key}, {@code key=value}, {@code key==value}, {@code key!=value}, {@code key in
 * (a,b)} and {@code key notin (a,b)}, all of which must hold. {@code !=} and {@code notin} also
 * match objects without the label. Immutable.
 */
public final class LabelSelector {

  private enum Operator {
    EXISTS, NOT_EXISTS, IN, NOT_IN
  }

  private record Requirement(String key, Operator operator, Set<String> values) {
    boolean matches(JsonNode labels) {
      JsonNode value = labels.get(key);
      boolean present = value != null && value.isString();
      return switch (operator) {
        case EXISTS -> present;
        case NOT_EXISTS -> !present;
        case IN -> present && values.contains(value.asString());
        case NOT_IN -> !present || !values.contains(value.asString());
      };
    }
  }

  private static final Pattern SET_BASED = Pattern
      .compile("^\\s*([^\\s!=(),]+)\\s+(in|notin)\\s+\\(([^)]*)\\)\\s*$");
  private static final Pattern EQUALITY = Pattern
      .compile("^\\s*([^\\s!=(),]+)\\s*(==|!=|=)\\s*([^\\s!=(),]*)\\s*$");
  private static final Pattern EXISTS = Pattern.compile("^\\s*(!?)\\s*([^\\s!=(),]+)\\s*$");
  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /**
   * Returns the selector that matches every object.
   *
   * @return the empty selector
   */
  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /**
   * Parses a label selector.
   *
   * @param selector the query parameter value; null or blank selects everything
   * @return the selector
   * @throws InvalidSelectorException if a requirement cannot be parsed
   */
  public static LabelSelector parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (String term : splitOutsideParentheses(selector)) {
      requirements.add(parseTerm(term, selector));
    }
    return new LabelSelector(requirements);
  }

  private static Requirement parseTerm(String term, String selector) {
    Matcher m = SET_BASED.matcher(term);
    if (m.matches()) {
      Set<String> values = new java.util.LinkedHashSet<>();
      for (String v : m.group(3).split(",", -1)) {
        if (!v.isBlank()) {
          values.add(v.trim());
        }
      }
      Operator op = m.group(2).equals("in") ? Operator.IN : Operator.NOT_IN;
      return new Requirement(m.group(1), op, Set.copyOf(values));
    }
    m = EQUALITY.matcher(term);
    if (m.matches()) {
      Operator op = m.group(2).equals("!=") ? Operator.NOT_IN : Operator.IN;
      return new Requirement(m.group(1), op, Set.of(m.group(3)));
    }
    m = EXISTS.matcher(term);
    if (m.matches()) {
      Operator op = m.group(1).isEmpty() ? Operator.EXISTS : Operator.NOT_EXISTS;
      return new Requirement(m.group(2), op, Set.of());
    }
    throw new InvalidSelectorException(
        "unable to parse requirement: '" + term.trim() + "' in label selector '" + selector + "'");
  }

  private static List<String> splitOutsideParentheses(String selector) {
    List<String> terms = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        terms.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    terms.add(selector.substring(start));
    return terms;
  }

  /**
   * Tells whether an object's labels satisfy every requirement.
   *
   * @param object the stored object
   * @return true if all requirements hold
   */
  public boolean matches(JsonNode object) {
    JsonNode labels = object.path("metadata").path("labels");
    for (Requirement requirement : requirements) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
