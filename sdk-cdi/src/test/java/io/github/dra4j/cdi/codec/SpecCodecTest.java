package io.github.dra4j.cdi.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.DeviceNodeType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** JSON to model to JSON round trips, YAML reading and strict parsing. */
class SpecCodecTest {
  private final SpecCodec codec = SpecCodec.standard();

  private CdiSpec read(String text) throws SpecParseException {
    return codec.read(text.getBytes(StandardCharsets.UTF_8), "test");
  }

  /** Every field of every version, in the reference writer's key order. */
  private static final String EVERY_FIELD = "{\"cdiVersion\":\"1.1.0\",\"kind\":\"vendor.com/gpu\","
      + "\"annotations\":{\"a.example.com/x\":\"1\",\"b\":\"2\"},"
      + "\"devices\":[{\"name\":\"gpu0\",\"annotations\":{\"k\":\"v\"},\"containerEdits\":{"
      + "\"env\":[\"A=B\"],"
      + "\"deviceNodes\":[{\"path\":\"/dev/gpu0\",\"hostPath\":\"/dev/host-gpu0\",\"type\":\"c\","
      + "\"major\":195,\"minor\":3,\"fileMode\":438,\"permissions\":\"rw\",\"uid\":0,\"gid\":44}],"
      + "\"netDevices\":[{\"hostInterfaceName\":\"eno1\",\"name\":\"net0\"}],"
      + "\"hooks\":[{\"hookName\":\"createRuntime\",\"path\":\"/usr/bin/hook\","
      + "\"args\":[\"hook\",\"--x\"],\"env\":[\"H=1\"],\"timeout\":5}],"
      + "\"mounts\":[{\"hostPath\":\"tmpfs\",\"containerPath\":\"/scratch\","
      + "\"options\":[\"rw\",\"size=1m\"],\"type\":\"tmpfs\"}],"
      + "\"intelRdt\":{\"closID\":\"c1\",\"l3CacheSchema\":\"L3:0=f\",\"memBwSchema\":\"MB:0=50\","
      + "\"schemata\":[\"L3:0=ff\"],\"enableMonitoring\":true},"
      + "\"additionalGids\":[0,4294967295]}}],"
      + "\"containerEdits\":{\"env\":[\"TOP=1\"]}}";

  @Test
  void everyFieldRoundTripsByteForByte() throws Exception {
    CdiSpec spec = read(EVERY_FIELD);
    assertThat(codec.toJsonString(spec)).isEqualTo(EVERY_FIELD);
    DeviceNode node = spec.devices().get(0).containerEdits().deviceNodes().get(0);
    assertThat(node.uid()).isZero();
    assertThat(node.fileMode()).isEqualTo(0666);
    assertThat(spec.devices().get(0).containerEdits().additionalGids())
        .containsExactly(0L, 4294967295L);
  }

  @Test
  void minimalDocumentRoundTripsWithTheAlwaysEmittedSpecEdits() throws Exception {
    String minimal = "{\"cdiVersion\":\"0.3.0\",\"kind\":\"vendor.com/device\",\"devices\":["
        + "{\"name\":\"myDevice\",\"containerEdits\":{\"deviceNodes\":[{\"path\":\"/dev/card1\"}]}}]}";
    CdiSpec spec = read(minimal);
    assertThat(codec.toJsonString(spec))
        .isEqualTo(minimal.substring(0, minimal.length() - 1) + ",\"containerEdits\":{}}");
    assertThat(read(codec.toJsonString(spec))).isEqualTo(spec);
  }

  @Test
  void zeroNumbersAreOmittedButPointerZerosKept() {
    CdiSpec spec = CdiSpec.builder().kind("vendor.com/device")
        .device("d", e -> e.deviceNode(DeviceNode.builder("/dev/p").type(DeviceNodeType.FIFO)
            .uid(0).gid(0).fileMode(0).build()))
        .build();
    assertThat(codec.toJsonString(spec)).contains(
        "{\"path\":\"/dev/p\",\"type\":\"p\",\"fileMode\":0,\"uid\":0,\"gid\":0}");
  }

  @Test
  void emptySchemataIsKeptBecauseItChangesTheMinimumVersion() throws Exception {
    String json = "{\"cdiVersion\":\"1.1.0\",\"kind\":\"vendor.com/device\",\"devices\":[{\"name\":"
        + "\"d\",\"containerEdits\":{\"intelRdt\":{\"schemata\":[]}}}],\"containerEdits\":{}}";
    CdiSpec spec = read(json);
    assertThat(spec.devices().get(0).containerEdits().intelRdt().schemata()).isEmpty();
    assertThat(codec.toJsonString(spec)).isEqualTo(json);
    CdiSpec absent = read(json.replace("\"schemata\":[]", ""));
    assertThat(absent.devices().get(0).containerEdits().intelRdt().schemata()).isNull();
  }

