package io.github.dra4j.kubeletplugin.internal.grpc;

import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.TextFormat;

/** Renders protobuf messages as single-line text for logs. */
public final class MessageText {

  private static final TextFormat.Printer PRINTER = TextFormat.printer().emittingSingleLine(true);

  private MessageText() {}

  /**
   * Renders a message or any other value for a log line.
   *
   * @param value a protobuf message (printed in single-line text format) or any object
   * @return the text
   */
  public static String of(Object value) {
    return value instanceof MessageOrBuilder proto
        ? PRINTER.printToString(proto)
        : String.valueOf(value);
  }
}
