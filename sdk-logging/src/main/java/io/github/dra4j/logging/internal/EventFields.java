package io.github.dra4j.logging.internal;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.event.KeyValuePair;

/**
 * The key-value pairs of one event as both formats write them, flat and in a fixed order: the MDC
 * entries sorted by key (the SDK's {@code claim}, {@code method}, {@code requestID}), then the
 * event's own pairs ({@code addKeyValue}) in the order they were added. A key that the line
 * already has (one of the format's own keys, or an earlier pair's) gets an underscore appended
 * until it is unique, so no pair hides the message, the time or another pair. Stateless.
 */
public final class EventFields {

  private EventFields() {}

  /**
   * The pairs of an event.
   *
   * @param event the event
   * @param reserved the keys the format writes itself
   * @return the pairs, keys unique and never in {@code reserved}; values are strings for MDC
   *     entries, the given objects for the event's pairs
   */
  public static Map<String, Object> of(ILoggingEvent event, Set<String> reserved) {
    Map<String, String> mdc = event.getMDCPropertyMap();
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    int size = (mdc == null ? 0 : mdc.size()) + (pairs == null ? 0 : pairs.size());
    if (size == 0) {
      return Collections.emptyMap();
    }
    Map<String, Object> fields = new LinkedHashMap<>(size * 2);
    if (mdc != null && !mdc.isEmpty()) {
      List<String> keys = new ArrayList<>(mdc.keySet());
      Collections.sort(keys);
      for (String key : keys) {
        put(fields, reserved, key, mdc.get(key));
      }
    }
    if (pairs != null) {
      for (KeyValuePair pair : pairs) {
        put(fields, reserved, pair.key, pair.value);
      }
    }
    return Collections.unmodifiableMap(fields);
  }

  private static void put(Map<String, Object> fields, Set<String> reserved, String key,
      Object value) {
    String name = key == null || key.isEmpty() ? "_" : key;
    while (reserved.contains(name) || fields.containsKey(name)) {
      name += "_";
    }
    fields.put(name, value);
  }

  /**
   * What an exception says in one phrase, as Kubernetes' {@code err}: {@code
   * java.io.IOException: message}, or only the class when it has no message.
   *
   * @param throwable the event's exception
   * @return the phrase
   */
  public static String errorText(IThrowableProxy throwable) {
    String message = throwable.getMessage();
    return message == null ? throwable.getClassName()
        : throwable.getClassName() + ": " + message;
  }

  /**
   * The exception's stack trace with its causes and suppressed exceptions, lines separated by
   * {@code \n}, without a line break at the end.
   *
   * @param throwable the event's exception
   * @return the stack trace
   */
  public static String stackTrace(IThrowableProxy throwable) {
    String trace = ThrowableProxyUtil.asString(throwable).replace("\r\n", "\n");
    int end = trace.length();
    while (end > 0 && trace.charAt(end - 1) == '\n') {
      end--;
    }
    return trace.substring(0, end);
  }
}
