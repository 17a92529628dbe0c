package io.github.dra4j.resourceapi.internal.conversion;

import static io.github.dra4j.resourceapi.TestJson.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.TestJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class VersionConversionTest {

  static final String BETA1_SLICE = """
      {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice",
       "metadata":{"name":"s","labels":{"a":"b"}},
       "spec":{"driver":"gpu.example.com","pool":{"name":"p","generation":2,
         "resourceSliceCount":1},"perDeviceNodeSelection":true,
        "sharedCounters":[{"name":"cs","counters":{"mem":{"value":"8Gi"}}}],
        "devices":[
         {"name":"gpu-0","basic":{
           "attributes":{"model":{"string":"a100"},"gpu.example.com/index":{"int":0},
             "ok":{"bool":true},"drv":{"version":"1.2.3"}},
           "capacity":{"memory":{"value":"40Gi","requestPolicy":{"default":"1Gi",
             "validRange":{"min":"1Gi","step":"1Gi"}}}},
           "consumesCounters":[{"counterSet":"cs","counters":{"mem":{"value":"1Gi"}}}],
           "nodeName":"node-1",
           "taints":[{"key":"k","value":"v","effect":"NoSchedule",
             "timeAdded":"2026-01-01T00:00:00Z"}],
           "bindsToNode":true,"bindingConditions":["c"],"bindingFailureConditions":["f"],
           "allowMultipleAllocations":true}},
         {"name":"gpu-1","basic":{"nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[
           {"key":"zone","operator":"In","values":["a"]}]}]}}},
         {"name":"gpu-2","basic":{"allNodes":true}}]}}
      """;

  static final String BETA1_CLAIM = """
      {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
       "metadata":{"name":"c","namespace":"ns"},
       "spec":{"devices":{
        "requests":[
         {"name":"gpu","deviceClassName":"gpu.example.com",
          "selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}],
          "allocationMode":"ExactCount","count":2,"adminAccess":true,
          "tolerations":[{"key":"k","operator":"Equal","value":"v","effect":"NoExecute",
            "tolerationSeconds":60}],
          "capacity":{"requests":{"memory":"1Gi"}}},
         {"name":"any","firstAvailable":[
          {"name":"big","deviceClassName":"gpu.example.com","allocationMode":"All",
           "selectors":[{"cel":{"expression":"true"}}],
           "tolerations":[{"operator":"Exists"}],"capacity":{"requests":{"m":"1"}}},
          {"name":"small","deviceClassName":"gpu.example.com","count":1}]}],
        "constraints":[{"requests":["gpu"],"matchAttribute":"gpu.example.com/model"},
         {"distinctAttribute":"gpu.example.com/index"}],
        "config":[{"requests":["gpu"],"opaque":{"driver":"gpu.example.com",
          "parameters":{"kind":"Config","a":1}}}]}},
       "status":{"allocation":{"devices":{
         "results":[{"request":"gpu","driver":"gpu.example.com","pool":"p","device":"gpu-0",
           "adminAccess":true,"tolerations":[{"key":"k","operator":"Exists"}],
           "bindingConditions":["c"],"bindingFailureConditions":["f"],"shareID":"s-1",
           "consumedCapacity":{"memory":"1Gi"}}],
         "config":[{"source":"FromClaim","requests":["gpu"],
           "opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}]},
         "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[
           {"key":"metadata.name","operator":"In","values":["node-1"]}]}]},
         "allocationTimestamp":"2026-01-01T00:00:00Z"},
        "reservedFor":[{"resource":"pods","name":"p","uid":"u"}],
        "devices":[{"driver":"gpu.example.com","pool":"p","device":"gpu-0","shareID":"s-1",
          "conditions":[{"type":"Ready","status":"True","reason":"R","message":"",
            "lastTransitionTime":"2026-01-01T00:00:00Z"}],"data":{"x":1},
          "networkData":{"interfaceName":"eth1","ips":["10.0.0.1/24"],
            "hardwareAddress":"aa:bb"}}]}}
      """;

  static final String BETA1_TEMPLATE = """
      {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaimTemplate",
       "metadata":{"name":"t","namespace":"ns"},
       "spec":{"metadata":{"labels":{"a":"b"}},"spec":{"devices":{"requests":[
         {"name":"gpu","deviceClassName":"gpu.example.com","count":1},
         {"name":"any","firstAvailable":[{"name":"x","deviceClassName":"g"}]}]}}}}
      """;

  static final String BETA1_CLASS = """
      {"apiVersion":"resource.k8s.io/v1beta1","kind":"DeviceClass","metadata":{"name":"c"},
       "spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}],
        "config":[{"opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}],
        "extendedResourceName":"example.com/gpu"}}
      """;

  static final String BETA2_TAINT_RULE = """
      {"apiVersion":"resource.k8s.io/v1beta2","kind":"DeviceTaintRule","metadata":{"name":"r"},
       "spec":{"deviceSelector":{"driver":"gpu.example.com","pool":"p","device":"gpu-0"},
        "taint":{"key":"k","value":"v","effect":"NoExecute",
          "timeAdded":"2026-01-01T00:00:00Z"}},
       "status":{"conditions":[{"type":"EvictionInProgress","status":"True","reason":"R",
         "message":"m","lastTransitionTime":"2026-01-01T00:00:00Z","observedGeneration":1}]}}
      """;

  @ParameterizedTest(name = "v1beta1 -> v1 -> v1beta1: {0}")
  @ValueSource(strings = {"slice", "claim", "template", "class"})
  void v1beta1RoundTripsUnchanged(String which) {
    ObjectNode beta1 = node(switch (which) {
      case "slice" -> BETA1_SLICE;
      case "claim" -> BETA1_CLAIM;
      case "template" -> BETA1_TEMPLATE;
      default -> BETA1_CLASS;
    });
    List<String> unknown = new ArrayList<>();
    ObjectNode v1 = VersionConversion.toV1(beta1, unknown);
    assertThat(unknown).isEmpty();
    assertThat(v1.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1");
    assertThat(VersionConversion.fromV1(v1, "resource.k8s.io/v1beta1")).isEqualTo(beta1);
  }

  @Test
  void v1beta1RoundTripThroughTheFabric8Model() {
    ObjectNode beta1 = node(BETA1_CLAIM);
    ResourceClaim claim = TestJson.read(VersionConversion.toV1(beta1).toString(),
        ResourceClaim.class);
    ObjectNode back = VersionConversion.fromV1((ObjectNode) TestJson.tree(claim),
        "resource.k8s.io/v1beta1");
    // Re-read: the model writes longs where the parser reads ints, which JSON nodes tell apart.
    assertThat(node(back.toString())).isEqualTo(beta1);
  }

  @ParameterizedTest(name = "{0} -> v1 -> {0}: same shape")
  @ValueSource(strings = {"resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"})
  void taintRuleVersionsHaveTheV1Shape(String version) {
    ObjectNode rule = node(BETA2_TAINT_RULE);
    rule.put("apiVersion", version);
    ObjectNode v1 = VersionConversion.toV1(rule);
    assertThat(v1.path("spec")).isEqualTo(rule.path("spec"));
    assertThat(VersionConversion.fromV1(v1, version)).isEqualTo(rule);
  }

  @Test
  void v1beta2IsTheV1Shape() {
    ObjectNode beta1 = node(BETA1_CLAIM);
    ObjectNode v1 = VersionConversion.toV1(beta1);
    ObjectNode beta2 = VersionConversion.fromV1(v1, "v1beta2");
    assertThat(beta2.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1beta2");
    assertThat(beta2.path("spec")).isEqualTo(v1.path("spec"));
    assertThat(VersionConversion.toV1(beta2)).isEqualTo(v1);
  }

  @Test
  void basicIsFlattened() {
    ObjectNode v1 = VersionConversion.toV1(node(BETA1_SLICE));
    ResourceSlice slice = TestJson.read(v1.toString(), ResourceSlice.class);
    var device = slice.getSpec().getDevices().get(0);
    assertThat(device.getName()).isEqualTo("gpu-0");
    assertThat(device.getAttributes()).containsKeys("model", "gpu.example.com/index");
    assertThat(device.getCapacity().get("memory").getValue().toString()).isEqualTo("40Gi");
    assertThat(device.getNodeName()).isEqualTo("node-1");
    assertThat(device.getTaints()).hasSize(1);
    assertThat(device.getAdditionalProperties()).isEmpty();
    assertThat(slice.getSpec().getDevices().get(2).getAllNodes()).isTrue();
  }

  @Test
  void requestFieldsMoveIntoExactly() {
    ObjectNode v1 = VersionConversion.toV1(node(BETA1_CLAIM));
    ObjectNode request = (ObjectNode) v1.path("spec").path("devices").path("requests").get(0);
    assertThat(request.propertyNames()).containsExactlyInAnyOrder("name", "exactly");
    assertThat(request.path("exactly").path("count").asInt()).isEqualTo(2);
    assertThat(request.path("exactly").path("adminAccess").asBoolean()).isTrue();
    ObjectNode prioritized = (ObjectNode) v1.path("spec").path("devices").path("requests")
        .get(1);
    assertThat(prioritized.has("exactly")).isFalse();
    assertThat(prioritized.path("firstAvailable").size()).isEqualTo(2);
  }

  @Test
  void anyMainFieldCreatesExactly() {
    ObjectNode v1 = VersionConversion.toV1(node("""
        {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[
          {"name":"a","count":2},{"name":"b","selectors":[]},{"name":"c","adminAccess":false},
          {"name":"d","tolerations":[]},{"name":"e","count":0,"deviceClassName":""},
          {"name":"f","capacity":{}}]}}}
        """));
    var requests = v1.path("spec").path("devices").path("requests");
    assertThat(requests.get(0).path("exactly").toString())
        .isEqualTo("{\"deviceClassName\":\"\",\"count\":2}");
    assertThat(requests.get(1).path("exactly").toString())
        .isEqualTo("{\"deviceClassName\":\"\",\"selectors\":[]}");
    assertThat(requests.get(2).path("exactly").toString())
        .isEqualTo("{\"deviceClassName\":\"\",\"adminAccess\":false}");
    assertThat(requests.get(3).path("exactly").toString())
        .isEqualTo("{\"deviceClassName\":\"\"}");
    assertThat(requests.get(4).has("exactly")).isFalse();
    assertThat(requests.get(5).path("exactly").toString())
        .isEqualTo("{\"deviceClassName\":\"\",\"capacity\":{}}");
  }

  @Test
  void poolNodeNameAndAllNodesZeroValuesMeanUnset() {
    ObjectNode v1 = VersionConversion.toV1(node("""
        {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"d.example.com","pool":{"name":"p","resourceSliceCount":1},
          "nodeName":"","allNodes":false,"devices":[]}}
        """));
    assertThat(v1.path("spec").has("nodeName")).isFalse();
    assertThat(v1.path("spec").has("allNodes")).isFalse();
    ObjectNode beta1 = VersionConversion.fromV1(node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"d.example.com","pool":{"name":"p","resourceSliceCount":1},
          "allNodes":false,"devices":[{"name":"a"}]}}
        """), "resource.k8s.io/v1beta1");
    assertThat(beta1.path("spec").has("allNodes")).isFalse();
    assertThat(beta1.path("spec").path("devices").get(0).toString())
        .isEqualTo("{\"name\":\"a\",\"basic\":{}}");
  }

  @Test
  void fieldsUnknownToV1beta1AreReported() {
    List<String> unknown = new ArrayList<>();
    ObjectNode v1 = VersionConversion.toV1(node("""
        {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[
          {"name":"a","firstAvailable":[{"name":"x","deviceClassName":"g"}],
           "derivedAttributes":[{"name":"n","expression":"1"}],
           "exactly":{"deviceClassName":"g"}}]}}}
        """), unknown);
    assertThat(unknown).containsExactly("spec.devices.requests[0].derivedAttributes",
        "spec.devices.requests[0].exactly");
    assertThat(v1.path("spec").path("devices").path("requests").get(0).has("exactly")).isFalse();

    unknown.clear();
    VersionConversion.toV1(node("""
        {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"devices":[{"name":"a","attributes":{}}]}}
        """), unknown);
    assertThat(unknown).containsExactly("spec.devices[0].attributes");
  }

  @Test
  void listsAreConvertedItemByItem() {
    ObjectNode list = node("{\"apiVersion\":\"resource.k8s.io/v1beta1\","
        + "\"kind\":\"ResourceSliceList\",\"metadata\":{},\"items\":[" + BETA1_SLICE + "]}");
    ObjectNode v1 = VersionConversion.toV1(list);
    assertThat(v1.path("items").get(0).path("spec").path("devices").get(0).has("basic"))
        .isFalse();
    assertThat(VersionConversion.fromV1(v1, "resource.k8s.io/v1beta1").path("items").get(0)
        .path("spec")).isEqualTo(list.path("items").get(0).path("spec"));
  }

  @Test
  void unservedVersionsAreRefused() {
    ObjectNode slice = node(BETA1_SLICE);
    slice.put("apiVersion", "resource.k8s.io/v1alpha3");
    assertThatThrownBy(() -> VersionConversion.toV1(slice))
        .hasMessage("no kind \"ResourceSlice\" is registered for version"
            + " \"resource.k8s.io/v1alpha3\"");
    ObjectNode rule = node(BETA2_TAINT_RULE);
    assertThatThrownBy(() -> VersionConversion.fromV1(rule, "resource.k8s.io/v1beta1"))
        .hasMessageContaining("DeviceTaintRule");
    assertThatThrownBy(() -> VersionConversion.toV1(node("{\"apiVersion\":\"v1\"}")))
        .hasMessage("not a resource.k8s.io object: apiVersion \"v1\"");
  }

  @Test
  void inputIsNotChanged() {
    ObjectNode beta1 = node(BETA1_SLICE);
    ObjectNode before = beta1.deepCopy();
    VersionConversion.toV1(beta1);
    assertThat(beta1).isEqualTo(before);
  }

  @Test
  void servedVersionsTable() {
    assertThat(ServedVersions.versions("ResourceSlice")).containsExactly(
        java.util.Map.entry("v1", true), java.util.Map.entry("v1beta2", false),
        java.util.Map.entry("v1beta1", false));
    assertThat(ServedVersions.versions("DeviceTaintRule")).containsOnlyKeys("v1beta2",
        "v1alpha3");
    assertThat(ServedVersions.serves("DeviceTaintRule", "v1")).isFalse();
    assertThat(ServedVersions.versions("Pod")).isEmpty();
  }
}
