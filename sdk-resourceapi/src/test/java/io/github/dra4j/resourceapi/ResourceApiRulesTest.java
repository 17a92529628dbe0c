package io.github.dra4j.resourceapi;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/** The public entry point: the whole write path, per kind and version, as JSON and as objects. */
class ResourceApiRulesTest {

  private static final Instant NOW = Instant.parse("2026-11-28T10:15:30.700Z");
  private static final ResourceApiRules RULES = ResourceApiRules.kubernetes136()
      .withClock(Clock.fixed(NOW, ZoneOffset.UTC));

  private static final String CLAIM = """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"c","namespace":"ml"},
       "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}}%s}""";

  private static final String SLICE = """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
       "spec":{"driver":"gpu.example.com","pool":{"name":"node-a","resourceSliceCount":1},
       "nodeName":"node-a","devices":[%s]}}""";

  @Test
  void aCreateGetsTheServersDefaultsAndLosesItsStatus() {
    Admission created = RULES.create(TestJson.node(CLAIM.formatted(
        ",\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"p\",\"uid\":\"u\"}]}")));

    assertThat(created.accepted()).isTrue();
    ObjectNode stored = created.object();
    assertThat(stored.at("/spec/devices/requests/0/exactly/allocationMode").asString())
        .isEqualTo("ExactCount");
    assertThat(stored.at("/spec/devices/requests/0/exactly/count").asLong()).isEqualTo(1);
    assertThat(stored.at("/status/reservedFor").isMissingNode()).isTrue();
  }

  @Test
  void aSliceTaintGetsTheServersTimeAndAnUpperCaseDriverAWarning() {
    Admission created = RULES.create(TestJson.node(SLICE.formatted(
        "{\"name\":\"gpu-0\",\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}")
        .replace("gpu.example.com", "GPU.example.com")));

    assertThat(created.errors()).isEmpty();
    assertThat(created.object().at("/spec/devices/0/taints/0/timeAdded").asString())
        .isEqualTo("2026-11-28T10:15:30Z");
    assertThat(created.object().at("/metadata/generation").asLong()).isEqualTo(1);
    assertThat(created.warnings()).containsExactly("spec.driver: driver names should be"
        + " lowercase; \"GPU.example.com\" contains uppercase characters");
  }

  @Test
  void aFieldBehindAGateThatIsOffIsDroppedOnCreate() {
    String tainted = SLICE.formatted(
        "{\"name\":\"gpu-0\",\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}");
    ResourceApiRules noTaints = RULES.withFeatureGates(
        FeatureGates.kubernetes136().with(FeatureGates.DRA_DEVICE_TAINTS, false));

    assertThat(noTaints.create(TestJson.node(tainted)).object()
        .at("/spec/devices/0/taints").isMissingNode()).isTrue();
    assertThat(RULES.create(TestJson.node(tainted)).object().at("/spec/devices/0/taints").size())
        .isEqualTo(1);
  }

  @Test
  void aV1beta1ObjectIsCheckedWithV1PathsAndStoredInV1beta1() {
    ObjectNode beta = TestJson.node("""
        {"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ml"},
         "spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"gpu","count":-1,
           "allocationMode":"ExactCount"}]}}}""");

    assertErrors(RULES.create(beta).errors(), "Invalid spec.devices.requests[0].exactly.count");

    ObjectNode valid = beta.deepCopy();
    ((ObjectNode) valid.at("/spec/devices/requests/0")).remove(java.util.List.of("count"));
    Admission created = RULES.create(valid);
    assertThat(created.errors()).isEmpty();
    assertThat(created.object().path("apiVersion").asString())
        .isEqualTo("resource.k8s.io/v1beta1");
    assertThat(created.object().at("/spec/devices/requests/0/count").asLong()).isEqualTo(1);
    assertThat(created.object().at("/spec/devices/requests/0/exactly").isMissingNode()).isTrue();
  }

