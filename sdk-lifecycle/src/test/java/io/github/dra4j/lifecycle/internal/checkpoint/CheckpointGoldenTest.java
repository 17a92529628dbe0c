package io.github.dra4j.lifecycle.internal.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Files as released versions wrote them, checked in under {@code checkpoint/}: every later
 * version must keep reading them exactly. Never regenerate these files; add new ones.
 */
class CheckpointGoldenTest {

  private static final String DONE = "0b7a3c1e-5d2f-4a8b-9c6d-1e2f3a4b5c6d";
  private static final String STARTED = "f3e2d1c0-b9a8-4765-8432-10fedcba9876";
  private static final String BOOT = "6ece89dd-aedc-47b0-9445-1012847c2a21";

  static byte[] golden(String name) throws IOException {
    try (InputStream in = CheckpointGoldenTest.class.getResourceAsStream("/checkpoint/" + name)) {
      assertThat(in).as("test resource checkpoint/%s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void v1FileWithAStartedAndACompletedClaimReads() throws Exception {
    CheckpointData data = CheckpointCodec.decode(golden("v1-completed-and-started.json"));

    assertThat(data.claims().keySet()).containsExactly(DONE, STARTED);

    ClaimEntry done = data.entry(DONE).orElseThrow();
    assertThat(done.phase()).isEqualTo(ClaimPhase.PREPARE_COMPLETED);
    assertThat(done.namespace()).isEqualTo("ml-team");
    assertThat(done.name()).isEqualTo("training-job-gpu-claim-x7k2p");
    assertThat(done.bootId()).isEqualTo(BOOT);
    assertThat(done.allocation()).containsExactly(
        new AllocatedDevice(RequestReference.parse("gpus"),
            "node-1", "gpu-0", null, false, Map.of(), null),
        new AllocatedDevice(RequestReference.parse("gpus"),
            "node-1", "gpu-1", null, false, Map.of(), null));
    assertThat(done.devices()).containsExactly(
        new StoredDevice(List.of("gpus"), "node-1", "gpu-0",
            List.of("gpu.example.com/gpu=" + DONE + "-gpu-0"), null),
        new StoredDevice(List.of("gpus"), "node-1", "gpu-1",
            List.of("gpu.example.com/gpu=" + DONE + "-gpu-1"), null));
    assertThat(done.cdiSpec().get("cdiVersion").stringValue()).isEqualTo("0.6.0");
    assertThat(done.cdiSpec().get("kind").stringValue()).isEqualTo("gpu.example.com/gpu");
    assertThat(done.cdiSpec().get("devices").size()).isEqualTo(2);
    assertThat(done.cdiSpec().get("devices").get(1).get("containerEdits").get("deviceNodes")
        .get(0).get("path").stringValue()).isEqualTo("/dev/gpu1");
    assertThat(done.driverState()).isEqualTo(CheckpointSamples.json("{\"timeSlicing\":"
        + "{\"interval\":\"Default\"},\"healthChecks\":true,\"migProfiles\":[],\"generation\":3}"));

    ClaimEntry started = data.entry(STARTED).orElseThrow();
    assertThat(started.phase()).isEqualTo(ClaimPhase.PREPARE_STARTED);
    assertThat(started.namespace()).isEqualTo("default");
    assertThat(started.name()).isEqualTo("inference-shared");
    assertThat(started.bootId()).isEqualTo(BOOT);
    assertThat(started.allocation()).containsExactly(new AllocatedDevice(
        RequestReference.parse("gpu/large"), "node-1", "gpu-2",
        "a1b2c3d4-0000-4000-8000-000000000001", true,
        Map.of("memory", "10Gi", "cores", "4"), null));
    assertThat(started.devices()).isEmpty();
    assertThat(started.cdiSpec()).isNull();
    assertThat(started.driverState()).isNull();
  }

  /**
   * Not a compatibility requirement but a tripwire: v1 output changing byte for byte (say, a
   * Jackson upgrade changing the indentation) should be a deliberate decision.
   */
  @Test
  void thisVersionStillWritesV1ByteForByte() throws Exception {
    byte[] file = golden("v1-completed-and-started.json");

    assertThat(CheckpointCodec.encode(CheckpointCodec.decode(file))).isEqualTo(file);
  }

  @Test
  void aFileOfALaterVersionWithAddedMembersReadsWithItsChecksum() throws Exception {
    CheckpointData data = CheckpointCodec.decode(golden("v1-with-unknown-fields.json"));

    String uid = "5c9e1f7a-3b2d-4e6f-8a1b-9c0d2e4f6a8b";
    assertThat(data.claims().keySet()).containsExactly(uid);
    ClaimEntry entry = data.entry(uid).orElseThrow();
    assertThat(entry.phase()).isEqualTo(ClaimPhase.PREPARE_COMPLETED);
    assertThat(entry.namespace()).isEqualTo("ml-team");
    assertThat(entry.name()).isEqualTo("gpu-claim");
    assertThat(entry.bootId()).isEqualTo(BOOT);
    // bindingConditions was an unknown member when this file was made; this version reads it.
    assertThat(entry.allocation()).containsExactly(new AllocatedDevice(
        RequestReference.parse("gpus"), "node-1", "gpu-0", null, false, Map.of(),
        List.of("Ready")));
    assertThat(entry.devices()).containsExactly(new StoredDevice(List.of("gpus"), "node-1",
        "gpu-0", List.of("gpu.example.com/gpu=5c9e1f7a-gpu-0"), null));
    assertThat(entry.cdiSpec()).isNull();
    assertThat(entry.driverState()).isEqualTo(CheckpointSamples.json("{\"slices\":4}"));
  }

  @Test
  void theLaterVersionsChecksumCoversItsAddedMembers() throws Exception {
    String file = CheckpointSamples.text(golden("v1-with-unknown-fields.json"));
    String changed = file.replace("\"retries\": 2", "\"retries\": 3");

    assertThat(changed).isNotEqualTo(file);
    assertThatThrownBy(() -> CheckpointCodec.decode(changed.getBytes(StandardCharsets.UTF_8)))
        .hasMessageStartingWith("checksum mismatch");
  }

  /**
   * Releases before the claims section was required wrote an empty checkpoint without it. Such a
   * file cannot be told from one that lost its claims (the checksum covers what is there), so it
   * is corrupt like any file without claims: kept aside once, with nothing lost.
   */
  @Test
  void anEmptyV1FileWithoutTheClaimsSectionIsCorrupt() throws Exception {
    byte[] file = golden("v1-empty-without-claims.json");

    assertThatThrownBy(() -> CheckpointCodec.decode(file))
        .isInstanceOf(CheckpointFormatException.class)
        .hasMessageStartingWith("data.claims: required");
  }

  /**
   * A claim being unprepared, as this version writes it: phase {@code PrepareCompleted} and a
   * member of its own, so that a release that does not know the member reads the claim as
   * prepared, as it would have recorded it itself.
   */
  @Test
  void v1FileWithAClaimBeingUnpreparedReads() throws Exception {
    CheckpointData data = CheckpointCodec.decode(golden("v1-unprepare-started.json"));

    ClaimEntry entry = data.entry(DONE).orElseThrow();
    assertThat(entry.phase()).isEqualTo(ClaimPhase.UNPREPARE_STARTED);
    assertThat(entry.driverState()).isEqualTo(CheckpointSamples.json("{\"slices\":4}"));
    assertThat(CheckpointCodec.encode(data)).isEqualTo(golden("v1-unprepare-started.json"));
  }
}
