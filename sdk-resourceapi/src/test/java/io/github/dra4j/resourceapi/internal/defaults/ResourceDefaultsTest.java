package io.github.dra4j.resourceapi.internal.defaults;

import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.TestJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ResourceDefaultsTest {

  /** The fixed time the tests run at. */
  private static Instant clock() {
    return Instant.parse("2026-04-22T10:11:12.987Z");
  }

  private static ResourceClaim claim(String requests) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
        + "\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\"},"
        + "\"spec\":{\"devices\":{\"requests\":" + requests + "}}}", ResourceClaim.class);
  }

  private static ExactDeviceRequest exactly(ResourceClaim claim, int index) {
    return claim.getSpec().getDevices().getRequests().get(index).getExactly();
  }

  @Test
  void exactRequestGetsExactCountAndOne() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\"}}]");
    ResourceDefaults.resourceClaim(claim);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly(claim, 0).getCount()).isEqualTo(1L);
  }

  @Test
  void explicitCountIsKept() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
        + "\"count\":3}}]");
    ResourceDefaults.resourceClaim(claim);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly(claim, 0).getCount()).isEqualTo(3L);
  }

  @Test
  void allModeGetsNoCount() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
        + "\"allocationMode\":\"All\"}}]");
    ResourceDefaults.resourceClaim(claim);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("All");
    assertThat(exactly(claim, 0).getCount()).isNull();
  }

  @Test
  void unknownModeIsLeftForValidation() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\","
        + "\"allocationMode\":\"Some\"}}]");
    ResourceDefaults.resourceClaim(claim);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("Some");
    assertThat(exactly(claim, 0).getCount()).isNull();
  }

  @Test
  void subRequestsAreDefaultedLikeExactOnes() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"firstAvailable\":["
        + "{\"name\":\"a\",\"deviceClassName\":\"gpu\"},"
        + "{\"name\":\"b\",\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\"},"
        + "{\"name\":\"c\",\"deviceClassName\":\"gpu\",\"count\":2}]}]");
    ResourceDefaults.resourceClaim(claim);
    var subs = claim.getSpec().getDevices().getRequests().get(0).getFirstAvailable();
    assertThat(subs.get(0).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(subs.get(0).getCount()).isEqualTo(1L);
    assertThat(subs.get(1).getAllocationMode()).isEqualTo("All");
    assertThat(subs.get(1).getCount()).isNull();
    assertThat(subs.get(2).getCount()).isEqualTo(2L);
    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly()).isNull();
  }

  @Test
  void tolerationsGetOperatorEqualEverywhere() {
    ResourceClaim claim = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ns"},
         "spec":{"devices":{"requests":[
           {"name":"r","exactly":{"deviceClassName":"gpu",
             "tolerations":[{"key":"a"},{"key":"b","operator":"Exists"}]}},
           {"name":"s","firstAvailable":[{"name":"x","deviceClassName":"gpu",
             "tolerations":[{"key":"c"}]}]}]}},
         "status":{"allocation":{"devices":{"results":[
           {"request":"r","driver":"d.example.com","pool":"p","device":"d",
            "tolerations":[{"key":"a"}]}]}}}}
        """, ResourceClaim.class);
    ResourceDefaults.resourceClaim(claim);
    var requests = claim.getSpec().getDevices().getRequests();
    assertThat(requests.get(0).getExactly().getTolerations().get(0).getOperator())
        .isEqualTo("Equal");
    assertThat(requests.get(0).getExactly().getTolerations().get(1).getOperator())
        .isEqualTo("Exists");
    assertThat(requests.get(1).getFirstAvailable().get(0).getTolerations().get(0).getOperator())
        .isEqualTo("Equal");
    assertThat(claim.getStatus().getAllocation().getDevices().getResults().get(0)
        .getTolerations().get(0).getOperator()).isEqualTo("Equal");
  }

  @Test
  void v1beta1RequestsWithoutClassAreNotDefaulted() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"\","
        + "\"count\":0,\"selectors\":[]}},"
        + "{\"name\":\"s\",\"exactly\":{\"deviceClassName\":\"g\"}}]");
    ResourceDefaults.resourceClaim(claim, ResourceDefaults.V1BETA1);
    assertThat(exactly(claim, 0).getAllocationMode()).isNull();
    assertThat(exactly(claim, 0).getCount()).isZero();
    assertThat(exactly(claim, 1).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly(claim, 1).getCount()).isEqualTo(1L);
  }

  @Test
  void v1RequestsWithoutClassAreDefaulted() {
    ResourceClaim claim = claim("[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"\"}}]");
    ResourceDefaults.resourceClaim(claim);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly(claim, 0).getCount()).isEqualTo(1L);
  }

  @Test
  void v1beta1ClaimConvertedThenDefaultedMatchesTheServer() {
    var v1 = io.github.dra4j.resourceapi.internal.conversion.VersionConversion.toV1(
        TestJson.node("""
            {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
             "metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[
              {"name":"a","deviceClassName":"gpu"},
              {"name":"b","count":2},
              {"name":"c","firstAvailable":[{"name":"x","deviceClassName":"gpu"}]}]}}}
            """));
    ResourceClaim claim = read(v1.toString(), ResourceClaim.class);
    ResourceDefaults.resourceClaim(claim, ResourceDefaults.V1BETA1);
    assertThat(exactly(claim, 0).getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly(claim, 0).getCount()).isEqualTo(1L);
    // v1beta1 defaulting skips a request without class; v1 defaulting would set ExactCount here.
    assertThat(exactly(claim, 1).getAllocationMode()).isNull();
    assertThat(exactly(claim, 1).getCount()).isEqualTo(2L);
    var sub = claim.getSpec().getDevices().getRequests().get(2).getFirstAvailable().get(0);
    assertThat(sub.getAllocationMode()).isEqualTo("ExactCount");
    assertThat(sub.getCount()).isEqualTo(1L);
  }

  @Test
  void templateClaimSpecIsDefaulted() {
    ResourceClaimTemplate template = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
         "metadata":{"name":"t","namespace":"ns"},
         "spec":{"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu",
           "tolerations":[{"key":"k"}]}}]}}}}
        """, ResourceClaimTemplate.class);
    ResourceDefaults.resourceClaimTemplate(template);
    ExactDeviceRequest exactly = template.getSpec().getSpec().getDevices().getRequests().get(0)
        .getExactly();
    assertThat(exactly.getAllocationMode()).isEqualTo("ExactCount");
    assertThat(exactly.getCount()).isEqualTo(1L);
    assertThat(exactly.getTolerations().get(0).getOperator()).isEqualTo("Equal");
  }

  @Test
  void sliceTaintsGetTimeAddedInWholeSeconds() {
    ResourceSlice slice = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"d.example.com","pool":{"name":"p","resourceSliceCount":1},
          "nodeName":"n","devices":[{"name":"a","taints":[
            {"key":"k","effect":"NoSchedule"},
            {"key":"l","effect":"NoExecute","timeAdded":"2020-01-01T00:00:00Z"}]}]}}
        """, ResourceSlice.class);
    ResourceDefaults.resourceSlice(slice, ResourceDefaultsTest::clock);
    var taints = slice.getSpec().getDevices().get(0).getTaints();
    assertThat(taints.get(0).getTimeAdded()).isEqualTo("2026-04-22T10:11:12Z");
    assertThat(taints.get(1).getTimeAdded()).isEqualTo("2020-01-01T00:00:00Z");
  }

  @Test
  void taintRuleGetsTimeAdded() {
    DeviceTaintRule rule = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r"},
         "spec":{"deviceSelector":{"driver":"d.example.com"},
          "taint":{"key":"k","effect":"NoExecute"}}}
        """, DeviceTaintRule.class);
    ResourceDefaults.deviceTaintRule(rule, ResourceDefaultsTest::clock);
    assertThat(rule.getSpec().getTaint().getTimeAdded()).isEqualTo("2026-04-22T10:11:12Z");
  }

  @Test
  void deviceClassHasNoDefaults() {
    DeviceClass deviceClass = read("""
        {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"c"},
         "spec":{"selectors":[{"cel":{"expression":"true"}}]}}
        """, DeviceClass.class);
    var before = TestJson.tree(deviceClass);
    ResourceDefaults.deviceClass(deviceClass);
    assertThat(TestJson.tree(deviceClass)).isEqualTo(before);
  }

  @Test
  void emptyObjectsAreLeftAlone() {
    ResourceClaim claim = new ResourceClaim();
    ResourceDefaults.resourceClaim(claim);
    ResourceSlice slice = new ResourceSlice();
    ResourceDefaults.resourceSlice(slice, ResourceDefaultsTest::clock);
    assertThat(claim.getSpec()).isNull();
    assertThat(slice.getSpec()).isNull();
  }
}
