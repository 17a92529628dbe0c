package io.github.dra4j.testing.kubelet;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;

/**
 * The kubelet's client connection to one plugin endpoint, with connectivity monitoring: it
 * reconnects when the connection drops to idle and tells a listener whenever the connection goes
 * up or down.
 *
 * <p>Owns its channel; owned by one {@link PluginInstance}. Listener calls come from gRPC callback
 * threads, one at a time per connection.
 */
final class PluginConnection implements AutoCloseable {

  /** Told when the connection goes up or down. */
  interface Listener {
    /**
     * The connection changed.
     *
     * @param connected true if it is now up
     */
    void connectivityChanged(boolean connected);
  }

  private final ManagedChannel channel;
  private final Listener listener;
  private volatile boolean closed;
  private boolean wasReady; // guarded by this

  PluginConnection(ManagedChannel channel, Listener listener) {
    this.channel = channel;
    this.listener = listener;
  }

  /** Starts monitoring; the channel is already connecting. */
  void start() {
    watch(channel.getState(true));
  }

  ManagedChannel channel() {
    return channel;
  }

  /**
   * Whether the connection is up right now.
   *
   * @return true if the channel is READY
   */
  boolean isConnected() {
    return !closed && channel.getState(false) == ConnectivityState.READY;
  }

  private void watch(ConnectivityState seen) {
    if (!closed) {
      channel.notifyWhenStateChanged(seen, this::changed);
    }
  }

  private void changed() {
    if (closed) {
      return;
    }
    ConnectivityState state = channel.getState(false);
    if (state == ConnectivityState.IDLE) {
      // A dropped connection goes idle; the kubelet keeps trying to reach its plugins.
      state = channel.getState(true);
    }
    boolean ready = state == ConnectivityState.READY;
    boolean flipped;
    synchronized (this) {
      flipped = ready != wasReady;
      wasReady = ready;
    }
    if (flipped) {
      listener.connectivityChanged(ready);
    }
    watch(state);
  }

  @Override
  public void close() {
    closed = true;
    UnixChannels.shutdown(channel);
  }
}
