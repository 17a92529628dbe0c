package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationGrpc;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The kubelet's side of the plugin protocol one call at a time, for tests that drive a plugin
 * directly instead of through a {@link FakeKubelet}: the same channels (plaintext over the Unix
 * socket, authority {@code localhost}, like grpc-go), the kubelet's deadlines (GetInfo 1 s,
 * NotifyRegistrationStatus 5 s, prepare and unprepare 45 s) and the same {@link CallLog}, but no
 * registry watcher, no validation of answers and no retries: answers come back as the wire
 * messages, failures as grpc-java's {@link io.grpc.StatusRuntimeException}.
 *
 * <pre>{@code
 * try (KubeletClient kubelet = KubeletClient.create()) {
 *   PluginInfo info = kubelet.getInfo(plugin.registrationSocket());
 *   NodePrepareResourcesResponse answer = kubelet.prepare(Path.of(info.getEndpoint()),
 *       KubeletClient.claim("default", "gpu-claim", uid));
 * }
 * }</pre>
 *
 * <p>Thread-safe. The client owns its event loops, callback threads and the channels it opened;
 * {@link #close()} shuts them all down.
 */
public final class KubeletClient implements AutoCloseable {

  /** The kubelet's GetInfo deadline. */
  public static final Duration GET_INFO_TIMEOUT = Duration.ofSeconds(1);

  /** The kubelet's NotifyRegistrationStatus deadline. */
  public static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(5);

  /** The kubelet's deadline for NodePrepareResources and NodeUnprepareResources. */
  public static final Duration NODE_CALL_TIMEOUT = Duration.ofSeconds(45);

  private static final int CALL_LOG_CAPACITY = 1000;

  private final UnixChannels channels = new UnixChannels("dra4j-kubelet-client");
  private final CallLog log = new CallLog(CALL_LOG_CAPACITY, Clock.systemUTC());
  private final RecordedCalls calls = new RecordedCalls(log);
  private final Queue<ManagedChannel> open = new ConcurrentLinkedQueue<>();

  private KubeletClient() {}

  /**
   * Creates a client with its own threads.
   *
   * @return the client; close it
   */
  public static KubeletClient create() {
    return new KubeletClient();
  }

  /**
   * The registration sockets in a directory, as the kubelet's watcher sees them: socket files
   * whose names do not start with a dot (temporary names while a plugin sets its socket up).
   *
   * @param directory the plugin registry directory
   * @return the candidate sockets, sorted by path
   * @throws IOException if the directory cannot be listed
   */
  public static List<Path> registrationSockets(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(RegistryWatcher::isRegistrationSocket).sorted().toList();
    }
  }

  /**
   * A claim reference as the kubelet sends it.
   *
   * @param namespace the claim's namespace
   * @param name the claim's name
   * @param uid the claim's UID
   * @return the wire message
   */
  public static Claim claim(String namespace, String name, String uid) {
    return Claim.newBuilder().setNamespace(namespace).setName(name).setUid(uid).build();
  }

  /**
   * A new channel to a socket, shut down by {@link #close()}. The calls of this client's own
   * methods each open a connection of their own and close it when they end, so a plugin restarted
   * on the same path is reached at once, without a reconnect backoff.
   *
   * @param socket the socket path
   * @return the channel, for calls this client does not offer (streams, raw bytes)
   */
  public ManagedChannel channel(Path socket) {
    ManagedChannel channel = channels.open(socket.toString());
    open.add(channel);
    return channel;
  }

  /**
   * Every call made so far, answered or failed.
   *
   * @return the call log
   */
  public CallLog calls() {
    return log;
  }

  /**
   * {@code GetInfo} with the kubelet's deadline.
   *
   * @param registrationSocket the plugin's registration socket
   * @return the plugin's answer
   * @throws io.grpc.StatusRuntimeException if the call fails
   */
  public PluginInfo getInfo(Path registrationSocket) {
    return once(registrationSocket, channel -> calls.unary(channel,
        RegistrationGrpc.getGetInfoMethod(), InfoRequest.getDefaultInstance(), GET_INFO_TIMEOUT, "",
        registrationSocket.toString()));
  }

  /**
   * {@code NotifyRegistrationStatus} with the kubelet's deadline.
   *
   * @param registrationSocket the plugin's registration socket
   * @param registered the kubelet's verdict
   * @param error why the plugin was rejected; empty when registered
   * @throws io.grpc.StatusRuntimeException if the call fails (a plugin answers a rejection with an
   *     error)
   */
  public void notifyRegistrationStatus(Path registrationSocket, boolean registered, String error) {
    once(registrationSocket, channel -> calls.unary(channel,
        RegistrationGrpc.getNotifyRegistrationStatusMethod(),
        RegistrationStatus.newBuilder().setPluginRegistered(registered).setError(error).build(),
        NOTIFY_TIMEOUT, "", registrationSocket.toString()));
  }

  /**
   * A DRA v1 stub on an endpoint with the kubelet's deadline, for requests built by hand. Calls
   * through it are not recorded in the call log.
   *
   * @param endpoint the plugin's DRA socket
   * @return a blocking stub
   */
  public DRAPluginGrpc.DRAPluginBlockingStub draV1(Path endpoint) {
    return DRAPluginGrpc.newBlockingStub(channel(endpoint))
        .withDeadlineAfter(NODE_CALL_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * A DRA v1beta1 stub on an endpoint with the kubelet's deadline. Calls through it are not
   * recorded in the call log.
   *
   * @param endpoint the plugin's DRA socket
   * @return a blocking stub
   */
  public io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc.DRAPluginBlockingStub draV1beta1(
      Path endpoint) {
    return io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc.newBlockingStub(
        channel(endpoint))
        .withDeadlineAfter(NODE_CALL_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * {@code NodePrepareResources} over DRA v1 with the kubelet's deadline.
   *
   * @param endpoint the plugin's DRA socket
   * @param claims the claims to prepare
   * @return the plugin's answer as it came
   * @throws io.grpc.StatusRuntimeException if the call fails
   */
  public NodePrepareResourcesResponse prepare(Path endpoint, Claim... claims) {
    return once(endpoint, channel -> calls.unary(channel,
        DRAPluginGrpc.getNodePrepareResourcesMethod(),
        NodePrepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build(),
        NODE_CALL_TIMEOUT, "", endpoint.toString()));
  }

  /**
   * {@code NodeUnprepareResources} over DRA v1 with the kubelet's deadline.
   *
   * @param endpoint the plugin's DRA socket
   * @param claims the claims to unprepare
   * @return the plugin's answer as it came
   * @throws io.grpc.StatusRuntimeException if the call fails
   */
  public NodeUnprepareResourcesResponse unprepare(Path endpoint, Claim... claims) {
    return once(endpoint, channel -> calls.unary(channel,
        DRAPluginGrpc.getNodeUnprepareResourcesMethod(),
        NodeUnprepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build(),
        NODE_CALL_TIMEOUT, "", endpoint.toString()));
  }

  /**
   * Opens the device health stream ({@code NodeWatchResources}) on a connection, as the kubelet
   * does once per plugin, and keeps the latest message it gets. The stream ends with the
   * connection; its end is not reported.
   *
   * @param connection a channel from {@link #channel}
   * @return the latest message so far, empty until the first
   */
  public Supplier<Optional<NodeWatchResourcesResponse>> watchHealth(ManagedChannel connection) {
    AtomicReference<NodeWatchResourcesResponse> latest = new AtomicReference<>();
    DRAResourceHealthGrpc.newStub(connection).nodeWatchResources(
        NodeWatchResourcesRequest.getDefaultInstance(), new StreamObserver<>() {
          @Override
          public void onNext(NodeWatchResourcesResponse value) {
            latest.set(value);
          }

          @Override
          public void onError(Throwable t) {
            // ended: the latest message stays
          }

          @Override
          public void onCompleted() {
            // ended: the latest message stays
          }
        });
    return () -> Optional.ofNullable(latest.get());
  }

  /**
   * Makes one call on a connection of its own, closed when the call ends: a plugin restarted on
   * the same path is reached at once, without a reconnect backoff, and a test's calls never pile
   * up connections the plugin's connection limit would refuse.
   */
  private <T> T once(Path socket, Function<ManagedChannel, T> call) {
    ManagedChannel channel = channels.open(socket.toString());
    try {
      return call.apply(channel);
    } finally {
      UnixChannels.shutdown(channel);
    }
  }

  /** Shuts down every channel, then the threads. */
  @Override
  public void close() {
    for (ManagedChannel channel = open.poll(); channel != null; channel = open.poll()) {
      UnixChannels.shutdown(channel);
    }
    channels.close();
  }
}
