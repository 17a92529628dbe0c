package io.github.dra4j.resourceapi.internal.slice;

import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.BAD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.DRIVER;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GATES;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.GOOD;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.counterSets;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.first;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.json;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.sharedCounters;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.slice;
import static io.github.dra4j.resourceapi.internal.slice.SliceFixtures.taint;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.slice.SliceFixtures.Case;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The slice-level rules: metadata, driver, pool, node selection, shared counters beside devices
 * and the device count limits. Cases after Kubernetes' TestValidateResourceSlice, in our words.
 */
class ResourceSliceValidationTest {

  private static final String ONE_OF = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
      + "`perDeviceNodeSelection` is required";

  static Stream<Case> slices() {
    return Stream.of(
        new Case("128 devices", slice(128)),
        new Case("129 devices", slice(129), "TooMany spec.devices"),
        new Case("64 tainted devices", tainted(64)),
        new Case("65 tainted devices", tainted(65), "TooMany spec.devices"),
        new Case("65 devices, one consuming counters", slice(65, s -> first(s)
            .setConsumesCounters(SliceFixtures.consumptions(1))), "TooMany spec.devices"),
        new Case("64 devices consuming counters", slice(64, s -> s.getSpec().getDevices()
            .forEach(d -> d.setConsumesCounters(SliceFixtures.consumptions(1))))),
        new Case("65 devices, one with a list attribute", slice(65, s -> first(s).getAttributes()
            .put("ints", SliceFixtures.attribute("{'ints': [1, 2, 3]}"))),
            "TooMany spec.devices"),
        new Case("64 devices with list attributes", slice(64, s -> s.getSpec().getDevices()
            .forEach(d -> d.getAttributes().put("strings",
                SliceFixtures.attribute("{'strings': ['a', 'b', 'c']}"))))),
        new Case("no devices at all", slice(0)),
        // metadata
        new Case("missing name", slice("", GOOD, DRIVER, 1), "Required metadata.name"),
        new Case("bad name", slice(BAD, GOOD, DRIVER, 1), "Invalid metadata.name"),
        new Case("generate name", slice(s -> s.getMetadata().setGenerateName("prefix-"))),
        new Case("uid, resource version, generation", slice(s -> {
          s.getMetadata().setUid("ac051fac-2ead-46d9-b8b4-4e0fbeb7455d");
          s.getMetadata().setResourceVersion("1");
          s.getMetadata().setGeneration(100L);
        })),
        new Case("owner references and finalizers", slice(s -> {
          s.getMetadata().setOwnerReferences(List.of(json("{'apiVersion': 'v1', 'kind': 'pod', "
              + "'name': 'foo', 'uid': 'ac051fac-2ead-46d9-b8b4-4e0fbeb7455d'}",
              OwnerReference.class)));
          s.getMetadata().setFinalizers(List.of("example.com/foo"));
        })),
        new Case("good labels and annotations", slice(s -> {
          s.getMetadata().setLabels(Map.of("apps.kubernetes.io/name", "test"));
          s.getMetadata().setAnnotations(Map.of("foo", "bar"));
        })),
        new Case("bad label value", slice(s -> s.getMetadata()
            .setLabels(Map.of("hello-world", "spaces not allowed"))), "Invalid metadata.labels"),
        new Case("bad annotation name", slice(s -> s.getMetadata()
            .setAnnotations(Map.of(BAD, "hello world"))), "Invalid metadata.annotations"),
        new Case("no metadata", slice(s -> s.setMetadata(null)), "Required metadata.name"),
        // driver
        new Case("bad driver name", slice(GOOD, GOOD, BAD, 1), "Invalid spec.driver"),
        new Case("missing driver name", slice(GOOD, GOOD, "", 1),
            "Required spec.driver"),
        new Case("driver name of 64 characters", slice(GOOD, GOOD, "d".repeat(64), 1),
            "TooLong spec.driver"),
        new Case("driver name with capitals", slice(GOOD, GOOD, "GPU.Example.com", 1)),
        new Case("driver name with an underscore", slice(GOOD, GOOD, "gpu_driver.example.com", 1),
            "Invalid spec.driver"),
        // pool
        new Case("bad node and pool name", slice(GOOD, BAD, DRIVER, 1),
            "Invalid spec.pool.name", "Invalid spec.nodeName"),
        new Case("bad node and two-part pool name", slice(GOOD, BAD + "/" + BAD, DRIVER, 1),
            "Invalid spec.pool.name", "Invalid spec.pool.name", "Invalid spec.nodeName"),
        new Case("pool name of 253 characters", slice(s -> s.getSpec().getPool()
            .setName("x".repeat(253)))),
        new Case("pool name in parts", slice(s -> s.getSpec().getPool()
            .setName("example.com/gpus/node-1"))),
        new Case("pool name of 254 characters in parts, no slices, generation -1", slice(s -> {
          s.getSpec().getPool().setName("x/".repeat(126) + "xy");
          s.getSpec().getPool().setResourceSliceCount(0L);
          s.getSpec().getPool().setGeneration(-1L);
        }), "TooLong spec.pool.name", "Invalid spec.pool.resourceSliceCount",
            "Invalid spec.pool.generation"),
        new Case("pool name of 254 characters in one part", slice(s -> s.getSpec().getPool()
            .setName("x".repeat(254))), "TooLong spec.pool.name", "Invalid spec.pool.name"),
        new Case("pool name with an empty part", slice(s -> s.getSpec().getPool()
            .setName("foo/")), "Invalid spec.pool.name"),
        new Case("missing pool name", slice(s -> s.getSpec().getPool().setName("")),
            "Required spec.pool.name"),
        new Case("no pool", slice(s -> {
          s.getSpec().setPool(null);
          s.getSpec().setNodeName("worker");
        }), "Required spec.pool.name", "Invalid spec.pool.resourceSliceCount"),
        new Case("negative slice count", slice(s -> s.getSpec().getPool()
            .setResourceSliceCount(-1L)), "Invalid spec.pool.resourceSliceCount"),
        // node selection
        new Case("node name of 254 characters", slice(s -> s.getSpec()
            .setNodeName("n".repeat(254))), "Invalid spec.nodeName"),
        new Case("node name with capitals", slice(s -> s.getSpec().setNodeName("Worker-1")),
            "Invalid spec.nodeName"),
        new Case("empty node selector", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setNodeSelector(new NodeSelector());
        }), "Required spec.nodeSelector.nodeSelectorTerms",
            "Invalid spec.nodeSelector.nodeSelectorTerms"),
        new Case("one-term node selector", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setNodeSelector(selector(1));
        })),
        new Case("two-term node selector", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setNodeSelector(selector(2));
        }), "Invalid spec.nodeSelector.nodeSelectorTerms"),
        new Case("node selector with a bad label value", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setNodeSelector(json("{'nodeSelectorTerms': [{'matchExpressions': "
              + "[{'key': 'foo', 'operator': 'In', 'values': ['-1']}]}]}", NodeSelector.class));
        }), "Invalid spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]"),
        new Case("node name and node selector", slice(s -> {
          s.getSpec().setNodeName("worker");
          s.getSpec().setNodeSelector(selector(1));
        }), "Invalid spec"),
        new Case("node name and all nodes", slice(s -> s.getSpec().setAllNodes(true)),
            "Invalid spec"),
        new Case("all nodes", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setAllNodes(true);
        })),
        new Case("no node selection", slice(s -> s.getSpec().setNodeName(null)),
            "Required spec"),
        new Case("allNodes false", slice(s -> {
          s.getSpec().setNodeName(null);
          s.getSpec().setAllNodes(false);
        }), "Invalid spec.allNodes", "Required spec"),
        new Case("node name and allNodes false", slice(s -> s.getSpec().setAllNodes(false)),
            "Invalid spec.allNodes"),
        new Case("node name and perDeviceNodeSelection false", slice(s -> s.getSpec()
            .setPerDeviceNodeSelection(false)), "Invalid spec.perDeviceNodeSelection"),
        new Case("node name and per-device selection", slice(s -> s.getSpec()
            .setPerDeviceNodeSelection(true)), "Invalid spec", "Required spec.devices[0]"),
        new Case("empty node name and all nodes", slice(s -> {
          s.getSpec().setNodeName("");
          s.getSpec().setAllNodes(true);
        }), "Invalid spec.nodeName"),
        new Case("empty node name alone", slice(s -> s.getSpec().setNodeName("")),
            "Invalid spec.nodeName", "Required spec"),
        new Case("all four node selections", slice(s -> {
          s.getSpec().setNodeSelector(selector(1));
          s.getSpec().setAllNodes(true);
          s.getSpec().setPerDeviceNodeSelection(true);
          first(s).setAllNodes(true);
        }), "Invalid spec"),
        // shared counters
        new Case("shared counters beside devices", slice(s -> s.getSpec()
            .setSharedCounters(counterSets(1))), "Invalid spec"),
        new Case("8 counter sets", sharedCounters(8)),
        new Case("9 counter sets", sharedCounters(9), "TooMany spec.sharedCounters"),
        new Case("counter sets on all nodes", withAllNodes(sharedCounters(2))),
        // 1.37 fields, dropped by 1.36's strategy
        new Case("skipNodeOperations NodePrepareResources alone", slice(s -> s.getSpec()
            .setSkipNodeOperations(List.of("NodePrepareResources"))),
            "Invalid spec.skipNodeOperations"),
        new Case("skipNodeOperations * and NodePrepareResources", slice(s -> s.getSpec()
            .setSkipNodeOperations(List.of("*", "NodePrepareResources")))),
        new Case("skipNodeOperations both", slice(s -> s.getSpec().setSkipNodeOperations(
            List.of("NodePrepareResources", "NodeUnprepareResources")))),
        new Case("partitionTypeAttribute without devices consuming counters", slice(s -> s
            .getSpec().setPartitionTypeAttribute(DRIVER + "/string")),
            "Invalid spec.partitionTypeAttribute"),
        new Case("partitionTypeAttribute, bare attribute in the driver's domain", slice(s -> {
          first(s).setConsumesCounters(SliceFixtures.consumptions(1));
          s.getSpec().setPartitionTypeAttribute(DRIVER + "/string");
        })),
        new Case("partitionTypeAttribute, device without counters exempt", slice(2, s -> {
          first(s).setConsumesCounters(SliceFixtures.consumptions(1));
          s.getSpec().getDevices().get(1).setAttributes(null);
          s.getSpec().setPartitionTypeAttribute(DRIVER + "/string");
        })),
        new Case("partitionTypeAttribute missing on a device", slice(s -> {
          first(s).setConsumesCounters(SliceFixtures.consumptions(1));
          s.getSpec().setPartitionTypeAttribute("gpu.example.com/profile");
        }), "Required spec.devices[0].attributes[gpu.example.com/profile]"),
        new Case("partitionTypeAttribute not a string", slice(s -> {
          first(s).setConsumesCounters(SliceFixtures.consumptions(1));
          s.getSpec().setPartitionTypeAttribute(DRIVER + "/int");
        }), "Invalid spec.devices[0].attributes[test.example.com/int]"),
        new Case("partitionTypeAttribute, explicit name wins over bare", slice(s -> {
          first(s).setConsumesCounters(SliceFixtures.consumptions(1));
          first(s).getAttributes().put(DRIVER + "/string", json("{'int': 1}",
              DeviceAttribute.class));
          s.getSpec().setPartitionTypeAttribute(DRIVER + "/string");
        }), "Invalid spec.devices[0].attributes[test.example.com/string]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("slices")
  void validatesSlice(Case c) {
    c.check(ResourceSliceValidation.validate((ResourceSlice) c.input(), GATES));
  }

  @Test
  void wordsNodeSelectionErrorsAsTheServer() {
    ResourceSlice both = slice(s -> s.getSpec().setAllNodes(true));
    assertThat(strings(ResourceSliceValidation.validate(both, GATES))).containsExactly(
        "spec: Invalid value: \"{`nodeName`, `allNodes`}\": " + ONE_OF
            + ", but multiple fields are set");
    ResourceSlice none = slice(s -> s.getSpec().setNodeName(null));
    assertThat(strings(ResourceSliceValidation.validate(none, GATES)))
        .containsExactly("spec: Required value: " + ONE_OF);
    ResourceSlice allNodesFalse = slice(s -> s.getSpec().setAllNodes(false));
    assertThat(strings(ResourceSliceValidation.validate(allNodesFalse, GATES))).containsExactly(
        "spec.allNodes: Invalid value: false: must be either unset or set to true");
    ResourceSlice emptyName = slice(s -> {
      s.getSpec().setNodeName("");
      s.getSpec().setAllNodes(true);
    });
    assertThat(strings(ResourceSliceValidation.validate(emptyName, GATES))).containsExactly(
        "spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string");
  }

  @Test
  void printsNodeSelectorTermsAsTheServer() {
    ResourceSlice twoTerms = slice(s -> {
      s.getSpec().setNodeName(null);
      s.getSpec().setNodeSelector(selector(2));
    });
    assertThat(strings(ResourceSliceValidation.validate(twoTerms, GATES))).containsExactly(
        "spec.nodeSelector.nodeSelectorTerms: Invalid value: [{\"MatchExpressions\":null,"
            + "\"MatchFields\":[{\"Key\":\"metadata.name\",\"Operator\":\"In\","
            + "\"Values\":[\"worker-0\"]}]},{\"MatchExpressions\":null,\"MatchFields\":"
            + "[{\"Key\":\"metadata.name\",\"Operator\":\"In\",\"Values\":[\"worker-1\"]}]}]: "
            + "must have exactly one node selector term");
    ResourceSlice empty = slice(s -> {
      s.getSpec().setNodeName(null);
      s.getSpec().setNodeSelector(new NodeSelector());
    });
    assertThat(strings(ResourceSliceValidation.validate(empty, GATES))).contains(
        "spec.nodeSelector.nodeSelectorTerms: Invalid value: null: "
            + "must have exactly one node selector term");
  }

  @Test
  void wordsPoolAndCounterErrorsAsTheServer() {
    ResourceSlice pool = slice(s -> {
      s.getSpec().getPool().setResourceSliceCount(0L);
      s.getSpec().getPool().setGeneration(-1L);
    });
    assertThat(strings(ResourceSliceValidation.validate(pool, GATES))).containsExactlyInAnyOrder(
        "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
        "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero");
    assertThat(strings(ResourceSliceValidation.validate(slice(129), GATES)))
        .containsExactly("spec.devices: Too many: 129: must have at most 128 items");
    ResourceSlice both = slice(s -> s.getSpec().setSharedCounters(counterSets(1)));
    assertThat(strings(ResourceSliceValidation.validate(both, GATES))).containsExactly(
        "spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed");
  }

  @Test
  void wordsLaterFieldErrorsAsTheServer() {
    ResourceSlice skip = slice(s -> s.getSpec()
        .setSkipNodeOperations(List.of("NodePrepareResources")));
    assertThat(strings(ResourceSliceValidation.validate(skip, GATES))).containsExactly(
        "spec.skipNodeOperations: Invalid value: [\"NodePrepareResources\"]: "
            + "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also "
            + "skipped");
    ResourceSlice partition = slice(s -> s.getSpec()
        .setPartitionTypeAttribute(DRIVER + "/string"));
    assertThat(strings(ResourceSliceValidation.validate(partition, GATES))).containsExactly(
        "spec.partitionTypeAttribute: Invalid value: \"test.example.com/string\": may only be "
            + "set on a slice which declares devices that consume counters");
  }

  @Test
  void acceptsASliceWithoutSpecOrMetadataFieldsWithoutFailing() {
    ResourceSlice empty = new ResourceSlice();
    empty.setMetadata(new ObjectMeta());
    empty.setSpec(null);
    assertThat(ResourceSliceValidation.validate(empty, GATES)).extracting(FieldError::field)
        .contains("spec", "spec.pool.name", "spec.pool.resourceSliceCount", "spec.driver");
  }

  static NodeSelector selector(int terms) {
    StringBuilder json = new StringBuilder("{'nodeSelectorTerms': [");
    for (int i = 0; i < terms; i++) {
      json.append(i == 0 ? "" : ", ").append("{'matchFields': [{'key': 'metadata.name', ")
          .append("'operator': 'In', 'values': ['worker-").append(i).append("']}]}");
    }
    return json(json.append("]}").toString(), NodeSelector.class);
  }

  private static ResourceSlice tainted(int devices) {
    return slice(devices, s -> s.getSpec().getDevices().forEach(d -> d.setTaints(
        List.of(taint("{'key': 'example.com/taint', 'effect': 'NoExecute'}")))));
  }

  private static ResourceSlice withAllNodes(ResourceSlice slice) {
    slice.getSpec().setNodeName(null);
    slice.getSpec().setAllNodes(true);
    return slice;
  }

  static List<String> strings(List<FieldError> errors) {
    return errors.stream().map(FieldError::toString).toList();
  }
}
