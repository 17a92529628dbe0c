package io.github.dra4j.testing.apiserver.internal.schema;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * What the fabric8 model classes say about the JSON of each kind: which class holds a kind, and
 * which properties a model class has, with their Java types. A model class is a class of the
 * fabric8 model packages whose fields carry {@code @JsonProperty}; a class with its own
 * deserializer (such as {@code Quantity} and {@code IntOrString}) is a single value, not an object
 * with properties.
 *
 * <p>Thread-safe: the property cache is concurrent and its entries are immutable.
 */
public final class ModelTypes {

  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final Map<Class<?>, Map<String, Type>> properties = new ConcurrentHashMap<>();

  /** Creates the lookup; it reads the kinds fabric8 registers on the class path. */
  public ModelTypes() {}

  /**
   * Finds the model class of a kind.
   *
   * @param apiVersion e.g. {@code resource.k8s.io/v1} or {@code v1}
   * @param kind e.g. {@code DeviceClass}
   * @return the class, or empty if fabric8 has none for this version and kind
   */
  public Optional<Class<?>> kindClass(String apiVersion, String kind) {
    if (kind == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(serialization.getRegisteredKubernetesResource(apiVersion, kind));
  }

  /**
   * Tells whether a kind has a {@code status} subresource, read as the server serves it: a kind
   * whose objects have a {@code status} field has one.
   *
   * @param apiVersion e.g. {@code resource.k8s.io/v1}
   * @param kind e.g. {@code ResourceClaim}
   * @return true or false for a kind with a model class, empty for one without
   */
  public Optional<Boolean> hasStatus(String apiVersion, String kind) {
    return kindClass(apiVersion, kind).map(c -> properties(c).containsKey("status"));
  }

  /**
   * Tells whether a class is a model object with properties.
   *
   * @param type a class
   * @return true for fabric8 model classes that are read property by property
   */
  public boolean isObject(Class<?> type) {
    return !type.isEnum()
        && !type.isPrimitive()
        && type.getPackageName().startsWith(MODEL_PACKAGE)
        && !hasOwnDeserializer(type)
        && !properties(type).isEmpty();
  }

  /**
   * Lists the JSON properties of a model class in declaration order, inherited ones first.
   *
   * @param type a model class
   * @return JSON property names mapped to their generic Java types; empty for other classes
   */
  public Map<String, Type> properties(Class<?> type) {
    return properties.computeIfAbsent(type, ModelTypes::readProperties);
  }

  /**
   * Classifies a Java type of a model property by its JSON form.
   *
   * @param type the generic type of a property
   * @return its shape; unknown generic forms count as values
   */
  Shape shapeOf(Type type) {
    if (type instanceof ParameterizedType parameterized
        && parameterized.getRawType() instanceof Class<?> raw) {
      Type[] arguments = parameterized.getActualTypeArguments();
      if (List.class.isAssignableFrom(raw) && arguments.length == 1) {
        return new Shape.ArrayShape(arguments[0]);
      }
      if (Map.class.isAssignableFrom(raw) && arguments.length == 2) {
        return new Shape.MapShape(arguments[1]);
      }
      return new Shape.ValueShape(raw);
    }
    if (type instanceof Class<?> c) {
      if (c.isArray() && c != byte[].class) {
        return new Shape.ArrayShape(c.getComponentType());
      }
      return isObject(c) ? new Shape.ObjectShape(c) : new Shape.ValueShape(c);
    }
    return new Shape.ValueShape(Object.class);
  }

  private static Map<String, Type> readProperties(Class<?> type) {
    List<Class<?>> hierarchy = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      hierarchy.add(0, c);
    }
    Map<String, Type> result = new LinkedHashMap<>();
    for (Class<?> c : hierarchy) {
      for (Field field : c.getDeclaredFields()) {
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        if (property != null && !Modifier.isStatic(field.getModifiers())) {
          String name = property.value().isEmpty() ? field.getName() : property.value();
          result.put(name, field.getGenericType());
        }
      }
    }
    return Collections.unmodifiableMap(result);
  }

  private static boolean hasOwnDeserializer(Class<?> type) {
    JsonDeserialize annotation = type.getAnnotation(JsonDeserialize.class);
    return annotation != null && annotation.using() != ValueDeserializer.None.class;
  }
}
