package io.github.dra4j.lifecycle.internal.checkpoint;

import static io.github.dra4j.lifecycle.internal.checkpoint.JsonFields.child;
import static io.github.dra4j.lifecycle.internal.checkpoint.JsonFields.index;
import static io.github.dra4j.lifecycle.internal.checkpoint.JsonFields.key;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@code checkpoint.dra4j.io/v1} files: checks {@code kind} and the checksum over the
 * {@code data} bytes, then reads the claims. Lenient as the format promises (unknown members are
 * ignored, optional ones default), strict where it matters: required fields, types, and the UID,
 * namespace and name of every claim, which later become parts of file paths. Stateless.
 */
final class V1Reader {

  /** The apiVersion this reader reads. */
  static final String API_VERSION = "checkpoint.dra4j.io/v1";

  /** The kind of a v1 checkpoint. */
  static final String KIND = "PreparedClaims";

  private static final Pattern CHECKSUM = Pattern.compile("sha256:[0-9a-f]{64}");

  private V1Reader() {}

  /**
   * Reads a v1 envelope.
   *
   * @throws CheckpointFormatException naming the field and value that are wrong
   */
  static CheckpointData read(Envelope envelope) throws CheckpointFormatException {
    String kind = topLevelString(envelope, "kind");
    if (!KIND.equals(kind)) {
      throw new CheckpointFormatException("kind " + CheckpointValues.quote(kind) + " is not "
          + CheckpointValues.quote(KIND));
    }
    String checksum = topLevelString(envelope, "checksum");
    if (!CHECKSUM.matcher(checksum).matches()) {
      throw new CheckpointFormatException("checksum: invalid value "
          + CheckpointValues.quote(checksum) + ": must be sha256:<64 lower-case hex digits>");
    }
    Envelope.Member data = envelope.member("data")
        .filter(m -> m.value() != null && !m.value().isNull())
        .orElseThrow(() -> new CheckpointFormatException("data: required"));
    JsonFields.object(data.value(), "data");
    String actual = envelope.sha256(data);
    if (!actual.equals(checksum)) {
      throw new CheckpointFormatException(
          "checksum mismatch: file says " + checksum + ", content is " + actual);
    }
    return claims(data.value());
  }

  private static String topLevelString(Envelope envelope, String field)
      throws CheckpointFormatException {
    Optional<Envelope.Member> member = envelope.member(field);
    if (member.isEmpty() || member.get().value().isNull()) {
      throw new CheckpointFormatException(field + ": required");
    }
    JsonNode value = member.get().value();
    if (!value.isString()) {
      throw new CheckpointFormatException(
          field + ": must be a string, is " + JsonFields.describe(value));
    }
    return value.stringValue();
  }

  private static CheckpointData claims(JsonNode data) throws CheckpointFormatException {
    JsonNode claims = JsonFields.optionalValue(data, "claims");
    Map<String, ClaimEntry> result = new TreeMap<>();
    if (claims == null) {
      // Every writer since the first release writes it when there are claims, and now always:
      // a file without it lost its claims somewhere, and reading it as empty would drop the
      // CDI specs of claims still in use at the next start.
      throw new CheckpointFormatException("data.claims: required (a checkpoint without claims"
          + " has \"claims\": {}; releases before it was required left it out of an empty"
          + " checkpoint, which is kept aside once, holding nothing)");
    }
    JsonFields.object(claims, "claims");
    for (Map.Entry<String, JsonNode> claim : claims.properties()) {
      String uid = claim.getKey();
      String path = key("claims", uid);
      Optional<String> problem = CheckpointValues.uidProblem(uid);
      if (problem.isPresent()) {
        throw new CheckpointFormatException(path + ": " + problem.get());
      }
      result.put(uid, entry(claim.getValue(), path));
    }
    return CheckpointData.of(result);
  }

  private static ClaimEntry entry(JsonNode node, String path) throws CheckpointFormatException {
    JsonFields.object(node, path);
    String phaseValue = JsonFields.requiredString(node, path, "phase");
    ClaimPhase phase = ClaimPhase.fromJson(phaseValue)
        .orElseThrow(() -> new CheckpointFormatException(child(path, "phase") + ": unknown value "
            + CheckpointValues.quote(phaseValue)));
    if (JsonFields.optionalBoolean(node, path, "unprepareStarted", false)) {
      if (phase != ClaimPhase.PREPARE_COMPLETED) {
        throw new CheckpointFormatException(child(path, "unprepareStarted")
            + ": only a claim in phase PrepareCompleted is unprepared, not one in phase "
            + phaseValue);
      }
      phase = ClaimPhase.UNPREPARE_STARTED;
    }
    String namespace = JsonFields.requiredString(node, path, "namespace");
    failOn(child(path, "namespace"), CheckpointValues.namespaceProblem(namespace));
    String name = JsonFields.requiredString(node, path, "name");
    failOn(child(path, "name"), CheckpointValues.nameProblem(name));
    String bootId = JsonFields.requiredString(node, path, "bootId");
    List<AllocatedDevice> allocation = new ArrayList<>();
    List<JsonNode> allocated = JsonFields.optionalArray(node, path, "allocation");
    for (int i = 0; i < allocated.size(); i++) {
      allocation.add(allocatedDevice(allocated.get(i), index(child(path, "allocation"), i)));
    }
    List<StoredDevice> devices = new ArrayList<>();
    List<JsonNode> answered = JsonFields.optionalArray(node, path, "devices");
    for (int i = 0; i < answered.size(); i++) {
      devices.add(storedDevice(answered.get(i), index(child(path, "devices"), i)));
    }
    try {
      return new ClaimEntry(phase, namespace, name, bootId, allocation, devices,
          JsonFields.optionalValue(node, "cdiSpec"), JsonFields.optionalValue(node, "driverState"));
    } catch (IllegalArgumentException e) {
      throw new CheckpointFormatException(path + ": " + e.getMessage(), e);
    }
  }

  private static AllocatedDevice allocatedDevice(JsonNode node, String path)
      throws CheckpointFormatException {
    JsonFields.object(node, path);
    String request = JsonFields.requiredString(node, path, "request");
    try {
      return new AllocatedDevice(
          RequestReference.parse(request),
          JsonFields.requiredString(node, path, "pool"),
          JsonFields.requiredString(node, path, "device"),
          JsonFields.optionalString(node, path, "shareId"),
          JsonFields.optionalBoolean(node, path, "adminAccess", false),
          new TreeMap<>(JsonFields.stringMap(node, path, "consumedCapacity")),
          JsonFields.stringList(node, path, "bindingConditions"));
    } catch (IllegalArgumentException e) {
      throw new CheckpointFormatException(path + ": " + e.getMessage(), e);
    }
  }

  private static StoredDevice storedDevice(JsonNode node, String path)
      throws CheckpointFormatException {
    JsonFields.object(node, path);
    return new StoredDevice(
        JsonFields.stringList(node, path, "requests"),
        JsonFields.requiredString(node, path, "pool"),
        JsonFields.requiredString(node, path, "device"),
        JsonFields.stringList(node, path, "cdiDeviceIds"),
        JsonFields.optionalString(node, path, "shareId"));
  }

  private static void failOn(String path, Optional<String> problem)
      throws CheckpointFormatException {
    if (problem.isPresent()) {
      throw new CheckpointFormatException(path + ": " + problem.get());
    }
  }
}