  @Test
  void annotationsAreWrittenSortedByKey() {
    CdiSpec spec = CdiSpec.builder().kind("vendor.com/device").annotation("z", "1")
        .annotation("a", "2").annotation("m", "3").device("d", e -> e.env("A", "B")).build();
    assertThat(codec.toJsonString(spec))
        .contains("\"annotations\":{\"a\":\"2\",\"m\":\"3\",\"z\":\"1\"}");
  }

  @Test
  void yamlReadsToTheSameModel() throws Exception {
    String yaml = """
        ---
        cdiVersion: "1.1.0"
        kind: "vendor.com/gpu"
        annotations:
          a.example.com/x: "1"
          b: "2"
        devices:
          - name: "gpu0"
            annotations:
              k: "v"
            containerEdits:
              env: ["A=B"]
              deviceNodes:
                - path: "/dev/gpu0"
                  hostPath: "/dev/host-gpu0"
                  type: "c"
                  major: 195
                  minor: 3
                  fileMode: 438
                  permissions: "rw"
                  uid: 0
                  gid: 44
              netDevices:
                - hostInterfaceName: "eno1"
                  name: "net0"
              hooks:
                - hookName: "createRuntime"
                  path: "/usr/bin/hook"
                  args: ["hook", "--x"]
                  env: ["H=1"]
                  timeout: 5
              mounts:
                - hostPath: "tmpfs"
                  containerPath: "/scratch"
                  options: ["rw", "size=1m"]
                  type: "tmpfs"
              intelRdt:
                closID: "c1"
                l3CacheSchema: "L3:0=f"
                memBwSchema: "MB:0=50"
                schemata: ["L3:0=ff"]
                enableMonitoring: true
              additionalGids: [0, 4294967295]
        containerEdits:
          env: ["TOP=1"]
        """;
    assertThat(read(yaml)).isEqualTo(read(EVERY_FIELD));
  }

  @Test
  void jsonInsideAYamlFileIsRead() throws Exception {
    assertThat(read("  \n" + EVERY_FIELD)).isEqualTo(read(EVERY_FIELD));
  }

  @Test
  void keysMatchCaseInsensitivelyLikeGo() throws Exception {
    CdiSpec spec = read("{\"CDIVersion\":\"0.3.0\",\"Kind\":\"vendor.com/d\",\"devices\":[]}");
    assertThat(spec.cdiVersion()).isEqualTo("0.3.0");
    assertThat(spec.kind()).isEqualTo("vendor.com/d");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"cdiVersion\":\"0.3.0\",\"cdiVersion\":\"0.4.0\"}",
      "{\"devices\":[{\"name\":\"d\",\"containerEdits\":{\"deviceNodes\":[{\"path\":\"/x\",\"major\":1.5}]}}]}",
      "{\"devices\":[{\"name\":\"d\",\"containerEdits\":{\"deviceNodes\":[{\"path\":\"/x\",\"major\":\"1\"}]}}]}",
      "{\"devices\":[{\"name\":\"d\",\"containerEdits\":{\"deviceNodes\":[{\"path\":\"/x\",\"uid\":-1}]}}]}",
      "{\"devices\":[{\"name\":\"d\",\"containerEdits\":{\"additionalGids\":[4294967296]}}]}",
      "{\"devices\":{}}",
      "{\"containerRuntime\":\"docker\"}",
      "[]",
      "---\n",
      "cdiVersion: [unclosed"})
  void malformedContentIsRefused(String text) {
    assertThatThrownBy(() -> read(text)).isInstanceOf(SpecParseException.class)
        .hasMessageStartingWith("invalid CDI spec test: ");
  }

  @Test
  void parseErrorsNameTheField() {
    assertThatThrownBy(() -> read("{\"devices\":[{\"name\":\"d\",\"containerEdits\":{"
        + "\"deviceNodes\":[{\"path\":\"/x\",\"uid\":-1}]}}]}"))
        .hasMessageContaining("devices[0].containerEdits.deviceNodes[0]")
        .hasMessageContaining("uid -1 is out of range");
    assertThatThrownBy(() -> read("{\"devices\":[{\"name\":\"d\",\"containerEdits\":{"
        + "\"mounts\":[{\"hostPath\":\"/x\",\"containerPath\":\"/y\",\"opts\":[]}]}}]}"))
        .hasMessageContaining("unknown field \"opts\" at devices[0].containerEdits.mounts[0].opts");
  }
}
