package io.github.dra4j.cdi.name;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The legacy CDI device annotation: its key is {@code cdi.k8s.io/} plus the plugin name and the
 * device ID joined by {@code _} with slashes replaced, each part a checked name of at most 63
 * characters; its value is the checked qualified device names joined by commas.
 */
class LegacyDeviceAnnotationTest {

  @Test
  void buildsKeysReplacingSlashes() {
    assertThat(LegacyDeviceAnnotation.key("vendor.class", "device"))
        .isEqualTo("cdi.k8s.io/vendor.class_device");
    assertThat(LegacyDeviceAnnotation.key("v-e.n_d.or.cl-as_s", "d-e/v/i/c-e"))
        .isEqualTo("cdi.k8s.io/v-e.n_d.or.cl-as_s_d-e_v_i_c-e");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "_vendor.class|device",
      "vendor.class|device_",
      "ven.dor-cl+ass|device",
      "vendor.class|dev+ice",
      "''|device",
      "vendor.class|''"})
  void refusesBadKeys(String plugin, String deviceId) {
    assertThatThrownBy(() -> LegacyDeviceAnnotation.key(plugin, deviceId))
        .isInstanceOf(InvalidNameException.class);
  }

  @Test
  void nameLengthBoundaryIs63() {
    String plugin56 = "p".repeat(56);
    assertThat(LegacyDeviceAnnotation.key(plugin56, "device")).hasSize(
        LegacyDeviceAnnotation.KEY_PREFIX.length() + 63);
    assertThatThrownBy(() -> LegacyDeviceAnnotation.key(plugin56 + "p", "device"))
        .hasMessageContaining("64 characters long, at most 63");
  }

  @Test
  void valueJoinsCheckedNames() {
    assertThat(LegacyDeviceAnnotation.value(List.of("vendor.com/gpu=a", "vendor.com/gpu=b")))
        .isEqualTo("vendor.com/gpu=a,vendor.com/gpu=b");
    assertThatThrownBy(() -> LegacyDeviceAnnotation.value(List.of("vendor.com/gpu=a", "/dev/x")))
        .isInstanceOf(InvalidNameException.class);
    assertThatThrownBy(() -> LegacyDeviceAnnotation.value(List.of()))
        .isInstanceOf(InvalidNameException.class);
  }
}
