package io.github.dra4j.lifecycle.internal.checkpoint;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns {@link CheckpointData} into the bytes of a checkpoint file and back. The format is
 * described in the {@linkplain io.github.dra4j.lifecycle.internal.checkpoint package
 * documentation}.
 *
 * <p>Writing always produces the current version, {@value #API_VERSION}. Reading dispatches on
 * {@code apiVersion} to one reader per version ever written; a new version adds a reader and
 * keeps the old ones, so a file of any earlier version still reads. Stateless and thread-safe.
 */
public final class CheckpointCodec {

  /** The apiVersion this version writes. */
  public static final String API_VERSION = V1Reader.API_VERSION;

  /** The kind of a checkpoint file. */
  public static final String KIND = V1Reader.KIND;

  /** Parses files; repeated member names make a file unreadable rather than ambiguous. */
  static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static final ObjectWriter WRITER = MAPPER.writer().with(prettyPrinter());

  /** Written first, then overwritten in place with the real checksum: same length, ASCII. */
  private static final String PLACEHOLDER = "sha256:" + "0".repeat(64);

  /** Reads the data of one apiVersion from a scanned file. */
  @FunctionalInterface
  interface VersionReader {
    CheckpointData read(Envelope envelope) throws CheckpointFormatException;
  }

  /**
   * Every apiVersion any release wrote, with its reader. Never remove one: a node may keep a
   * file for as long as a claim stays prepared, across any number of driver upgrades.
   */
  private static final Map<String, VersionReader> READERS = Map.of(V1Reader.API_VERSION,
      V1Reader::read);

  private CheckpointCodec() {}

  /**
   * The apiVersions this version reads.
   *
   * @return the versions, sorted
   */
  public static SortedSet<String> readableApiVersions() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(READERS.keySet()));
  }

  /**
   * Encodes the data as a {@value #API_VERSION} file: UTF-8 JSON, 2-space indentation, members
   * in a fixed order, claims sorted by UID (the {@code claims} object is there also when it is
   * empty), null values, empty lists and maps and false flags left out, a newline at the end.
   * The same data always gives the same bytes.
   *
   * @param data the claims
   * @return the complete file content
   * @throws IllegalArgumentException if the driver state or CDI spec JSON could not be written
   *     or read back, e.g. nested deeper than Jackson's limit (500 levels, counting the file's)
   */
  public static byte[] encode(CheckpointData data) {
    Objects.requireNonNull(data, "data");
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024 + 512 * data.size());
    try {
      write(out, data);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "the checkpoint cannot be written: " + Envelope.printable(e.getOriginalMessage()), e);
    }
    out.write('\n');
    byte[] bytes = out.toByteArray();
    // Locate data exactly as a reader will, and fail now rather than write an unreadable file.
    Envelope envelope;
    try {
      envelope = Envelope.scan(bytes);
    } catch (CheckpointFormatException e) {
      throw new IllegalArgumentException(
          "the checkpoint would not read back: " + e.getMessage(), e);
    }
    Envelope.Member checksum = envelope.member("checksum").orElseThrow();
    byte[] placeholder = PLACEHOLDER.getBytes(StandardCharsets.US_ASCII);
    int at = checksum.start() + 1; // after the opening quote
    if (!Arrays.equals(bytes, at, at + placeholder.length, placeholder, 0, placeholder.length)) {
      throw new IllegalStateException("checksum placeholder not at offset " + at);
    }
    byte[] sum = envelope.sha256(envelope.member("data").orElseThrow())
        .getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(sum, 0, bytes, at, sum.length);
    return bytes;
  }

  private static void write(ByteArrayOutputStream out, CheckpointData data) {
    try (JsonGenerator json = WRITER.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringProperty("apiVersion", API_VERSION);
      json.writeStringProperty("kind", KIND);
      json.writeStringProperty("checksum", PLACEHOLDER);
      json.writeName("data");
      json.writeStartObject();
      // Also when empty: a file without it is corrupt, not empty.
      json.writeObjectPropertyStart("claims");
      for (Map.Entry<String, ClaimEntry> claim : data.claims().entrySet()) {
        json.writeName(claim.getKey());
        writeEntry(json, claim.getValue());
      }
      json.writeEndObject();
      json.writeEndObject();
      json.writeEndObject();
    }
  }

  private static void writeEntry(JsonGenerator json, ClaimEntry entry) {
    json.writeStartObject();
    json.writeStringProperty("phase", entry.phase().jsonValue());
    if (entry.phase() == ClaimPhase.UNPREPARE_STARTED) {
      json.writeBooleanProperty("unprepareStarted", true);
    }
    json.writeStringProperty("namespace", entry.namespace());
    json.writeStringProperty("name", entry.name());
    json.writeStringProperty("bootId", entry.bootId());
    if (!entry.allocation().isEmpty()) {
      json.writeArrayPropertyStart("allocation");
      for (AllocatedDevice device : entry.allocation()) {
        json.writeStartObject();
        json.writeStringProperty("request", device.request().toString());
        json.writeStringProperty("pool", device.pool());
        json.writeStringProperty("device", device.device());
        writeIfSet(json, "shareId", device.shareId());
        if (device.adminAccess()) {
          json.writeBooleanProperty("adminAccess", true);
        }
        if (!device.consumedCapacity().isEmpty()) {
          json.writeObjectPropertyStart("consumedCapacity");
          for (Map.Entry<String, String> quantity : device.consumedCapacity().entrySet()) {
            json.writeStringProperty(quantity.getKey(), quantity.getValue());
          }
          json.writeEndObject();
        }
        writeStrings(json, "bindingConditions", device.bindingConditions());
        json.writeEndObject();
      }
      json.writeEndArray();
    }
    if (!entry.devices().isEmpty()) {
      json.writeArrayPropertyStart("devices");
      for (StoredDevice device : entry.devices()) {
        json.writeStartObject();
        writeStrings(json, "requests", device.requests());
        json.writeStringProperty("pool", device.pool());
        json.writeStringProperty("device", device.device());
        writeStrings(json, "cdiDeviceIds", device.cdiDeviceIds());
        writeIfSet(json, "shareId", device.shareId());
        json.writeEndObject();
      }
      json.writeEndArray();
    }
    writeTree(json, "cdiSpec", entry.cdiSpec());
    writeTree(json, "driverState", entry.driverState());
    json.writeEndObject();
  }

  private static void writeIfSet(JsonGenerator json, String field, String value) {
    if (value != null) {
      json.writeStringProperty(field, value);
    }
  }

  private static void writeStrings(JsonGenerator json, String field, Iterable<String> values) {
    if (values.iterator().hasNext()) {
      json.writeArrayPropertyStart(field);
      for (String value : values) {
        json.writeString(value);
      }
      json.writeEndArray();
    }
  }

  private static void writeTree(JsonGenerator json, String field, JsonNode value) {
    if (value != null) {
      json.writeName(field);
      json.writeTree(value);
    }
  }

  /**
   * Decodes a checkpoint file of any version this version reads.
   *
   * @param bytes the complete file content
   * @return the claims
   * @throws CheckpointFormatException if the bytes are not such a file: the message says what is
   *     wrong and names the field path and value where there is one
   */
  public static CheckpointData decode(byte[] bytes) throws CheckpointFormatException {
    Envelope envelope = Envelope.scan(Objects.requireNonNull(bytes, "bytes"));
    JsonNode apiVersion = envelope.member("apiVersion").map(Envelope.Member::value).orElse(null);
    if (apiVersion == null || apiVersion.isNull()) {
      throw new CheckpointFormatException("apiVersion: required");
    }
    if (!apiVersion.isString()) {
      throw new CheckpointFormatException(
          "apiVersion: must be a string, is " + JsonFields.describe(apiVersion));
    }
    VersionReader reader = READERS.get(apiVersion.stringValue());
    if (reader == null) {
      throw new CheckpointFormatException("apiVersion "
          + CheckpointValues.quote(apiVersion.stringValue()) + " is not one this version reads ("
          + String.join(", ", readableApiVersions()) + ")");
    }
    try {
      return reader.read(envelope);
    } catch (IllegalArgumentException e) {
      // A record refused a value the reader let through: still a bad file, not a bug to crash on.
      throw new CheckpointFormatException(e.getMessage(), e);
    }
  }

  private static DefaultPrettyPrinter prettyPrinter() {
    Separators separators = Separators.createDefaultInstance()
        .withObjectNameValueSpacing(Separators.Spacing.AFTER)
        .withObjectEmptySeparator("")
        .withArrayEmptySeparator("");
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    return new DefaultPrettyPrinter(separators)
        .withObjectIndenter(indenter)
        .withArrayIndenter(indenter);
  }
}
