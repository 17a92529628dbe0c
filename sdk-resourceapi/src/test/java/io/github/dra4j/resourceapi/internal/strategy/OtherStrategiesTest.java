package io.github.dra4j.resourceapi.internal.strategy;

import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.TestJson;
import org.junit.jupiter.api.Test;

class OtherStrategiesTest {

  private static final FeatureGates DEFAULTS = FeatureGates.kubernetes136();

  private static ResourceClaimTemplate template(String exactly, Long generation) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaimTemplate\","
        + "\"metadata\":{\"name\":\"t\",\"namespace\":\"ns\""
        + (generation == null ? "" : ",\"generation\":" + generation) + "},"
        + "\"spec\":{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":"
        + exactly + "}]}}}}", ResourceClaimTemplate.class);
  }

  private static DeviceClass deviceClass(String spec) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\","
        + "\"metadata\":{\"name\":\"c\",\"generation\":5},\"spec\":" + spec + "}",
        DeviceClass.class);
  }

  @Test
  void templateCreateDropsDisabledFieldsAndLeavesGeneration() {
    ResourceClaimTemplate template = template("{\"deviceClassName\":\"gpu\","
        + "\"tolerations\":[{\"operator\":\"Exists\"}]}", 4L);
    ResourceClaimTemplateStrategy.prepareForCreate(template,
        DEFAULTS.with(FeatureGates.DRA_DEVICE_TAINTS, false));
    assertThat(template.getSpec().getSpec().getDevices().getRequests().get(0).getExactly()
        .getTolerations()).isEmpty();
    assertThat(template.getMetadata().getGeneration()).isEqualTo(4L);
  }

  @Test
  void templateUpdateKeepsFieldsInUse() {
    ResourceClaimTemplate old = template("{\"deviceClassName\":\"gpu\","
        + "\"capacity\":{\"requests\":{\"m\":\"1\"}}}", null);
    ResourceClaimTemplate template = TestJson.copy(old);
    ResourceClaimTemplateStrategy.prepareForUpdate(template, old,
        DEFAULTS.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false));
    assertThat(template.getSpec().getSpec().getDevices().getRequests().get(0).getExactly()
        .getCapacity()).isNotNull();
    assertThat(ResourceClaimTemplateStrategy.warningsOnCreate(template)).isEmpty();
    assertThat(ResourceClaimTemplateStrategy.warningsOnUpdate(template, old)).isEmpty();
  }

  @Test
  void templateUpdateDropsUnusedFields() {
    ResourceClaimTemplate old = template("{\"deviceClassName\":\"gpu\"}", null);
    ResourceClaimTemplate template = template("{\"deviceClassName\":\"gpu\","
        + "\"capacity\":{\"requests\":{\"m\":\"1\"}}}", null);
    ResourceClaimTemplateStrategy.prepareForUpdate(template, old,
        DEFAULTS.with(FeatureGates.DRA_CONSUMABLE_CAPACITY, false));
    assertThat(template.getSpec().getSpec().getDevices().getRequests().get(0).getExactly()
        .getCapacity()).isNull();
  }

  @Test
  void classCreateSetsGenerationOne() {
    DeviceClass created = deviceClass("{\"extendedResourceName\":\"example.com/gpu\"}");
    DeviceClassStrategy.prepareForCreate(created, DEFAULTS);
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(created.getSpec().getExtendedResourceName()).isEqualTo("example.com/gpu");
  }

  @Test
  void classExtendedResourceNameFollowsItsGate() {
    FeatureGates off = DEFAULTS.with(FeatureGates.DRA_EXTENDED_RESOURCE, false);
    DeviceClass created = deviceClass("{\"extendedResourceName\":\"example.com/gpu\"}");
    DeviceClassStrategy.prepareForCreate(created, off);
    assertThat(created.getSpec().getExtendedResourceName()).isNull();

    DeviceClass old = deviceClass("{\"extendedResourceName\":\"example.com/gpu\"}");
    DeviceClass updated = deviceClass("{\"extendedResourceName\":\"example.com/tpu\"}");
    DeviceClassStrategy.prepareForUpdate(updated, old, off);
    assertThat(updated.getSpec().getExtendedResourceName()).isEqualTo("example.com/tpu");
  }

  @Test
  void classGenerationComparesAfterTheDrop() {
    FeatureGates off = DEFAULTS.with(FeatureGates.DRA_EXTENDED_RESOURCE, false);
    DeviceClass old = deviceClass("{\"selectors\":[{\"cel\":{\"expression\":\"true\"}}]}");
    DeviceClass updated = deviceClass("{\"selectors\":[{\"cel\":{\"expression\":\"true\"}}],"
        + "\"extendedResourceName\":\"example.com/gpu\"}");
    DeviceClassStrategy.prepareForUpdate(updated, old, off);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(5L);

    DeviceClass changed = deviceClass("{\"selectors\":[{\"cel\":{\"expression\":\"false\"}}]}");
    DeviceClassStrategy.prepareForUpdate(changed, old, DEFAULTS);
    assertThat(changed.getMetadata().getGeneration()).isEqualTo(6L);
    assertThat(DeviceClassStrategy.warningsOnCreate(changed)).isEmpty();
    assertThat(DeviceClassStrategy.warningsOnUpdate(changed, old)).isEmpty();
  }
}
