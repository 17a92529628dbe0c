package io.github.dra4j.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.encoder.EncoderBase;
import io.github.dra4j.logging.internal.EventFields;
import io.github.dra4j.logging.internal.Json;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.Set;

/**
 * Writes each event as one line in the style of klog's structured text, as the kubelet writes
 * it, so that an operator who reads the kubelet's log reads this one:
 *
 * <pre>
 * I1128 12:32:01.943123 NodeService] "Prepared claim" claim="default/gpu-1:6f0c..." method="..." requestID="17" devices=["node-1/gpu-0"] durationMs=12.4
 * </pre>
 *
 * <p>The first letter is {@code E}, {@code W} or {@code I} (DEBUG and TRACE too, as klog has no
 * other letters), then the month and day, the local time to the microsecond, the logger's simple
 * name where klog has its file, then the quoted message and the key-value pairs: the MDC entries
 * sorted by key, then the event's own pairs in order. Strings are quoted and escaped as in JSON,
 * so a message with a line feed stays on its line; numbers, booleans and lists are written as
 * JSON values. An exception adds {@code err="java.io.IOException: message"} and {@code
 * stacktrace="..."}, escaped onto the same line: one line per event, always. Thread-safe;
 * UTF-8.
 */
public final class KlogTextEncoder extends EncoderBase<ILoggingEvent> {

  private static final Set<String> RESERVED = Set.of("err", "stacktrace");

  private final ZoneId zone = ZoneId.systemDefault();

  /** Creates the encoder; logback starts it. */
  public KlogTextEncoder() {}

  @Override
  public byte[] headerBytes() {
    return null;
  }

  @Override
  public byte[] footerBytes() {
    return null;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(256);
    int level = event.getLevel().toInt();
    line.append(level >= Level.ERROR_INT ? 'E' : level >= Level.WARN_INT ? 'W' : 'I');
    LocalDateTime time = LocalDateTime.ofInstant(event.getInstant(), zone);
    twoDigits(line, time.getMonthValue());
    twoDigits(line, time.getDayOfMonth());
    line.append(' ');
    twoDigits(line, time.getHour());
    line.append(':');
    twoDigits(line, time.getMinute());
    line.append(':');
    twoDigits(line, time.getSecond());
    line.append('.');
    String micros = Integer.toString(time.getNano() / 1000 + 1_000_000);
    line.append(micros, 1, micros.length());
    line.append(' ').append(simpleName(event.getLoggerName())).append("] ");
    String message = event.getFormattedMessage();
    Json.string(line, message == null ? "" : message);
    for (Map.Entry<String, Object> field : EventFields.of(event, RESERVED).entrySet()) {
      line.append(' ');
      key(line, field.getKey());
      line.append('=');
      Json.value(line, field.getValue());
    }
    IThrowableProxy throwable = event.getThrowableProxy();
    if (throwable != null) {
      line.append(" err=");
      Json.string(line, EventFields.errorText(throwable));
      line.append(" stacktrace=");
      Json.string(line, EventFields.stackTrace(throwable));
    }
    line.append('\n');
    return line.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void twoDigits(StringBuilder line, int value) {
    if (value < 10) {
      line.append('0');
    }
    line.append(value);
  }

  /** The part after the last dot: the class of a class's logger. */
  private static String simpleName(String logger) {
    if (logger == null) {
      return "";
    }
    int dot = logger.lastIndexOf('.');
    return dot < 0 || dot == logger.length() - 1 ? logger : logger.substring(dot + 1);
  }

  /** A key as it can stand before {@code =}: what would break the pair becomes {@code _}. */
  private static void key(StringBuilder line, String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      line.append(c <= ' ' || c == '=' || c == '"' || c == 0x7f ? '_' : c);
    }
  }
}
