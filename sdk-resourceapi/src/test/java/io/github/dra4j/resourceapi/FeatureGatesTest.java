package io.github.dra4j.resourceapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeatureGatesTest {

  private final FeatureGates gates = FeatureGates.kubernetes136();

  @ParameterizedTest(name = "{0} defaults to {1}")
  @CsvSource({
      "DynamicResourceAllocation, true",
      "DRAAdminAccess, true",
      "DRAPrioritizedList, true",
      "DRAResourceClaimDeviceStatus, true",
      "DRADeviceTaints, true",
      "DRADeviceTaintRules, false",
      "DRAPartitionableDevices, true",
      "DRAConsumableCapacity, true",
      "DRADeviceBindingConditions, true",
      "DRAExtendedResource, true",
      "DRAListTypeAttributes, false",
      "DRANodeAllocatableResources, false",
      "DRAResourcePoolStatus, false",
      "DRAWorkloadResourceClaims, false",
      "DRAResourceClaimGranularStatusAuthorization, true",
      "DeclarativeValidation, true",
      "DeclarativeValidationBeta, true",
      "DeclarativeValidationTakeover, false"})
  void kubernetes136Defaults(String gate, boolean expected) {
    assertThat(gates.enabled(gate)).isEqualTo(expected);
  }

  @Test
  void theListIsComplete() {
    assertThat(gates.asMap()).hasSize(18);
  }

  @ParameterizedTest(name = "{0} is locked")
  @CsvSource({"DynamicResourceAllocation", "DRAAdminAccess", "DeclarativeValidation"})
  void lockedGatesRefuseTheOtherValue(String gate) {
    assertThatThrownBy(() -> gates.with(gate, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot set feature gate " + gate + " to false, feature is locked to true");
    assertThat(gates.with(gate, true)).isEqualTo(gates);
  }

  @Test
  void gaButUnlockedGateCanBeTurnedOff() {
    assertThat(gates.with("DRAPrioritizedList", false).enabled("DRAPrioritizedList")).isFalse();
  }

  @Test
  void unknownGateIsUnrecognized() {
    assertThatThrownBy(() -> gates.with("NoSuchGate", true))
        .hasMessageStartingWith("unrecognized feature gate: NoSuchGate; known gates: ");
    assertThatThrownBy(() -> gates.enabled("NoSuchGate"))
        .hasMessage("unrecognized feature gate: NoSuchGate");
  }

  @Test
  void gatesAddedAfter136AreOffAndCannotBeSet() {
    assertThat(gates.enabled("DRADerivedAttributes")).isFalse();
    assertThat(gates.enabled("DRAFractionalCapacityRange")).isFalse();
    assertThatThrownBy(() -> gates.with("DRADeviceCompatibilityGroups", true))
        .hasMessage("unrecognized feature gate: DRADeviceCompatibilityGroups"
            + " (added after Kubernetes 1.36)");
  }

  @Test
  void withReturnsACopy() {
    FeatureGates changed = gates.with("DRAListTypeAttributes", true);
    assertThat(changed.enabled("DRAListTypeAttributes")).isTrue();
    assertThat(gates.enabled("DRAListTypeAttributes")).isFalse();
  }

  @Test
  void specIsParsedLikeTheFlag() {
    FeatureGates parsed = gates.withSpec(" DRAListTypeAttributes=true, DRADeviceTaints=0,"
        + "DRANodeAllocatableResources=T,");
    assertThat(parsed.enabled("DRAListTypeAttributes")).isTrue();
    assertThat(parsed.enabled("DRADeviceTaints")).isFalse();
    assertThat(parsed.enabled("DRANodeAllocatableResources")).isTrue();
    assertThat(gates.withSpec("  ")).isEqualTo(gates);
  }

  @Test
  void specErrorsAreWordedLikeTheFlag() {
    assertThatThrownBy(() -> gates.withSpec("DRADeviceTaints"))
        .hasMessage("missing bool value for DRADeviceTaints");
    assertThatThrownBy(() -> gates.withSpec("DRADeviceTaints=yes"))
        .hasMessage("invalid value of DRADeviceTaints=yes, err: strconv.ParseBool: parsing"
            + " \"yes\": invalid syntax");
    assertThatThrownBy(() -> gates.withSpec("DRAAdminAccess=false"))
        .hasMessage("cannot set feature gate DRAAdminAccess to false, feature is locked to true");
  }

  @Test
  void mapIsReadOnlyAndPrintsSorted() {
    Map<String, Boolean> map = gates.asMap();
    assertThatThrownBy(() -> map.put("X", true)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(gates.toString()).startsWith("DRAAdminAccess=true,DRAConsumableCapacity=true,");
  }
}
