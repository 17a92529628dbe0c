package io.github.dra4j.cdi.name;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Qualified device names ({@code vendor.com/class=name}) and kinds ({@code vendor.com/class}):
 * what a runtime accepts and refuses, split at the first {@code /} and the first {@code =}, with
 * the refused text named in the error.
 */
class QualifiedDeviceNameTest {

  @Test
  void parsesVendorClassAndName() {
    QualifiedDeviceName name = QualifiedDeviceName.parse("vendor.com/class=dev");
    assertThat(name.vendor()).isEqualTo("vendor.com");
    assertThat(name.className()).isEqualTo("class");
    assertThat(name.name()).isEqualTo("dev");
    assertThat(name).hasToString("vendor.com/class=dev");
  }

  @ParameterizedTest
  @ValueSource(strings = {"vendor.com/class=dev", "vendor.com/class=0",
      "vendor1.com/class.subclass=dev1", "yet_another-vendor2.com/c-lass_2=dev_1:2.3"})
  void validNames(String text) {
    assertThat(QualifiedDeviceName.isQualifiedName(text)).isTrue();
    assertThat(QualifiedDeviceName.parse(text)).hasToString(text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"_invalid.com/class=dev", "invalid2.com-/class=dev",
      "invalid3.com/_class=dev", "invalid4.com/class_=dev", "invalid5.com/class=-dev",
      "invalid6.com/class=dev:", "*.com/*dev=*gpu*", "vendor2.com/device2", "/dev/null", "",
      "vendor.com=dev", "/vendor.com/class=dev", "vendor.com/=dev", "vendor.com/class=",
      "a/b=c"})
  void invalidNames(String text) {
    assertThat(QualifiedDeviceName.isQualifiedName(text)).isFalse();
    assertThatThrownBy(() -> QualifiedDeviceName.parse(text))
        .isInstanceOf(InvalidNameException.class)
        .hasMessageStartingWith("qualified device name \"" + text + "\"");
  }

  @Test
  void splitsAtTheFirstEqualsSign() {
    assertThatThrownBy(() -> QualifiedDeviceName.parse("vendor.com/class=a=b"))
        .hasMessageContaining("invalid character '='");
  }

  @Test
  void kindParsesAtTheFirstSlashAndBuildsNames() {
    Kind kind = Kind.parse("k8s.gpu.example.com/gpu");
    assertThat(kind.vendor()).isEqualTo("k8s.gpu.example.com");
    assertThat(kind.className()).isEqualTo("gpu");
    assertThat(kind.device("claim-gpu0")).hasToString("k8s.gpu.example.com/gpu=claim-gpu0");
    assertThat(Kind.of("vendor.com", "device")).isEqualTo(Kind.parse("vendor.com/device"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo", "vendor.com/foo/", "vendor.com/foo/bar", "/foo", "vendor.com/",
      "vendor.comdevice"})
  void invalidKinds(String text) {
    assertThatThrownBy(() -> Kind.parse(text))
        .isInstanceOf(InvalidNameException.class)
        .satisfies(e -> assertThat(((InvalidNameException) e).field()).isEqualTo("kind"))
        .satisfies(e -> assertThat(((InvalidNameException) e).value()).isEqualTo(text));
  }

  @Test
  void specExampleKindsAreValid() {
    assertThat(Kind.parse("foo.bar.baz/foo-bar123.B_az").className()).isEqualTo("foo-bar123.B_az");
  }

  @Test
  void controlCharactersAreEscapedInMessages() {
    assertThatThrownBy(() -> Kind.of("vendor.com", "cl\u0000ss"))
        .hasMessageContaining("cl\\u0000ss");
  }
}
