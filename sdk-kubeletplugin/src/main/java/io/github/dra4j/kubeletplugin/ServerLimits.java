package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import java.time.Duration;

/**
 * What one of the plugin's gRPC servers lets its clients hold, so that no client, however many
 * connections it opens and however little it reads, can take the memory the plugin needs to
 * answer the kubelet. Each server (the DRA socket, the registration socket, the liveness probe's
 * TCP port) has its own; the defaults are {@link #DRA_SOCKET}, {@link #REGISTRATION_SOCKET} and
 * {@link #LIVENESS_PROBE}, set with {@link SocketOptions#withDraLimits}, {@link
 * SocketOptions#withRegistrationLimits} and {@link
 * ObservabilityOptions#withLivenessProbeLimits}.
 *
 * <p>What a server then holds at most is about {@code maxConnections} times 10 KiB for the
 * connections themselves, plus {@code maxPendingRequestBytes} of requests still arriving, plus
 * the answers its clients have not read yet: one message per device health stream, and the
 * answers of at most {@code maxConnections × maxCallsPerConnection} unary calls.
 *
 * @param maxConnections connections open at once; a further one is closed as soon as it is
 *     accepted, and the refusal logged and counted
 * @param maxCallsPerConnection calls (HTTP/2 streams) open at once on one connection, the
 *     MAX_CONCURRENT_STREAMS the server announces: a gRPC client waits for a free one before
 *     starting another call, so the kubelet's calls queue rather than fail
 * @param maxMessageBytes the largest request message; a larger one fails its call with
 *     RESOURCE_EXHAUSTED as soon as its length is read
 * @param maxMetadataBytes the largest request header block (gRPC metadata)
 * @param flowControlWindowBytes the HTTP/2 flow-control window of each call and of each
 *     connection: how much a client may send before the server has read it
 * @param maxPendingRequestBytes bytes of requests that have started to arrive but are not complete
 *     yet, over all connections of the server; a call whose request would take the server over
 *     this fails with RESOURCE_EXHAUSTED, so slowly sent requests cannot fill the memory. At least
 *     {@code maxMessageBytes}, so that one request of the largest size always fits
 * @param handshakeTimeout how long a new connection may take to send the HTTP/2 preface and
 *     settings; a connection that opens and then sends nothing is closed after it
 * @param maxConnectionIdle how long a connection without calls is kept (then closed with a
 *     GOAWAY, which gRPC clients answer by connecting again when they next need to); zero keeps
 *     it for ever
 * @param maxConnectionAge how long any connection is kept at most (its calls then get 10 s to
 *     finish); zero keeps it for ever
 */
