package io.github.dra4j.cdi.name;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every naming rule at its boundary. */
class NameRulesTest {

  @ParameterizedTest
  @ValueSource(strings = {"ab", "a1", "vendor.com", "yet_another-vendor2.com", "A.b-C_d9", "Zz"})
  void libraryAcceptsVendorsAndClasses(String name) {
    assertThat(NameRules.vendorProblem(name)).isEmpty();
    assertThat(NameRules.classProblem(name)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|empty name",
      "a|at least 2 characters",
      "1a|should start with a letter",
      "_a|should start with a letter",
      ".ab|should start with a letter",
      "ab-|should end with a letter or digit",
      "ab.|should end with a letter or digit",
      "ab_|should end with a letter or digit",
      "a/b|invalid character '/'",
      "a=b|invalid character '='",
      "a:b|invalid character ':'",
      "a b|invalid character ' '",
      "aéb|invalid character 'é'",
      "éa|should start with a letter"})
  void libraryRefusesVendorsAndClasses(String name, String reason) {
    assertThat(NameRules.vendorProblem(name))
        .hasValueSatisfying(r -> assertThat(r).contains(reason));
    assertThat(NameRules.classProblem(name))
        .hasValueSatisfying(r -> assertThat(r).contains(reason));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "a", "dev", "0dev", "dev_1:2.3", "a-b", "Z9"})
  void libraryAcceptsDeviceNames(String name) {
    assertThat(NameRules.deviceNameProblem(name)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-dev", "_dev", ":dev", "dev-", "dev:", "dev.", "a dev", "a/b", "a=b",
      "a*b"})
  void libraryRefusesDeviceNames(String name) {
    assertThat(NameRules.deviceNameProblem(name)).isPresent();
  }

  @org.junit.jupiter.api.Test
  void strictVendorLengthBoundaryIs253() {
    String label = "a".repeat(63);
    String v253 = label + "." + label + "." + label + "." + "a".repeat(61);
    assertThat(v253).hasSize(253);
    assertThat(NameRules.strictVendorProblem(v253)).isEmpty();
    assertThat(NameRules.strictVendorProblem(v253 + "a")).hasValueSatisfying(
        r -> assertThat(r).contains("254 characters long, at most 253"));
  }

  @org.junit.jupiter.api.Test
  void strictVendorLabelsAreAtMost63() {
    assertThat(NameRules.strictVendorProblem("a".repeat(63) + ".com")).isEmpty();
    assertThat(NameRules.strictVendorProblem("a".repeat(64) + ".com")).isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Vendor.com", "ven_dor.com", "vendor..com", "vendor-.com",
      "vendor.-com", "a"})
  void strictVendorRefusesWhatIsNotALowerCaseSubdomain(String vendor) {
    assertThat(NameRules.strictVendorProblem(vendor)).isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ab", "k8s.gpu.example.com", "vendor-1.com", "a0"})
  void strictVendorAcceptsSubdomains(String vendor) {
    assertThat(NameRules.strictVendorProblem(vendor)).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void strictClassLengthBoundaryIs63() {
    assertThat(NameRules.strictClassProblem("c".repeat(63))).isEmpty();
    assertThat(NameRules.strictClassProblem("c".repeat(64))).hasValueSatisfying(
        r -> assertThat(r).contains("64 characters long, at most 63"));
    assertThat(NameRules.classProblem("c".repeat(64))).isEmpty();
    assertThat(NameRules.strictClassProblem("c")).isPresent();
    assertThat(NameRules.strictClassProblem("Gpu_Class.v2")).isEmpty();
  }
}
