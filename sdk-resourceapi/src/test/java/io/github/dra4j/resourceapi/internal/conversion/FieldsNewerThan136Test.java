package io.github.dra4j.resourceapi.internal.conversion;

import static io.github.dra4j.resourceapi.TestJson.node;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class FieldsNewerThan136Test {

  @Test
  void sliceFieldsFrom137AreStripped() {
    ObjectNode slice = node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"d.example.com","pool":{"name":"p","resourceSliceCount":1},
          "partitionTypeAttribute":"d.example.com/profile","skipNodeOperations":["Prepare"],
          "devices":[{"name":"a",
            "nodeAllocatableResources":{"cpu":{"mapping":{"capacityKey":"c"}}},
            "nodeAllocatableResourceMappings":{"cpu":{"capacityKey":"c"}},
            "consumesCounters":[{"counterSet":"cs","compatibilityGroups":["mig"]}]}]}}
        """);
    assertThat(FieldsNewerThan136.strip(slice)).containsExactly(
        "spec.partitionTypeAttribute", "spec.skipNodeOperations",
        "spec.devices[0].nodeAllocatableResources",
        "spec.devices[0].consumesCounters[0].compatibilityGroups");
    assertThat(slice.path("spec").path("devices").get(0).has("nodeAllocatableResourceMappings"))
        .isTrue();
    assertThat(slice.path("spec").path("devices").get(0).path("consumesCounters").get(0)
        .path("counterSet").asString()).isEqualTo("cs");
  }

  @Test
  void claimAndTemplateFieldsFrom137AreStripped() {
    ObjectNode claim = node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"g","derivedAttributes":[{"name":"n"}]}},
          {"name":"b","firstAvailable":[{"name":"x","derivedAttributes":[{"name":"n"}]}]}]}},
         "status":{"allocation":{"devices":{"results":[
          {"request":"a","driver":"d","pool":"p","device":"x","skipNodeOperations":["P"]}]}}}}
        """);
    assertThat(FieldsNewerThan136.strip(claim)).containsExactly(
        "spec.devices.requests[0].exactly.derivedAttributes",
        "spec.devices.requests[1].firstAvailable[0].derivedAttributes",
        "status.allocation.devices.results[0].skipNodeOperations");
    ObjectNode template = node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
         "metadata":{"name":"t","namespace":"ns"},"spec":{"spec":{"devices":{"requests":[
          {"name":"a","exactly":{"deviceClassName":"g","derivedAttributes":[]}}]}}}}
        """);
    assertThat(FieldsNewerThan136.strip(template))
        .containsExactly("spec.spec.devices.requests[0].exactly.derivedAttributes");
  }

  @Test
  void objectsWithout137FieldsAreUnchanged() {
    ObjectNode rule = node(VersionConversionTest.BETA2_TAINT_RULE);
    ObjectNode before = rule.deepCopy();
    assertThat(FieldsNewerThan136.strip(rule)).isEmpty();
    assertThat(FieldsNewerThan136.strip(VersionConversion.toV1(
        node(VersionConversionTest.BETA1_CLAIM)))).isEmpty();
    assertThat(rule).isEqualTo(before);
  }
}
