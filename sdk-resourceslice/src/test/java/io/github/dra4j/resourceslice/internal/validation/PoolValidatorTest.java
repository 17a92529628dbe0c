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
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import io.github.dra4j.resourceslice.internal.sync.NewSlices;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The controller's consistency checks with the Go controller's texts, and the API server's rules
 * on the slices the controller would create, with the server's field paths and texts.
 */
class PoolValidatorTest {

  private static final String DRIVER = "gpu.example.com";
  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower"
      + " case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric"
      + " character (e.g. 'example.com', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

  /** A node-local driver: Node owner whose UID is looked up, the controller sets nodeName. */
  private final PoolValidator nodeLocal = new PoolValidator(
      new NewSlices(DRIVER, Owner.node("node-1", null), "node-1"));
  /** A network driver: no owner, no node name; pools select nodes themselves. */
  private final PoolValidator network = new PoolValidator(new NewSlices(DRIVER, null, null));

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

  private static Pool pool(Device device) {
    return pool(Slice.of(List.of(device)));
  }

  @Test
  void validPoolHasNoViolations() {
    Pool pool = pool(
        Slice.builder().addDevice(consuming("gpu-0", "mem", "bytes")).build(),
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build());
    assertThat(nodeLocal.validate("pool", pool)).isEmpty();
    assertThat(network.validate("pool", Pool.builder().allNodes(true)
        .addSlice(Slice.of(List.of(device("a")))).build())).isEmpty();
  }

  @Test
  void goConsistencyChecksKeepTheirExactTextsBeforeTheServersLines() {
    Pool pool = pool(
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build(),
        Slice.builder().addSharedCounter(counters("mem", "bytes")).build(),
        Slice.builder().addDevice(device("a")).addDevice(device("a"))
            .addDevice(consuming("b", "nope", "bytes"))
            .addDevice(consuming("c", "mem", "cores")).build());
    assertThat(nodeLocal.validate("pool", pool)).containsExactly(
        "found duplicate counter set \"mem\" in pool \"pool\"",
        "found duplicate device \"a\" in pool \"pool\"",
        "counter set \"nope\" referenced by device \"b\" not found",
        "counter \"cores\" referenced by device \"c\" not found in counter set \"mem\"",
        "pool \"pool\", slice #2: spec.devices[1]: Duplicate value: \"a\"");
  }

  @Test
  void limitsAreTheServersPerSlice() {
    List<Device> many = IntStream.range(0, 129).mapToObj(i -> device("d" + i)).toList();
    List<Device> tainted = IntStream.range(0, 65).mapToObj(i -> new DeviceBuilder()
        .withName("t" + i).addNewTaint().withKey("k").withEffect("NoSchedule").endTaint().build())
        .toList();
    assertThat(nodeLocal.validate("pool", pool(Slice.of(many), Slice.of(tainted))))
        .containsExactly(
            "pool \"pool\", slice #0: spec.devices: Too many: 129: must have at most 128 items",
            "pool \"pool\", slice #1: spec.devices: Too many: 65: must have at most 64 items");
  }

