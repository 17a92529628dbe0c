package io.github.dra4j.resourceapi;

import static io.github.dra4j.resourceapi.internal.claim.Fixtures.GPU_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.OPAQUE;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.SUB_REQUEST;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.claim;
import static io.github.dra4j.resourceapi.internal.claim.Fixtures.devicesJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.internal.claim.ResourceClaimValidation;
import io.github.dra4j.resourceapi.internal.deviceclass.DeviceClassValidation;
import io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hand-written wording that a Kubernetes 1.36 server returns for the rules of {@code
 * resource.k8s.io} that also exist as declarative ({@code +k8s:}) tags, at the places where the
 * declarative error reads differently.
 *
 * <p>In 1.36 declarative validation does not decide anything for these kinds: their strategies
 * call {@code rest.ValidateDeclarativelyWithMigrationChecks} without {@code
 * WithDeclarativeEnforcement()}, so the declarative errors are only compared with the hand-written
 * ones and logged (mismatch metric), whatever the tag's prefix and the {@code
 * DeclarativeValidationBeta} gate; the hand-written errors, including those marked {@code
 * MarkCoveredByDeclarative()}, are returned unchanged. These tests pin that wording so that it is
 * not "corrected" towards the declarative one. Each names the declarative wording that newer
 * servers show once the tag is enforced (the newer sources tag these rules {@code
 * +k8s:beta(since: "1.37")} and enforce declarative validation through the generic registry, as
 * the ResourceSlice strategy's {@code rest.DeclarativeValidation} shows; beta tags are enforced
 * while {@code DeclarativeValidationBeta} is on, its default).
 */
class DeclarativeValidation136Test {

  private static final FeatureGates GATES = FeatureGates.kubernetes136();

  /** The start of a valid slice spec on one node, to be followed by its devices. */
  private static final String NODE_SLICE = "{'driver': 'dra.example.com', 'nodeName': 'node-1', "
      + "'pool': {'name': 'pool-1', 'resourceSliceCount': 1}, ";

  private static List<String> claimErrors(String requests, String more) {
    return messages(ResourceClaimValidation.validate(claim(devicesJson(requests, more)), GATES));
  }

  private static List<String> sliceErrors(String spec) {
    ResourceSlice slice = TestJson.read(("{'apiVersion': 'resource.k8s.io/v1', 'kind': "
        + "'ResourceSlice', 'metadata': {'name': 'foo'}, 'spec': " + spec + "}")
        .replace('\'', '"'), ResourceSlice.class);
    return messages(ResourceSliceValidation.validate(slice, GATES));
  }

  private static List<String> messages(List<FieldError> errors) {
    return errors.stream().map(FieldError::toString).toList();
  }

  // +k8s:unique=map / +k8s:listMapKey=name on spec.devices.requests.
  @Test
  void duplicateRequestNameIsPrintedAsTheName() {
    // Kubernetes 1.37: the declarative duplicate has the same path but prints the whole request.
    assertThat(claimErrors(GPU_REQUEST + "," + GPU_REQUEST, "")).containsExactly(
        "spec.devices.requests[1]: Duplicate value: \"gpu\"");
  }

  // +k8s:unique=map / +k8s:listMapKey=name on firstAvailable.
  @Test
  void duplicateSubRequestNameIsPrintedAsTheName() {
    String request = "{name:'gpu',firstAvailable:[" + String.format(SUB_REQUEST, "a") + ","
        + String.format(SUB_REQUEST, "a") + "]}";
    // Kubernetes 1.37: same path, the whole sub-request printed as the value.
    assertThat(claimErrors(request, "")).containsExactly(
        "spec.devices.requests[0].firstAvailable[1]: Duplicate value: \"a\"");
  }

  // +k8s:unique=set on constraints[].requests: the same words either way.
  @Test
  void duplicateConstraintRequestReadsAlikeInBoth() {
    assertThat(claimErrors(GPU_REQUEST,
        "constraints:[{requests:['gpu','gpu'],matchAttribute:'dra.example.com/numa'}]"))
        .containsExactly("spec.devices.constraints[0].requests[1]: Duplicate value: \"gpu\"");
  }

  // +k8s:unique=map / +k8s:listMapKey=name on spec.sharedCounters.
  @Test
  void duplicateCounterSetNameIsPrintedAsTheName() {
    String counters = "{'name': 'gpu-0', 'counters': {'memory': {'value': '1Gi'}}}";
    // Kubernetes 1.37: same path, the whole counter set printed as the value.
    assertThat(sliceErrors("{'driver': 'dra.example.com', 'allNodes': true, "
        + "'pool': {'name': 'pool-1', 'resourceSliceCount': 1}, 'sharedCounters': ["
        + counters + ", " + counters + "]}")).containsExactly(
            "spec.sharedCounters[1]: Duplicate value: \"gpu-0\"");
  }

  // +k8s:unique=map / +k8s:listMapKey=counterSet on devices[].consumesCounters.
  @Test
  void duplicateConsumedCounterSetIsPrintedAsTheName() {
    String consumption = "{'counterSet': 'gpu-0', 'counters': {'memory': {'value': '1Gi'}}}";
    // Kubernetes 1.37: same path, the whole consumption printed as the value.
    assertThat(sliceErrors(NODE_SLICE + "'devices': [{'name': 'gpu-0', 'consumesCounters': ["
        + consumption + ", " + consumption + "]}]}")).containsExactly(
            "spec.devices[0].consumesCounters[1]: Duplicate value: \"gpu-0\"");
  }

