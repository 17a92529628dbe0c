package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.github.dra4j.cdi.name.InvalidNameException;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.name.QualifiedDeviceName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A CDI spec: the content of one spec file, a set of devices of one kind.
 *
 * <p>Fields hold what was written or read, unchecked; {@code io.github.dra4j.cdi.validation}
 * checks them. Example:
 *
 * <pre>{@code
 * CdiSpec spec = CdiSpec.builder()
 *     .kind("k8s.gpu.example.com/gpu")
 *     .device(claimUid + "-gpu0", e -> e.deviceNode("/dev/gpu0").env("GPU", "0"))
 *     .build();   // cdiVersion = lowest version the features need
 * }</pre>
 *
 * @param cdiVersion the spec version, e.g. {@code 0.5.0}
 * @param kind {@code vendor/class}
 * @param annotations CDI-only metadata (spec 0.6.0); sorted by key
 * @param devices the devices, at least one
 * @param containerEdits edits applied when any device of this spec is injected; may be empty
 */
@JsonPropertyOrder({"cdiVersion", "kind", "annotations", "devices", "containerEdits"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record CdiSpec(
    @JsonInclude(JsonInclude.Include.ALWAYS) String cdiVersion,
    @JsonInclude(JsonInclude.Include.ALWAYS) String kind,
    Map<String, String> annotations,
    @JsonInclude(JsonInclude.Include.ALWAYS) List<Device> devices,
    @JsonInclude(JsonInclude.Include.ALWAYS) ContainerEdits containerEdits) {

  /**
   * Copies collections; nulls become empty values.
   *
   * @param cdiVersion the spec version
   * @param kind {@code vendor/class}
   * @param annotations CDI-only metadata (spec 0.6.0)
   * @param devices the devices, at least one
   * @param containerEdits edits applied when any device of this spec is injected
   */
  public CdiSpec {
    cdiVersion = Copies.text(cdiVersion);
    kind = Copies.text(kind);
    annotations = Copies.sortedMap("annotations", annotations);
    devices = Copies.list("devices", devices);
    containerEdits = containerEdits == null ? ContainerEdits.EMPTY : containerEdits;
  }

  /**
   * Starts a builder.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a builder holding this spec's content, version included.
   *
   * @return a builder
   */
  public Builder toBuilder() {
    Builder builder = new Builder().cdiVersion(cdiVersion).kind(kind).devices(devices)
        .containerEdits(containerEdits);
    annotations.forEach(builder::annotation);
    return builder;
  }

  /**
   * Returns a copy with another version.
   *
   * @param version the {@code cdiVersion} value
   * @return the copy
   */
  public CdiSpec withCdiVersion(String version) {
    return new CdiSpec(version, kind, annotations, devices, containerEdits);
  }

  /**
   * Returns a copy stamped with the lowest version its features need ({@link MinimumVersion}).
   *
   * @return the copy
   */
  public CdiSpec withMinimumVersion() {
    return withCdiVersion(MinimumVersion.of(this).text());
  }

  /**
   * Parses {@link #kind()}.
   *
   * @return the kind
   * @throws InvalidNameException if the kind is not a valid {@code vendor/class}
   */
  public Kind parsedKind() {
    return Kind.parse(kind);
  }

  /**
   * Finds a device by name.
   *
   * @param name the device name
   * @return the device, or empty
   */
  public Optional<Device> device(String name) {
    return devices.stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /**
   * Returns the CDI device IDs of all devices, in order: what a DRA driver returns to the kubelet.
   *
   * @return {@code vendor/class=name} for every device
   * @throws InvalidNameException if the kind or a device name is invalid
   */
  public List<QualifiedDeviceName> qualifiedDeviceNames() {
    Kind parsed = parsedKind();
    return devices.stream().map(d -> parsed.device(d.name())).toList();
  }

  /** Builds a {@link CdiSpec}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final Map<String, String> annotations = new TreeMap<>();
    private final List<Device> devices = new ArrayList<>();
    private final ContainerEdits.Builder edits = ContainerEdits.builder();
    private String cdiVersion;
    private String kind = "";

    private Builder() {}

    /**
     * Sets the version explicitly. Without it {@link #build()} stamps the minimum version.
     *
     * @param value e.g. {@code 0.5.0}
     * @return this builder
     */
    public Builder cdiVersion(String value) {
      this.cdiVersion = value;
      return this;
    }

    /**
     * Sets the version explicitly.
     *
     * @param value the version
     * @return this builder
     */
    public Builder cdiVersion(CdiVersion value) {
      return cdiVersion(value.text());
    }

    /**
     * Sets the kind.
     *
     * @param value {@code vendor/class}
     * @return this builder
     */
    public Builder kind(String value) {
      this.kind = value;
      return this;
    }

    /**
     * Sets the kind.
     *
     * @param value the kind
     * @return this builder
     */
    public Builder kind(Kind value) {
      return kind(value.toString());
    }

    /**
     * Adds a spec annotation (needs spec 0.6.0).
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
     * Adds a device.
     *
     * @param device the device
     * @return this builder
     */
    public Builder device(Device device) {
      devices.add(device);
      return this;
    }

    /**
     * Adds a device built from a name and an edits callback.
     *
     * @param name the device name
     * @param configure called with the device's edits builder
     * @return this builder
     */
    public Builder device(String name, Consumer<ContainerEdits.Builder> configure) {
      return device(Device.builder(name).edits(configure).build());
    }

    /**
     * Adds devices.
     *
     * @param values the devices
     * @return this builder
     */
    public Builder devices(List<Device> values) {
      devices.addAll(values);
      return this;
    }

    /**
     * Adds spec-level edits through a builder callback.
     *
     * @param configure called with the spec-level edits builder
     * @return this builder
     */
    public Builder edits(Consumer<ContainerEdits.Builder> configure) {
      configure.accept(edits);
      return this;
    }

    /**
     * Adds ready-made spec-level edits.
     *
     * @param value the edits to append
     * @return this builder
     */
    public Builder containerEdits(ContainerEdits value) {
      edits.edits(value);
      return this;
    }

    /**
     * Builds the spec. Without an explicit version it is stamped with the lowest version its
     * features need. Nothing is validated here.
     *
     * @return the spec
     */
    public CdiSpec build() {
      CdiSpec spec = new CdiSpec(
          cdiVersion == null ? "" : cdiVersion, kind, annotations, devices, edits.build());
      return cdiVersion == null ? spec.withMinimumVersion() : spec;
    }
  }
}
