package io.github.dra4j.kubeletplugin.internal.grpc;

import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.TextFormat;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;

/**
 * Renders protobuf messages as single-line text for logs: the text format escapes what the
 * message holds; a message longer than {@value #LIMIT} characters (a request with thousands of
 * claims or a name of megabytes) is shortened.
 */
public final class MessageText {

  private static final TextFormat.Printer PRINTER = TextFormat.printer().emittingSingleLine(true);

  /** How many characters of a message a log line keeps. */
  static final int LIMIT = 4096;

  private MessageText() {}

  /**
   * Renders a message or any other value for a log line.
   *
   * @param value a protobuf message (printed in single-line text format) or any object
   * @return the text, escaped and shortened to {@value #LIMIT} characters
   */
  public static String of(Object value) {
    return LogText.text(value instanceof MessageOrBuilder proto
        ? PRINTER.printToString(proto)
        : String.valueOf(value), LIMIT);
  }
}
