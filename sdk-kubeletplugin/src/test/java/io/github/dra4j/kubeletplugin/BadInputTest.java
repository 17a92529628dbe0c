package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.UnknownFieldSet;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubeletplugin.internal.node.NodeService;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class BadInputTest extends PluginTestBase {

  private RecordingDriver driver;
  private KubeletPlugin plugin;
  private String goodUid;

  @BeforeEach
  void start() {
    driver = new RecordingDriver(DRIVER);
    plugin = TestPlugins.builder(driver, client, root).services(s -> s.withMaxClaimsPerCall(16))
        .start();
    goodUid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "good", DRIVER))
        .getMetadata().getUid();
  }

  @AfterEach
  void stop() {
    plugin.close();
  }

  private Claim good() {
    return claim("default", "good", goodUid);
  }

  private void assertStillServing() {
    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(), good());
    assertThat(response.getClaimsOrThrow(goodUid).getError()).isEmpty();
  }

  @Test
  void malformedReferencesFailTheirClaimOnlyAndNameFieldAndValue() {
    String longName = "a".repeat(254);
    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(),
        claim("default", "x", ""),
        claim("default", "x", "../../etc/passwd"),
        claim("Default", "x", "uid-3"),
        claim("default", longName, "uid-4"),
        claim("default", "x\n", "uid-5"),
        good());

    Map<String, String> errors = new java.util.HashMap<>();
    response.getClaimsMap().forEach((uid, r) -> errors.put(uid, r.getError()));
    assertThat(errors.get("")).isEqualTo("claim #0: field \"uid\" is \"\": must be 1-64 letters,"
        + " digits or '-', starting and ending with a letter or digit");
    assertThat(errors.get("../../etc/passwd"))
        .startsWith("claim #1: field \"uid\" is \"../../etc/passwd\"");
    assertThat(errors.get("uid-3"))
        .startsWith(
            "claim #2 (uid uid-3): field \"namespace\" is \"Default\": must be a DNS label");
    assertThat(errors.get("uid-4"))
        .startsWith(
            "claim #3 (uid uid-4): field \"name\" is \"" + "a".repeat(80) + "...(254 chars)\"");
    assertThat(errors.get("uid-5"))
        .startsWith("claim #4 (uid uid-5): field \"name\" is \"x\\x0a\"");
    assertThat(errors.get(goodUid)).isEmpty();
    assertThat(driver.calls()).singleElement()
        .satisfies(call -> assertThat(call.claimUids()).containsExactly(goodUid));
  }

  @Test
  void aDuplicatedUidFailsThatUidAndNeitherCopyReachesTheDriver() {
    String other = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "other", DRIVER))
        .getMetadata().getUid();

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(),
        good(), claim("default", "other", other), claim("default", "good-again", goodUid));

    assertThat(response.getClaimsOrThrow(goodUid).getError())
        .isEqualTo("claim #2: uid " + goodUid + " appears more than once in the request");
    assertThat(response.getClaimsOrThrow(other).getError()).isEmpty();
    assertThat(driver.calls()).singleElement()
        .satisfies(call -> assertThat(call.claimUids()).containsExactly(other));
  }

  @Test
  void anOversizedBatchIsRefusedBeforeAnyClaimIsRead() {
    List<Claim> claims = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      claims.add(claim("default", "c" + i, "uid-" + i));
    }
    int requestsBefore = driver.calls().size();

    assertThatThrownBy(() -> kubelet.draV1(plugin.draSocket()).nodePrepareResources(
        NodePrepareResourcesRequest.newBuilder().addAllClaims(claims).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).isEqualTo("request lists 17 claims; at most"
              + " 16 are accepted per call (option ServiceOptions.maxClaimsPerCall)");
        });
    assertThat(driver.calls()).hasSize(requestsBefore);
    assertStillServing();
  }

  @Test
  void unknownFieldsFromANewerKubeletAreToleratedLikeProtobufPromises() {
    UnknownFieldSet extra = UnknownFieldSet.newBuilder()
        .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(7).build()).build();
    NodePrepareResourcesRequest request = NodePrepareResourcesRequest.newBuilder()
        .addClaims(good().toBuilder().setUnknownFields(extra))
        .setUnknownFields(extra)
        .build();

    NodePrepareResourcesResponse response = kubelet.draV1(plugin.draSocket())
        .nodePrepareResources(request);

    assertThat(response.getClaimsOrThrow(goodUid).getError()).isEmpty();
    assertThat(response.getClaimsOrThrow(goodUid).getDevicesCount()).isEqualTo(1);
  }

  @Test
  void bytesThatAreNoProtobufGetAnErrorAndTheServerKeepsServing() {
    MethodDescriptor<byte[], byte[]> raw = MethodDescriptor.<byte[], byte[]> newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName("k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources")
        .setRequestMarshaller(new Bytes())
        .setResponseMarshaller(new Bytes())
        .build();
    byte[] garbage = {(byte) 0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 1};

    assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(
        kubelet.channel(plugin.draSocket()), raw, CallOptions.DEFAULT, garbage))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).startsWith(
              "not a valid k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources request: ");
        });
    assertStillServing();
  }

  @Test
  void aThrowingDriverFailsTheCallWithTheGoPrefixAndTheNextCallWorks() {
    driver.answering(c -> {
      throw new IllegalStateException("GPU driver library not loaded");
    });

    assertThatThrownBy(() -> kubelet.prepare(plugin.draSocket(), good()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
          assertThat(e.getStatus().getDescription())
              .isEqualTo("prepare resource claims: GPU driver library not loaded");
        });

    driver.answering(null);
    assertStillServing();
  }

  @Test
  void badDevicesFromTheDriverFailThatClaimWithAClearMessage() {
    String second = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "two", DRIVER))
        .getMetadata().getUid();
    driver.answering(c -> c.getMetadata().getName().equals("two")
        ? PrepareResult.prepared(PreparedDevice.builder("node-1", "gpu-0")
            .cdiDeviceId("not-a-cdi-id").build())
        : null);

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(), good(),
        claim("default", "two", second));

    assertThat(response.getClaimsOrThrow(second).getError()).isEqualTo(
        "driver returned device #0 (node-1/gpu-0) with CDI device ID \"not-a-cdi-id\": must be a"
            + " fully qualified vendor/class=name");
    assertThat(response.getClaimsOrThrow(goodUid).getError()).isEmpty();
  }

  @Test
  void aDeviceServingAnInvalidRequestFailsThatClaim() {
    driver.answering(c -> PrepareResult.prepared(PreparedDevice.builder("node-1", "gpu-0")
        .request("gpu/small/extra").build()));

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(), good());

    assertThat(response.getClaimsOrThrow(goodUid).getError()).isEqualTo(
        "driver returned device #0 (node-1/gpu-0) with an invalid request: request reference"
            + " \"gpu/small/extra\": has more than one '/'");
  }

  @Test
  void aFailedClaimsCauseIsLoggedWithItsStackButOnlyTheMessageReachesTheKubelet() {
    IllegalStateException cause = new IllegalStateException("NVML: GPU has fallen off the bus");
    driver.answering(c -> PrepareResult.failed("GPU 0 is not usable", cause));
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    Logger logger = (Logger) LoggerFactory.getLogger(NodeService.class);
    log.start();
    logger.addAppender(log);
    try {
      NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(), good());

      assertThat(response.getClaimsOrThrow(goodUid).getError()).isEqualTo("GPU 0 is not usable");
      assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
          .satisfies(event -> {
            assertThat(event.getFormattedMessage())
                .isEqualTo("Driver failed to prepare claim default/good:" + goodUid
                    + ": GPU 0 is not usable");
            assertThat(event.getThrowableProxy().getMessage())
                .isEqualTo("NVML: GPU has fallen off the bus");
            assertThat(event.getMDCPropertyMap()).containsEntry("claim", "default/good:" + goodUid);
          });
    } finally {
      logger.detachAppender(log);
    }
  }

  @Test
  void aClaimTheDriverForgotGetsAnErrorInsteadOfBeingSkipped() throws Exception {
    RecordingDriver forgetful = new RecordingDriver(DRIVER) {
      @Override
      public Map<String, PrepareResult> prepareResourceClaims(
          List<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim> claims,
          CallContext context) {
        return Map.of("someone-else", PrepareResult.prepared());
      }
    };
    plugin.close();
    plugin = TestPlugins.builder(forgetful, client, root).start();

    NodePrepareResourcesResponse response = kubelet.prepare(plugin.draSocket(), good());

    assertThat(response.getClaimsMap()).containsOnlyKeys(goodUid);
    assertThat(response.getClaimsOrThrow(goodUid).getError())
        .isEqualTo("driver returned no result for claim default/good");
  }

  @Test
  void unprepareChecksReferencesToo() {
    NodeUnprepareResourcesResponse response = kubelet.unprepare(plugin.draSocket(),
        claim("default", "gone", "../x"), claim("default", "gone", "a1b2"));

    assertThat(response.getClaimsOrThrow("../x").getError())
        .startsWith("claim #0: field \"uid\" is \"../x\"");
    assertThat(response.getClaimsOrThrow("a1b2").getError()).isEmpty();
    assertThat(driver.calls()).singleElement()
        .satisfies(call -> assertThat(call.claimUids()).containsExactly("a1b2"));
  }

  /** Passes bytes through unchanged. */
  private static final class Bytes implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
