package io.github.dra4j.cel;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.cel.SelectorExplanation.Outcome;
import io.github.dra4j.cel.SelectorExplanation.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine of the CEL console: evaluates a selector against every device a driver publishes
 * and tells, per device, whether it matches and why not, the way a person debugging a
 * DeviceClass needs it. For a device that does not match, each top-level {@code &&} condition is
 * evaluated on its own and the first false one is reported; errors carry the Kubernetes text
 * (with the optional-chaining hint for missing keys, as the scheduler adds it).
 *
 * <p>Immutable and thread-safe; shares the environment's compile cache.
 */
public final class SelectorExplainer {

  private final DeviceSelectorEnvironment environment;
  private final boolean listTypeAttributes;

  /**
   * Creates an explainer that reads list-valued attributes as lists (feature gate {@code
   * DRAListTypeAttributes} on).
   *
   * @param environment the CEL environment to compile in, usually {@link
   *     DeviceSelectorEnvironment#stored()}
   * @throws NullPointerException if {@code environment} is null
   */
  public SelectorExplainer(DeviceSelectorEnvironment environment) {
    this(environment, true);
  }

  /**
   * Creates an explainer that reads devices as a scheduler with the given setting of the feature
   * gate {@code DRAListTypeAttributes} (alpha in Kubernetes 1.36) does.
   *
   * @param environment the CEL environment to compile in, usually {@link
   *     DeviceSelectorEnvironment#stored()}
   * @param listTypeAttributes true to read list-valued attributes as lists; false to treat them
   *     as Kubernetes 1.36 does with the gate off (see {@link SelectorDevice#of(String,
   *     io.fabric8.kubernetes.api.model.resource.v1.Device, boolean)})
   * @throws NullPointerException if {@code environment} is null
   */
  public SelectorExplainer(DeviceSelectorEnvironment environment, boolean listTypeAttributes) {
    this.environment = Objects.requireNonNull(environment, "environment");
    this.listTypeAttributes = listTypeAttributes;
  }

  /**
   * Explains a selector over the devices of some slices.
   *
   * @param expression the selector expression
   * @param slices the ResourceSlices whose devices to check
   * @return the explanation: the compile error, or one verdict per device
   */
  public SelectorExplanation explain(String expression, List<ResourceSlice> slices) {
    CompiledSelector selector;
    try {
      selector = environment.compile(expression);
    } catch (SelectorCompileException e) {
      return new SelectorExplanation(expression, Optional.of(e.getMessage()), List.of(), List.of());
    }
    List<String> conditions = Conjuncts.split(expression);
    List<Verdict> verdicts = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (ResourceSlice slice : slices) {
      String sliceName = slice.getMetadata() == null ? ""
          : String.valueOf(slice.getMetadata().getName());
      if (slice.getSpec() == null) {
        notes.add("slice " + sliceName + " has no spec, skipped");
        continue;
      }
      String driver = String.valueOf(slice.getSpec().getDriver());
      String pool = slice.getSpec().getPool() == null ? ""
          : String.valueOf(slice.getSpec().getPool().getName());
      List<Device> devices = slice.getSpec().getDevices() == null ? List.of()
          : slice.getSpec().getDevices();
      for (Device device : devices) {
        SelectorDevice view = SelectorDevice.of(driver, device, listTypeAttributes);
        SelectorResult result = selector.evaluate(view);
        verdicts.add(new Verdict(sliceName, driver, pool, String.valueOf(device.getName()),
            outcome(result), why(result, conditions, view)));
      }
    }
    return new SelectorExplanation(expression, Optional.empty(), verdicts, notes);
  }

  private static Outcome outcome(SelectorResult result) {
    if (result instanceof SelectorResult.Failure) {
      return Outcome.ERROR;
    }
    return result.matches() ? Outcome.MATCH : Outcome.NO_MATCH;
  }

  private String why(SelectorResult result, List<String> conditions, SelectorDevice device) {
    if (result instanceof SelectorResult.Failure failure) {
      return failure.messageWithHint();
    }
    if (result.matches()) {
      return "";
    }
    return firstFalse(conditions, device).map(condition -> "false: " + condition).orElse("");
  }

  /**
   * Tells which top-level {@code &&} condition of an expression is false for a device: the first
   * one, in source order, that does not evaluate to {@code true} on its own. For an expression
   * that is not an {@code &&} chain at its top level (a single condition, or one with a top-level
   * {@code ||} or {@code ?:}) there is nothing to single out.
   *
   * @param expression the selector expression, e.g. {@code device.driver == "x.io" &&
   *     device.attributes["x.io"].model == "A100"}
   * @param device the device it was evaluated on
   * @return the text of the first condition that is false (or fails) for the device, trimmed as
   *     written; empty when the expression has fewer than two top-level conditions, every
   *     condition is true on its own, or a condition does not compile alone
   * @throws NullPointerException if an argument is null
   */
  public Optional<String> falseCondition(String expression, SelectorDevice device) {
    Objects.requireNonNull(device, "device");
    return firstFalse(Conjuncts.split(Objects.requireNonNull(expression, "expression")), device);
  }

  private Optional<String> firstFalse(List<String> conditions, SelectorDevice device) {
    if (conditions.size() < 2) {
      return Optional.empty();
    }
    for (String condition : conditions) {
      try {
        if (!environment.compile(condition).evaluate(device).matches()) {
          return Optional.of(condition);
        }
      } catch (SelectorCompileException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }
}
