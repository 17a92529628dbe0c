package io.github.dra4j.structured;

import static io.github.dra4j.structured.DraObjects.allocator;
import static io.github.dra4j.structured.DraObjects.claim;
import static io.github.dra4j.structured.DraObjects.classA;
import static io.github.dra4j.structured.DraObjects.device;
import static io.github.dra4j.structured.DraObjects.deviceClass;
import static io.github.dra4j.structured.DraObjects.exactly;
import static io.github.dra4j.structured.DraObjects.inputs;
import static io.github.dra4j.structured.DraObjects.picks;
import static io.github.dra4j.structured.DraObjects.request;
import static io.github.dra4j.structured.DraObjects.selector;
import static io.github.dra4j.structured.DraObjects.slice;
import static io.github.dra4j.structured.DraObjects.string;
import static io.github.dra4j.structured.DraObjects.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.KubernetesVersion;
import io.github.dra4j.cel.NewExpressionOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CEL errors during allocation: a compile or runtime error of a selector fails the claim it
 * belongs to with a message naming the class or claim and the device, and the allocator keeps
 * serving other claims.
 */
class SelectorErrorsTest {

  private static final DeviceClass BAD_CLASS = deviceClass("class-bad", "nope == 1");

  private static ResourceSlice devices() {
    return slice("slice-1", "driver-a", "pool-1",
        device("device-1").addToAttributes("model", string("a100")),
        device("device-2").addToAttributes("model", string("h100")).addToAttributes("vendor",
            string("x")));
  }

  @Test
  void selectorsCompileInAStoredExpressionsEnvironmentOnly() {
    DeviceSelectorEnvironment apiServer = DeviceSelectorEnvironment.newExpressions(
        NewExpressionOptions.forServer(KubernetesVersion.of(1, 34)));
    assertThatThrownBy(() -> StructuredAllocator.builder().selectorEnvironment(apiServer))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("selectorEnvironment must be a stored-expressions environment, as the scheduler"
            + " uses, got DeviceSelectorEnvironment[new expressions of a Kubernetes 1.34 API server"
            + " (compatibility version 1.33, DRAConsumableCapacity off, DRAListTypeAttributes off)]");
    assertThatThrownBy(() -> StructuredAllocator.builder().selectorEnvironment(null))
        .isInstanceOf(NullPointerException.class).hasMessage("environment");
  }

  @Test
  void aClassCompileErrorNamesTheClassAndSelector() {
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", "class-bad")),
        inputs().deviceClasses(BAD_CLASS).slices(devices()).build());
    assertThat(outcome.failureReason()).hasValueSatisfying(reason -> assertThat(reason)
        .startsWith(
            "class class-bad: selector #0: CEL compile error: compilation failed: ERROR: <input>:1:1:"
                + " undeclared reference to 'nope'"));
  }

  @Test
  void aBadClassSelectorFailsThatClaimOnlyAndTheAllocatorKeepsWorking() {
    StructuredAllocator allocator = allocator();
    AllocatorInputs inputs = inputs().deviceClasses(BAD_CLASS, classA()).slices(devices()).build();

    AllocationOutcome bad = allocator.allocate(claim("claim-bad", request("req-0", "class-bad")),
        inputs);
    AllocationOutcome good = allocator.allocate(claim("claim-good", request("req-0", "class-a")),
        inputs);
    AllocationOutcome badAgain = allocator
        .allocate(claim("claim-bad", request("req-0", "class-bad")), inputs);

    assertThat(bad).isInstanceOf(AllocationOutcome.Failed.class);
    assertThat(picks(good)).containsExactly("req-0→device-1");
    assertThat(badAgain).isEqualTo(bad);
  }

  @Test
  void aCompileErrorOnlySurfacesWhenADeviceIsEvaluated() {
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", "class-bad")),
        inputs().deviceClasses(BAD_CLASS).build());
    assertThat(outcome)
        .isEqualTo(new AllocationOutcome.Unsatisfiable("cannot allocate all claims"));
  }

  @Test
  void aRuntimeErrorAbortsEvenIfAnotherDeviceWouldMatchAndSuggestsOptionalChaining() {
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a")
            .withSelectors(selector("device.attributes[\"driver-a\"].vendor == \"x\"")))),
        inputs().deviceClasses(classA()).slices(devices()).build());
    assertThat(outcome).isEqualTo(new AllocationOutcome.Failed(
        "claim default/claim-0: selector #0 on device"
            + " driver-a/pool-1/device-1: CEL runtime error: no such key: vendor. consider using CEL optional"
            + " chaining (.? followed by orValue()) or guarding the check with has() for optional fields",
        false));
  }

  @Test
  void theSafeFormsOfTheSameSelectorWork() {
    for (String safe : List.of(
        "device.attributes[\"driver-a\"].?vendor.orValue(\"\") == \"x\"",
        "has(device.attributes[\"driver-a\"].vendor) && device.attributes[\"driver-a\"].vendor == \"x\"")) {
      AllocationOutcome outcome = allocator().allocate(
          claim("claim-0", request("req-0", exactly("class-a").withSelectors(selector(safe)))),
          inputs().deviceClasses(classA()).slices(devices()).build());
      assertThat(picks(outcome)).as(safe).containsExactly("req-0→device-2");
    }
  }

  @Test
  void classSelectorsRunBeforeRequestSelectorsAndTheirErrorsNameTheDevice() {
    DeviceClass strict = deviceClass("class-v", "device.attributes[\"driver-a\"].driverVersion"
        + ".isGreaterThan(semver(\"1.0.0\"))");
    ResourceSlice slice = slice("slice-1", "driver-a", "pool-1",
        device("device-1").addToAttributes("driverVersion", version("1.02.0")));
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-v")
            .withSelectors(selector("nope")))),
        inputs().deviceClasses(strict).slices(slice).build());
    assertThat(outcome.failureReason())
        .hasValue("class class-v: selector #0 on device driver-a/pool-1/device-1:"
            + " CEL runtime error: attribute driverVersion: parse semantic version:"
            + " Minor number must not contain leading zeroes \"02\"");
  }

  @Test
  void aClassSelectorWithoutCelNamesTheClass() {
    DeviceClass empty = deviceClass("class-empty");
    empty.getSpec().setSelectors(List.of(new DeviceSelector()));
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", "class-empty")),
        inputs().deviceClasses(empty).slices(devices()).build());
    assertThat(outcome.failureReason())
        .hasValue(
            "class class-empty: selector #0: CEL expression empty (unsupported selector type?)");
  }

  @Test
  void aRequestSelectorCompileErrorNamesTheClaim() {
    AllocationOutcome outcome = allocator().allocate(
        claim("claim-0", request("req-0", exactly("class-a")
            .withSelectors(selector("device.driver")))),
        inputs().deviceClasses(classA()).slices(devices()).build());
    assertThat(outcome.failureReason())
        .hasValue("claim default/claim-0: selector #0: CEL compile error:"
            + " must evaluate to bool or the unknown type, not string");
  }
}