  @Test
  void namesAndValuesAreCheckedWithTheServersTexts() {
    assertThat(nodeLocal.validate("pool", pool(device("gpu-0-mig-1g.5gb")))).containsExactly(
        "pool \"pool\", slice #0: spec.devices[0].name: Invalid value: \"gpu-0-mig-1g.5gb\":"
            + " must not contain dots");
    Device bad = new DeviceBuilder().withName("gpu-0")
        .addToAttributes("example..com/model", new DeviceAttributeBuilder().withString("x")
            .build())
        .addToAttributes("driverVersion", new DeviceAttributeBuilder().withVersion("v1.2")
            .build())
        .addNewTaint().withKey("k").withEffect("PreferNoSchedule").endTaint()
        .build();
    assertThat(nodeLocal.validate("Pool!", pool(bad))).containsExactly(
        "pool \"Pool!\", slice #0: spec.pool.name: Invalid value: \"Pool!\": " + SUBDOMAIN,
        "pool \"Pool!\", slice #0: spec.devices[0].attributes: Invalid value: \"example..com\": "
            + SUBDOMAIN,
        "pool \"Pool!\", slice #0: spec.devices[0].attributes[driverVersion].version: Invalid"
            + " value: \"v1.2\": must be a string compatible with semver.org spec 2.0.0",
        "pool \"Pool!\", slice #0: spec.devices[0].taints[0].effect: Unsupported value:"
            + " \"PreferNoSchedule\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"");
  }

  @Test
  void rulesBetweenFieldsOfADeviceAreTheServers() {
    Device device = new DeviceBuilder().withName("gpu-0")
        .addToCapacity("memory", new DeviceCapacityBuilder().withValue(new Quantity("40Gi"))
            .withNewRequestPolicy().withDefault(new Quantity("1Gi")).endRequestPolicy().build())
        .withBindingConditions("attached")
        .build();
    assertThat(nodeLocal.validate("pool", pool(device))).containsExactly(
        "pool \"pool\", slice #0: spec.devices[0].capacity[memory].requestPolicy: Forbidden:"
            + " allowMultipleAllocations must be true",
        "pool \"pool\", slice #0: spec.devices[0].bindingFailureConditions: Invalid value: null:"
            + " bindingFailureConditions are required to use bindingConditions");
  }

  @Test
  void nodeSelectionMustBeExactlyOneOfWhatTheControllerAndThePoolSet() {
    String oneOf = "exactly one of `nodeName`, `nodeSelector`, `allNodes`,"
        + " `perDeviceNodeSelection` is required";
    Pool both = Pool.builder().allNodes(true).addSlice(Slice.of(List.of(device("a")))).build();
    assertThat(nodeLocal.validate("pool", both)).containsExactly("pool \"pool\", slice #0: spec:"
        + " Invalid value: \"{`nodeName`, `allNodes`}\": " + oneOf + ", but multiple fields are"
        + " set");
    assertThat(network.validate("pool", pool(device("a")))).containsExactly(
        "pool \"pool\", slice #0: spec: Required value: " + oneOf);
    Pool selector = Pool.builder().nodeSelector(new NodeSelectorBuilder().build())
        .addSlice(Slice.of(List.of(device("a")))).build();
    assertThat(network.validate("pool", selector)).containsExactly(
        "pool \"pool\", slice #0: spec.nodeSelector.nodeSelectorTerms: Required value: must have"
            + " at least one node selector term",
        "pool \"pool\", slice #0: spec.nodeSelector.nodeSelectorTerms: Invalid value: null: must"
            + " have exactly one node selector term");
  }

  @Test
  void perDeviceNodeSelectionIsCheckedOnEachDevice() {
    Device onNode = new DeviceBuilder().withName("a").withNodeName("n1").build();
    Pool perDevice = Pool.builder()
        .addSlice(new Slice(List.of(onNode, device("b")), List.of(), true)).build();
    assertThat(network.validate("pool", perDevice)).containsExactly(
        "pool \"pool\", slice #0: spec.devices[1]: Required value: exactly one of `nodeName`,"
            + " `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to"
            + " true in the ResourceSlice spec");
    assertThat(nodeLocal.validate("pool", pool(onNode))).containsExactly(
        "pool \"pool\", slice #0: spec.devices[0]: Invalid value: null: `nodeName`,"
            + " `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set"
            + " to true in the ResourceSlice spec");
  }

  @Test
  void theOwnerReferenceIsCheckedAsTheControllerWritesIt() {
    Pool pool = Pool.builder().allNodes(true).addSlice(Slice.of(List.of(device("a")))).build();
    PoolValidator withoutUid = new PoolValidator(new NewSlices(DRIVER,
        new Owner("apps/v1", "DaemonSet", "gpu-driver", null), null));
    assertThat(withoutUid.validate("pool", pool)).containsExactly(
        "pool \"pool\", slice #0: metadata.ownerReferences.uid: Invalid value: \"\": must not be"
            + " empty");
    assertThat(new PoolValidator(new NewSlices(DRIVER,
        new Owner("apps/v1", "DaemonSet", "gpu-driver", "7d3f"), null)).validate("pool", pool))
        .isEmpty();
  }

  @Test
  void aDriverNameIsCheckedAsTheServerChecksTheSlicesThatCarryIt() {
    assertThat(nodeLocal.driverNameProblem()).isEmpty();
    assertThat(new PoolValidator(new NewSlices("GPU.example.com", Owner.node("node-1", null),
        "node-1")).driverNameProblem()).hasValue("DRA driver name \"GPU.example.com\":"
            + " metadata.generateName: Invalid value: \"00000-GPU.example.com-node-1-\": "
            + SUBDOMAIN);
    assertThat(new PoolValidator(new NewSlices("a".repeat(64), null, null)).driverNameProblem())
        .hasValue("DRA driver name \"" + "a".repeat(64) + "\": spec.driver: Too long: may not be"
            + " more than 63 bytes");
  }
}
