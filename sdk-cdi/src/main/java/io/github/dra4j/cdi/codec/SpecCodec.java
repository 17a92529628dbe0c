package io.github.dra4j.cdi.codec;

import io.github.dra4j.cdi.spec.CdiSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads and writes spec files with the strictness runtimes apply.
 *
 * <p>Reading accepts JSON and YAML (content starting with <code>{</code> is read as JSON, anything
 * else as YAML) and, like the reference library, refuses unknown keys, duplicate keys, values of
 * the wrong JSON type and empty content. Keys match case-insensitively, as Go's decoder does.
 * YAML is read with YAML 1.2 core-schema typing; the reference reader uses YAML 1.1, which differs
 * for unquoted {@code on}/{@code off}/{@code yes}/{@code no} and leading-zero numbers, so YAML
 * files should quote strings and write numbers in decimal.
 *
 * <p>Writing produces compact JSON with the specification's key order and omits empty optional
 * fields the way the reference writer does. Instances are immutable and thread-safe; one shared
 * instance is {@link #standard()}.
 */
public final class SpecCodec {
  private static final SpecCodec STANDARD = new SpecCodec();

  private final ObjectMapper json;
  private final ObjectMapper yaml;

  private SpecCodec() {
    this.json = strict(JsonMapper.builder()).build();
    this.yaml = strict(YAMLMapper.builder()).build();
  }

  /**
   * Returns the shared codec.
   *
   * @return the codec
   */
  public static SpecCodec standard() {
    return STANDARD;
  }

  private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B strict(B builder) {
    return builder
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        // Go refuses a number or boolean where a string belongs; so do we.
        .withCoercionConfig(LogicalType.Textual, config -> config
            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
  }

  /**
   * Parses spec content.
   *
   * @param content the file content (UTF-8)
   * @param source what is parsed, used in error messages (e.g. the file path)
   * @return the spec, not yet validated
   * @throws SpecParseException if the content is empty, malformed, has unknown or duplicate keys
   *     or values of the wrong type
   */
  public CdiSpec read(byte[] content, String source) throws SpecParseException {
    int first = firstNonBlank(content);
    if (first < 0) {
      throw new SpecParseException(source, "empty file", null);
    }
    ObjectMapper mapper = content[first] == '{' ? json : yaml;
    CdiSpec spec;
    try {
      spec = mapper.readValue(content, CdiSpec.class);
    } catch (UnrecognizedPropertyException e) {
      throw new SpecParseException(
          source, "unknown field \"" + e.getPropertyName() + "\" at " + jsonPath(e), e);
    } catch (MismatchedInputException e) {
      throw new SpecParseException(
          source, "wrong value at " + jsonPath(e) + ": " + e.getOriginalMessage(), e);
    } catch (JacksonException e) {
      String reason = rootMessage(e);
      throw new SpecParseException(source,
          e.getPath().isEmpty() ? reason : "bad value at " + jsonPath(e) + ": " + reason, e);
    }
    if (spec == null) {
      throw new SpecParseException(source, "no spec object in file", null);
    }
    return spec;
  }

  /**
   * Reads and parses a spec file.
   *
   * @param file the file
   * @return the spec, not yet validated
   * @throws IOException if the file cannot be read or parsed ({@link SpecParseException})
   */
  public CdiSpec read(Path file) throws IOException {
    return read(Files.readAllBytes(file), file.toString());
  }

  /**
   * Serializes a spec as compact JSON, as written to {@code .json} files.
   *
   * @param spec the spec
   * @return UTF-8 JSON
   */
  public byte[] toJson(CdiSpec spec) {
    return json.writeValueAsBytes(spec);
  }

  /**
   * Serializes a spec as a JSON string.
   *
   * @param spec the spec
   * @return the JSON text
   */
  public String toJsonString(CdiSpec spec) {
    return new String(toJson(spec), StandardCharsets.UTF_8);
  }

  /** Formats the exception's path as {@code devices[0].containerEdits.env}. */
  private static String jsonPath(JacksonException e) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference ref : e.getPath()) {
      if (ref.getPropertyName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? "(top level)" : path.toString();
  }

  /** The message of the innermost cause, e.g. the model's own range check. */
  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root instanceof JacksonException j ? j.getOriginalMessage() : root.getMessage();
    return message == null ? root.getClass().getSimpleName() : message;
  }

  private static int firstNonBlank(byte[] content) {
    for (int i = 0; i < content.length; i++) {
      byte b = content[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return i;
      }
    }
    return -1;
  }
}
