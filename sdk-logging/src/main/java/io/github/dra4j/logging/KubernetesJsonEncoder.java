package io.github.dra4j.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.encoder.EncoderBase;
import io.github.dra4j.logging.internal.EventFields;
import io.github.dra4j.logging.internal.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * Writes each event as one JSON object on one line, in the shape of Kubernetes' structured
 * logging ({@code --logging-format=json} of the kubelet), so that a cluster's log pipeline parses
 * a driver's lines as it parses the kubelet's.
 *
 * <p>Keys, in this order:
 *
 * <ul>
 *   <li>{@code ts}: the time in milliseconds since the Unix epoch, a number with microseconds as
 *       its fraction ({@code 1732797121943.123}), as Kubernetes writes it;
 *   <li>{@code logger}: the SLF4J logger's name, where the kubelet has its caller;
 *   <li>{@code msg}: the message;
 *   <li>{@code v}: the verbosity of every line but an error: 0 for INFO and WARN, 4 for DEBUG, 5
 *       for TRACE (klog's debug and trace verbosities). An ERROR line has none, as in
 *       Kubernetes. A WARN line adds {@code "level":"warning"}, which Kubernetes does not have
 *       (logr has no warnings) and pipelines ignore, so warnings can still be found;
 *   <li>the MDC entries (the SDK's {@code claim}, {@code method}, {@code requestID}) sorted by
 *       key, then the event's own key-value pairs ({@code LOG.atInfo().addKeyValue(...)}) in
 *       order, flat; pair values keep their JSON type (numbers, booleans, lists);
 *   <li>with an exception: {@code stacktrace} (the whole trace, causes included) and last {@code
 *       err} ({@code java.io.IOException: message}).
 * </ul>
 *
 * <p>A pair whose key the line already has is written with an underscore appended to its key.
 * Thread-safe and stateless; UTF-8.
 */
public final class KubernetesJsonEncoder extends EncoderBase<ILoggingEvent> {

  private static final Set<String> RESERVED = Set.of("ts", "logger", "msg", "v", "level",
      "stacktrace", "err");

  /** Creates the encoder; logback starts it. */
  public KubernetesJsonEncoder() {}

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
    line.append("{\"ts\":");
    appendTimestamp(line, event.getInstant());
    line.append(",\"logger\":");
    Json.string(line, event.getLoggerName());
    line.append(",\"msg\":");
    String message = event.getFormattedMessage();
    Json.string(line, message == null ? "" : message);
    Level level = event.getLevel();
    if (level.toInt() < Level.ERROR_INT) {
      line.append(",\"v\":").append(verbosity(level));
      if (level.toInt() == Level.WARN_INT) {
        line.append(",\"level\":\"warning\"");
      }
    }
    for (Map.Entry<String, Object> field : EventFields.of(event, RESERVED).entrySet()) {
      line.append(',');
      Json.string(line, field.getKey());
      line.append(':');
      Json.value(line, field.getValue());
    }
    IThrowableProxy throwable = event.getThrowableProxy();
    if (throwable != null) {
      line.append(",\"stacktrace\":");
      Json.string(line, EventFields.stackTrace(throwable));
      line.append(",\"err\":");
      Json.string(line, EventFields.errorText(throwable));
    }
    line.append("}\n");
    return line.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The verbosity Kubernetes writes for a level below ERROR.
   *
   * @param level INFO, WARN, DEBUG or TRACE
   * @return 0, 0, 4 or 5
   */
  static int verbosity(Level level) {
    int value = level.toInt();
    return value >= Level.INFO_INT ? 0 : value >= Level.DEBUG_INT ? LogLevel.DEBUG_VERBOSITY
        : LogLevel.TRACE_VERBOSITY;
  }

  /** Milliseconds since the epoch, three digits of fraction (microseconds). */
  static void appendTimestamp(StringBuilder line, Instant instant) {
    long millis = instant.getEpochSecond() * 1000L + instant.getNano() / 1_000_000;
    int micros = instant.getNano() / 1000 % 1000;
    line.append(millis).append('.');
    if (micros < 100) {
      line.append('0');
    }
    if (micros < 10) {
      line.append('0');
    }
    line.append(micros);
  }
}
