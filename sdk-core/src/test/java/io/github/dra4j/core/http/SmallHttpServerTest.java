package io.github.dra4j.core.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's own limits over plain HTTP on real sockets: a dead accept loop is fatal, a new
 * connection beyond the limit takes the place of the oldest idle one, a body over the limit is
 * answered before it is read, headers over the limit get 431.
 */
class SmallHttpServerTest {

  private final List<SmallHttpServer> servers = new ArrayList<>();
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (Socket socket : sockets) {
      socket.close();
    }
    servers.forEach(SmallHttpServer::close);
  }

  private SmallHttpServer start(SmallHttpServerBuilder builder) throws Exception {
    SmallHttpServer server = builder
        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).start();
    servers.add(server);
    return server;
  }

  private static SmallHttpServerBuilder echo() {
    return SmallHttpServer.builder("test-http", exchange -> exchange.respondText(200,
        exchange.method() + " " + exchange.path() + " " + exchange.body().length));
  }

  private Socket connect(SmallHttpServer server) throws Exception {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout(5000);
    sockets.add(socket);
    return socket;
  }

  private static String exchange(Socket socket, String request) throws Exception {
    OutputStream out = socket.getOutputStream();
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      head.append((char) c);
    }
    String text = head.toString();
    int at = text.toLowerCase(Locale.ROOT).indexOf("content-length: ");
    if (at >= 0) {
      int length = Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)).trim());
      text += new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
    return text;
  }

  @Test
  void theListeningSocketClosingUnderTheRunningServerIsFatal() throws Exception {
    CompletableFuture<String> fatal = new CompletableFuture<>();
    SmallHttpServer server = start(echo().onFatal((what, cause) -> fatal.complete(what)));

    // What Netty does after an error while accepting that is no IOException.
    // The test waits for the fatal report below, not for the close itself.
    var unused = server.listeningChannel().close();

    assertThat(fatal.get(5, TimeUnit.SECONDS)).isEqualTo("test-http: the listening socket "
        + "closed while the server runs, so it accepts no more connections");
  }

  @Test
  void anErrorWhileAcceptingIsFatal() throws Exception {
    CompletableFuture<Throwable> fatal = new CompletableFuture<>();
    SmallHttpServer server = start(echo().onFatal((what, cause) -> fatal.complete(cause)));

    server.listeningChannel().pipeline().fireExceptionCaught(new OutOfMemoryError("test"));

    assertThat(fatal.get(5, TimeUnit.SECONDS)).isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void closingTheServerIsNotFatal() throws Exception {
    CompletableFuture<String> fatal = new CompletableFuture<>();
    SmallHttpServer server = start(echo().onFatal((what, cause) -> fatal.complete(what)));

    server.close();
    Thread.sleep(300);

    assertThat(fatal).isNotDone();
  }

  @Test
  void aNewConnectionBeyondTheLimitTakesThePlaceOfTheOldestIdleOne() throws Exception {
    SmallHttpServer server = start(echo().maxConnections(3));
    Socket oldest = connect(server);
    assertThat(exchange(oldest, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")).contains("GET /a 0");
    Socket second = connect(server);
    Socket third = connect(server);
    Thread.sleep(200);

    Socket fourth = connect(server);

    assertThat(exchange(fourth, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n")).contains("GET /b 0");
    assertThat(oldest.getInputStream().read()).as("the oldest was closed").isEqualTo(-1);
    assertThat(exchange(second, "GET /c HTTP/1.1\r\nHost: x\r\n\r\n")).contains("GET /c 0");
    assertThat(server.openConnections()).isEqualTo(3);
    assertThat(server.evictedConnections()).isEqualTo(1);
    assertThat(third.isClosed()).isFalse();
  }

  @Test
  void aBodyOverTheLimitIsAnsweredBeforeItIsReadAndDropped() throws Exception {
    SmallHttpServer server = start(echo().maxBodyBytes(1024).discardBytes(64 * 1024));
    Socket socket = connect(server);

    String answer = exchange(socket, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 4096\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 413 ")
        .endsWith("request body of 4096 bytes is over the limit of 1024 bytes\n");
    assertThat(server.bufferedBodyBytes()).isZero();
    // The rest of the body is dropped, and the connection serves the next request.
    socket.getOutputStream().write(new byte[4096]);
    assertThat(exchange(socket, "POST /y HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"))
        .contains("POST /y 3");
  }

  @Test
  void headersOverTheLimitGet431AndAStalledRequestIsClosedAtItsDeadline() throws Exception {
    SmallHttpServer server = start(echo().maxHeaderBytes(1024)
        .requestTimeout(Duration.ofMillis(500)));

    String answer = exchange(connect(server), "GET / HTTP/1.1\r\nHost: x\r\nX-Big: "
        + "y".repeat(2048) + "\r\n\r\n");
    Socket stalled = connect(server);
    stalled.getOutputStream().write('G');
    long start = System.nanoTime();
    int read = stalled.getInputStream().read();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(answer).startsWith("HTTP/1.1 431 ");
    assertThat(read).isEqualTo(-1);
    assertThat(millis).isBetween(200L, 3000L);
  }
}
