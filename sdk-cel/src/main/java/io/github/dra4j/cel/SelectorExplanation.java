package io.github.dra4j.cel;

import java.util.List;
import java.util.Optional;

/**
 * What a selector expression does to each published device: the result of {@link
 * SelectorExplainer#explain}. Immutable.
 *
 * @param expression the expression
 * @param compileError why it does not compile, or empty (then {@code devices} is empty)
 * @param devices one verdict per device, in slice and device order
 * @param notes remarks about the input, e.g. skipped objects
 */
public record SelectorExplanation(
    String expression, Optional<String> compileError, List<Verdict> devices, List<String> notes) {

  /**
   * Copies the lists.
   *
   * @param expression the selector expression as given
   * @param compileError the Kubernetes-style compile error, or empty when the expression compiles;
   *     not null
   * @param devices one verdict per device, in slice and device order; empty when the expression
   *     does not compile. Copied, no null elements.
   * @param notes remarks about the input, e.g. skipped objects or slices without a spec; copied,
   *     no null elements
   * @throws NullPointerException if a list or one of its elements is null
   */
  public SelectorExplanation {
    devices = List.copyOf(devices);
    notes = List.copyOf(notes);
  }

  /** How the selector treated a device. */
  public enum Outcome {
    /** The expression is true. */
    MATCH,
    /** The expression is false. */
    NO_MATCH,
    /** The expression failed; in an allocation this aborts the attempt. */
    ERROR
  }

  /**
   * The verdict for one device.
   *
   * @param slice the ResourceSlice name
   * @param driver the driver
   * @param pool the pool
   * @param device the device name
   * @param outcome match, no match or error
   * @param why for no match the first false top-level condition (when the expression is an
   *     {@code &&} chain), for an error the error text; empty for a match
   */
  public record Verdict(
      String slice, String driver, String pool, String device, Outcome outcome, String why) {

    /**
     * Returns {@code driver/pool/device}.
     *
     * @return the device's identity, e.g. {@code gpu.example.com/node-1/gpu-0}, as
     *     {@link #render()} prints it
     */
    public String id() {
      return driver + "/" + pool + "/" + device;
    }
  }

  /**
   * Returns how many devices had the given outcome.
   *
   * @param outcome the outcome to count
   * @return the number of verdicts with that outcome; 0 when the expression does not compile
   */
  public long count(Outcome outcome) {
    return devices.stream().filter(v -> v.outcome() == outcome).count();
  }

  /**
   * Renders the explanation as text for a terminal: a summary line, then one line per device
   * ({@code MATCH}, {@code NO MATCH}, {@code ERROR}) with the reason indented below.
   *
   * @return the text, ending with a newline
   */
  public String render() {
    StringBuilder out = new StringBuilder("Expression: ").append(expression).append('\n');
    notes.forEach(note -> out.append("Note: ").append(note).append('\n'));
    if (compileError.isPresent()) {
      return out.append("Does not compile:\n").append(indent(compileError.get())).append('\n')
          .toString();
    }
    out.append(devices.size()).append(devices.size() == 1 ? " device: " : " devices: ")
        .append(count(Outcome.MATCH)).append(" match, ")
        .append(count(Outcome.NO_MATCH)).append(" no match, ")
        .append(count(Outcome.ERROR)).append(count(Outcome.ERROR) == 1 ? " error" : " errors")
        .append('\n');
    for (Verdict v : devices) {
      String label = v.outcome() == Outcome.NO_MATCH ? "NO MATCH" : v.outcome().name();
      out.append(String.format("%-9s %s  (slice %s)%n", label, v.id(), v.slice()));
      if (!v.why().isEmpty()) {
        out.append(indent(v.why())).append('\n');
      }
    }
    return out.toString();
  }

  private static String indent(String text) {
    return "          " + text.replace("\n", "\n          ");
  }
}
