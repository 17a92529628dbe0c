package io.github.dra4j.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.time.Instant;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/** Logging events as logback builds them, for the encoder tests. */
final class Events {

  private static final LoggerContext CONTEXT = new LoggerContext();

  private Events() {}

  static LoggingEvent event(Level level, String message, Throwable throwable,
      Map<String, String> mdc, Object... pairs) {
    LoggingEvent event = new LoggingEvent(Events.class.getName(),
        CONTEXT.getLogger("io.github.dra4j.kubeletplugin.internal.node.NodeService"), level,
        message, throwable, null);
    event.setInstant(Instant.parse("2026-11-28T12:32:01.943123456Z"));
    event.setMDCPropertyMap(mdc);
    for (int i = 0; i < pairs.length; i += 2) {
      event.addKeyValuePair(new KeyValuePair((String) pairs[i], pairs[i + 1]));
    }
    return event;
  }
}
