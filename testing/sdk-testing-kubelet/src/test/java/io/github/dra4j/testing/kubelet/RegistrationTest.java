package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Discovery of registration sockets whose directory or owner changes. */
class RegistrationTest extends NodeTest {

  @Test
  void deletingASubdirectoryDeregistersTheSocketsInItAndARecreatedOneIsWatched()
      throws Exception {
    FakeKubelet kubelet = node.kubelet();
    Path subdirectory = Files.createDirectories(node.registry.resolve("sub"));
    Path socket = subdirectory.resolve("raw.sock");
    node.own(RawPlugin.serve(socket, RawPlugin.info("raw.example.com", null, "v1.DRAPlugin")));
    kubelet.awaitRegistered(socket, LONG);

    Files.delete(socket); // the server keeps running; only the file is gone
    Files.delete(subdirectory);

    kubelet.awaitDeregistered(socket, LONG);
    assertThat(kubelet.plugins()).isEmpty();

    Files.createDirectories(subdirectory);
    node.own(RawPlugin.serve(socket, RawPlugin.info("again.example.com", null, "v1.DRAPlugin")));

    assertThat(kubelet.awaitRegistered(socket, LONG).driver()).isEqualTo("again.example.com");
  }

  @Test
  void aSocketReplacedAtTheSamePathRegistersItsNewOwner() {
    FakeKubelet kubelet = node.kubelet();
    Path socket = node.registry.resolve("shared-name.sock");
    node.own(RawPlugin.serve(socket, RawPlugin.info("old.example.com", null, "v1.DRAPlugin")));
    kubelet.awaitRegistered(socket, LONG);

    // Binding unlinks the old file first: the kubelet sees the socket removed and created.
    node.own(RawPlugin.serve(socket, RawPlugin.info("new.example.com", null, "v1.DRAPlugin")));

    kubelet.awaitPlugins(all -> all.size() == 1
        && all.get(0).driver().equals("new.example.com"), LONG);
    assertThat(kubelet.calls().entries(KubeletMethod.GET_INFO)).extracting(CallRecord::driver)
        .containsExactly("old.example.com", "new.example.com");
  }
}
