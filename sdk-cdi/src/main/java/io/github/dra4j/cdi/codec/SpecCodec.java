package io.github.dra4j.cdi.codec;

import io.github.dra4j.cdi.spec.CdiSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
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

/**
 * Reads and writes spec files with the strictness runtimes apply.
 *
 * <p>Reading follows the reference library, which reads every spec file, {@code .json} included,
 * as YAML, converts it to JSON and decodes that strictly:
 *
 * <ul>
 *   <li>YAML as its YAML 1.1 decoder reads it ({@link YamlDocument}, {@link YamlScalars}):
 *       anchors, aliases and {@code <<} merges work; only the first document counts and what
 *       follows its root node is ignored once the next token scans, so JSON with a trailing
 *       comma inside or text after the object loads, while {@code [1,,2]} does not; unquoted
 *       {@code on}/{@code yes}/{@code y} are booleans and {@code 0666} is octal 438;
 *   <li>a key set twice in one mapping (also through a merge) is an error;
 *   <li>where the spec has a string, a number or boolean is taken as its text ({@code on} becomes
 *       {@code "true"}), as the library's YAML-to-JSON step does ({@link YamlToJson});
 *   <li>the JSON is then decoded refusing unknown keys, values of the wrong type (a string where
 *       a number belongs) and out-of-range numbers; keys match case-insensitively, as in Go.
 * </ul>
 *
 * <p>Known differences, all for input no writer produces: raw U+0085, U+2028 and U+2029 are
 * line breaks to the reference decoder but not here; an unquoted scalar ending in {@code :}
 * right before {@code ,}, {@code ]} or {@code }} inside a flow collection is text there but a
 * key here; a null item in a list of objects is an empty object here (the library fails on it);
 * and text on the root node's own line after it may parse differently.
 *
 * <p>Writing produces compact JSON with the specification's key order and omits empty optional
 * fields the way the reference writer does. Instances are immutable and thread-safe; one shared
 * instance is {@link #standard()}.
 */
public final class SpecCodec {
  private static final SpecCodec STANDARD = new SpecCodec();

  private final ObjectMapper json;
  private final SpecJsonWriter writer = new SpecJsonWriter();

  private SpecCodec() {
    this.json = strict(JsonMapper.builder()).build();
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
   * Parses spec content the way the reference library does (see the class description).
   *
   * @param content the file content: UTF-8, or UTF-16 with a byte order mark
   * @param source what is parsed, used in error messages (e.g. the file path)
   * @return the spec, not yet validated
   * @throws SpecParseException if the content is empty, not YAML, has unknown or duplicate keys
   *     or values of the wrong type
   */
  public CdiSpec read(byte[] content, String source) throws SpecParseException {
    JsonNode tree;
    try {
      YamlNode root = YamlDocument.read(content);
      Object value = root == null ? null : YamlValues.decode(root);
      if (value == null) {
        throw new SpecParseException(source, "empty file or document: no spec data", null);
      }
      tree = YamlToJson.convert(value, CdiSpec.class);
    } catch (DecodeException e) {
      throw new SpecParseException(source, e.getMessage(), e);
    }
    try {
      return json.treeToValue(tree, CdiSpec.class);
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
   * Serializes a spec as compact JSON, as written to {@code .json} files: the bytes an object
   * mapper writes from the spec types' annotations, without its introspection.
   *
   * @param spec the spec
   * @return UTF-8 JSON
   */
  public byte[] toJson(CdiSpec spec) {
    return writer.write(spec);
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
    String message = root instanceof JacksonException j ? j.getOriginalMessage()
        : root.getMessage();
    return message == null ? root.getClass().getSimpleName() : message;
  }
}
