package io.github.dra4j.resourceapi.internal.meta;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The core and apimachinery rules resource.k8s.io reuses, from Kubernetes' test tables. */
class CoreRulesTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final FieldPath P = FieldPath.root("spec", "x");
  private static final String LONG_NAME = "a".repeat(64);

  @Test
  void dnsLabelsAndSubdomainsOneInvalidPerMessage() {
    assertErrors(CoreRules.dnsLabel("gpu-0", P));
    assertThat(CoreRules.dnsLabel("GPU-0", P)).singleElement().hasToString("spec.x: Invalid value:"
        + " \"GPU-0\": a lowercase RFC 1123 label must consist of lower case alphanumeric"
        + " characters or '-', and must start and end with an alphanumeric character (e.g."
        + " 'my-name',  or '123-abc', regex used for validation is"
        + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    assertErrors(CoreRules.dnsLabel("A".repeat(64), P), "Invalid spec.x", "Invalid spec.x");
    assertErrors(CoreRules.dnsSubdomain("gpu.example.com", P));
    assertErrors(CoreRules.dnsSubdomain("", P), "Invalid spec.x");
    assertErrors(CoreRules.dnsSubdomain(null, P), "Invalid spec.x");
  }

  @Test
  void driverNamesAreCsiDriverNames() {
    assertErrors(CoreRules.driverName("dra.example.com", P));
    assertErrors(CoreRules.driverName("DRA.Example.COM", P));
    assertThat(CoreRules.driverName("", P)).singleElement()
        .hasToString("spec.x: Required value");
    assertThat(CoreRules.driverName(LONG_NAME, P)).singleElement()
        .hasToString("spec.x: Too long: may not be more than 63 bytes");
    assertErrors(CoreRules.driverName("-" + LONG_NAME, P), "TooLong spec.x", "Invalid spec.x");
    assertErrors(CoreRules.driverName("dra_example.com", P), "Invalid spec.x");
    assertThat(CoreRules.driverName("Dra..com", P).get(0).value()).isEqualTo("\"Dra..com\"");
  }

  @Test
  void nodeNamesAreSubdomains() {
    assertErrors(CoreRules.nodeName("worker-1.example.com", P));
    assertErrors(CoreRules.nodeName("Worker_1", P), "Invalid spec.x");
  }

  @Test
  void nodeSelectorsWithTermsExpressionsAndFields() {
    FieldPath ns = FieldPath.root("spec", "nodeSelector");
    assertErrors(CoreRules.nodeSelector(selector("{}"), ns),
        "Required spec.nodeSelector.nodeSelectorTerms");
    assertThat(CoreRules.nodeSelector(selector("{\"nodeSelectorTerms\":[]}"), ns))
        .singleElement().hasToString("spec.nodeSelector.nodeSelectorTerms: Required value: must"
            + " have at least one node selector term");
    assertErrors(CoreRules.nodeSelector(selector("{\"nodeSelectorTerms\":[{}]}"), ns));
    assertErrors(CoreRules.nodeSelector(selector("{\"nodeSelectorTerms\":[{\"matchExpressions\":["
        + "{\"key\":\"kubernetes.io/hostname\",\"operator\":\"In\",\"values\":[\"w1\"]},"
        + "{\"key\":\"gpu\",\"operator\":\"Exists\"},"
        + "{\"key\":\"cores\",\"operator\":\"Gt\",\"values\":[\"4\"]},"
        + "{\"key\":\"zone\",\"operator\":\"NotIn\",\"values\":[\"a\",\"b\"]}],"
        + "\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"NotIn\","
        + "\"values\":[\"w2\"]}]}]}"), ns));
    String t = "spec.nodeSelector.nodeSelectorTerms[1].";
    List<FieldError> errors = CoreRules.nodeSelector(selector("{\"nodeSelectorTerms\":[{},"
        + "{\"matchExpressions\":["
        + "{\"key\":\"a\",\"operator\":\"In\"},"
        + "{\"key\":\"a\",\"operator\":\"DoesNotExist\",\"values\":[\"x\"]},"
        + "{\"key\":\"a\",\"operator\":\"Lt\",\"values\":[\"1\",\"2\"]},"
        + "{\"key\":\"a\",\"operator\":\"Equals\",\"values\":[\"x\"]},"
        + "{\"key\":\"a/b/c\",\"operator\":\"In\",\"values\":[\"-x\"]}],"
        + "\"matchFields\":["
        + "{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]},"
        + "{\"key\":\"metadata.name\",\"operator\":\"Exists\"},"
        + "{\"key\":\"spec.nodeName\",\"operator\":\"In\",\"values\":[\"w\"]},"
        + "{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"W_1\"]}]}]}"), ns);
    assertErrors(errors, "Required " + t + "matchExpressions[0].values",
        "Forbidden " + t + "matchExpressions[1].values",
        "Required " + t + "matchExpressions[2].values",
        "Invalid " + t + "matchExpressions[3].operator",
        "Invalid " + t + "matchExpressions[4].key",
        "Invalid " + t + "matchExpressions[4].values[0]",
        "Required " + t + "matchFields[0].values",
        "Invalid " + t + "matchFields[1].operator",
        "Invalid " + t + "matchFields[2].key",
        "Invalid " + t + "matchFields[3].values[0]");
    assertThat(errors).extracting(FieldError::toString).contains(
        t + "matchExpressions[0].values: Required value: must be specified when `operator` is"
            + " 'In' or 'NotIn'",
        t + "matchExpressions[1].values: Forbidden: may not be specified when `operator` is"
            + " 'Exists' or 'DoesNotExist'",
        t + "matchExpressions[2].values: Required value: must be specified single value when"
            + " `operator` is 'Lt' or 'Gt'",
        t + "matchExpressions[3].operator: Invalid value: \"Equals\": not a valid selector"
            + " operator",
        t + "matchFields[0].values: Required value: must be only one value when `operator` is"
            + " 'In' or 'NotIn' for node field selector",
        t + "matchFields[2].key: Invalid value: \"spec.nodeName\": not a valid field selector"
            + " key");
  }

  @Test
  void labelNamesValuesAndCIdentifiers() {
    assertErrors(CoreRules.labelName("example.com/key_1", P));
    assertErrors(CoreRules.labelName("", P), "Invalid spec.x", "Invalid spec.x");
    assertErrors(CoreRules.labelName("a/b/c", P), "Invalid spec.x");
    assertErrors(CoreRules.labelValue("", P));
    assertErrors(CoreRules.labelValue("v_1.2-b", P));
    assertErrors(CoreRules.labelValue("-v", P), "Invalid spec.x");
    assertErrors(CoreRules.cIdentifier("_id1", P));
    assertErrors(CoreRules.cIdentifier("1id", P), "Invalid spec.x");
  }

  @Test
  void conditionsAsMetav1ValidatesThem() {
    FieldPath c = FieldPath.root("status", "conditions");
    assertErrors(CoreRules.conditions(null, c));
    assertErrors(CoreRules.conditions(conditions("[{\"type\":\"Ready\",\"status\":\"True\","
        + "\"reason\":\"DriverReady\",\"message\":\"ok\",\"observedGeneration\":2,"
        + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\"},{\"type\":\"example.com/Healthy\","
        + "\"status\":\"Unknown\",\"reason\":\"A,B:c_\","
        + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\"}]"), c));
    List<FieldError> errors = CoreRules.conditions(conditions("[{},"
        + "{\"type\":\"Ready\",\"status\":\"Maybe\",\"reason\":\"bad reason\","
        + "\"observedGeneration\":-1,\"lastTransitionTime\":\"0001-01-01T00:00:00Z\"},"
        + "{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"" + "R".repeat(1025) + "\","
        + "\"message\":\"" + "m".repeat(32 * 1024 + 1) + "\","
        + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\"}]"), c);
    assertErrors(errors, "Invalid status.conditions[0].type",
        "Invalid status.conditions[0].type", "NotSupported status.conditions[0].status",
        "Required status.conditions[0].lastTransitionTime",
        "Required status.conditions[0].reason", "NotSupported status.conditions[1].status",
        "Invalid status.conditions[1].observedGeneration",
        "Required status.conditions[1].lastTransitionTime",
        "Invalid status.conditions[1].reason", "Duplicate status.conditions[2].type",
        "TooLong status.conditions[2].reason", "TooLong status.conditions[2].message");
    assertThat(errors).extracting(FieldError::toString).contains(
        "status.conditions[1].status: Unsupported value: \"Maybe\": supported values: \"False\","
            + " \"True\", \"Unknown\"",
        "status.conditions[0].status: Unsupported value: \"\": supported values: \"False\","
            + " \"True\", \"Unknown\"",
        "status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or"
            + " equal to zero",
        "status.conditions[1].lastTransitionTime: Required value: must be set",
        "status.conditions[2].type: Duplicate value: \"Ready\"",
        "status.conditions[2].reason: Too long: may not be more than 1024 bytes",
        "status.conditions[2].message: Too long: may not be more than 32768 bytes",
        "status.conditions[1].reason: Invalid value: \"bad reason\": a condition reason must start"
            + " with alphabetic character, optionally followed by a string of alphanumeric"
            + " characters or '_,:', and must end with an alphanumeric character or '_' (e.g."
            + " 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or"
            + " 'ReasonA:ReasonB', regex used for validation is"
            + " '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')");
  }

  @Test
  void interfaceAddresses() {
    FieldPath ip = FieldPath.root("networkData", "ips").index(0);
    assertErrors(CoreRules.interfaceAddress("10.9.8.7/24", ip));
    assertThat(CoreRules.interfaceAddress("010.009.008.000/24", ip)).singleElement()
        .hasToString("networkData.ips[0]: Invalid value: \"010.009.008.000/24\": must be in"
            + " canonical form (\"10.9.8.0/24\")");
    assertThat(CoreRules.interfaceAddress("300.9.8.0/24", ip)).singleElement()
        .hasToString("networkData.ips[0]: Invalid value: \"300.9.8.0/24\": must be a valid"
            + " address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)");
  }

  @ParameterizedTest
  @CsvSource({"example.com/dongle,true", "foo.bar/a-b_c.d,true", "kubernetes.io/dongle,false",
      "gpu.kubernetes.io/x,false", "dongle,false", "requests.example.com/x,false",
      "example.com/,false", "example.com/-x,false", "Example.com/x,false", ",false"})
  void extendedResourceNames(String name, boolean expected) {
    assertThat(CoreRules.isExtendedResourceName(name)).as(name).isEqualTo(expected);
  }

  @Test
  void anExtendedResourceNameHasANamePartOfAtMost63Bytes() {
    assertThat(CoreRules.isExtendedResourceName("example.com/" + "x".repeat(63))).isTrue();
    assertThat(CoreRules.isExtendedResourceName("example.com/" + "x".repeat(64))).isFalse();
  }

  private static NodeSelector selector(String json) {
    return JSON.readValue(json, NodeSelector.class);
  }

  private static List<Condition> conditions(String json) {
    return JSON.readValue(json, new TypeReference<List<Condition>>() {});
  }
}
