package io.github.dra4j.benchmarks.floor;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.Server;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JVM floor answers the kubelet's prepare and unprepare calls from memory, on a socket. */
class JvmFloorServerTest {

  @TempDir
  Path dir;

  @Test
  void answersEveryClaimOfAPrepareAndAnUnprepareFromMemory() throws Exception {
    Path socket = dir.resolve("floor.sock");
    Files.writeString(socket, "a file left by an earlier run");
    EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    Server server = JvmFloorServer.start(socket, loop);
    try (KubeletClient kubelet = KubeletClient.create()) {
      var stub = DRAPluginGrpc.newBlockingStub(kubelet.channel(socket))
          .withDeadlineAfter(30, TimeUnit.SECONDS);
      Claim first = KubeletClient.claim("default", "a", "uid-a");
      Claim second = KubeletClient.claim("other", "b", "uid-b");

      NodePrepareResourcesResponse prepared = stub.nodePrepareResources(
          NodePrepareResourcesRequest.newBuilder().addClaims(first).addClaims(second).build());

      assertThat(prepared.getClaimsMap()).containsOnlyKeys("uid-a", "uid-b");
      Device device = prepared.getClaimsOrThrow("uid-b").getDevices(0);
      assertThat(device.getDeviceName()).isEqualTo("gpu-0");
      assertThat(device.getCdiDeviceIdsList()).containsExactly("example.com/gpu=uid-b-gpu-0");
      assertThat(prepared.getClaimsOrThrow("uid-a").getError()).isEmpty();
      assertThat(stub.nodeUnprepareResources(NodeUnprepareResourcesRequest.newBuilder()
          .addClaims(second).build()).getClaimsMap()).containsOnlyKeys("uid-b");
    } finally {
      server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    }
  }
}
