package io.github.dra4j.webhook.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.github.dra4j.core.http.JdkHttpServers;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * {@code /readyz} for a readiness probe: 200 while the server takes requests, 503 once it is
 * stopping, so the Service stops sending it reviews before its connections close.
 */
public final class ReadyEndpoint implements HttpHandler {

  private final String path;
  private final BooleanSupplier ready;

  /**
   * An endpoint.
   *
   * @param path the exact path it answers
   * @param ready whether the server takes requests
   */
  public ReadyEndpoint(String path, BooleanSupplier ready) {
    this.path = path;
    this.ready = ready;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(path)) {
        JdkHttpServers.sendText(exchange, 404, "not found: " + exchange.getRequestURI().getPath());
      } else if (ready.getAsBoolean()) {
        JdkHttpServers.sendText(exchange, 200, "ok");
      } else {
        JdkHttpServers.sendText(exchange, 503, "shutting down");
      }
    }
  }
}