  @Test
  void convertGoesBetweenAnyTwoServedVersionsThroughV1() {
    ObjectNode v1 = TestJson.node(SLICE.formatted(
        "{\"name\":\"gpu-0\",\"attributes\":{\"model\":{\"string\":\"a100\"}}}"));

    ObjectNode beta1 = ResourceApiRules.convert(v1, "resource.k8s.io/v1beta1");
    assertThat(beta1.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1beta1");
    assertThat(beta1.at("/spec/devices/0/name").asString()).isEqualTo("gpu-0");
    assertThat(beta1.at("/spec/devices/0/basic/attributes/model/string").asString())
        .isEqualTo("a100");
    assertThat(beta1.at("/spec/devices/0/attributes").isMissingNode()).isTrue();
    assertThat(v1.at("/spec/devices/0/basic").isMissingNode()).as("input unchanged").isTrue();

    ObjectNode beta2 = ResourceApiRules.convert(beta1, "resource.k8s.io/v1beta2");
    assertThat(beta2.path("apiVersion").asString()).isEqualTo("resource.k8s.io/v1beta2");
    assertThat(beta2.path("spec")).isEqualTo(v1.path("spec"));
    assertThat(ResourceApiRules.convert(beta2, "resource.k8s.io/v1")).isEqualTo(v1);

    ObjectNode zeroValues = beta1.deepCopy();
    ((ObjectNode) zeroValues.path("spec")).put("nodeName", "").put("allNodes", false);
    assertThat(ResourceApiRules.convert(zeroValues, "resource.k8s.io/v1").path("spec")
        .has("allNodes")).as("v1beta1's false is unset in v1").isFalse();

    ObjectNode claim = ResourceApiRules.convert(TestJson.node(CLAIM.formatted("")),
        "resource.k8s.io/v1beta1");
    assertThat(claim.at("/spec/devices/requests/0/deviceClassName").asString()).isEqualTo("gpu");
    assertThat(claim.at("/spec/devices/requests/0/exactly").isMissingNode()).isTrue();

    assertThatThrownBy(() -> ResourceApiRules.convert(v1, "resource.k8s.io/v1alpha3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no kind \"ResourceSlice\" is registered for version"
            + " \"resource.k8s.io/v1alpha3\"");
  }

  @Test
  void anUpdateKeepsTheStoredStatusAndAStatusUpdateTheStoredSpec() {
    ObjectNode stored = RULES.create(TestJson.node(CLAIM.formatted(""))).object();
    stored.withObjectProperty("metadata").put("resourceVersion", "7").put("uid",
        "0b1f6a3e-7c2d-4e5f-9a8b-1c2d3e4f5a6b");

    ObjectNode withStatus = stored.deepCopy();
    withStatus.putObject("status").putArray("reservedFor").addObject().put("resource", "pods")
        .put("name", "p").put("uid", "u");
    Admission update = RULES.update(withStatus, stored);
    assertThat(update.errors()).isEmpty();
    assertThat(update.object().at("/status/reservedFor").isMissingNode())
        .as("status changes through the main resource are ignored").isTrue();

    ObjectNode changedSpec = withStatus.deepCopy();
    ((ObjectNode) changedSpec.at("/spec/devices/requests/0/exactly")).put("count", 2);
    Admission status = RULES.updateStatus(changedSpec, stored);
    assertErrors(status.errors(), "Forbidden status.reservedFor");
    assertThat(RULES.update(changedSpec, stored).errors()).singleElement()
        .extracting(FieldError::field, FieldError::detail)
        .containsExactly("spec", "field is immutable");
  }

  @Test
  void aNewObjectIsNamedFromItsGenerateNameBeforeItIsChecked() {
    ObjectNode unnamed = TestJson.node(SLICE.formatted("{\"name\":\"gpu-0\"}")
        .replace("\"name\":\"s\"", "\"generateName\":\"" + "a".repeat(70) + "-\""));

    Admission created = RULES.create(unnamed);

    assertThat(created.errors()).isEmpty();
    assertThat(created.object().at("/metadata/name").asString())
        .matches("a{58}[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertErrors(RULES.create(TestJson.node(SLICE.formatted("{\"name\":\"gpu-0\"}")
        .replace("\"name\":\"s\"", "\"generateName\":\"Upper-\""))).errors(),
        "Invalid metadata.generateName", "Invalid metadata.name");
  }

  @Test
  void anUpdateWithoutAResourceVersionTakesTheStoredOne() {
    ObjectNode stored = RULES.create(TestJson.node(SLICE.formatted("{\"name\":\"gpu-0\"}")))
        .object();
    stored.withObjectProperty("metadata").put("resourceVersion", "12");
    ObjectNode unconditional = stored.deepCopy();
    unconditional.withObjectProperty("metadata").remove("resourceVersion");

    Admission updated = RULES.update(unconditional, stored);

    assertThat(updated.errors()).isEmpty();
    assertThat(updated.object().at("/metadata/resourceVersion").asString()).isEqualTo("12");
  }

  @Test
  void opaqueParametersThatAreNoObjectAreRefusedByValidationNotByDecoding() {
    Admission created = RULES.create(TestJson.node(CLAIM.formatted("").replace(
        "\"requests\":[", "\"config\":[{\"opaque\":{\"driver\":\"gpu.example.com\","
            + "\"parameters\":[1,2]}}],\"requests\":[")));

    assertThat(created.errors()).singleElement().hasToString("spec.devices.config[0].opaque"
        + ".parameters: Invalid value: \"<value omitted>\": must be a valid JSON object");
  }

