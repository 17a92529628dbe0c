package io.github.dra4j.core.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every dra4j server built on the JDK's {@code com.sun.net.httpserver} needs alike: the
 * admission webhook and the metrics endpoint. Stateless.
 */
public final class JdkHttpServers {

  private static final Logger LOG = LoggerFactory.getLogger(JdkHttpServers.class);

  /** The JDK's switch for TCP_NODELAY on the connections its HTTP server accepts. */
  public static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private JdkHttpServers() {}

  /**
   * Turns on TCP_NODELAY for the JDK's HTTP server unless the command line decided. The server
   * writes a response's headers and body separately, and with Nagle's algorithm the body waits
   * for the client's delayed ACK of the headers: 40 ms per request on Linux. The JDK reads the
   * property once, when the first HTTP server of the JVM starts, so call this before creating
   * one.
   */
  public static void enableNoDelay() {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
    if (!Boolean.getBoolean(NO_DELAY)) {
      LOG.warn("-D{}=false: every HTTP answer may wait up to 40 ms for a delayed ACK", NO_DELAY);
    }
  }

  /**
   * Answers with a plain-text message and closes the exchange's body: the errors and probes of
   * dra4j's small servers.
   *
   * @param exchange the exchange
   * @param status the HTTP status
   * @param message the text; a newline is added
   * @throws IOException if the answer cannot be written
   */
  public static void sendText(HttpExchange exchange, int status, String message)
      throws IOException {
    byte[] bytes = (message + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
