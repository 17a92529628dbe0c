package io.github.dra4j.webhook.internal.review;

import io.github.dra4j.webhook.InvalidAdmissionReviewException;
import java.util.ArrayDeque;
import java.util.Deque;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads one JSON value from a parser into a tree, without recursion (a deeply nested value
 * cannot overflow a small thread stack; the parser's nesting limit bounds the depth) and with a
 * budget of values shared by the caller's reads, so that a review cannot make the webhook build
 * a tree far larger than its body: a body of small objects costs tens of bytes of tree per byte.
 * Integers keep their exact value, fractions are read as doubles, as Jackson's own tree reader
 * reads them. Not thread-safe; one per review.
 */
final class BoundedTree {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final int maxValues;
  private int values;

  BoundedTree(int maxValues) {
    this.maxValues = maxValues;
  }

  /**
   * Reads the value at the parser's current token; on return the parser is at its last token.
   *
   * @param parser at the value's first token
   * @param where names the value in the error, such as {@code request.object.spec}
   * @return the value
   * @throws InvalidAdmissionReviewException if the reads together go over the budget
   */
  JsonNode read(JsonParser parser, String where) {
    JsonNode first = scalarOrContainer(parser, where);
    if (!first.isContainer()) {
      return first;
    }
    Deque<JsonNode> open = new ArrayDeque<>();
    open.push(first);
    while (!open.isEmpty()) {
      JsonToken token = parser.nextToken();
      JsonNode parent = open.peek();
      if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
        open.pop();
        continue;
      }
      String name = null;
      if (token == JsonToken.PROPERTY_NAME) {
        name = parser.currentName();
        parser.nextToken();
      }
      JsonNode value = scalarOrContainer(parser, where);
      if (parent instanceof ObjectNode object) {
        object.set(name, value);
      } else {
        ((ArrayNode) parent).add(value);
      }
      if (value.isContainer()) {
        open.push(value);
      }
    }
    return first;
  }

  private JsonNode scalarOrContainer(JsonParser parser, String where) {
    if (++values > maxValues) {
      throw new InvalidAdmissionReviewException(where + ": more than " + maxValues
          + " JSON values, the limit");
    }
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        return NODES.objectNode();
      }
      case START_ARRAY -> {
        return NODES.arrayNode();
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
        // As Jackson's own tree reader and the plugin's decoding of fabric8's model read it.
        return NODES.numberNode(parser.getDoubleValue());
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
      default -> throw new InvalidAdmissionReviewException(where + ": unexpected " + token);
    }
  }
}