  @Test
  void adminAccessNeedsTheNamespaceLabelWhenNamespacesAreKnown() {
    ObjectNode admin = TestJson.node(CLAIM.formatted("").replace("\"deviceClassName\":\"gpu\"",
        "\"deviceClassName\":\"gpu\",\"adminAccess\":true"));

    assertThat(RULES.create(admin).errors()).as("namespaces unknown: not checked").isEmpty();
    assertErrors(RULES.withNamespaceLabels(namespace -> Map.of()).create(admin).errors(),
        "Forbidden spec.devices.requests[0].exactly.adminAccess");
    assertThat(RULES.withNamespaceLabels(namespace -> Map.of(
        "resource.kubernetes.io/admin-access", "true")).create(admin).errors()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "count":"two"   | string into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.count of type int64
      "count":1.5     | number 1.5 into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.count of type int64
      "adminAccess":1 | number into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.adminAccess of type bool
      "selectors":{}  | object into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.selectors of type []v1.DeviceSelector
      """)
  void aFieldOfTheWrongTypeIsWordedAsGosDecoderWordsIt(String field, String message) {
    assertThatThrownBy(() -> RULES.create(TestJson.node(CLAIM.formatted("").replace(
        "\"deviceClassName\":\"gpu\"", "\"deviceClassName\":\"gpu\"," + field))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("json: cannot unmarshal " + message);
  }

  @Test
  void objectsOfOtherKindsAreNotTheirs() {
    assertThatThrownBy(() -> RULES.create(TestJson.node(CLAIM.formatted("")
        .replace("\"name\":\"c\"", "\"name\":\"c\",\"labels\":{\"a\":1}"))))
        .hasMessage("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels"
            + " of type string");
    assertThatThrownBy(() -> RULES.create(TestJson.node(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}")))
        .hasMessageContaining("not a resource.k8s.io kind");
  }

  @Test
  void aDriverChecksItsOwnObjectsWithTheServersMessage() {
    DeviceClass good = new DeviceClassBuilder().withNewMetadata().withName("gpu.example.com")
        .endMetadata().withNewSpec().addNewSelector().withNewCel()
        .withExpression("device.driver == 'gpu.example.com'").endCel().endSelector().endSpec()
        .build();
    RULES.requireValid(good);

    DeviceClass bad = new DeviceClassBuilder(good).editSpec().editFirstSelector().editCel()
        .withExpression("device.driver = 'x'").endCel().endSelector().endSpec().build();
    assertThatThrownBy(() -> RULES.requireValid(bad))
        .isInstanceOfSatisfying(InvalidResourceException.class, e -> {
          assertThat(e.kind()).isEqualTo("DeviceClass");
          assertThat(e.errors()).extracting(FieldError::field)
              .containsExactly("spec.selectors[0].cel.expression");
        })
        .hasMessageStartingWith("DeviceClass.resource.k8s.io \"gpu.example.com\" is invalid:"
            + " spec.selectors[0].cel.expression: Invalid value: \"device.driver = 'x'\":"
            + " compilation failed: ERROR: <input>:1:");

    assertErrors(RULES.validate(new ResourceSliceBuilder().withNewMetadata().withName("s")
        .endMetadata().withNewSpec().withDriver("gpu.example.com").withNewPool()
        .withName("p").withResourceSliceCount(1L).endPool().withAllNodes(false)
        .addNewDevice().withName("GPU-0").endDevice().endSpec().build()),
        "Invalid spec.allNodes", "Required spec", "Invalid spec.devices[0].name");
  }

  @Test
  void theTypedChecksTakeStoredObjectsToo() {
    ResourceClaim stored = TestJson.read(CLAIM.formatted(""), ResourceClaim.class);
    stored.getMetadata().setResourceVersion("3");
    ResourceClaim allocated = TestJson.read(CLAIM.formatted("""
        ,"status":{"allocation":{"devices":{"results":[{"request":"gpu",
          "driver":"gpu.example.com","pool":"node-a","device":"gpu-0"}]}},
         "devices":[{"driver":"gpu.example.com","pool":"node-a","device":"gpu-9"}]}"""),
        ResourceClaim.class);
    allocated.getMetadata().setResourceVersion("3");

    assertErrors(RULES.validateStatusUpdate(allocated, stored), "Invalid status.devices[0]");
  }
}
