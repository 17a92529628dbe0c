package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Checkpoint data and file texts for the tests, and an independent checksum computation. */
final class CheckpointSamples {

  static final String UID_1 = "0b7a3c1e-5d2f-4a8b-9c6d-1e2f3a4b5c6d";
  static final String UID_2 = "f3e2d1c0-b9a8-4765-8432-10fedcba9876";
  static final String BOOT = "6ece89dd-aedc-47b0-9445-1012847c2a21";
  static final JsonMapper JSON = JsonMapper.builder().build();

  private static final Pattern CHECKSUM = Pattern
      .compile("\"checksum\": \"(sha256:[0-9a-f]{64})\"");

  private CheckpointSamples() {}

  static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  /** A started entry with one plain allocated device. */
  static ClaimEntry started(String name) {
    return ClaimEntry.started("ns-a", name, BOOT, List.of(AllocatedDevice.of("gpu", "pool", "d0")));
  }

  /** Two claims using every field. */
  static CheckpointData rich() {
    ClaimEntry completed = ClaimEntry.started("ml-team", "train.claim-1", BOOT, List.of(
        new AllocatedDevice(RequestReference.parse("gpu/large"),
            "node-1/pool", "gpu-0", "share-7", true,
            Map.of("memory", "10Gi", "cores", "2"), List.of("attached")),
        AllocatedDevice.of("nic", "node-1", "nic-0")))
        .completed(List.of(
            new StoredDevice(List.of("gpu/large", "gpu"), "node-1/pool", "gpu-0",
                List.of("gpu.example.com/gpu=a", "gpu.example.com/gpu=b"), "share-7"),
            new StoredDevice(List.of("nic"), "node-1", "nic-0", List.of(), null)),
            json("{\"cdiVersion\":\"0.6.0\",\"kind\":\"gpu.example.com/gpu\",\"devices\":[],"
                + "\"x\":{\"nested\":[1,2.5,true,null,\"s\"]}}"),
            json("{\"slices\":4,\"mode\":\"exclusive\",\"empty\":{}}"));
    return CheckpointData.empty().with(UID_2, started("second")).with(UID_1, completed);
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The data value of a file written in our layout: from after {@code "data": } to the closing
   * brace before the final {@code \n}\n}. Independent of the codec's way of finding it.
   */
  static String dataText(String file) {
    int start = file.indexOf("\"data\": ") + "\"data\": ".length();
    int end = file.length() - "\n}\n".length();
    return file.substring(start, end);
  }

  static String sha256(String text) {
    try {
      return "sha256:" + HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String checksumOf(String file) {
    Matcher matcher = CHECKSUM.matcher(file);
    if (!matcher.find()) {
      throw new AssertionError("no checksum in " + file);
    }
    return matcher.group(1);
  }

  /** The file with its checksum recomputed over its (edited) data: a consistent file. */
  static String withChecksum(String file) {
    return file.replace(checksumOf(file), sha256(dataText(file)));
  }

  /** An encoded file with a text replaced and the checksum fixed, so only the edit is wrong. */
  static byte[] edited(CheckpointData data, String from, String to) {
    String file = text(CheckpointCodec.encode(data));
    if (!file.contains(from)) {
      throw new AssertionError(from + " not in " + file);
    }
    return withChecksum(file.replace(from, to)).getBytes(StandardCharsets.UTF_8);
  }
}
