package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Builds the DRA objects of the allocator tests: node {@code node-1} with labels
 * {@code region=region-1, planet=earth}, class {@code class-a} selecting driver {@code driver-a},
 * node-local slices of generation 1.
 */
final class DraObjects {

  static final String NODE = "node-1";
  static final Map<String, String> NODE_LABELS = Map.of("region", "region-1", "planet", "earth");

  /** The CEL environment of all allocator tests: the shared one, as allocators use by default. */
  static final DeviceSelectorEnvironment CEL = DeviceSelectorEnvironment.stored();

  private DraObjects() {}

  static StructuredAllocator allocator() {
    return StructuredAllocator.builder().selectorEnvironment(CEL).build();
  }

  static StructuredAllocator allocator(AllocatorFeatures features) {
    return StructuredAllocator.builder().selectorEnvironment(CEL).features(features).build();
  }

  static DeviceClass deviceClass(String name, String... selectors) {
    DeviceClassBuilder b = new DeviceClassBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().endSpec();
    for (String selector : selectors) {
      b.editSpec().addToSelectors(selector(selector)).endSpec();
    }
    return b.build();
  }

  static DeviceClass classA() {
    return deviceClass("class-a", "device.driver == \"driver-a\"");
  }

  static io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector selector(String expression) {
    return new DeviceSelectorBuilder().withNewCel().withExpression(expression).endCel().build();
  }

  static DeviceBuilder device(String name) {
    return new DeviceBuilder().withName(name);
  }

  static DeviceAttribute string(String value) {
    return new DeviceAttributeBuilder().withString(value).build();
  }

  static DeviceAttribute integer(long value) {
    return new DeviceAttributeBuilder().withInt(value).build();
  }

  static DeviceAttribute version(String value) {
    return new DeviceAttributeBuilder().withVersion(value).build();
  }

  static DeviceBuilder withCapacity(DeviceBuilder device, String name, String value) {
    return device.addToCapacity(name,
        new DeviceCapacityBuilder().withValue(new Quantity(value)).build());
  }

  static DeviceBuilder consuming(DeviceBuilder device, String counterSet, String counter,
      String value) {
    return device.addToConsumesCounters(new DeviceCounterConsumptionBuilder()
        .withCounterSet(counterSet)
        .addToCounters(counter, new CounterBuilder().withValue(new Quantity(value)).build())
        .build());
  }

  static CounterSet counterSet(String name, String counter, String value) {
    return new CounterSetBuilder().withName(name)
        .addToCounters(counter, new CounterBuilder().withValue(new Quantity(value)).build())
        .build();
  }

  /** A slice on {@code node-1}, generation 1, the only slice of its pool. */
  static ResourceSlice slice(String name, String driver, String pool, Device... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNodeName(NODE)
        .withNewPool().withName(pool).withGeneration(1L).withResourceSliceCount(1L).endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  static ResourceSlice slice(String name, String driver, String pool, DeviceBuilder... devices) {
    return slice(name, driver, pool,
        Stream.of(devices).map(DeviceBuilder::build).toArray(Device[]::new));
  }

  static NodeSelector labelSelector(String key, String... values) {
    return new NodeSelectorBuilder().withNodeSelectorTerms(new NodeSelectorTermBuilder()
        .withMatchExpressions(new NodeSelectorRequirementBuilder()
            .withKey(key).withOperator("In").withValues(values).build())
        .build()).build();
  }

  static ExactDeviceRequestBuilder exactly(String deviceClass) {
    return new ExactDeviceRequestBuilder().withDeviceClassName(deviceClass);
  }

  static DeviceRequest request(String name, ExactDeviceRequest exactly) {
    return new DeviceRequestBuilder().withName(name).withExactly(exactly).build();
  }

  static DeviceRequest request(String name, ExactDeviceRequestBuilder exactly) {
    return request(name, exactly.build());
  }

  static DeviceRequest request(String name, String deviceClass) {
    return request(name, exactly(deviceClass));
  }

  static ResourceClaim claim(String name, DeviceRequest... requests) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withNewDevices().withRequests(requests).endDevices().endSpec()
        .build();
  }

  static AllocatorInputs.Builder inputs() {
    return AllocatorInputs.builder().node(NODE, NODE_LABELS);
  }

  static AllocationOutcome.Allocated allocated(AllocationOutcome outcome) {
    if (!(outcome instanceof AllocationOutcome.Allocated allocated)) {
      throw new AssertionError("expected an allocation, got " + outcome);
    }
    return allocated;
  }

  static List<DeviceRequestAllocationResult> results(AllocationOutcome outcome) {
    return allocated(outcome).claim().getStatus().getAllocation().getDevices().getResults();
  }

  /** Returns {@code request→device} pairs of the first claim, e.g. {@code req-0→device-1}. */
  static List<String> picks(AllocationOutcome outcome) {
    return results(outcome).stream().map(r -> r.getRequest() + "→" + r.getDevice()).toList();
  }
}
