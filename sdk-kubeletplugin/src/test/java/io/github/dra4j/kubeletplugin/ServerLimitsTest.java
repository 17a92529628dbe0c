package io.github.dra4j.kubeletplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The limits of the plugin's servers: defaults, copies with one limit changed, and checks. */
class ServerLimitsTest {

  @Test
  void theDefaultsBoundEveryServer() {
    assertThat(ServerLimits.DRA_SOCKET.maxConnections()).isEqualTo(16);
    assertThat(ServerLimits.DRA_SOCKET.maxMessageBytes()).isEqualTo(512 * 1024);
    assertThat(ServerLimits.DRA_SOCKET.maxPendingRequestBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(ServerLimits.DRA_SOCKET.maxConnectionAge()).isZero();
    assertThat(ServerLimits.REGISTRATION_SOCKET.maxConnections()).isEqualTo(4);
    assertThat(ServerLimits.LIVENESS_PROBE.maxConnections()).isEqualTo(8);
    assertThat(ServerLimits.LIVENESS_PROBE.handshakeTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void withChangesOneLimitAndKeepsTheOthers() {
    ServerLimits limits = ServerLimits.DRA_SOCKET.withMaxConnections(32)
        .withMaxConnectionIdle(Duration.ZERO).withMaxMessageBytes(8 * 1024 * 1024);

    assertThat(limits.maxConnections()).isEqualTo(32);
    assertThat(limits.maxConnectionIdle()).isZero();
    assertThat(limits.maxMessageBytes()).isEqualTo(8 * 1024 * 1024);
    assertThat(limits.maxPendingRequestBytes()).as("raised to one message")
        .isEqualTo(8 * 1024 * 1024);
    assertThat(limits.maxCallsPerConnection()).isEqualTo(128);
  }

  @Test
  void aLimitOutOfRangeIsRefusedNamingItAndTheValue() {
    assertThatThrownBy(() -> ServerLimits.DRA_SOCKET.withMaxConnections(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ServerLimits.maxConnections must be between 1 and 100000, got 0");
    assertThatThrownBy(() -> ServerLimits.DRA_SOCKET.withMaxPendingRequestBytes(1024))
        .hasMessage("ServerLimits.maxPendingRequestBytes (at least maxMessageBytes) must be"
            + " between 524288 and 1073741824, got 1024");
    assertThatThrownBy(() -> ServerLimits.DRA_SOCKET.withHandshakeTimeout(Duration.ZERO))
        .hasMessage("ServerLimits.handshakeTimeout must be positive, got PT0S");
    assertThatThrownBy(() -> ServerLimits.DRA_SOCKET.withMaxConnectionAge(Duration.ofSeconds(-1)))
        .hasMessage("ServerLimits.maxConnectionAge must not be negative, got PT-1S");
    assertThatThrownBy(() -> KubeletPlugin.builder(new RecordingDriverStub())
        .sockets(s -> s.withDraLimits(null))).hasMessage("draSocketLimits");
  }

  /** A driver that is never started. */
  private static final class RecordingDriverStub
      extends
        io.github.dra4j.kubeletplugin.testsupport.RecordingDriver {
    RecordingDriverStub() {
      super("gpu.example.com");
    }
  }
}
