package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Semantic versions as selectors read them: strict parsing with the messages of the semver
 * library Kubernetes uses, the normalizing form ({@code v} prefix, leading zeros, missing parts),
 * and precedence, which ignores build metadata.
 */
class SemverValueTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "1.2|No Major.Minor.Patch elements found",
      "v1.0.0|Invalid character(s) found in major number \"v1\"",
      "1.02.0|Minor number must not contain leading zeroes \"02\"",
      "01.0.0|Major number must not contain leading zeroes \"01\"",
      "1.0.00|Patch number must not contain leading zeroes \"00\"",
      "1.0.0-01|Numeric PreRelease version must not contain leading zeroes \"01\"",
      "1.0.0-a..b|Prerelease is empty",
      "1.0.0+a_b|Invalid character(s) found in build meta data \"a_b\"",
      "' 1.0.0'|Invalid character(s) found in major number \" 1\""
  })
  void strictParsingRefusesWithBlangMessages(String text, String message) {
    assertThatThrownBy(() -> SemverValue.parse(text)).hasMessage(message);
  }

  @Test
  void normalizingDropsOneVAndLeadingZerosAndPads() {
    assertThat(SemverValue.parseNormalized("v12.4")).isEqualTo(SemverValue.parse("12.4.0"));
    assertThat(SemverValue.parseNormalized("1.02.003")).isEqualTo(SemverValue.parse("1.2.3"));
    assertThat(SemverValue.parseNormalized("7")).isEqualTo(SemverValue.parse("7.0.0"));
    assertThatThrownBy(() -> SemverValue.parseNormalized("1.0-rc.1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(SemverValue.isValid(" 1.0.0", true)).isFalse();
  }

  @Test
  void precedenceFollowsSemver() {
    assertThat(SemverValue.parse("1.0.0-alpha")).isLessThan(SemverValue.parse("1.0.0-alpha.1"));
    assertThat(SemverValue.parse("1.0.0-beta.2")).isLessThan(SemverValue.parse("1.0.0-beta.11"));
    assertThat(SemverValue.parse("1.0.0-RC")).isLessThan(SemverValue.parse("1.0.0-rc"));
    assertThat(SemverValue.parse("1.0.0-1")).isLessThan(SemverValue.parse("1.0.0-a"));
    assertThat(SemverValue.parse("1.0.0-rc.1")).isLessThan(SemverValue.parse("1.0.0"));
    assertThat(SemverValue.parse("2.0.0")).isGreaterThan(SemverValue.parse("1.99.99"));
  }

  @Test
  void buildMetadataIsIgnoredForOrderingAndEquality() {
    assertThat(SemverValue.parse("2.0.0+a")).isEqualTo(SemverValue.parse("2.0.0+b"));
    assertThat(SemverValue.parse("2.0.0+a").hashCode())
        .isEqualTo(SemverValue.parse("2.0.0+b").hashCode());
    assertThat(SemverValue.parse("2.0.0+a").toString()).isEqualTo("2.0.0+a");
  }
}
