package io.github.dra4j.testing.apiserver;

import static io.github.dra4j.testing.apiserver.RawHttp.assertStatus;
import static io.github.dra4j.testing.apiserver.RawHttp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Watches over plain HTTP, as client-go informers and {@code kubectl get -w} open them. */
class ChunkedWatchTest {

  private static final String CLASSES = "/apis/resource.k8s.io/v1/deviceclasses";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** End-of-stream marker put in the queue when the server ends the response. */
  private static final String END = "<end>";

  private InMemoryApiServer server;
  private RawHttp http;
  private final List<Stream<String>> open = new ArrayList<>();

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().historyLimit(3).build().start();
    http = new RawHttp(server);
  }

  @AfterEach
  void stop() {
    open.forEach(Stream::close);
    server.close();
  }

  private String create(String name) {
    HttpResponse<String> response = http.send("POST", CLASSES, "application/json",
        "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\""
            + name + "\"},\"spec\":{}}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return json(response).at("/metadata/resourceVersion").asString();
  }

  private void label(String name, String value) {
    HttpResponse<String> response = http.send("PATCH", CLASSES + "/" + name,
        "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"k\":\"" + value + "\"}}}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private void delete(String name) {
    assertThat(http.send("DELETE", CLASSES + "/" + name, null, null).statusCode()).isEqualTo(200);
  }

  /** An open watch: its response headers and the queue its lines arrive in. */
  private record OpenWatch(HttpResponse<Stream<String>> response, BlockingQueue<String> events) {}

  private BlockingQueue<String> watch(String query) {
    return open(query).events();
  }

  /** Opens a watch and feeds its lines, then {@link #END}, into a queue from a reader thread. */
  private OpenWatch open(String query) {
    HttpResponse<Stream<String>> response = http.stream(CLASSES + "?watch=true" + query);
    Stream<String> lines = response.body();
    open.add(lines);
    BlockingQueue<String> queue = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try {
        Iterator<String> iterator = lines.iterator();
        while (iterator.hasNext()) {
          queue.add(iterator.next());
        }
      } catch (RuntimeException e) {
        // the test closed the stream
      }
      queue.add(END);
    }, "watch-reader");
    reader.setDaemon(true);
    reader.start();
    return new OpenWatch(response, queue);
  }

  private static JsonNode next(BlockingQueue<String> events) throws InterruptedException {
    String line = events.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    assertThat(line).as("next watch event").isNotNull().isNotEqualTo(END);
    return RawHttp.JSON.readTree(line);
  }

  private static void assertEvent(JsonNode event, String type, String name) {
    assertThat(event.path("type").asString()).as(event.toString()).isEqualTo(type);
    assertThat(event.at("/object/metadata/name").asString()).as(event.toString()).isEqualTo(name);
  }

  @Test
  void streamsAddedModifiedAndDeletedAsChunkedJsonLines() throws Exception {
    create("before");
    OpenWatch watch = open("&allowWatchBookmarks=true");
    BlockingQueue<String> events = watch.events();

    assertThat(watch.response().statusCode()).isEqualTo(200);
    assertThat(watch.response().headers().firstValue("Content-Type"))
        .hasValue("application/json");
    assertThat(watch.response().headers().firstValue("Transfer-Encoding")).hasValue("chunked");
    assertEvent(next(events), "ADDED", "before");
    await().atMost(TIMEOUT).until(() -> server.openWatches() == 1);

    create("a");
    assertEvent(next(events), "ADDED", "a");
    label("a", "v");
    JsonNode modified = next(events);
    assertEvent(modified, "MODIFIED", "a");
    assertThat(modified.at("/object/metadata/labels/k").asString()).isEqualTo("v");
    delete("a");
    JsonNode deleted = next(events);
    assertEvent(deleted, "DELETED", "a");
    assertThat(Long.parseLong(deleted.at("/object/metadata/resourceVersion").asString()))
        .isGreaterThan(Long.parseLong(modified.at("/object/metadata/resourceVersion").asString()));
    assertThat(server.countRequests(r -> r.verb() == ApiVerb.WATCH && r.status() == 200))
        .isEqualTo(1);
  }

  @Test
  void resumesAfterTheGivenResourceVersionWithoutReplayingOlderChanges() throws Exception {
    create("old");
    String after = create("seen");
    label("seen", "1");

    BlockingQueue<String> events = watch("&resourceVersion=" + after);
    JsonNode first = next(events);
    assertEvent(first, "MODIFIED", "seen");
    create("new");
    assertEvent(next(events), "ADDED", "new");
  }

  @Test
  void aResourceVersionBeyondTheHistoryIsExpired() throws Exception {
    String first = create("a");
    create("b");
    create("c");
    create("d");
    create("e");

    BlockingQueue<String> events = watch("&resourceVersion=" + first);
    JsonNode error = next(events);
    assertThat(error.path("type").asString()).isEqualTo("ERROR");
    assertThat(error.at("/object/kind").asString()).isEqualTo("Status");
    assertThat(error.at("/object/code").asInt()).isEqualTo(410);
    assertThat(error.at("/object/reason").asString()).isEqualTo("Expired");
    assertThat(events.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(END);
  }

  @Test
  void streamingListSendsTheCurrentObjectsThenTheEndBookmark() throws Exception {
    create("a");
    create("b");

    BlockingQueue<String> events = watch("&sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=");
    assertEvent(next(events), "ADDED", "a");
    assertEvent(next(events), "ADDED", "b");
    JsonNode bookmark = next(events);
    assertThat(bookmark.path("type").asString()).isEqualTo("BOOKMARK");
    assertThat(bookmark.at("/object/kind").asString()).isEqualTo("DeviceClass");
    assertThat(bookmark.at("/object/apiVersion").asString()).isEqualTo("resource.k8s.io/v1");
    assertThat(bookmark.at("/object/metadata/annotations/k8s.io~1initial-events-end").asString())
        .isEqualTo("true");
    String listed = json(http.get(CLASSES, null)).at("/metadata/resourceVersion").asString();
    assertThat(bookmark.at("/object/metadata/resourceVersion").asString()).isEqualTo(listed);
    create("c");
    assertEvent(next(events), "ADDED", "c");
  }

  @Test
  void watchOptionsAreCheckedLikeARealServer() {
    assertThat(assertStatus(http.get(CLASSES + "?watch=true&sendInitialEvents=true"
        + "&allowWatchBookmarks=true", null), 422, "Invalid").path("message").asString())
        .contains("resourceVersionMatch", "NotOlderThan");
    assertThat(assertStatus(http.get(CLASSES + "?watch=true&sendInitialEvents=true"
        + "&resourceVersionMatch=NotOlderThan", null), 422, "Invalid").path("message").asString())
        .contains("allowWatchBookmarks");
    assertStatus(http.get(CLASSES + "?watch=true&resourceVersionMatch=NotOlderThan", null), 422,
        "Invalid");
    assertThat(assertStatus(http.get(CLASSES + "?watch=true&resourceVersion=abc", null), 400,
        "BadRequest").path("message").asString()).contains("resourceVersion", "\"abc\"");
    assertThat(assertStatus(http.get(CLASSES + "?watch=true&timeoutSeconds=-1", null), 400,
        "BadRequest").path("message").asString()).contains("timeoutSeconds", "\"-1\"");
    assertStatus(http.get(CLASSES + "?watch=true", "application/vnd.kubernetes.protobuf"), 406,
        "NotAcceptable");
    assertThat(server.openWatches()).isZero();
  }

  @Test
  void theServerEndsTheStreamOnTimeoutAndOnCloseWatches() throws Exception {
    BlockingQueue<String> timed = watch("&timeoutSeconds=1");
    assertThat(timed.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(END);

    BlockingQueue<String> closed = watch("");
    await().atMost(TIMEOUT).until(() -> server.openWatches() == 1);
    assertThat(server.closeWatches()).isEqualTo(1);
    assertThat(closed.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(END);
  }

  @Test
  void aClientThatGoesAwayEndsItsWatch() {
    watch("");
    await().atMost(TIMEOUT).until(() -> server.openWatches() == 1);
    open.forEach(Stream::close);
    await().atMost(TIMEOUT).until(() -> server.openWatches() == 0);
  }
}