public record ServerLimits(
    int maxConnections,
    int maxCallsPerConnection,
    int maxMessageBytes,
    int maxMetadataBytes,
    int flowControlWindowBytes,
    int maxPendingRequestBytes,
    Duration handshakeTimeout,
    Duration maxConnectionIdle,
    Duration maxConnectionAge) {

  private static final int KIB = 1024;

  /**
   * The DRA socket's defaults: 16 connections (the kubelet keeps one), 128 calls on each (twice
   * the handler threads: the kubelet sends the calls of all its pods over its one connection, and
   * a client waits for a free call before it sends one more, so a lower limit would hold an
   * unprepare back behind prepares waiting for a hung API server; the plugin refuses calls beyond
   * its handler threads at once anyway), 512
   * KiB per request (a prepare of 1,024 claims with the longest names allowed fits), 8 KiB of
   * metadata, a 64 KiB window, 4 MiB of partly received requests, 10 s for the handshake,
   * connections idle for 10 minutes closed (the kubelet connects again at once, from 1.34, or at
   * its next call) and none closed for age.
   */
  public static final ServerLimits DRA_SOCKET = new ServerLimits(16, 128, 512 * KIB, 8 * KIB,
      64 * KIB, 4 * KIB * KIB, Duration.ofSeconds(10), Duration.ofMinutes(10), Duration.ZERO);

  /**
   * The registration socket's defaults: 4 connections of 4 calls (the kubelet connects once to
   * ask for the plugin's info and to report the registration, then disconnects), 16 KiB per
   * request, 8 KiB of metadata, a 64 KiB window, 256 KiB of partly received requests, 10 s for the
   * handshake, connections closed after a minute idle or 5 minutes in all.
   */
  public static final ServerLimits REGISTRATION_SOCKET = new ServerLimits(4, 4, 16 * KIB,
      8 * KIB, 64 * KIB, 256 * KIB, Duration.ofSeconds(10), Duration.ofMinutes(1),
      Duration.ofMinutes(5));

  /**
   * The liveness probe's defaults: 8 connections of 2 calls (the kubelet's gRPC probe opens one
   * connection per probe for one call and closes it), 4 KiB per request, 8 KiB of metadata, a 64
   * KiB window, 64 KiB of partly received requests, 5 s for the handshake, connections closed
   * after 30 s idle or 2 minutes in all.
   */
  public static final ServerLimits LIVENESS_PROBE = new ServerLimits(8, 2, 4 * KIB, 8 * KIB,
      64 * KIB, 64 * KIB, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(2));

  /**
   * Checks every limit.
   *
   * @param maxConnections connections open at once
   * @param maxCallsPerConnection calls open at once on one connection
   * @param maxMessageBytes the largest request message
   * @param maxMetadataBytes the largest request header block
   * @param flowControlWindowBytes the flow-control window of each call and connection
   * @param maxPendingRequestBytes bytes of requests still arriving, over all connections
   * @param handshakeTimeout how long a new connection may take to send its HTTP/2 preface
   * @param maxConnectionIdle how long a connection without calls is kept; zero: for ever
   * @param maxConnectionAge how long any connection is kept at most; zero: for ever
   * @throws IllegalArgumentException naming the limit and the value: {@code maxConnections} 1 to
   *     100,000, {@code maxCallsPerConnection} 1 to 10,000, {@code maxMessageBytes} 1 KiB to 64
   *     MiB, {@code maxMetadataBytes} 1 KiB to 1 MiB, {@code flowControlWindowBytes} 1 KiB to 16
   *     MiB, {@code maxPendingRequestBytes} from {@code maxMessageBytes} to 1 GiB, {@code
   *     handshakeTimeout} positive, {@code maxConnectionIdle} and {@code maxConnectionAge} not
   *     negative
   * @throws NullPointerException naming a duration that is null
   */
  public ServerLimits {
    OptionChecks.between(maxConnections, 1, 100_000, "ServerLimits.maxConnections");
    OptionChecks.between(maxCallsPerConnection, 1, 10_000, "ServerLimits.maxCallsPerConnection");
    OptionChecks.between(maxMessageBytes, KIB, 64 * KIB * KIB, "ServerLimits.maxMessageBytes");
    OptionChecks.between(maxMetadataBytes, KIB, KIB * KIB, "ServerLimits.maxMetadataBytes");
    OptionChecks.between(flowControlWindowBytes, KIB, 16 * KIB * KIB,
        "ServerLimits.flowControlWindowBytes");
    OptionChecks.between(maxPendingRequestBytes, maxMessageBytes, KIB * KIB * KIB,
        "ServerLimits.maxPendingRequestBytes (at least maxMessageBytes)");
    OptionChecks.positive(handshakeTimeout, "ServerLimits.handshakeTimeout");
    OptionChecks.nonNegative(maxConnectionIdle, "ServerLimits.maxConnectionIdle");
    OptionChecks.nonNegative(maxConnectionAge, "ServerLimits.maxConnectionAge");
  }

  /**
   * These limits with another {@code maxConnections}.
   *
   * @param max 1 to 100,000
   * @return the new limits
   */
  public ServerLimits withMaxConnections(int max) {
    return new ServerLimits(max, maxCallsPerConnection, maxMessageBytes, maxMetadataBytes,
        flowControlWindowBytes, maxPendingRequestBytes, handshakeTimeout, maxConnectionIdle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code maxCallsPerConnection}.
   *
   * @param max 1 to 10,000
   * @return the new limits
   */
  public ServerLimits withMaxCallsPerConnection(int max) {
    return new ServerLimits(maxConnections, max, maxMessageBytes, maxMetadataBytes,
        flowControlWindowBytes, maxPendingRequestBytes, handshakeTimeout, maxConnectionIdle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code maxMessageBytes}, and {@code maxPendingRequestBytes} raised
   * to it if it was smaller.
   *
   * @param bytes 1 KiB to 64 MiB
   * @return the new limits
   */
  public ServerLimits withMaxMessageBytes(int bytes) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, bytes, maxMetadataBytes,
        flowControlWindowBytes, Math.max(bytes, maxPendingRequestBytes), handshakeTimeout,
        maxConnectionIdle, maxConnectionAge);
  }

  /**
   * These limits with another {@code maxMetadataBytes}.
   *
   * @param bytes 1 KiB to 1 MiB
   * @return the new limits
   */
  public ServerLimits withMaxMetadataBytes(int bytes) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes, bytes,
        flowControlWindowBytes, maxPendingRequestBytes, handshakeTimeout, maxConnectionIdle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code flowControlWindowBytes}.
   *
   * @param bytes 1 KiB to 16 MiB
   * @return the new limits
   */
  public ServerLimits withFlowControlWindowBytes(int bytes) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes,
        maxMetadataBytes, bytes, maxPendingRequestBytes, handshakeTimeout, maxConnectionIdle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code maxPendingRequestBytes}.
   *
   * @param bytes from {@code maxMessageBytes} to 1 GiB
   * @return the new limits
   */
  public ServerLimits withMaxPendingRequestBytes(int bytes) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes,
        maxMetadataBytes, flowControlWindowBytes, bytes, handshakeTimeout, maxConnectionIdle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code handshakeTimeout}.
   *
   * @param timeout a positive duration
   * @return the new limits
   */
  public ServerLimits withHandshakeTimeout(Duration timeout) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes,
        maxMetadataBytes, flowControlWindowBytes, maxPendingRequestBytes, timeout,
        maxConnectionIdle, maxConnectionAge);
  }

  /**
   * These limits with another {@code maxConnectionIdle}.
   *
   * @param idle zero to keep idle connections for ever
   * @return the new limits
   */
  public ServerLimits withMaxConnectionIdle(Duration idle) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes,
        maxMetadataBytes, flowControlWindowBytes, maxPendingRequestBytes, handshakeTimeout, idle,
        maxConnectionAge);
  }

  /**
   * These limits with another {@code maxConnectionAge}.
   *
   * @param age zero to keep connections for ever
   * @return the new limits
   */
  public ServerLimits withMaxConnectionAge(Duration age) {
    return new ServerLimits(maxConnections, maxCallsPerConnection, maxMessageBytes,
        maxMetadataBytes, flowControlWindowBytes, maxPendingRequestBytes, handshakeTimeout,
        maxConnectionIdle, age);
  }
}
