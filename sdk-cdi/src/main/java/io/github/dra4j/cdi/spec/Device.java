package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One device of a spec, injected by naming it as {@code vendor/class=name}.
 *
 * @param name the device name, unique within the spec
 * @param annotations CDI-only metadata (spec 0.6.0), not copied into the container; sorted by key
 * @param containerEdits the edits applied when this device is injected; must not be empty
 */
@JsonPropertyOrder({"name", "annotations", "containerEdits"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Device(
    @JsonInclude(JsonInclude.Include.ALWAYS) String name,
    Map<String, String> annotations,
    @JsonInclude(JsonInclude.Include.ALWAYS) ContainerEdits containerEdits) {

  /**
   * Copies the annotations into a sorted map; null edits become empty edits.
   *
   * @param name the device name, unique within the spec
   * @param annotations CDI-only metadata (spec 0.6.0), not copied into the container
   * @param containerEdits the edits applied when this device is injected
   */
  public Device {
    name = Copies.text(name);
    annotations = Copies.sortedMap("device annotations", annotations);
    containerEdits = containerEdits == null ? ContainerEdits.EMPTY : containerEdits;
  }

  /**
   * Creates a device without annotations.
   *
   * @param name the device name
   * @param edits its edits
   * @return the device
   */
  public static Device of(String name, ContainerEdits edits) {
    return new Device(name, Map.of(), edits);
  }

  /**
   * Starts a builder.
   *
   * @param name the device name
   * @return a builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Builds a {@link Device}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final String name;
    private final Map<String, String> annotations = new TreeMap<>();
    private final ContainerEdits.Builder edits = ContainerEdits.builder();

    private Builder(String name) {
      this.name = name;
    }

    /**
     * Adds an annotation (needs spec 0.6.0).
     *
     * @param key the key
     * @param value the value
     * @return this builder
     */
    public Builder annotation(String key, String value) {
      annotations.put(key, value);
      return this;
    }

    /**
     * Adds edits through a builder callback, e.g. {@code d.edits(e -> e.deviceNode("/dev/x"))}.
     *
     * @param configure called with the device's edits builder
     * @return this builder
     */
    public Builder edits(Consumer<ContainerEdits.Builder> configure) {
      configure.accept(edits);
      return this;
    }

    /**
     * Adds ready-made edits.
     *
     * @param value the edits to append
     * @return this builder
     */
    public Builder containerEdits(ContainerEdits value) {
      edits.edits(value);
      return this;
    }

    /**
     * Builds the device.
     *
     * @return the device
     */
    public Device build() {
      return new Device(name, annotations, edits.build());
    }
  }
}
