package io.github.dra4j.cdi.validation;

/**
 * One rule a spec breaks.
 *
 * @param device the device name the problem is in, or null for spec-level fields
 * @param field the JSON path of the field, e.g. {@code devices[0].containerEdits.env[1]}
 * @param value the offending value as text
 * @param reason what is wrong, in the reference library's wording where it has one
 */
public record SpecProblem(String device, String field, String value, String reason) {

  /**
   * Formats the problem as {@code device "d": field "value": reason}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    String where = device == null ? "" : "device \"" + device + "\": ";
    return where + field + " \"" + value + "\": " + reason;
  }
}
