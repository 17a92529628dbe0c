package io.github.dra4j.kubeletplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.resourceapi.InvalidResourceException;
import io.github.dra4j.testing.apiserver.ApiRequest;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Claim device status is checked with the API server's rules before it is sent: an entry the
 * server would refuse fails {@code report} at once with the server's message (the in-memory
 * server, which enforces the same rules, answers the same status with the same 422), and nothing
 * is written.
 */
class ClaimStatusRulesTest {

  private static final String GPU = "gpu.example.com";
  private static final String NIC = "nic.example.com";
  private static final String PREFIX = "ResourceClaim.resource.k8s.io \"c\" is invalid: ";

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private KubernetesClient client;
  private KubeletPlugin plugin;

  @BeforeEach
  void setUp() throws Exception {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
    plugin = KubeletPlugin.builder(new RecordingDriver(GPU)).driverName(GPU).kubeClient(client)
        .nodeName("node-1").registrarDirectory(Files.createDirectories(root.resolve("reg")))
        .pluginDataDirectory(Files.createDirectories(root.resolve("data")))
        .apiServer(a -> a.withClaimStatus(true)).shutdown(s -> s.withCloseOnShutdown(false))
        .start();
  }

  @AfterEach
  void tearDown() {
    plugin.close();
    server.close();
  }

  /** A claim with gpu-0 of {@value #GPU} and nic-0 of {@value #NIC}, stored. */
  private ResourceClaim storedClaim() {
    ResourceClaim claim = new ResourceClaimBuilder(ClaimFixtures.allocated("default", "c", GPU))
        .editStatus().editAllocation().editDevices()
        .addNewResult().withRequest("gpu").withDriver(NIC).withPool("node-1")
        .withDevice("nic-0").endResult()
        .endDevices().endAllocation().endStatus().build();
    return ClaimFixtures.store(client, claim);
  }

  private static AllocatedDeviceStatusBuilder gpu0() {
    return new AllocatedDeviceStatusBuilder().withPool("node-1").withDevice("gpu-0");
  }

  private static AllocatedDeviceStatusBuilder ready(AllocatedDeviceStatusBuilder entry) {
    return entry.addToConditions(new ConditionBuilder().withType("Ready").withStatus("True")
        .withReason("Prepared").withLastTransitionTime("2025-06-01T10:00:00Z").build());
  }

