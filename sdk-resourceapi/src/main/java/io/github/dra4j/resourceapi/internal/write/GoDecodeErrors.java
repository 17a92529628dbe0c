package io.github.dra4j.resourceapi.internal.write;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;

/**
 * Words a field of the wrong JSON type as the API server's Go decoder does: {@code json: cannot
 * unmarshal string into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.count
 * of type int64} (the struct holding the field, the field's path of JSON names without list
 * indexes or map keys, and the field's Go type), {@code number 1.5} for a fraction where an
 * integer belongs. Stateless.
 */
final class GoDecodeErrors {

  private GoDecodeErrors() {}

  /**
   * Words a decoding failure.
   *
   * @param failure the failure
   * @param root the JSON that was decoded
   * @return the Go decoder's message
   */
  static String message(DatabindException failure, JsonNode root) {
    List<JacksonException.Reference> path = failure.getPath();
    List<String> names = new ArrayList<>();
    Class<?> struct = null;
    Type type = null;
    JsonNode node = root;
    for (JacksonException.Reference reference : path) {
      String name = reference.getPropertyName();
      node = name != null ? node.path(name) : node.path(Math.max(reference.getIndex(), 0));
      Class<?> owner = reference.from() instanceof Class<?> c ? c
          : reference.from() == null ? null : reference.from().getClass();
      Field field = name == null || owner == null || !isModel(owner) ? null : declared(owner, name);
      if (field != null) {
        names.add(name);
        struct = owner;
        type = field.getGenericType();
      } else if (type != null) {
        type = element(type); // a list item or a map value below the field
      }
    }
    String value = jsonKind(node);
    if (struct == null || type == null) {
      return "json: cannot unmarshal " + value + " into Go value";
    }
    return "json: cannot unmarshal " + value + " into Go struct field " + struct.getSimpleName()
        + "." + String.join(".", names) + " of type " + goType(type);
  }

  /** The type of a list's items or a map's values. */
  private static Type element(Type container) {
    if (container instanceof ParameterizedType generic) {
      Type[] arguments = generic.getActualTypeArguments();
      return arguments[arguments.length - 1];
    }
    return container;
  }

  private static boolean isModel(Class<?> type) {
    return type.getName().startsWith("io.fabric8.kubernetes.api.model.");
  }

  private static Field declared(Class<?> owner, String jsonName) {
    for (Class<?> type = owner; type != null && type != Object.class; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        if ((property != null && property.value().equals(jsonName))
            || (property == null && field.getName().equals(jsonName))) {
          return field;
        }
      }
    }
    return null;
  }

  /** Go's name of the JSON value: {@code string}, {@code number}, {@code number 1.5}, ... */
  private static String jsonKind(JsonNode node) {
    if (node.isString()) {
      return "string";
    }
    if (node.isNumber()) {
      return node.isIntegralNumber() ? "number" : "number " + node.asString();
    }
    if (node.isBoolean()) {
      return "bool";
    }
    if (node.isArray()) {
      return "array";
    }
    return node.isObject() ? "object" : "null";
  }

  /** The Go type of a model field: {@code int64}, {@code []v1.DeviceRequest}, ... */
  private static String goType(Type type) {
    if (type instanceof ParameterizedType generic) {
      Type raw = generic.getRawType();
      Type[] arguments = generic.getActualTypeArguments();
      if (raw instanceof Class<?> collection && List.class.isAssignableFrom(collection)) {
        return "[]" + goType(arguments[0]);
      }
      if (raw instanceof Class<?> map && Map.class.isAssignableFrom(map)) {
        return "map[string]" + goType(arguments[1]);
      }
    }
    if (!(type instanceof Class<?> plain)) {
      return type.getTypeName();
    }
    if (plain == Long.class || plain == long.class) {
      return "int64";
    }
    if (plain == Integer.class || plain == int.class) {
      return "int32";
    }
    if (plain == Boolean.class || plain == boolean.class) {
      return "bool";
    }
    if (plain == String.class) {
      return "string";
    }
    if (plain == Double.class || plain == double.class) {
      return "float64";
    }
    String name = plain.getName();
    String pkg = name.substring(0, Math.max(name.lastIndexOf('.'), 0));
    return pkg.substring(pkg.lastIndexOf('.') + 1) + "." + plain.getSimpleName();
  }
}
