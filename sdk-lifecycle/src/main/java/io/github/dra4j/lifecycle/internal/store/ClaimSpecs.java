package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.cdi.codec.SpecCodec;
import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.name.QualifiedDeviceName;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.lifecycle.internal.checkpoint.StoredDevice;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The CDI side of a prepared claim: the one spec file per claim ({@code <vendor>-<class>_<claim
 * UID>.json}) built from what the driver returned, the CDI IDs each device is answered with, and
 * the spec's JSON as the checkpoint keeps it so a lost file can be written again.
 *
 * <p>Naming: the CDI device of an allocated device is {@code <claim UID>-<device>}, plus {@code
 * -<share ID>} for a share; when two pools of the claim have a device of the same name, the later
 * ones get {@code -<result index>} as well. When the driver gave edits for the claim as a whole
 * but for none of its devices, the spec gets one device named after the claim UID that carries
 * them (CDI applies spec-level edits only with a device of the spec), and every device of the
 * claim is answered with its ID. With a common device (a node-wide spec written at start, {@code
 * <vendor>-<class>_common.json}), every device is answered with its ID first. Stateless;
 * thread-safe.
 */
public final class ClaimSpecs {

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /** The ID (file name part) of the node-wide spec that holds the common device. */
  public static final String COMMON_SPEC_ID = "common";

  private final Kind kind;
  private final Optional<QualifiedDeviceName> common;

  /**
   * Uses one CDI kind for all claims.
   *
   * @param kind the vendor and class of the claims' CDI devices
   * @param commonDevice the name of the node-wide device every prepared device is also answered
   *     with, if there is one
   */
  public ClaimSpecs(Kind kind, Optional<String> commonDevice) {
    this.kind = kind;
    this.common = commonDevice.map(kind::device);
  }

  /**
   * The node-wide spec with the common device, written at start.
   *
   * @param name the common device's name
   * @param edits what every container with one of the driver's devices gets
   * @return the spec
   */
  public CdiSpec commonSpec(String name, ContainerEdits edits) {
    return CdiSpec.builder().kind(kind).device(Device.of(name, edits)).build();
  }

  /**
   * The CDI kind.
   *
   * @return {@code vendor/class}
   */
  public Kind kind() {
    return kind;
  }

  /** A claim's spec (absent when nothing has edits) and the kubelet's answer for its devices. */
  public record ClaimOutput(Optional<CdiSpec> spec, List<PreparedDevice> devices) {}

  /**
   * Builds the spec and the answer.
   *
   * @param allocation the driver's devices of the claim
   * @param prepared what the driver returned
   * @return the spec to write and the devices to answer
   * @throws IllegalArgumentException naming the device when the driver listed a device that is not
   *     one of the allocation's
   */
  public ClaimOutput build(DriverAllocation allocation, PreparedClaim<?> prepared) {
    String uid = allocation.claim().uid();
    for (AllocatedDevice listed : prepared.deviceEdits().keySet()) {
      if (!allocation.devices().contains(listed)) {
        throw new IllegalArgumentException("driver returned edits for device " + listed.fullName()
            + " of request " + listed.request() + ", which is not allocated to claim "
            + allocation.claim().namespacedName() + " for this driver");
      }
    }
    CdiSpec.Builder spec = CdiSpec.builder().kind(kind);
    boolean anyDeviceEdits = false;
    List<String> deviceNames = cdiDeviceNames(allocation);
    List<List<QualifiedDeviceName>> ids = new ArrayList<>();
    for (int i = 0; i < allocation.devices().size(); i++) {
      AllocatedDevice device = allocation.devices().get(i);
      ContainerEdits edits = prepared.deviceEdits().getOrDefault(device, ContainerEdits.EMPTY);
      List<QualifiedDeviceName> deviceIds = new ArrayList<>();
      common.ifPresent(deviceIds::add);
      if (!edits.isEmpty()) {
        spec.device(Device.of(deviceNames.get(i), edits));
        deviceIds.add(kind.device(deviceNames.get(i)));
        anyDeviceEdits = true;
      }
      ids.add(deviceIds);
    }
    ContainerEdits claimEdits = prepared.claimEdits();
    if (!claimEdits.isEmpty()) {
      if (anyDeviceEdits) {
        spec.containerEdits(claimEdits);
      } else {
        spec.device(Device.of(uid, claimEdits));
        ids.forEach(list -> list.add(kind.device(uid)));
      }
    }
    List<PreparedDevice> answer = new ArrayList<>();
    for (int i = 0; i < allocation.devices().size(); i++) {
      AllocatedDevice device = allocation.devices().get(i);
      PreparedDevice.Builder builder = PreparedDevice.builder(device.pool(), device.device())
          .request(device.request().toString())
          .cdiDeviceIds(ids.get(i));
      if (device.shareId() != null) {
        builder.shareId(device.shareId());
      }
      answer.add(builder.build());
    }
    boolean hasEdits = anyDeviceEdits || !claimEdits.isEmpty();
    return new ClaimOutput(hasEdits ? Optional.of(spec.build()) : Optional.empty(), answer);
  }

  private static List<String> cdiDeviceNames(DriverAllocation allocation) {
    String uid = allocation.claim().uid();
    Set<String> taken = new HashSet<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < allocation.devices().size(); i++) {
      AllocatedDevice device = allocation.devices().get(i);
      String name = uid + "-" + device.device()
          + (device.shareId() == null ? "" : "-" + device.shareId());
      if (!taken.add(name)) {
        name = name + "-" + i;
        taken.add(name);
      }
      names.add(name);
    }
    return names;
  }

  /**
   * The answer as the checkpoint stores it.
   *
   * @param devices the devices answered to the kubelet
   * @return the stored form
   */
  public static List<StoredDevice> stored(List<PreparedDevice> devices) {
    return devices.stream().map(d -> new StoredDevice(d.requests(), d.poolName(),
        d.deviceName(), d.cdiDeviceIds(), d.shareId())).toList();
  }

  /**
   * The answer again, from the checkpoint.
   *
   * @param devices the stored form
   * @return the devices to answer the kubelet with
   */
  public static List<PreparedDevice> answer(List<StoredDevice> devices) {
    List<PreparedDevice> answer = new ArrayList<>();
    for (StoredDevice d : devices) {
      PreparedDevice.Builder builder = PreparedDevice.builder(d.pool(), d.device())
          .request(d.requests().toArray(String[]::new))
          .cdiDeviceId(d.cdiDeviceIds().toArray(String[]::new));
      if (d.shareId() != null) {
        builder.shareId(d.shareId());
      }
      answer.add(builder.build());
    }
    return answer;
  }

  /**
   * The spec as the checkpoint keeps it.
   *
   * @param spec the spec as built
   * @return its JSON tree
   */
  public static JsonNode toJson(CdiSpec spec) {
    return JSON.readTree(SpecCodec.standard().toJson(spec));
  }

  /**
   * The spec again from the checkpoint, read as strictly as a spec file.
   *
   * @param json the stored tree
   * @param source names the checkpoint entry in errors
   * @return the spec
   * @throws IOException if the stored spec is not a valid spec any more
   */
  public static CdiSpec fromJson(JsonNode json, String source) throws IOException {
    return SpecCodec.standard().read(JSON.writeValueAsBytes(json), source);
  }
}
