package io.github.dra4j.resourceapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

/**
 * Compares the errors of a rule with the expected ones, written as {@code "<Type> <field>"} with
 * the server's words for the type: {@code "Invalid spec.devices[0].name"}, {@code "Required
 * spec.driver"}, {@code "TooMany spec.devices"}, {@code "Duplicate spec.devices[1]"}, {@code
 * "NotSupported ..."}, {@code "Forbidden ..."}, {@code "TooLong ..."}, {@code "NotFound ..."},
 * {@code "Internal ..."}. Order does not matter; duplicates count.
 */
public final class ExpectedErrors {

  private ExpectedErrors() {}

  /**
   * Asserts the errors, ignoring their order.
   *
   * @param actual the errors a rule returned
   * @param expected {@code "<Type> <field>"} entries
   */
  public static void assertErrors(List<FieldError> actual, String... expected) {
    List<String> got = actual.stream().map(ExpectedErrors::shortForm).toList();
    assertThat(got)
        .as("errors: %s", actual)
        .containsExactlyInAnyOrderElementsOf(Arrays.asList(expected));
  }

  /**
   * Returns the short form of an error.
   *
   * @param error the error
   * @return e.g. {@code Invalid spec.devices[0].name}
   */
  public static String shortForm(FieldError error) {
    String type = switch (error.type()) {
      case NOT_FOUND -> "NotFound";
      case REQUIRED -> "Required";
      case DUPLICATE -> "Duplicate";
      case INVALID -> "Invalid";
      case NOT_SUPPORTED -> "NotSupported";
      case FORBIDDEN -> "Forbidden";
      case TOO_LONG -> "TooLong";
      case TOO_MANY -> "TooMany";
      case INTERNAL -> "Internal";
      case TYPE_INVALID -> "TypeInvalid";
    };
    return type + " " + error.field();
  }
}