  static Stream<Arguments> badEntries() {
    String allocatedGpu = "{\"Driver\":\"" + GPU + "\",\"Pool\":\"node-1\",\"Device\":\"gpu-0\","
        + "\"ShareID\":\"\"}";
    return Stream.of(
        Arguments.of("a condition without a reason", List.of(gpu0().addToConditions(
            new ConditionBuilder().withType("Ready").withStatus("True")
                .withLastTransitionTime("2025-06-01T10:00:00Z").build())
            .build()),
            "status.devices[0].conditions[0].reason: Required value: must be set"),
        Arguments.of("an IP without a prefix length", List.of(ready(gpu0()).withNewNetworkData()
            .withIps("10.0.0.5").endNetworkData().build()),
            "status.devices[0].networkData.ips[0]: Invalid value: \"10.0.0.5\": must be a valid"
                + " address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)"),
        Arguments.of("an IP not in canonical form", List.of(gpu0().withNewNetworkData()
            .withIps("2001:DB8::5/64").endNetworkData().build()),
            "status.devices[0].networkData.ips[0]: Invalid value: \"2001:DB8::5/64\": must be in"
                + " canonical form (\"2001:db8::5/64\")"),
        Arguments.of("data over 10 KiB", List.of(gpu0()
            .withData(Map.of("log", "x".repeat(10 * 1024))).build()),
            "status.devices[0].data: Too long: may not be more than 10240 bytes"),
        Arguments.of("data that is not a JSON object", List.of(gpu0()
            .withData(List.of("ready")).build()),
            "status.devices[0].data: Invalid value: \"<value omitted>\": must be a valid JSON"
                + " object"),
        Arguments.of("two entries for one device", List.of(gpu0().build(), ready(gpu0()).build()),
            "status.devices[1]: Duplicate value: " + allocatedGpu),
        Arguments.of("an interface name over 256 bytes", List.of(gpu0().withNewNetworkData()
            .withInterfaceName("e".repeat(257)).endNetworkData().build()),
            "status.devices[0].networkData.interfaceName: Too long: may not be more than 256"
                + " bytes"),
        Arguments.of("another driver's device", List.of(new AllocatedDeviceStatusBuilder()
            .withPool("node-1").withDevice("nic-0").build()),
            "status.devices[0]: Invalid value: {\"Driver\":\"" + GPU + "\",\"Pool\":\"node-1\","
                + "\"Device\":\"nic-0\",\"ShareID\":\"\"}: must be an allocated device in the"
                + " claim"),
        Arguments.of("a device not in the claim", List.of(new AllocatedDeviceStatusBuilder()
            .withPool("node-1").withDevice("gpu-7").build()),
            "status.devices[0]: Invalid value: {\"Driver\":\"" + GPU + "\",\"Pool\":\"node-1\","
                + "\"Device\":\"gpu-7\",\"ShareID\":\"\"}: must be an allocated device in the"
                + " claim"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badEntries")
  void aBadEntryFailsReportAtOnceWithTheServersMessageAndNothingIsWritten(String what,
      List<AllocatedDeviceStatus> entries, String error) {
    ResourceClaim claim = storedClaim();
    server.clearRequests();

    InvalidResourceException refused = catchThrowableOfType(InvalidResourceException.class,
        () -> plugin.claimStatus().report(claim, entries));

    assertThat(refused).as(what).isNotNull();
    assertThat(refused).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(PREFIX + error);
    assertThat(refused.kind()).isEqualTo("ResourceClaim");
    assertThat(refused.name()).isEqualTo("c");
    assertThat(statusWrites()).isEmpty();
    // The in-memory server, which runs the same rules, refuses the same status with this text.
    assertThat(serverAnswer(claim, entries)).isEqualTo(PREFIX + error);
  }

  @Test
  void aGoodEntryWithConditionsNetworkDataAndDataLands() throws Exception {
    ResourceClaim claim = storedClaim();
    AllocatedDeviceStatus entry = ready(gpu0()).withNewNetworkData().withInterfaceName("eth1")
        .withIps("10.0.0.5/24", "2001:db8::5/64").withHardwareAddress("00:11:22:33:44:55")
        .endNetworkData().withData(Map.of("uuid", "GPU-1")).build();
    server.clearRequests();

    plugin.claimStatus().report(claim, List.of(entry)).get(30, TimeUnit.SECONDS);

    List<AllocatedDeviceStatus> stored = client.resource(claim).get().getStatus().getDevices();
    assertThat(stored).singleElement().satisfies(device -> {
      assertThat(device.getDriver()).isEqualTo(GPU);
      assertThat(device.getConditions()).singleElement()
          .satisfies(c -> assertThat(c.getReason()).isEqualTo("Prepared"));
      assertThat(device.getNetworkData().getIps()).containsExactly("10.0.0.5/24",
          "2001:db8::5/64");
    });
    assertThat(statusWrites()).singleElement()
        .satisfies(request -> assertThat(request.status()).isEqualTo(200));
  }

  @Test
  void anEntryThatNoLongerFitsTheClaimAsReadFailsTheFutureWithoutAWrite() throws Exception {
    ResourceClaim asPrepared = storedClaim();
    // The claim is deallocated after the driver got it: its device is no longer allocated.
    ResourceClaim deallocated = client.resource(asPrepared).get();
    deallocated.getStatus().setAllocation(null);
    client.resource(deallocated).updateStatus();
    server.clearRequests();

    var write = plugin.claimStatus().report(asPrepared, List.of(ready(gpu0()).build()));

    assertThatThrownBy(() -> write.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(InvalidResourceException.class)
        .hasMessage(PREFIX + "status.devices[0]: Invalid value: {\"Driver\":\"" + GPU
            + "\",\"Pool\":\"node-1\",\"Device\":\"gpu-0\",\"ShareID\":\"\"}: must be an"
            + " allocated device in the claim");
    assertThat(server.countRequests(r -> r.is(ApiVerb.GET, "resourceclaims"))).isEqualTo(1);
    assertThat(statusWrites()).isEmpty();
  }

  @Test
  void aRefusalByTheServerIsNotRetried() throws Exception {
    ResourceClaim claim = storedClaim();
    server.failNext(ApiVerb.UPDATE, "resourceclaims", 422, 100);
    server.clearRequests();

    var write = plugin.claimStatus().report(claim, List.of(ready(gpu0()).build()));

    assertThatThrownBy(() -> write.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasMessageContaining("HTTP 422");
    assertThat(statusWrites()).hasSize(1);
    server.clearFaults();
  }

  /** Every request that tried to write a claim's status, answered or refused. */
  private List<ApiRequest> statusWrites() {
    return server.requests().stream()
        .filter(r -> r.verb() != null && r.verb().isWrite() && r.resource() != null
            && r.resource().resource().equals("resourceclaims") && r.path().contains("/status"))
        .toList();
  }

  /** The message of the 422 the in-memory server answers for the entries written directly. */
  private String serverAnswer(ResourceClaim claim, List<AllocatedDeviceStatus> entries) {
    ResourceClaim sent = new ResourceClaimBuilder(client.resource(claim).get()).editStatus()
        .withDevices(entries.stream().map(e -> new AllocatedDeviceStatusBuilder(e)
            .withDriver(GPU).build()).toList())
        .endStatus().build();
    KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
        () -> client.resource(sent).updateStatus());
    assertThat(refused).isNotNull();
    assertThat(refused.getCode()).isEqualTo(422);
    return refused.getStatus().getMessage();
  }
}