  // +k8s:unionMember on the DeviceAttribute value fields.
  @Test
  void attributeWithoutValueSaysExactlyOneValue() {
    // Kubernetes 1.37: spec.devices[0].attributes[model]: Invalid value: "": must specify one
    // of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`
    assertThat(sliceErrors(NODE_SLICE + "'devices': [{'name': 'gpu-0', "
        + "'attributes': {'model': {}}}]}")).containsExactly(
            "spec.devices[0].attributes[model]: Invalid value: \"\": exactly one value must be"
                + " specified");
  }

  @Test
  void attributeWithTwoValuesSaysExactlyOneValue() {
    // Kubernetes 1.37: ...: Invalid value: "{int, bool}": must specify exactly one of: `int`,
    // `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`
    List<String> errors = sliceErrors(NODE_SLICE + "'devices': [{'name': 'gpu-0', "
        + "'attributes': {'model': {'int': 1, 'bool': true}}}]}");
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .startsWith("spec.devices[0].attributes[model]: Invalid value: ")
        .endsWith(": exactly one value must be specified");
  }

  // +k8s:maxLength=63 and +k8s:format=k8s-long-name-caseless on opaque.driver.
  @Test
  void longDriverNameIsCountedInBytes() {
    String driver = "a".repeat(64);
    // Kubernetes 1.37: ...opaque.driver: Too long: may not be more than 63 characters
    assertThat(claimErrors(GPU_REQUEST, "config:[{" + OPAQUE.replace("dra.example.com'",
        driver + "'") + "}]")).containsExactly(
            "spec.devices.config[0].opaque.driver: Too long: may not be more than 63 bytes");
  }

  @Test
  void malformedDriverNameUsesTheLowercaseSubdomainWords() {
    // Kubernetes 1.37 (caseless format): "an RFC 1123 subdomain must consist of alphanumeric
    // characters, ..." with the example 'Example.com'.
    assertThat(claimErrors(GPU_REQUEST, "config:[{" + OPAQUE.replace("dra.example.com'",
        "dra_example.com'") + "}]")).containsExactly(
            "spec.devices.config[0].opaque.driver: Invalid value: \"dra_example.com\": a lowercase"
                + " RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
                + " '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
                + " regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  // +k8s:format=k8s-extended-resource-name on spec.extendedResourceName.
  @Test
  void extendedResourceNameHasOneGeneralMessage() {
    DeviceClass deviceClass = TestJson.read("{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\":"
        + " \"DeviceClass\", \"metadata\": {\"name\": \"gpu\"}, \"spec\":"
        + " {\"extendedResourceName\": \"foo\"}}", DeviceClass.class);
    // Kubernetes 1.37: ...: Invalid value: "foo": a name must be a domain-prefixed path, such as
    // 'example.com/my-prop'
    assertThat(messages(DeviceClassValidation.validate(deviceClass, GATES))).containsExactly(
        "spec.extendedResourceName: Invalid value: \"foo\": must be a valid extended resource"
            + " name");
  }

  // +k8s:enum lists: the hand-written lists are sorted as the declarative ones are.
  @Test
  void unsupportedTaintEffectListsTheSameValuesInBoth() {
    assertThat(sliceErrors(NODE_SLICE + "'devices': [{'name': 'gpu-0', "
        + "'taints': [{'key': 'k', 'effect': 'Sometimes'}]}]}")).containsExactly(
            "spec.devices[0].taints[0].effect: Unsupported value: \"Sometimes\": supported values:"
                + " \"NoExecute\", \"NoSchedule\", \"None\"");
  }

  @Test
  void unsupportedAllocationModeListsTheSameValuesInBoth() {
    assertThat(claimErrors(GPU_REQUEST.replace("'ExactCount'", "'Some'"), "")).contains(
        "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\":"
            + " supported values: \"All\", \"ExactCount\"");
  }

  // +k8s:immutable on ResourceClaim.spec.
  @Test
  void changedClaimSpecIsInvalidAndImmutable() {
    ResourceClaim old = claim(devicesJson(GPU_REQUEST, ""));
    ResourceClaim changed = claim(devicesJson(GPU_REQUEST.replace("count:1", "count:2"), ""));
    changed.getMetadata().setResourceVersion("1");
    old.getMetadata().setResourceVersion("1");
    // Kubernetes 1.37: the declarative error has the same type, path and detail.
    List<String> errors = messages(ResourceClaimValidation.validateUpdate(changed, old, GATES));
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith("spec: Invalid value: ")
        .endsWith(": field is immutable");
  }

  // Neither gate of declarative validation changes what a 1.36 server returns for these kinds.
  @Test
  void theDeclarativeValidationBetaGateChangesNothing() {
    ResourceClaim duplicate = claim(devicesJson(GPU_REQUEST + "," + GPU_REQUEST, ""));
    FeatureGates betaOff = GATES.with(FeatureGates.DECLARATIVE_VALIDATION_BETA, false);
    assertThat(messages(ResourceClaimValidation.validate(duplicate, betaOff)))
        .isEqualTo(messages(ResourceClaimValidation.validate(duplicate, GATES)))
        .containsExactly("spec.devices.requests[1]: Duplicate value: \"gpu\"");
  }
}
