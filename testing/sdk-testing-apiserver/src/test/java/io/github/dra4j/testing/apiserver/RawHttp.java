package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plain {@code java.net.http} client for the in-memory API server, to see the wire protocol
 * itself (headers, status codes, chunked watches) rather than what fabric8 makes of it. Owns its
 * HTTP client; immutable.
 */
final class RawHttp {

  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String PROTOBUF_FIRST = "application/vnd.kubernetes.protobuf, application/json";

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();
  private final String base;

  RawHttp(InMemoryApiServer server) {
    this.base = server.url().replaceAll("/$", "");
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
  }

  HttpResponse<String> get(String path, String accept) {
    HttpRequest.Builder request = request(path).GET();
    if (accept != null) {
      request.header("Accept", accept);
    }
    return send(request.build());
  }

  HttpResponse<String> send(String method, String path, String contentType, String body) {
    HttpRequest.Builder request = request(path)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return send(request.build());
  }

  HttpResponse<String> send(HttpRequest request) {
    return send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Opens a streaming GET; the caller closes the stream of lines, which ends the request. */
  HttpResponse<Stream<String>> stream(String path) {
    return send(request(path).GET().build(), HttpResponse.BodyHandlers.ofLines());
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return client.send(request, handler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  static JsonNode json(HttpResponse<String> response) {
    return JSON.readTree(response.body());
  }

  /** Asserts a response is a {@code Status} failure carrying its own HTTP code. */
  static JsonNode assertStatus(HttpResponse<String> response, int code, String reason) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode status = json(response);
    assertThat(status.path("kind").asString()).isEqualTo("Status");
    assertThat(status.path("apiVersion").asString()).isEqualTo("v1");
    assertThat(status.path("status").asString()).isEqualTo("Failure");
    assertThat(status.path("reason").asString()).isEqualTo(reason);
    assertThat(status.path("code").asInt()).isEqualTo(code);
    assertThat(status.path("message").asString()).isNotBlank();
    return status;
  }
}
