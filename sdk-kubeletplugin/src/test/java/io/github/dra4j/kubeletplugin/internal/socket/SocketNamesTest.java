package io.github.dra4j.kubeletplugin.internal.socket;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The rolling-update registration socket names: {@code <driver>-<pod UID>-reg.sock} when its full
 * path fits in the 107 bytes Linux can bind, else {@code <driver>-<short hash of the
 * UID>-reg.sock}, else {@code dra-<hash of driver and UID>-reg.sock}. The expected hashes are those Go's helper
 * computes for the same inputs, so that a dra4j plugin and a Go one name their sockets alike.
 */
class SocketNamesTest {

  private static final Path REGISTRY = Path.of("/var/lib/kubelet/plugins_registry");

  @Test
  void shortDriverAndUidKeepTheFullName() {
    String name = SocketNames.rollingUpdateRegistrationSocket(
        REGISTRY, "example.com", "11111111-2222-3333-4444-555555555555");

    assertThat(name).isEqualTo("example.com-11111111-2222-3333-4444-555555555555-reg.sock");
    assertThat(SocketNames.byteLength(REGISTRY.resolve(name))).isEqualTo(91);
  }

  @Test
  void aLongDriverNameFallsBackToTheShortUidHash() {
    String name = SocketNames.rollingUpdateRegistrationSocket(
        REGISTRY, "gpu.dra-example-driver.sigs.k8s.io", "ad4af911-5bcd-47c5-a554-f35cea869472");

    assertThat(name).isEqualTo("gpu.dra-example-driver.sigs.k8s.io-Jk8-oymVURI-reg.sock");
    assertThat(SocketNames.byteLength(REGISTRY.resolve(name))).isEqualTo(89);
  }

  @Test
  void aVeryLongDriverNameFallsBackToTheDriverAndUidHash() {
    String name = SocketNames.rollingUpdateRegistrationSocket(
        REGISTRY, "a".repeat(100), "ad4af911-5bcd-47c5-a554-f35cea869472");

    assertThat(name).isEqualTo("dra-0XAjsR3nLFWHa0HL1OOe6g-reg.sock");
  }

  @Test
  void whenNothingFitsTheLastCandidateIsUsed() {
    Path deep = Path.of("/" + "d".repeat(120));

    assertThat(SocketNames.rollingUpdateRegistrationSocket(deep, "x.io", "uid"))
        .isEqualTo(SocketNames.rollingUpdateCandidates("x.io", "uid").get(2));
  }

  @Test
  void theLimitIs107BytesNotGos108() {
    // Directory of 50 bytes + "/" + name: pick names so the full path is 107 and 108 bytes.
    Path dir = Path.of("/" + "d".repeat(49));
    assertThat(SocketNames.fits(dir.resolve("n".repeat(56)))).isTrue();
    assertThat(SocketNames.byteLength(dir.resolve("n".repeat(56)))).isEqualTo(107);
    assertThat(SocketNames.fits(dir.resolve("n".repeat(57)))).isFalse();
  }

  @Test
  void aFullNameOf108BytesIsHashedSoItCanBeBound() {
    // A 108-byte path cannot be bound (the NUL after it must fit in sun_path), so the name is
    // hashed; Go's helper, which compares with 108, would keep the full name and fail to bind.
    String driver = "x.io";
    String uid = "u".repeat(36);
    String full = driver + "-" + uid + "-reg.sock";
    Path dir = Path.of("/" + "d".repeat(106 - full.length()));
    assertThat(SocketNames.byteLength(dir.resolve(full))).isEqualTo(108);

    assertThat(SocketNames.rollingUpdateRegistrationSocket(dir, driver, uid))
        .isEqualTo(SocketNames.rollingUpdateCandidates(driver, uid).get(1));
  }

  @Test
  void hashesDependOnDriverAndUid() {
    assertThat(SocketNames.rollingUpdateCandidates("a.io", "uid-1").get(2))
        .isNotEqualTo(SocketNames.rollingUpdateCandidates("b.io", "uid-1").get(2))
        .isNotEqualTo(SocketNames.rollingUpdateCandidates("a.io", "uid-2").get(2));
  }

  @Test
  void theDraSocketKeepsTheFullUidWhereItFits() {
    Path data = Path.of("/var/lib/kubelet/plugins/gpu.example.com");
    assertThat(SocketNames.rollingUpdatePluginSocket(data, "ad4af911-5bcd-47c5-a554-f35cea869472"))
        .isEqualTo("dra-ad4af911-5bcd-47c5-a554-f35cea869472.sock");
  }

  @Test
  void aDriverNameOver36CharactersGetsAHashedDraSocketThatFits() {
    String uid = "ad4af911-5bcd-47c5-a554-f35cea869472";
    String driver = "accelerator-" + "x".repeat(20) + ".acme.com"; // 41 characters
    Path data = Path.of("/var/lib/kubelet/plugins").resolve(driver);
    assertThat(SocketNames.fits(data.resolve("dra-" + uid + ".sock"))).isFalse();

    String name = SocketNames.rollingUpdatePluginSocket(data, uid);

    assertThat(name).matches("dra-[A-Za-z0-9_-]{8}\\.sock");
    assertThat(SocketNames.fits(data.resolve(name))).isTrue();
    assertThat(SocketNames.rollingUpdatePluginSocket(data, uid)).as("stable").isEqualTo(name);
    assertThat(SocketNames.rollingUpdatePluginSocket(data, "bd4af911-5bcd-47c5-a554-f35cea869472"))
        .as("another pod's").isNotEqualTo(name);
    // 63 characters, the longest name a DRA driver may have, fits too
    Path longest = Path.of("/var/lib/kubelet/plugins").resolve("d".repeat(54) + ".acme.com");
    assertThat(SocketNames.fits(longest.resolve(SocketNames.rollingUpdatePluginSocket(longest,
        uid)))).isTrue();
  }
}
