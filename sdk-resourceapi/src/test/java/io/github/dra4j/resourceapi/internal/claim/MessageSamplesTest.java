package io.github.dra4j.resourceapi.internal.claim;

import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whole messages of a claim's errors whose words come from the shared rules. */
class MessageSamplesTest {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();

  private static List<String> messages(String requests, String more) {
    return ResourceClaimValidation.validate(claim(devicesJson(requests, more)), GATES).stream()
        .map(FieldError::toString).toList();
  }

  @Test
  void badRequestName() {
    assertThat(messages(GPU_REQUEST.replace("'gpu'", "'GPU_0'"), "")).containsExactly(
        "spec.devices.requests[0].name: Invalid value: \"GPU_0\": a lowercase RFC 1123 label"
            + " must consist of lower case alphanumeric characters or '-', and must start and"
            + " end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used"
            + " for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }

  @Test
  void parametersThatAreNoObject() {
    assertThat(messages(GPU_REQUEST,
        "config:[{opaque:{driver:'dra.example.com',parameters:'hello-world'}}]"))
        .containsExactly("spec.devices.config[0].opaque.parameters: Invalid value:"
            + " \"<value omitted>\": must be a valid JSON object");
  }

  @Test
  void opaqueWithoutDriver() {
    assertThat(messages(GPU_REQUEST, "config:[{opaque:{parameters:{a:1}}}]"))
        .containsExactly("spec.devices.config[0].opaque.driver: Required value");
  }

  @Test
  void attributeWithoutDomain() {
    assertThat(messages(GPU_REQUEST, "constraints:[{matchAttribute:'numa'}]")).containsExactly(
        "spec.devices.constraints[0].matchAttribute: Invalid value: \"numa\": a fully qualified"
            + " name must be a domain and a name separated by a slash");
  }

  @Test
  void tolerationWithUnknownOperator() {
    assertThat(messages(GPU_REQUEST.replace("count:1",
        "count:1,tolerations:[{key:'k',operator:'Sometimes'}]"), "")).containsExactly(
            "spec.devices.requests[0].exactly.tolerations[0].operator: Unsupported value:"
                + " \"Sometimes\": supported values: \"Equal\", \"Exists\"");
  }
}
