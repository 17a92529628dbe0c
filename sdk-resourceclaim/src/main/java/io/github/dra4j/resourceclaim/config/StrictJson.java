package io.github.dra4j.resourceclaim.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads JSON into a tree more strictly than Jackson does by itself, and turns Jackson's binding
 * errors into {@link ConfigProblem}s that name the field path and the offending value.
 */
final class StrictJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_$-]+");
  private static final int MAX_VALUE_LENGTH = 60;

  private StrictJson() {}

  /**
   * Parses one JSON value: a field that appears twice in one object is an error, and so is
   * anything after the value other than white space.
   */
  static JsonNode parse(JsonMapper mapper, byte[] json, String root) {
    try (JsonParser parser = mapper.createParser(json)) {
      JsonToken first;
      try {
        first = parser.nextToken();
      } catch (JacksonException e) {
        throw syntax(parser, e, root);
      }
      if (first == null) {
        throw new ConfigException(root, "empty, want a JSON object");
      }
      JsonNode node;
      try {
        node = read(parser, root);
      } catch (JacksonException e) {
        throw syntax(parser, e, root);
      }
      try {
        if (parser.nextToken() != null) {
          throw new ConfigException(root, "unexpected content after the JSON value");
        }
      } catch (JacksonException e) {
        throw new ConfigException(root, "unexpected content after the JSON value");
      }
      return node;
    }
  }

  private static JsonNode read(JsonParser parser, String path) {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        ObjectNode object = NODES.objectNode();
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = parser.currentName();
          if (object.has(name)) {
            throw new ConfigException(path, "duplicate field " + quote(name));
          }
          parser.nextToken();
          object.set(name, read(parser, child(path, name)));
        }
        return object;
      }
      case START_ARRAY -> {
        ArrayNode array = NODES.arrayNode();
        int index = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(read(parser, path + "[" + index++ + "]"));
        }
        return array;
      }
      case VALUE_STRING -> {
        return NODES.stringNode(parser.getString());
      }
      case VALUE_NUMBER_INT -> {
        switch (parser.getNumberType()) {
          case INT :
            return NODES.numberNode(parser.getIntValue());
          case LONG :
            return NODES.numberNode(parser.getLongValue());
          default :
            return NODES.numberNode(parser.getBigIntegerValue());
        }
      }
      case VALUE_NUMBER_FLOAT -> {
        return NODES.numberNode(parser.getDecimalValue());
      }
      case VALUE_TRUE -> {
        return NODES.booleanNode(true);
      }
      case VALUE_FALSE -> {
        return NODES.booleanNode(false);
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> throw new ConfigException(path, "unexpected " + parser.currentToken());
    }
  }

  private static ConfigException syntax(JsonParser parser, JacksonException e, String root) {
    String path = root;
    try {
      path = contextPath(parser.streamReadContext(), root);
    } catch (RuntimeException ignored) {
      // keep the root: the message still says where by line and column
    }
    String detail = e.getOriginalMessage();
    int newline = detail.indexOf('\n');
    detail = newline < 0 ? detail : detail.substring(0, newline);
    var location = e.getLocation();
    String where = location == null ? ""
        : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    return new ConfigException(path, "invalid JSON" + where + ": " + detail);
  }

  private static String contextPath(TokenStreamContext context, String root) {
    if (context == null || context.inRoot()) {
      return root;
    }
    String parent = contextPath(context.getParent(), root);
    if (context.inArray()) {
      return parent + "[" + Math.max(0, context.getCurrentIndex()) + "]";
    }
    return context.currentName() == null ? parent : child(parent, context.currentName());
  }

  /**
   * Reports every explicit {@code null} in a tree. A null says nothing a left-out field does not,
   * and Jackson cannot tell the two apart for a record, so nulls are refused before binding.
   */
  static void findNulls(JsonNode node, String path, List<ConfigProblem> problems) {
    if (node.isNull()) {
      problems.add(new ConfigProblem(path, "null is not allowed"));
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        findNulls(field.getValue(), child(path, field.getKey()), problems);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        findNulls(node.get(i), path + "[" + i + "]", problems);
      }
    }
  }

  /** The problem a binding error stands for, with the value found in {@code tree}. */
  static ConfigProblem problem(JacksonException e, JsonNode tree, String root) {
    List<JacksonException.Reference> path = e.getPath();
    if (e instanceof UnrecognizedPropertyException unknown) {
      List<JacksonException.Reference> parent = path;
      if (!path.isEmpty()
          && unknown.getPropertyName().equals(path.get(path.size() - 1).getPropertyName())) {
        parent = path.subList(0, path.size() - 1);
      }
      return new ConfigProblem(pathOf(parent, root),
          "unknown field " + quote(unknown.getPropertyName()));
    }
    String where = pathOf(path, root);
    if (e instanceof ValueInstantiationException && e.getCause() != null) {
      return new ConfigProblem(where, String.valueOf(e.getCause().getMessage()));
    }
    JsonNode value = find(tree, path);
    if (value != null && value.isNull()) {
      return new ConfigProblem(where, "null is not allowed");
    }
    if (e instanceof InputCoercionException range && value != null) {
      return new ConfigProblem(where, "out of range for " + describe(range.getTargetType())
          + ", got " + render(value));
    }
    if (e instanceof MismatchedInputException mismatch && value != null) {
      Class<?> target = mismatch.getTargetType();
      if (target != null && target.isEnum() && e instanceof InvalidFormatException) {
        return new ConfigProblem(where, "unknown value " + render(value) + ", want "
            + describe(target));
      }
      if (target != null) {
        return new ConfigProblem(where, "want " + describe(target) + ", got " + render(value));
      }
      return new ConfigProblem(where, "invalid value " + render(value));
    }
    return new ConfigProblem(where, firstLine(e.getOriginalMessage()));
  }

  private static String pathOf(List<JacksonException.Reference> refs, String root) {
    String path = root;
    for (JacksonException.Reference ref : refs) {
      if (ref.getPropertyName() != null) {
        path = child(path, ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        path = path + "[" + ref.getIndex() + "]";
      }
    }
    return path;
  }

  private static JsonNode find(JsonNode tree, List<JacksonException.Reference> refs) {
    JsonNode node = tree;
    for (JacksonException.Reference ref : refs) {
      if (node == null) {
        return null;
      }
      if (ref.getPropertyName() != null) {
        node = node.isObject() ? node.get(ref.getPropertyName()) : null;
      } else if (ref.getIndex() >= 0) {
        node = node.isArray() ? node.get(ref.getIndex()) : null;
      }
    }
    return node;
  }

  /** What a Java type wants, in the words of a message: {@code an integer}. */
  static String describe(Class<?> type) {
    if (type.isEnum()) {
      return "one of " + Stream.of(type.getEnumConstants())
          .map(c -> quote(((Enum<?>) c).name())).collect(Collectors.joining(", "));
    }
    if (type == int.class || type == long.class || type == short.class || type == byte.class
        || type == Integer.class || type == Long.class || type == Short.class
        || type == Byte.class || type == BigInteger.class) {
      return "an integer";
    }
    if (type == double.class || type == float.class || Number.class.isAssignableFrom(type)
        || type == BigDecimal.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "a boolean";
    }
    if (type == String.class || type == char.class || type == Character.class
        || CharSequence.class.isAssignableFrom(type)) {
      return "a string";
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "a list";
    }
    return Map.class.isAssignableFrom(type) || !type.isPrimitive() ? "an object" : type.getName();
  }

  /** A JSON value as a message shows it: JSON text, cut short when long. */
  static String render(JsonNode value) {
    String text = value.toString();
    return text.length() <= MAX_VALUE_LENGTH ? text : text.substring(0, MAX_VALUE_LENGTH) + "...";
  }

  static String quote(String text) {
    return NODES.stringNode(text).toString();
  }

  static String child(String path, String name) {
    return PLAIN_NAME.matcher(name).matches() ? path + "." + name : path + "[" + quote(name) + "]";
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "invalid value";
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}
