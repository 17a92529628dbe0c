package io.github.dra4j.testing.kubelet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A gRPC client connection written frame by frame, for tests of what a plugin does with clients
 * that misbehave, which no gRPC library lets one write: a client that connects and sends nothing,
 * never reads what it is sent, starts requests and never finishes them, or half-closes a call
 * without a request. Plaintext HTTP/2 over a Unix socket or TCP; headers are sent as literals (no
 * Huffman coding, no header table); what the server sends is read only when a method says so.
 *
 * <pre>{@code
 * try (RawGrpcConnection client = RawGrpcConnection.open(draSocket).handshake()) {
 *   int call = client.startCall("/v1.DRAResourceHealth/NodeWatchResources");
 *   client.sendMessage(call, new byte[0], true);   // the request, then never read a byte
 * }
 * }</pre>
 *
 * <p>Not thread-safe: one test thread drives it. {@link #close()} closes the socket.
 */
public final class RawGrpcConnection implements AutoCloseable {

  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
      .getBytes(StandardCharsets.US_ASCII);
  private static final int DATA = 0;
  private static final int HEADERS = 1;
  private static final int RST_STREAM = 3;
  private static final int SETTINGS = 4;
  private static final int END_STREAM = 0x1;
  private static final int ACK = 0x1;
  private static final int END_HEADERS = 0x4;
  private static final int CANCEL = 0x8;

  private static final int WINDOW_UPDATE = 8;
  private static final int GOAWAY = 7;
  private static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
  private static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
  private static final int MAX_FRAME = 16_384; // the smallest frame size a server may announce
  private static final Duration WINDOW_WAIT = Duration.ofSeconds(10);

  private final SocketChannel channel;
  private final String authority;
  private final Map<Integer, Long> streamWindows = new HashMap<>();
  private final Set<Integer> endedStreams = new HashSet<>();
  private long connectionWindow = 65_535;
  private long initialStreamWindow = 65_535;
  private int nextStream = 1;
  private boolean serverSettingsRead;
  private long maxConcurrentStreams = Long.MAX_VALUE;

  private RawGrpcConnection(SocketChannel channel, String authority) {
    this.channel = channel;
    this.authority = authority;
  }

  /**
   * Connects to a Unix socket and sends nothing yet.
   *
   * @param socket the socket path
   * @return the connection
   * @throws IOException if the connection is refused
   */
  public static RawGrpcConnection open(Path socket) throws IOException {
    return connect(UnixDomainSocketAddress.of(socket), StandardProtocolFamily.UNIX, "localhost");
  }

  /**
   * Connects to a TCP address and sends nothing yet.
   *
   * @param address the address
   * @return the connection
   * @throws IOException if the connection is refused
   */
  public static RawGrpcConnection open(InetSocketAddress address) throws IOException {
    return connect(address, address.getAddress() instanceof java.net.Inet6Address
        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET,
        address.getHostString() + ":" + address.getPort());
  }

  private static RawGrpcConnection connect(SocketAddress address, StandardProtocolFamily family,
      String authority) throws IOException {
    SocketChannel channel = SocketChannel.open(family);
    try {
      channel.connect(address);
      return new RawGrpcConnection(channel, authority);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Sends the HTTP/2 preface and empty settings, waits up to 10 s for the server's settings and
   * acknowledges them, as every HTTP/2 client does before its first call.
   *
   * @return this connection
   * @throws IOException if the server closed the connection or sent no settings in time
   */
  public RawGrpcConnection handshake() throws IOException {
    write(PREFACE);
    frame(SETTINGS, 0, 0, new byte[0]);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!serverSettingsRead) {
      readFrame(deadline); // the server's settings come first; they are acknowledged
    }
    return this;
  }

  /**
   * Starts a call: its headers, without ending the stream.
   *
   * @param path the method's path, e.g. {@code /v1.DRAResourceHealth/NodeWatchResources}
   * @return the call's stream ID
   * @throws IOException if the connection is closed
   */
  public int startCall(String path) throws IOException {
    int stream = nextStream;
    nextStream += 2;
    frame(HEADERS, END_HEADERS, stream, headers(path));
    streamWindows.put(stream, initialStreamWindow);
    return stream;
  }

  /**
   * Starts a call and half-closes it at once, without a request message.
   *
   * @param path the method's path
   * @return the call's stream ID
   * @throws IOException if the connection is closed
   */
  public int callWithoutRequest(String path) throws IOException {
    int stream = nextStream;
    nextStream += 2;
    frame(HEADERS, END_HEADERS | END_STREAM, stream, headers(path));
    return stream;
  }

  /**
   * Sends one whole request message of a call.
   *
   * @param stream the call
   * @param message the serialized message
   * @param halfClose whether the client is done sending on this call
   * @throws IOException if the connection is closed
   */
  public void sendMessage(int stream, byte[] message, boolean halfClose) throws IOException {
    sendMessageStart(stream, message.length, message, halfClose);
  }

  /**
   * Sends the start of a message: its length prefix says {@code declaredLength} bytes, but only
   * {@code start} follows, so the server waits for the rest.
   *
   * @param stream the call
   * @param declaredLength the message length in the gRPC prefix
   * @param start the bytes sent now
   * @param halfClose whether to end the stream after them
   * @throws IOException if the connection is closed
   */
  public void sendMessageStart(int stream, int declaredLength, byte[] start, boolean halfClose)
      throws IOException {
    ByteBuffer data = ByteBuffer.allocate(5 + start.length);
    data.put((byte) 0).putInt(declaredLength).put(start);
    byte[] bytes = data.array();
    int offset = 0;
    while (offset < bytes.length) {
      int size = (int) Math.min(Math.min(bytes.length - offset, MAX_FRAME),
          Math.min(connectionWindow, streamWindows.getOrDefault(stream, 0L)));
      if (endedStreams.contains(stream)) {
        return; // the server ended the call: the rest would be dropped
      }
      if (size <= 0) { // no flow-control credit: wait for the server's WINDOW_UPDATE
        try {
          readFrame(System.nanoTime() + WINDOW_WAIT.toNanos());
        } catch (IOException e) {
          throw new IOException(e.getMessage() + " (waiting for flow-control credit to send on"
              + " stream " + stream + ": connection window " + connectionWindow + ", stream"
              + " window " + streamWindows.get(stream) + ")", e);
        }
        continue;
      }
      boolean last = offset + size == bytes.length;
      frame(DATA, halfClose && last ? END_STREAM : 0, stream,
          Arrays.copyOfRange(bytes, offset, offset + size));
      connectionWindow -= size;
      streamWindows.merge(stream, (long) -size, Long::sum);
      offset += size;
    }
  }

  /**
   * The calls the server lets this connection have open at once (its SETTINGS_MAX_CONCURRENT_
   * STREAMS), as read in the {@link #handshake()}; a call over it is refused, and sending on the
   * refused call ends the connection.
   *
   * @return the limit, {@link Long#MAX_VALUE} if the server announced none
   */
  public long maxConcurrentStreams() {
    return maxConcurrentStreams;
  }

  /**
   * Whether the server has ended a call, as far as this connection has read.
   *
   * @param stream the call
   * @return true once its trailers or a RST_STREAM were read
   */
  public boolean wasEnded(int stream) {
    return endedStreams.contains(stream);
  }

  /**
   * Cancels a call (RST_STREAM with CANCEL), as a client whose deadline passed does.
   *
   * @param stream the call
   * @throws IOException if the connection is closed
   */
  public void cancel(int stream) throws IOException {
    frame(RST_STREAM, 0, stream, ByteBuffer.allocate(4).putInt(CANCEL).array());
  }

  /**
   * Reads and drops whatever the server sends until it closes the connection or the time is up.
   *
   * @param timeout how long to wait
   * @return true if the server closed the connection (end of stream or reset)
   * @throws IOException if waiting fails
   */
  public boolean awaitClosedByServer(Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ByteBuffer sink = ByteBuffer.allocate(16_384);
    try (Selector selector = Selector.open()) {
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
        sink.clear();
        try {
          if (channel.read(sink) < 0) {
            return true;
          }
        } catch (IOException reset) {
          return true;
        }
      }
    } finally {
      blockAgain();
    }
  }

  /**
   * How many of some connections the server still holds open: each is given {@code wait} to be
   * closed by the server (one after the other), and counted if it was not.
   *
   * @param connections the connections
   * @param wait how long to wait for each
   * @return the number still open
   * @throws IOException if waiting fails
   */
  public static int stillOpen(Collection<RawGrpcConnection> connections, Duration wait)
      throws IOException {
    int open = 0;
    for (RawGrpcConnection connection : connections) {
      if (!connection.awaitClosedByServer(wait)) {
        open++;
      }
    }
    return open;
  }

  /**
   * How many of some connections the server holds once it has taken them all from its accept
   * queue. A connection still in that queue looks open to its client until the server accepts it
   * (and perhaps closes it at once), so this counts again until at most {@code most} are open or
   * {@code timeout} has passed.
   *
   * @param connections the connections
   * @param most the most the server should hold
   * @param timeout how long to wait for the count to come down
   * @return the number still open, the last count
   * @throws IOException if waiting fails
   */
  public static int heldOnceAccepted(Collection<RawGrpcConnection> connections, int most,
      Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      int open = stillOpen(connections, Duration.ofMillis(20));
      if (open <= most || System.nanoTime() - deadline > 0) {
        return open;
      }
    }
  }

  /** Closes the socket. */
  @Override
  public void close() throws IOException {
    channel.close();
  }

  private byte[] headers(String path) {
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    literal(block, ":method", "POST");
    literal(block, ":scheme", "http");
    literal(block, ":path", path);
    literal(block, ":authority", authority);
    literal(block, "content-type", "application/grpc");
    literal(block, "te", "trailers");
    return block.toByteArray();
  }

  /** A header "literal without indexing, new name" (RFC 7541, 6.2.2), without Huffman coding. */
  private static void literal(ByteArrayOutputStream block, String name, String value) {
    block.write(0);
    string(block, name.getBytes(StandardCharsets.US_ASCII));
    string(block, value.getBytes(StandardCharsets.UTF_8));
  }

  private static void string(ByteArrayOutputStream block, byte[] bytes) {
    int length = bytes.length;
    if (length < 127) {
      block.write(length);
    } else { // a 7-bit prefix integer (RFC 7541, 5.1)
      block.write(127);
      length -= 127;
      while (length >= 128) {
        block.write((length & 0x7f) | 0x80);
        length >>>= 7;
      }
      block.write(length);
    }
    block.writeBytes(bytes);
  }

  private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
    frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8))
        .put((byte) payload.length).put((byte) type).put((byte) flags).putInt(stream)
        .put(payload);
    write(frame.array());
  }

  private void write(byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /**
   * Reads one frame and acts on what matters here: flow-control credit, settings (acknowledged),
   * resets; a GOAWAY ends the connection.
   *
   */
  private void readFrame(long deadlineNanos) throws IOException {
    byte[] header = readFully(9, deadlineNanos);
    int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
    int type = header[3] & 0xff;
    int flags = header[4] & 0xff;
    int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7fffffff;
    ByteBuffer payload = ByteBuffer.wrap(readFully(length, deadlineNanos));
    switch (type) {
      case WINDOW_UPDATE -> {
        long increment = payload.getInt() & 0x7fffffffL;
        if (stream == 0) {
          connectionWindow += increment;
        } else {
          streamWindows.merge(stream, increment, Long::sum);
        }
      }
      case SETTINGS -> {
        if ((flags & ACK) == 0) {
          while (payload.remaining() >= 6) {
            int id = payload.getShort() & 0xffff;
            long value = payload.getInt() & 0xffffffffL;
            if (id == SETTINGS_MAX_CONCURRENT_STREAMS) {
              maxConcurrentStreams = value;
            }
            if (id == SETTINGS_INITIAL_WINDOW_SIZE) {
              long change = value - initialStreamWindow;
              initialStreamWindow = value;
              streamWindows.replaceAll((s, window) -> window + change);
            }
          }
          frame(SETTINGS, ACK, 0, new byte[0]);
          serverSettingsRead = true;
        }
      }
      case RST_STREAM -> endedStreams.add(stream);
      case HEADERS -> {
        if ((flags & END_STREAM) != 0) {
          endedStreams.add(stream); // trailers: the server has finished the call
        }
      }
      case GOAWAY -> throw new IOException("the server sent GOAWAY");
      default -> {
      } // data, pings: not this client's business
    }
  }

  private byte[] readFully(int length, long deadlineNanos) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    channel.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      channel.register(selector, SelectionKey.OP_READ);
      while (buffer.hasRemaining()) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          throw new IOException("the server sent nothing more in time");
        }
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
        if (channel.read(buffer) < 0) {
          throw new IOException("the server closed the connection");
        }
      }
    } finally {
      blockAgain();
    }
    return buffer.array();
  }

  /** Back to blocking writes, once the selector that was reading is closed. */
  private void blockAgain() throws IOException {
    if (channel.isOpen()) {
      channel.configureBlocking(true);
    }
  }
}
