package io.github.dra4j.resourceslice.internal.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PoolValidatorTest {

  private final PoolValidator nodeLocal = new PoolValidator(true);

  private static Device device(String name) {
    return new DeviceBuilder().withName(name).build();
  }

  private static CounterSet counters(String name, String... counterNames) {
    CounterSetBuilder set = new CounterSetBuilder().withName(name);
    for (String counter : counterNames) {
      set.addToCounters(counter, new CounterBuilder().withValue(new Quantity("1")).build());
    }
    return set.build();
  }

  private static Device consuming(String name, String set, String counter) {
    return new DeviceBuilder().withName(name).addNewConsumesCounter().withCounterSet(set)
        .addToCounters(counter, new CounterBuilder().withValue(new Quantity("1")).build())
        .endConsumesCounter().build();
  }

  private static Pool pool(Slice... slices) {
    return Pool.builder().slices(List.of(slices)).build();
  }

  @Test
  void validPoolHasNoViolations() {
    Pool pool = pool(
        Slice.builder().addDevice(consuming("gpu-0", "mem", "bytes")).build(),
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build());
    assertThat(nodeLocal.validate("pool", pool)).isEmpty();
  }

  @Test
  void goConsistencyChecksKeepTheirExactTexts() {
    Pool pool = pool(
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build(),
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build(),
        Slice.builder().addDevice(device("a")).addDevice(device("a"))
            .addDevice(consuming("b", "nope", "bytes"))
            .addDevice(consuming("c", "mem", "cores")).build());
    List<String> violations = nodeLocal.validate("pool", pool);
    assertThat(violations).containsExactly(
        "found duplicate counter set \"mem\" in pool \"pool\"",
        "found duplicate device \"a\" in pool \"pool\"",
        "counter set \"nope\" referenced by device \"b\" not found",
        "counter \"cores\" referenced by device \"c\" not found in counter set \"mem\"");
  }

  @Test
  void limitsAreReportedPerSliceAndDevice() {
    List<Device> many = IntStream.range(0, 129).mapToObj(i -> device("d" + i)).toList();
    Device tainted = new DeviceBuilder().withName("t").addNewTaint().withKey("k")
        .withEffect("NoSchedule").endTaint().build();
    List<Device> taintedMany = IntStream.range(0, 65).mapToObj(i -> new DeviceBuilder(tainted)
        .withName("t" + i).build()).toList();
    List<String> violations = nodeLocal.validate("pool", pool(Slice.of(many), Slice.of(taintedMany)));
    assertThat(violations).containsExactly(
        "pool \"pool\", slice #0: devices: Too many: 129: must have at most 128 items",
        "pool \"pool\", slice #1: devices: Too many: 65: must have at most 64 items when a device"
            + " has taints or consumes counters");
  }

  @Test
  void namesAndValuesNamePoolSliceDeviceAndField() {
    Device bad = new DeviceBuilder().withName("GPU_0")
        .addToAttributes("example.com/model", new DeviceAttributeBuilder().withString("x".repeat(65))
            .build())
        .addToAttributes("9lives", new DeviceAttributeBuilder().withInt(1L).build())
        .addToAttributes("driverVersion", new DeviceAttributeBuilder().withVersion("1.02.3").build())
        .addToAttributes("both", new DeviceAttributeBuilder().withInt(1L).withBool(true).build())
        .addNewTaint().withKey("k").withEffect("Sometimes").endTaint()
        .build();
    List<String> violations = nodeLocal.validate("Pool!", pool(Slice.of(List.of(bad))));
    String where = "pool \"Pool!\", slice #0, device \"GPU_0\"";
    assertThat(violations).containsExactlyInAnyOrder(
        "pool \"Pool!\": name: Invalid value: \"Pool!\": each '/'-separated part must be a"
            + " lowercase RFC 1123 subdomain",
        where + ": name: Invalid value: \"GPU_0\": a lowercase RFC 1123 label must consist of lower"
            + " case alphanumeric characters or '-', and must start and end with an alphanumeric"
            + " character",
        where + ": attributes[\"example.com/model\"].string: Too long: may not be more than 64"
            + " characters, got 65",
        where + ": attributes[\"9lives\"]: Invalid value: \"9lives\": the identifier must be a C"
            + " identifier (letters, digits, '_', not starting with a digit) of at most 32"
            + " characters",
        where + ": attributes[\"driverVersion\"].version: Invalid value: \"1.02.3\": must be a"
            + " semantic version 2.0.0",
        where + ": attributes[\"both\"]: Invalid value: int, bool: exactly one value must be set",
        where + ": taints[0].effect: Unsupported value: \"Sometimes\": supported values:"
            + " \"NoExecute\", \"NoSchedule\", \"None\"");
  }

  @Test
  void nodeSelectionMustBeExactlyOne() {
    Pool both = Pool.builder().allNodes(true).addSlice(Slice.of(List.of(device("a")))).build();
    assertThat(nodeLocal.validate("pool", both)).containsExactly("pool \"pool\", slice #0: node"
        + " selection: exactly one of nodeName (set by the controller for a Node owner),"
        + " nodeSelector, allNodes, perDeviceNodeSelection must be set, found nodeName, allNodes");
    PoolValidator network = new PoolValidator(false);
    assertThat(network.validate("pool", pool(Slice.of(List.of(device("a"))))))
        .containsExactly("pool \"pool\", slice #0: node selection: exactly one of nodeName (set by"
            + " the controller for a Node owner), nodeSelector, allNodes, perDeviceNodeSelection"
            + " must be set, found none");
    Pool selector = Pool.builder().nodeSelector(new NodeSelectorBuilder().build())
        .addSlice(Slice.of(List.of(device("a")))).build();
    assertThat(network.validate("pool", selector)).containsExactly("pool \"pool\":"
        + " nodeSelector.nodeSelectorTerms: Invalid value: 0: must have exactly one term");
  }

  @Test
  void perDeviceNodeSelectionNeedsOneSelectionOnEachDevice() {
    Device onNode = new DeviceBuilder().withName("a").withNodeName("n1").build();
    Device none = device("b");
    Pool pool = Pool.builder().addSlice(new Slice(List.of(onNode, none), List.of(), true)).build();
    assertThat(new PoolValidator(false).validate("pool", pool)).containsExactly(
        "pool \"pool\", slice #0, device \"b\": node selection: with perDeviceNodeSelection exactly"
            + " one of nodeName, nodeSelector, allNodes must be set on the device, found none");
    assertThat(nodeLocal.validate("pool", pool(Slice.of(List.of(onNode))))).containsExactly(
        "pool \"pool\", slice #0, device \"a\": node selection: nodeName may only be set on a"
            + " device when the slice sets perDeviceNodeSelection");
  }

  @Test
  void driverNameMustBeAShortDnsSubdomain() {
    assertThat(PoolValidator.driverName("gpu.example.com")).isEmpty();
    assertThat(PoolValidator.driverName("GPU")).hasValueSatisfying(
        m -> assertThat(m).startsWith("DRA driver name \"GPU\": Invalid value"));
    assertThat(PoolValidator.driverName("a".repeat(64))).hasValueSatisfying(
        m -> assertThat(m).contains("may not be more than 63 characters"));
  }
}
