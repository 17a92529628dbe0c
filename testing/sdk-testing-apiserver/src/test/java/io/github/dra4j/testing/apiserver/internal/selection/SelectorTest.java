package io.github.dra4j.testing.apiserver.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceCatalog;
import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SelectorTest {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final ResourceCatalog CATALOG = ResourceCatalog.standard();
  private static final ResourceInfo SLICES = CATALOG
      .describe(GroupVersionResource.RESOURCE_SLICES_V1, false);
  private static final ResourceInfo PODS = CATALOG
      .describe(new GroupVersionResource("", "v1", "pods"), true);

  private static JsonNode json(String text) {
    return MAPPER.readTree(text.replace('\'', '"'));
  }

  private static final JsonNode NODE_SLICE = json(
      "{'metadata':{'name':'a'},'spec':{'driver':'gpu.example.com','nodeName':'n1'}}");
  private static final JsonNode NETWORK_SLICE = json(
      "{'metadata':{'name':'b'},'spec':{'driver':'gpu.example.com','allNodes':true}}");

  @Test
  void sliceSelectorsMatchDriverAndNodeName() {
    FieldSelector kubelet = FieldSelector.parse("spec.nodeName=n1,spec.driver=gpu.example.com",
        SLICES);
    assertThat(kubelet.matches(NODE_SLICE, SLICES)).isTrue();
    assertThat(kubelet.matches(NETWORK_SLICE, SLICES)).isFalse();
  }

  @Test
  void emptyNodeNameSelectsSlicesWithoutNode() {
    FieldSelector noNode = FieldSelector.parse("spec.driver=gpu.example.com,spec.nodeName=",
        SLICES);
    assertThat(noNode.matches(NETWORK_SLICE, SLICES)).isTrue();
    assertThat(noNode.matches(NODE_SLICE, SLICES)).isFalse();
  }

  @Test
  void doubleEqualsAndNotEquals() {
    assertThat(FieldSelector.parse("metadata.name==a", SLICES).matches(NODE_SLICE, SLICES))
        .isTrue();
    assertThat(FieldSelector.parse("spec.nodeName!=n1", SLICES).matches(NODE_SLICE, SLICES))
        .isFalse();
    assertThat(FieldSelector.parse("spec.nodeName!=n1", SLICES).matches(NETWORK_SLICE, SLICES))
        .isTrue();
  }

  @Test
  void escapedCommaBelongsToTheValue() {
    JsonNode pod = json("{'metadata':{'name':'a,b','namespace':'x'},'spec':{}}");
    assertThat(FieldSelector.parse("metadata.name=a\\,b", PODS).matches(pod, PODS)).isTrue();
  }

  @Test
  void poolNameIsNotSelectableLikeOnARealServer() {
    assertThatThrownBy(() -> FieldSelector.parse("spec.pool.name=p", SLICES))
        .isInstanceOf(InvalidSelectorException.class)
        .hasMessage("field label not supported: spec.pool.name");
  }

  @Test
  void clusterScopedResourcesHaveNoNamespaceField() {
    assertThatThrownBy(() -> FieldSelector.parse("metadata.namespace=x", SLICES))
        .hasMessage("field label not supported: metadata.namespace");
    assertThat(FieldSelector.parse("metadata.namespace=x", PODS).isEmpty()).isFalse();
  }

  @Test
  void requirementWithoutOperatorIsRejected() {
    assertThatThrownBy(() -> FieldSelector.parse("spec.driver", SLICES))
        .hasMessage("invalid selector: 'spec.driver'; can't understand 'spec.driver'");
  }

  @Test
  void podFieldsIncludingDefaults() {
    JsonNode pod = json("{'metadata':{'name':'p','namespace':'ns'},'spec':{'nodeName':'n1'},"
        + "'status':{'phase':'Running'}}");
    assertThat(
        FieldSelector.parse("spec.nodeName=n1,status.phase=Running", PODS).matches(pod, PODS))
        .isTrue();
    assertThat(FieldSelector.parse("spec.hostNetwork=false", PODS).matches(pod, PODS)).isTrue();
    assertThat(FieldSelector.parse("metadata.namespace=other", PODS).matches(pod, PODS)).isFalse();
  }

  @Test
  void labelSelectorForms() {
    JsonNode object = json("{'metadata':{'name':'a','labels':{'app':'gpu','tier':'x'}}}");
    assertThat(LabelSelector.parse("app=gpu").matches(object)).isTrue();
    assertThat(LabelSelector.parse("app==gpu,tier").matches(object)).isTrue();
    assertThat(LabelSelector.parse("app!=gpu").matches(object)).isFalse();
    assertThat(LabelSelector.parse("missing!=x").matches(object)).isTrue();
    assertThat(LabelSelector.parse("!missing").matches(object)).isTrue();
    assertThat(LabelSelector.parse("!app").matches(object)).isFalse();
    assertThat(LabelSelector.parse("app in (cpu, gpu),tier notin (y)").matches(object)).isTrue();
    assertThat(LabelSelector.parse("app notin (gpu)").matches(object)).isFalse();
    assertThatThrownBy(() -> LabelSelector.parse("a=b=c"))
        .isInstanceOf(InvalidSelectorException.class)
        .hasMessageContaining("a=b=c");
  }

  @Test
  void selectionChecksNamespace() {
    JsonNode pod = json("{'metadata':{'name':'p','namespace':'ns'},'spec':{}}");
    assertThat(Selection.parse(PODS, "ns", null, null).matches(pod)).isTrue();
    assertThat(Selection.parse(PODS, "other", null, null).matches(pod)).isFalse();
    assertThat(Selection.parse(PODS, null, null, null).matches(null)).isFalse();
  }
}
