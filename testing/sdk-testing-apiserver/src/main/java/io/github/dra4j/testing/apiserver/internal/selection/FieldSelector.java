package io.github.dra4j.testing.apiserver.internal.selection;

import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A parsed field selector: comma-separated requirements {@code key=value}, {@code key==value} or
 * {@code key!=value}, all of which must hold. Values may be empty ({@code spec.nodeName=}) and may
 * escape {@code \,}, {@code \=} and {@code \\} with a backslash, as in Kubernetes. Immutable.
 */
public final class FieldSelector {

  /** One requirement of a field selector. */
  record Requirement(String key, boolean equal, String value) {}

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  private final List<Requirement> requirements;

  private FieldSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /**
   * Returns the selector that matches every object.
   *
   * @return the empty selector
   */
  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /**
   * Parses a selector and checks every key against the fields the resource supports.
   *
   * @param selector the query parameter value; null or blank selects everything
   * @param resource the resource the selector is applied to
   * @return the selector
   * @throws InvalidSelectorException for syntax errors and unsupported keys, with the real API
   *     server's wording ({@code field label not supported: <key>})
   */
  public static FieldSelector parse(String selector, ResourceInfo resource) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (String term : splitUnescaped(selector)) {
      Requirement requirement = parseTerm(term.trim(), selector);
      if (!resource.fieldNames().contains(requirement.key())) {
        throw new InvalidSelectorException("field label not supported: " + requirement.key());
      }
      requirements.add(requirement);
    }
    return new FieldSelector(requirements);
  }

  private static Requirement parseTerm(String term, String selector) {
    for (int i = 0; i < term.length(); i++) {
      char c = term.charAt(i);
      if (c == '\\') {
        i++;
        continue;
      }
      if (c == '!' && term.startsWith("!=", i)) {
        return new Requirement(term.substring(0, i).trim(), false, unescape(term.substring(i + 2)));
      }
      if (c == '=') {
        int valueStart = term.startsWith("==", i) ? i + 2 : i + 1;
        return new Requirement(term.substring(0, i).trim(), true,
            unescape(term.substring(valueStart)));
      }
    }
    throw new InvalidSelectorException(
        "invalid selector: '" + selector + "'; can't understand '" + term + "'");
  }

  private static List<String> splitUnescaped(String selector) {
    List<String> terms = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '\\' && i + 1 < selector.length()) {
        current.append(c).append(selector.charAt(++i));
      } else if (c == ',') {
        terms.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    terms.add(current.toString());
    return terms;
  }

  private static String unescape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' && i + 1 < value.length()) {
        out.append(value.charAt(++i));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * Tells whether an object satisfies every requirement.
   *
   * @param object the stored object
   * @param resource the resource describing how fields are read
   * @return true if all requirements hold
   */
  public boolean matches(JsonNode object, ResourceInfo resource) {
    for (Requirement requirement : requirements) {
      boolean same = resource.fieldValue(requirement.key(), object).equals(requirement.value());
      if (same != requirement.equal()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Tells whether the selector has no requirement.
   *
   * @return true if it matches everything
   */
  public boolean isEmpty() {
    return requirements.isEmpty();
  }
}
