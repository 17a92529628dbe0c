package io.github.dra4j.testing.apiserver.internal.schema;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the {@code components.schemas} of an OpenAPI v3 document from fabric8 model classes, one
 * schema per model class reached from a kind, named like the real API server names them ({@code
 * io.k8s.api.resource.v1.DeviceClass}, {@code io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}).
 * Owned by one document being built; not thread-safe.
 */
final class ComponentSchemas {

  /** Core-package classes that the real API names under apimachinery's meta/v1. */
  private static final Set<String> META_TYPES = Set.of(
      "ObjectMeta", "ListMeta", "OwnerReference", "ManagedFieldsEntry", "Condition",
      "LabelSelector", "LabelSelectorRequirement", "Status", "StatusDetails", "StatusCause",
      "DeleteOptions", "Preconditions", "FieldsV1", "MicroTime", "Time");

  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

  private final ModelTypes types;
  private final ObjectNode schemas;

  /**
   * Starts writing into a schema map.
   *
   * @param types the model lookup
   * @param schemas the {@code components.schemas} object to fill
   */
  ComponentSchemas(ModelTypes types, ObjectNode schemas) {
    this.types = types;
    this.schemas = schemas;
  }

  /**
   * Adds the schema of a kind and of every model class it reaches.
   *
   * @param kindClass the model class of the kind
   * @param group the kind's API group ({@code ""} for core)
   * @param version the kind's version
   * @param kind the kind
   * @return the reference to the kind's schema, {@code #/components/schemas/<name>}
   */
  String addKind(Class<?> kindClass, String group, String version, String kind) {
    String reference = add(kindClass);
    ObjectNode schema = (ObjectNode) schemas.get(name(kindClass));
    schema.putArray("x-kubernetes-group-version-kind").addObject()
        .put("group", group).put("kind", kind).put("version", version);
    return reference;
  }

  private String add(Class<?> type) {
    String name = name(type);
    if (!schemas.has(name)) {
      ObjectNode schema = schemas.putObject(name);
      schema.put("type", "object");
      ObjectNode properties = schema.putObject("properties");
      for (Map.Entry<String, Type> property : types.properties(type).entrySet()) {
        properties.set(property.getKey(), schemaOf(property.getValue()));
      }
    }
    return "#/components/schemas/" + name;
  }

  private ObjectNode schemaOf(Type type) {
    ObjectNode schema = schemas.objectNode();
    Shape shape = types.shapeOf(type);
    if (shape instanceof Shape.ObjectShape object) {
      schema.put("$ref", add(object.type()));
    } else if (shape instanceof Shape.ArrayShape array) {
      schema.put("type", "array").set("items", schemaOf(array.element()));
    } else if (shape instanceof Shape.MapShape map) {
      schema.put("type", "object").set("additionalProperties", schemaOf(map.value()));
    } else {
      valueSchema(((Shape.ValueShape) shape).type(), schema);
    }
    return schema;
  }

  private static void valueSchema(Class<?> type, ObjectNode schema) {
    if (type == String.class || type.isEnum() || type == byte[].class
        || type.getSimpleName().equals("Quantity")) {
      schema.put("type", "string");
      if (type == byte[].class) {
        schema.put("format", "byte");
      }
    } else if (type == Integer.class || type == int.class) {
      schema.put("type", "integer").put("format", "int32");
    } else if (type == Long.class || type == long.class) {
      schema.put("type", "integer").put("format", "int64");
    } else if (type == Boolean.class || type == boolean.class) {
      schema.put("type", "boolean");
    } else if (Number.class.isAssignableFrom(type) || type == double.class
        || type == float.class) {
      schema.put("type", "number");
    } else if (type.getSimpleName().equals("IntOrString")) {
      schema.put("x-kubernetes-int-or-string", true);
    } else {
      schema.put("x-kubernetes-preserve-unknown-fields", true);
    }
  }

  /** The real API server's schema name of a fabric8 model class. */
  static String name(Class<?> type) {
    String simple = type.getSimpleName();
    String pkg = type.getPackageName();
    if (pkg.equals(MODEL_PACKAGE)) {
      return (META_TYPES.contains(simple) ? "io.k8s.apimachinery.pkg.apis.meta.v1."
          : "io.k8s.api.core.v1.")
          + simple;
    }
    if (pkg.startsWith(MODEL_PACKAGE + ".")) {
      return "io.k8s.api." + pkg.substring(MODEL_PACKAGE.length() + 1) + "." + simple;
    }
    return pkg + "." + simple;
  }
}
