package io.github.dra4j.resourceapi.internal.strategy;

import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.TestJson;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceClaimStrategyTest {

  private static final FeatureGates DEFAULTS = FeatureGates.kubernetes136();

  static ResourceClaim claim(String devices, String status) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
        + "\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\",\"generation\":2,"
        + "\"labels\":{\"l\":\"1\"},\"annotations\":{\"a\":\"1\"},\"finalizers\":[\"f\"]},"
        + "\"spec\":{\"devices\":" + devices + "}" + (status == null ? "" : ",\"status\":"
            + status)
        + "}", ResourceClaim.class);
  }

  private static final String SIMPLE = "{\"requests\":[{\"name\":\"r\",\"exactly\":"
      + "{\"deviceClassName\":\"gpu\"}}]}";

  private static String allocated(String results, String devices) {
    return "{\"allocation\":{\"devices\":{\"results\":" + results + "}},\"devices\":" + devices
        + "}";
  }

  private static String result(String device, String extra) {
    return "{\"request\":\"r\",\"driver\":\"d.example.com\",\"pool\":\"p\",\"device\":\"" + device
        + "\"" + extra + "}";
  }

  private static String deviceStatus(String device, String extra) {
    return "{\"driver\":\"d.example.com\",\"pool\":\"p\",\"device\":\"" + device + "\"" + extra
        + "}";
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim claim) {
    return claim.getStatus().getAllocation().getDevices().getResults();
  }

  private static DeviceRequest request(ResourceClaim claim) {
    return claim.getSpec().getDevices().getRequests().get(0);
  }

  @Test
  void createClearsStatus() {
    ResourceClaim claim = claim(SIMPLE, allocated("[" + result("a", "") + "]", "[]"));
    ResourceClaimStrategy.prepareForCreate(claim, DEFAULTS);
    assertThat(claim.getStatus()).isNotNull();
    assertThat(TestJson.tree(claim.getStatus()).isEmpty()).isTrue();
    assertThat(claim.getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void updateKeepsStoredStatusAndIgnoresNewOne() {
    ResourceClaim old = claim(SIMPLE, allocated("[" + result("a", "") + "]", "[]"));
    ResourceClaim claim = claim(SIMPLE, allocated("[" + result("b", "") + "]", "[]"));
    ResourceClaimStrategy.prepareForUpdate(claim, old, DEFAULTS);
    assertThat(results(claim).get(0).getDevice()).isEqualTo("a");
    results(claim).get(0).setDevice("changed");
    assertThat(results(old).get(0).getDevice()).isEqualTo("a");
  }

  @Test
  void statusUpdateKeepsStoredSpecAndMetadata() {
    ResourceClaim old = claim(SIMPLE, null);
    ResourceClaim claim = claim("{\"requests\":[{\"name\":\"other\",\"exactly\":"
        + "{\"deviceClassName\":\"x\"}}]}", allocated("[" + result("a", "") + "]", "[]"));
    claim.getMetadata().setLabels(Map.of("new", "label"));
    claim.getMetadata().setAnnotations(Map.of());
    claim.getMetadata().setFinalizers(List.of());
    claim.getMetadata().setGeneration(9L);
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old, DEFAULTS);
    assertThat(request(claim).getName()).isEqualTo("r");
    assertThat(claim.getMetadata().getLabels()).containsExactly(Map.entry("l", "1"));
    assertThat(claim.getMetadata().getAnnotations()).containsExactly(Map.entry("a", "1"));
    assertThat(claim.getMetadata().getFinalizers()).containsExactly("f");
    assertThat(claim.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(results(claim)).hasSize(1);
  }

  /** gate, devices JSON using the gated spec fields, check that they are present. */
  static Stream<Arguments> gatedSpecFields() {
    return Stream.of(
        Arguments.of(FeatureGates.DRA_PRIORITIZED_LIST,
            "{\"requests\":[{\"name\":\"r\",\"firstAvailable\":[{\"name\":\"a\","
                + "\"deviceClassName\":\"gpu\"}]}]}",
            (Predicate<ResourceClaim>) c -> !request(c).getFirstAvailable().isEmpty()),
        Arguments.of(FeatureGates.DRA_DEVICE_TAINTS,
            "{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
                + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}]}},"
                + "{\"name\":\"s\",\"firstAvailable\":[{\"name\":\"a\",\"deviceClassName\":\"g\","
                + "\"tolerations\":[{\"operator\":\"Exists\"}]}]}]}",
            (Predicate<ResourceClaim>) c -> !request(c).getExactly().getTolerations().isEmpty()
                && !c.getSpec().getDevices().getRequests().get(1).getFirstAvailable().get(0)
                    .getTolerations().isEmpty()),
        Arguments.of(FeatureGates.DRA_CONSUMABLE_CAPACITY,
            "{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
                + "\"capacity\":{\"requests\":{\"mem\":\"1\"}}}},{\"name\":\"s\","
                + "\"firstAvailable\":[{\"name\":\"a\",\"deviceClassName\":\"g\","
                + "\"capacity\":{\"requests\":{\"mem\":\"1\"}}}]}],"
                + "\"constraints\":[{\"distinctAttribute\":\"x.example.com/y\"}]}",
            (Predicate<ResourceClaim>) c -> request(c).getExactly().getCapacity() != null
                && c.getSpec().getDevices().getRequests().get(1).getFirstAvailable().get(0)
                    .getCapacity() != null
                && c.getSpec().getDevices().getConstraints().get(0)
                    .getDistinctAttribute() != null));
  }

  @ParameterizedTest(name = "{0} off: dropped on create")
  @MethodSource("gatedSpecFields")
  void gateOffDropsSpecFieldOnCreate(String gate, String devices,
      Predicate<ResourceClaim> present) {
    ResourceClaim claim = claim(devices, null);
    ResourceClaimStrategy.prepareForCreate(claim, DEFAULTS.with(gate, false));
    assertThat(present.test(claim)).isFalse();
  }

  @ParameterizedTest(name = "{0} on: kept on create")
  @MethodSource("gatedSpecFields")
  void gateOnKeepsSpecFieldOnCreate(String gate, String devices,
      Predicate<ResourceClaim> present) {
    ResourceClaim claim = claim(devices, null);
    ResourceClaimStrategy.prepareForCreate(claim, DEFAULTS.with(gate, true));
    assertThat(present.test(claim)).isTrue();
  }

  @ParameterizedTest(name = "{0} off: dropped on update when unused before")
  @MethodSource("gatedSpecFields")
  void gateOffDropsSpecFieldOnUpdate(String gate, String devices,
      Predicate<ResourceClaim> present) {
    ResourceClaim claim = claim(devices, null);
    ResourceClaimStrategy.prepareForUpdate(claim, claim(SIMPLE, null), DEFAULTS.with(gate, false));
    assertThat(present.test(claim)).isFalse();
  }

  @ParameterizedTest(name = "{0} off: kept on update when in use")
  @MethodSource("gatedSpecFields")
  void gateOffKeepsSpecFieldInUse(String gate, String devices,
      Predicate<ResourceClaim> present) {
    ResourceClaim old = claim(devices, null);
    ResourceClaim claim = TestJson.copy(old);
    ResourceClaimStrategy.prepareForUpdate(claim, old, DEFAULTS.with(gate, false));
    assertThat(present.test(claim)).isTrue();
  }

  @Test
  void adminAccessIsNeverDroppedIn136() {
    ResourceClaim claim = claim("{\"requests\":[{\"name\":\"r\",\"exactly\":"
        + "{\"deviceClassName\":\"gpu\",\"adminAccess\":true}}]}", null);
    ResourceClaimStrategy.prepareForCreate(claim, DEFAULTS);
    assertThat(request(claim).getExactly().getAdminAccess()).isTrue();
  }

  /** gate, status JSON using the gated fields, check that they are present. */
  static Stream<Arguments> gatedStatusFields() {
    return Stream.of(
        Arguments.of(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS,
            allocated("[" + result("a", "") + "]", "[" + deviceStatus("a", "") + "]"),
            (Predicate<ResourceClaim>) c -> !c.getStatus().getDevices().isEmpty()),
        Arguments.of(FeatureGates.DRA_CONSUMABLE_CAPACITY,
            allocated("[" + result("a", ",\"shareID\":\"s1\",\"consumedCapacity\":{\"m\":\"1\"}")
                + "]", "[" + deviceStatus("a", ",\"shareID\":\"s1\"") + "]"),
            (Predicate<ResourceClaim>) c -> results(c).get(0).getShareID() != null
                && !results(c).get(0).getConsumedCapacity().isEmpty()
                && c.getStatus().getDevices().get(0).getShareID() != null),
        Arguments.of(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS,
            allocated("[" + result("a", ",\"bindingConditions\":[\"x\"],"
                + "\"bindingFailureConditions\":[\"y\"]") + "]", "[]"),
            (Predicate<ResourceClaim>) c -> !results(c).get(0).getBindingConditions().isEmpty()
                && !results(c).get(0).getBindingFailureConditions().isEmpty()));
  }

  @ParameterizedTest(name = "{0} off: status field dropped when unused before")
  @MethodSource("gatedStatusFields")
  void gateOffDropsStatusField(String gate, String status, Predicate<ResourceClaim> present) {
    ResourceClaim claim = claim(SIMPLE, status);
    ResourceClaimStrategy.prepareForStatusUpdate(claim, claim(SIMPLE, null),
        DEFAULTS.with(gate, false));
    assertThat(present.test(claim)).isFalse();
  }

  @ParameterizedTest(name = "{0} on: status field kept")
  @MethodSource("gatedStatusFields")
  void gateOnKeepsStatusField(String gate, String status, Predicate<ResourceClaim> present) {
    ResourceClaim claim = claim(SIMPLE, status);
    ResourceClaimStrategy.prepareForStatusUpdate(claim, claim(SIMPLE, null),
        DEFAULTS.with(gate, true));
    assertThat(present.test(claim)).isTrue();
  }

  @ParameterizedTest(name = "{0} off: status field kept when in use")
  @MethodSource("gatedStatusFields")
  void gateOffKeepsStatusFieldInUse(String gate, String status,
      Predicate<ResourceClaim> present) {
    ResourceClaim old = claim(SIMPLE, status);
    ResourceClaim claim = TestJson.copy(old);
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old, DEFAULTS.with(gate, false));
    assertThat(present.test(claim)).isTrue();
  }

  @Test
  void consumableCapacityInUseBySpecKeepsStatusFields() {
    String devices = "{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
        + "\"capacity\":{\"requests\":{\"m\":\"1\"}}}}]}";
    ResourceClaim old = claim(devices, null);
    ResourceClaim claim = claim(devices, allocated("[" + result("a", ",\"shareID\":\"s1\"") + "]",
        "[]"));
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old,
        DEFAULTS.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false));
    assertThat(results(claim).get(0).getShareID()).isEqualTo("s1");
  }

  @Test
  void deallocatedDevicesLoseTheirStatus() {
    ResourceClaim old = claim(SIMPLE, allocated("[" + result("a", "") + "," + result("b", "")
        + "]", "[" + deviceStatus("a", "") + "," + deviceStatus("b", "") + "]"));
    ResourceClaim claim = claim(SIMPLE, allocated("[" + result("a", "") + "]",
        "[" + deviceStatus("a", "") + "," + deviceStatus("b", "") + ","
            + deviceStatus("c", "") + "]"));
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old, DEFAULTS);
    assertThat(claim.getStatus().getDevices()).extracting(d -> d.getDevice())
        .containsExactly("a", "c");
  }

  @Test
  void deallocationRemovesAllDeviceStatus() {
    ResourceClaim old = claim(SIMPLE, allocated("[" + result("a", "") + "]",
        "[" + deviceStatus("a", "") + "]"));
    ResourceClaim claim = claim(SIMPLE, "{\"devices\":[" + deviceStatus("a", "") + "]}");
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old, DEFAULTS);
    assertThat(claim.getStatus().getDevices()).isEmpty();
    assertThat(claim.getStatus().getAllocation()).isNull();
  }

  @Test
  void sharesAreDistinctDevices() {
    ResourceClaim old = claim(SIMPLE, allocated("[" + result("a", ",\"shareID\":\"s1\"") + ","
        + result("a", ",\"shareID\":\"s2\"") + "]", "[]"));
    ResourceClaim claim = claim(SIMPLE, allocated("[" + result("a", ",\"shareID\":\"s1\"") + "]",
        "[" + deviceStatus("a", ",\"shareID\":\"s1\"") + ","
            + deviceStatus("a", ",\"shareID\":\"s2\"") + "]"));
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old, DEFAULTS);
    assertThat(claim.getStatus().getDevices()).extracting(d -> d.getShareID())
        .containsExactly("s1");
  }

  @Test
  void deviceStatusGateOffWithoutStoredStatusSkipsTheCleanup() {
    ResourceClaim old = claim(SIMPLE, allocated("[" + result("a", "") + "]", "[]"));
    ResourceClaim claim = claim(SIMPLE, "{\"devices\":[" + deviceStatus("a", "") + "]}");
    ResourceClaimStrategy.prepareForStatusUpdate(claim, old,
        DEFAULTS.with(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS, false));
    assertThat(claim.getStatus().getDevices()).isEmpty();
  }

  @Test
  void noWarnings() {
    ResourceClaim claim = claim(SIMPLE, null);
    assertThat(ResourceClaimStrategy.warningsOnCreate(claim)).isEmpty();
    assertThat(ResourceClaimStrategy.warningsOnUpdate(claim, claim)).isEmpty();
  }
}
