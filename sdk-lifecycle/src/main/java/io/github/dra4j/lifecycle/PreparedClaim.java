package io.github.dra4j.lifecycle;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What {@link ClaimDriver#prepare} returns: what a container that uses the claim gets from each
 * device (CDI container edits: environment, device nodes, mounts, hooks), what it gets from the
 * claim as a whole, and the driver's state record for unprepare and rollback.
 *
 * <p>The SDK writes one CDI spec per claim from this, with one CDI device per device that has
 * edits, and answers the kubelet with the CDI IDs. An allocated device the driver lists without
 * edits (or not at all) is still answered, with no CDI ID of its own. Edits of the whole claim go
 * to the spec itself, so a container gets them once whichever of the claim's devices it uses.
 *
 * <p>Immutable. Build with {@link #builder()}, which takes the devices first and the state when
 * the driver knows it (usually after the hardware work the state records):
 *
 * <pre>{@code
 * PreparedClaim.Builder<ClaimState> prepared = PreparedClaim.builder();
 * for (AllocatedDevice device : allocation.devices()) {
 *   prepared.device(device, edits -> edits.env("GPU_UUID", uuidOf(device)));
 * }
 * return prepared.state(new ClaimState(partitions)).build();
 * }</pre>
 *
 * <p>or with {@link #builder(Object)} when the state is known before any device.
 *
 * @param <S> the driver's state record
 */
public final class PreparedClaim<S> {

  private final S state;
  private final Map<AllocatedDevice, ContainerEdits> deviceEdits;
  private final ContainerEdits claimEdits;

  private PreparedClaim(Builder<S> builder) {
    this.state = builder.state;
    this.deviceEdits = Collections.unmodifiableMap(new LinkedHashMap<>(builder.deviceEdits));
    this.claimEdits = builder.claimEdits;
  }

  /**
   * Starts a result without a state yet: add the devices, then {@link Builder#state} when the
   * driver has one. A result built without a state stores none (null).
   *
   * @param <S> the driver's state record
   * @return a builder
   */
  public static <S> Builder<S> builder() {
    return new Builder<>(null);
  }

  /**
   * Starts a result with its state.
   *
   * @param state the driver's state record to store, or null for none
   * @param <S> its type
   * @return a builder
   */
  public static <S> Builder<S> builder(S state) {
    return new Builder<>(state);
  }

  /**
   * A result with no container edits at all: the kubelet gets the devices without CDI IDs.
   *
   * @param state the driver's state record, or null
   * @param <S> its type
   * @return the result
   */
  public static <S> PreparedClaim<S> withoutEdits(S state) {
    return new Builder<>(state).build();
  }

  /**
   * The driver's state record.
   *
   * @return the record, or null when the driver keeps none
   */
  public S state() {
    return state;
  }

  /**
   * The edits of each device the driver listed, in the order it listed them.
   *
   * @return device to edits; a device with empty edits gets no CDI device
   */
  public Map<AllocatedDevice, ContainerEdits> deviceEdits() {
    return deviceEdits;
  }

  /**
   * The edits every container using the claim gets.
   *
   * @return the edits, {@link ContainerEdits#EMPTY} when none
   */
  public ContainerEdits claimEdits() {
    return claimEdits;
  }

  /**
   * Builds a {@link PreparedClaim}. Not thread-safe.
   *
   * @param <S> the driver's state record
   */
  public static final class Builder<S> {
    private S state;
    private final Map<AllocatedDevice, ContainerEdits> deviceEdits = new LinkedHashMap<>();
    private ContainerEdits claimEdits = ContainerEdits.EMPTY;

    private Builder(S state) {
      this.state = state;
    }

    /**
     * What a container gets from one allocated device.
     *
     * @param device one of the allocation's devices
     * @param edits its container edits
     * @return this builder
     * @throws IllegalArgumentException if the device was listed already
     */
    public Builder<S> device(AllocatedDevice device, ContainerEdits edits) {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(edits, "edits");
      if (deviceEdits.putIfAbsent(device, edits) != null) {
        throw new IllegalArgumentException("device " + device.fullName() + " of request "
            + device.request() + " is listed twice");
      }
      return this;
    }

    /**
     * What a container gets from one allocated device, built in place.
     *
     * @param device one of the allocation's devices
     * @param configure fills the edits
     * @return this builder
     */
    public Builder<S> device(AllocatedDevice device, Consumer<ContainerEdits.Builder> configure) {
      ContainerEdits.Builder edits = ContainerEdits.builder();
      configure.accept(edits);
      return device(device, edits.build());
    }

    /**
     * Sets the driver's state record to store, replacing one given before.
     *
     * @param value the record, or null for none
     * @return this builder
     */
    public Builder<S> state(S value) {
      this.state = value;
      return this;
    }

    /**
     * What every container using the claim gets, once.
     *
     * @param edits the edits; replaces earlier ones
     * @return this builder
     */
    public Builder<S> claimEdits(ContainerEdits edits) {
      this.claimEdits = Objects.requireNonNull(edits, "claimEdits");
      return this;
    }

    /**
     * Finishes.
     *
     * @return the result
     */
    public PreparedClaim<S> build() {
      return new PreparedClaim<>(this);
    }
  }

  @Override
  public String toString() {
    List<String> devices = new ArrayList<>();
    deviceEdits.keySet().forEach(d -> devices.add(d.fullName()));
    return "PreparedClaim" + devices + (claimEdits.isEmpty() ? "" : " with claim edits");
  }
}
