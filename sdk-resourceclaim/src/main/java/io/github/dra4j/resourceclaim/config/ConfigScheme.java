package io.github.dra4j.resourceclaim.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The configuration types a driver understands, each registered under the {@code apiVersion} and
 * {@code kind} its JSON carries, and the one way to turn an opaque {@code parameters} object into
 * one of them. Build one with {@link #builder()} and share it between the kubelet plugin and the
 * admission webhook. Immutable and thread-safe.
 *
 * <p>The type parameter is what every registered type has in common, so that a driver gets its
 * configurations without a cast: {@code ConfigScheme.builder(GpuConfig.class)} takes only
 * subtypes of {@code GpuConfig} and its decode methods, resolver and groups return {@code
 * GpuConfig}. A driver whose types share no supertype uses {@link #builder()} and gets {@code
 * Object}.
 *
 * <p>Every decode runs three steps in one call: strict JSON binding, then {@link
 * DeviceConfig#normalized()}, then {@link DeviceConfig#validate()}. Strict means: a field the type
 * does not have, a field given twice, a value of the wrong JSON type (a string for an integer, a
 * number for a string), an explicit {@code null} anywhere (leave the field out instead), anything
 * after the object, and parameters that are not an object are all errors. The type's fields do
 * not include {@code apiVersion} and {@code kind}: the scheme reads those to pick the type and
 * removes them before binding. Errors are {@link ConfigException}s whose paths start at {@code
 * parameters}. Jackson stops at the first binding error of an object; explicit nulls, a missing
 * {@code apiVersion} or {@code kind}, and validation problems are all reported together.
 *
 * <p>Parameters may nest at most {@value #MAX_DEPTH} levels of objects and arrays (the
 * parameters object itself is the first); deeper ones are refused before any work that recurses
 * over them, so that hostile parameters cannot overflow a small thread stack (the charts run
 * their JVMs with {@code -Xss256k}).
 *
 * @param <C> the common supertype of the registered configuration types
 */
public final class ConfigScheme<C> {

  /**
   * How many levels of objects and arrays parameters may nest, the parameters object being the
   * first. Far more than a configuration needs, far less than what overflows a 256 KiB stack.
   */
  public static final int MAX_DEPTH = 64;

  private static final String ROOT = "parameters";
  private static final String API_VERSION = "apiVersion";
  private static final String KIND = "kind";

  private final Map<TypeKey, Class<? extends C>> types;
  private final Map<Class<?>, TypeKey> keys;
  private final JsonMapper mapper;

  private ConfigScheme(Map<TypeKey, Class<? extends C>> types) {
    this.types = Map.copyOf(types);
    Map<Class<?>, TypeKey> byType = new HashMap<>();
    types.forEach((key, type) -> byType.put(type, key));
    this.keys = Map.copyOf(byType);
    this.mapper = JsonMapper.builder(JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
            .build())
        .build())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .withCoercionConfigDefaults(c -> c
            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
        .build();
  }

  /**
   * Starts a scheme of types with no common supertype; its configurations are {@code Object}s.
   *
   * @return an empty builder
   */
  public static Builder<Object> builder() {
    return new Builder<>();
  }

  /**
   * Starts a scheme of subtypes of {@code base}, usually a sealed interface the driver's
   * configuration records implement, so that decoded configurations need no cast.
   *
   * @param base the common supertype
   * @param <C> its type
   * @return an empty builder
   */
  public static <C> Builder<C> builder(Class<C> base) {
    Objects.requireNonNull(base, "base");
    return new Builder<>();
  }

  /**
   * Decodes, normalizes and validates an opaque {@code parameters} object given as JSON text.
   *
   * @param json the JSON text
   * @return the normalized, validated configuration, an instance of a registered type
   * @throws ConfigException listing what is wrong, with paths starting at {@code parameters}
   */
  public C decode(String json) {
    return decode(json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes, normalizes and validates an opaque {@code parameters} object given as UTF-8 JSON.
   *
   * @param json the JSON bytes
   * @return the normalized, validated configuration, an instance of a registered type
   * @throws ConfigException listing what is wrong, with paths starting at {@code parameters}
   */
  public C decode(byte[] json) {
    return bind(StrictJson.parse(mapper, json, ROOT), true);
  }

  /**
   * Decodes, normalizes and validates {@code parameters} as the fabric8 model holds it ({@code
   * OpaqueDeviceConfiguration.getParameters()}, typed {@code Object}): a {@link Map} of plain
   * JSON values (maps, lists, strings, numbers, booleans) when the model was read from JSON, or
   * a {@link JsonNode}. A string is a JSON string, not JSON text, so it is refused as not an
   * object.
   *
   * @param parameters the parameters object; null is reported as missing
   * @return the normalized, validated configuration, an instance of a registered type
   * @throws ConfigException listing what is wrong, with paths starting at {@code parameters}
   */
  public C decodeParameters(Object parameters) {
    if (parameters == null) {
      throw new ConfigException(ROOT, "missing, want a JSON object");
    }
    checkDepth(parameters);
    JsonNode tree;
    try {
      if (parameters instanceof JsonNode node) {
        tree = node;
      } else {
        tree = mapper.valueToTree(parameters);
      }
    } catch (JacksonException e) {
      throw new ConfigException(ROOT, "cannot read a " + parameters.getClass().getName()
          + " as JSON: " + e.getOriginalMessage());
    }
    return bind(tree, true);
  }

  /**
   * Decodes, normalizes and validates a configuration a driver stored itself, such as in a
   * checkpoint written by an older version of the driver: like {@link #decode(byte[])} but fields
   * the type does not have are ignored.
   *
   * @param json the JSON bytes, as written by {@link #encode(Object)}
   * @return the normalized, validated configuration
   * @throws ConfigException listing what is wrong
   */
  public C decodeLenient(byte[] json) {
    return bind(StrictJson.parse(mapper, json, ROOT), false);
  }

  /**
   * Normalizes and validates a configuration built in Java, such as a driver default, exactly as
   * a decoded one would be.
   *
   * @param config an instance of a registered type
   * @return the normalized configuration
   * @throws ConfigException listing what is wrong, with paths starting at {@code parameters}
   * @throws IllegalArgumentException if the object's type is not registered
   */
  public C check(C config) {
    keyOf(config);
    return cast(normalizeAndValidate(config));
  }

  /**
   * Writes a configuration as JSON with its {@code apiVersion} and {@code kind}, the form {@link
   * #decode(byte[])} reads.
   *
   * @param config an instance of a registered type
   * @return UTF-8 JSON, {@code apiVersion} and {@code kind} first
   * @throws IllegalArgumentException if the object's type is not registered
   */
  public byte[] encode(C config) {
    TypeKey key = keyOf(config);
    ObjectNode node = mapper.createObjectNode();
    node.put(API_VERSION, key.apiVersion());
    node.put(KIND, key.kind());
    JsonNode fields = mapper.valueToTree(config);
    if (fields != null && fields.isObject()) {
      for (Map.Entry<String, JsonNode> field : fields.properties()) {
        node.set(field.getKey(), field.getValue());
      }
    }
    return mapper.writeValueAsBytes(node);
  }

  /**
   * The {@code apiVersion} and {@code kind} a configuration type is registered under.
   *
   * @param config an instance of a registered type
   * @return {@code <apiVersion> <kind>} as in messages, such as {@code
   *     gpu.resource.example.com/v1alpha1 GpuConfig}
   * @throws IllegalArgumentException if the object's type is not registered
   */
  public String typeName(Object config) {
    TypeKey key = keyOf(config);
    return key.apiVersion() + " " + key.kind();
  }

  /**
   * Refuses parameters nested deeper than {@link #MAX_DEPTH}, without recursion: a tree of
   * {@link JsonNode}s, or of maps and lists as fabric8's model holds them.
   */
  private static void checkDepth(Object parameters) {
    Deque<Object> values = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    values.push(parameters);
    depths.push(1);
    while (!values.isEmpty()) {
      Object value = values.pop();
      int depth = depths.pop();
      Collection<?> children;
      if (value instanceof JsonNode node && node.isContainer()) {
        List<Object> list = new ArrayList<>(node.size());
        node.values().forEach(list::add);
        children = list;
      } else if (value instanceof Map<?, ?> map) {
        children = map.values();
      } else if (value instanceof Collection<?> collection) {
        children = collection;
      } else {
        continue;
      }
      if (depth > MAX_DEPTH) {
        throw new ConfigException(ROOT, "nested deeper than " + MAX_DEPTH
            + " levels of objects and arrays, the limit");
      }
      for (Object child : children) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }

  private TypeKey keyOf(Object config) {
    Objects.requireNonNull(config, "config");
    TypeKey key = keys.get(config.getClass());
    if (key == null) {
      throw new IllegalArgumentException(
          "type " + config.getClass().getName() + " is not registered with this scheme");
    }
    return key;
  }

  /** Safe: every value this scheme returns is an instance of a type registered as a C. */
  @SuppressWarnings("unchecked")
  private C cast(Object value) {
    return (C) value;
  }

  private C bind(JsonNode tree, boolean strict) {
    if (!tree.isObject()) {
      throw new ConfigException(ROOT, "want a JSON object, got " + StrictJson.render(tree));
    }
    ObjectNode object = ((ObjectNode) tree).deepCopy();
    List<ConfigProblem> problems = new ArrayList<>();
    String apiVersion = typeField(object, API_VERSION, problems);
    String kind = typeField(object, KIND, problems);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    Class<?> type = types.get(new TypeKey(apiVersion, kind));
    if (type == null) {
      throw new ConfigException(ROOT, "unknown apiVersion " + StrictJson.quote(apiVersion)
          + " and kind " + StrictJson.quote(kind) + "; known: " + known());
    }
    object.remove(API_VERSION);
    object.remove(KIND);
    StrictJson.findNulls(object, ROOT, problems);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    ObjectReader reader = mapper.readerFor(type);
    if (!strict) {
      reader = reader.without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
    Object value;
    try {
      value = reader.readValue(object);
    } catch (JacksonException e) {
      // Binding errors, and also a number too large for its field (a stream-read error).
      throw new ConfigException(List.of(StrictJson.problem(e, object, ROOT)));
    }
    if (value == null) {
      throw new ConfigException(ROOT, "decoded to null");
    }
    return cast(normalizeAndValidate(value));
  }

  private static String typeField(ObjectNode object, String name, List<ConfigProblem> problems) {
    JsonNode value = object.get(name);
    if (value == null) {
      problems.add(new ConfigProblem(ROOT, "missing " + StrictJson.quote(name)));
      return null;
    }
    if (!value.isString() || value.asString().isEmpty()) {
      problems.add(new ConfigProblem(ROOT + "." + name,
          "want a non-empty string, got " + StrictJson.render(value)));
      return null;
    }
    return value.asString();
  }

  private String known() {
    return types.keySet().stream().map(k -> k.apiVersion() + " " + k.kind()).sorted()
        .reduce((a, b) -> a + ", " + b).orElse("none");
  }

  private static Object normalizeAndValidate(Object value) {
    if (!(value instanceof DeviceConfig<?> config)) {
      return value;
    }
    Object normalized;
    try {
      normalized = config.normalized();
    } catch (ConfigException e) {
      throw e.under(ROOT);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(ROOT, String.valueOf(e.getMessage()));
    }
    if (normalized == null || normalized.getClass() != value.getClass()) {
      throw new IllegalStateException(value.getClass().getName() + ".normalized() returned "
          + (normalized == null ? "null" : "a " + normalized.getClass().getName()));
    }
    List<ConfigProblem> problems;
    try {
      problems = ((DeviceConfig<?>) normalized).validate();
    } catch (ConfigException e) {
      throw e.under(ROOT);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(ROOT, String.valueOf(e.getMessage()));
    }
    if (problems != null && !problems.isEmpty()) {
      throw new ConfigException(problems.stream().map(p -> p.under(ROOT)).toList());
    }
    return normalized;
  }

  private record TypeKey(String apiVersion, String kind) {}

  /**
   * Registers configuration types; not thread-safe.
   *
   * @param <C> the common supertype of the types
   */
  public static final class Builder<C> {

    private final Map<TypeKey, Class<? extends C>> types = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers a configuration type.
     *
     * @param apiVersion the {@code apiVersion} its JSON carries, such as {@code
     *     gpu.resource.example.com/v1alpha1}
     * @param kind the {@code kind} its JSON carries, such as {@code GpuConfig}
     * @param type a type Jackson can bind, usually a record, optionally implementing {@link
     *     DeviceConfig}; without {@code apiVersion} and {@code kind} fields
     * @return this builder
     * @throws IllegalArgumentException if the apiVersion and kind or the type is registered
     *     already, or a name is empty
     */
    public Builder<C> register(String apiVersion, String kind, Class<? extends C> type) {
      Objects.requireNonNull(type, "type");
      if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
        throw new IllegalArgumentException("apiVersion and kind must not be empty");
      }
      TypeKey key = new TypeKey(apiVersion, kind);
      if (types.containsKey(key)) {
        throw new IllegalArgumentException(apiVersion + " " + kind + " is registered already");
      }
      if (types.containsValue(type)) {
        throw new IllegalArgumentException(type.getName() + " is registered already");
      }
      types.put(key, type);
      return this;
    }

    /**
     * The scheme.
     *
     * @return an immutable scheme of the types registered so far
     */
    public ConfigScheme<C> build() {
      return new ConfigScheme<>(types);
    }
  }
}
