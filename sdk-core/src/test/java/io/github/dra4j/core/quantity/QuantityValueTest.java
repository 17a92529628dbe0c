package io.github.dra4j.core.quantity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Quantity parsing, exactness, and the integer conversion Kubernetes allows only for values kept
 * in its fast 64-bit form: {@code 99999Gi} converts, {@code 100000Gi} does not although it fits in
 * a long, and neither does {@code 1000m}.
 */
class QuantityValueTest {

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "1 ", " 1", "1.2.3", "1Kb"})
  void textOutsideTheGrammarIsRefusedWithTheRegexMessage(String text) {
    assertThatThrownBy(() -> QuantityValue.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(QuantityParser.FORMAT_ERROR);
  }

  @ParameterizedTest
  @ValueSource(strings = {"200K", "10Mm", "1i", "1e", "1ki"})
  void unknownSuffixesAreRefused(String text) {
    assertThatThrownBy(() -> QuantityValue.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unable to parse quantity's suffix");
  }

  @ParameterizedTest
  @CsvSource({
      "+1, 1", "1., 1", ".5, 0.5", "1e-3, 0.001", "1E3, 1000", "-1.5e-3, -0.0015",
      "1Ki, 1024", "1.5Gi, 1610612736", "0.5Ki, 512", "100m, 0.1", "0, 0", "000, 0"
  })
  void validFormsHaveTheirExactValue(String text, String value) {
    assertThat(QuantityValue.parse(text).toBigDecimal())
        .isEqualByComparingTo(new BigDecimal(value));
  }

  @Test
  void valuesAreRoundedUpInMagnitudeToNanoPrecision() {
    assertThat(QuantityValue.parse("1e-10")).isEqualTo(QuantityValue.parse("1n"));
    assertThat(QuantityValue.parse("1.5n")).isEqualTo(QuantityValue.parse("2n"));
    assertThat(QuantityValue.parse("-1.5n")).isEqualTo(QuantityValue.parse("-2n"));
  }

  @Test
  void binaryValuesAreCappedAtTheLargestLong() {
    assertThat(QuantityValue.parse("10Ei")).isEqualTo(QuantityValue.parse("9223372036854775807"));
  }

  @Test
  void comparisonAndArithmeticAreExact() {
    assertThat(QuantityValue.parse("0.1").add(QuantityValue.parse("0.2")))
        .isEqualTo(QuantityValue.parse("0.3"));
    assertThat(QuantityValue.parse("80Gi")).isGreaterThan(QuantityValue.parse("80G"));
    assertThat(QuantityValue.parse("1000Mi")).isNotEqualTo(QuantityValue.parse("1000M"));
    assertThat(QuantityValue.parse("1.5Gi")).isEqualTo(QuantityValue.parse("1536Mi"));
    assertThat(QuantityValue.parse("1.5Gi").hashCode())
        .isEqualTo(QuantityValue.parse("1536Mi").hashCode());
    assertThat(QuantityValue.parse("1Ki").subtract(QuantityValue.parse("2Ki")).signum())
        .isEqualTo(-1);
  }

  @ParameterizedTest
  @CsvSource({
      "1Gi, 1073741824", "99999Gi, 107373108658176", "10Ti, 10995116277760",
      "12345678901Ki, 12641975194624", "999999999999999999, 999999999999999999",
      "9E, 9000000000000000000", "1.2k, 1200"
  })
  void fastPathValuesConvertToIntegers(String text, long expected) {
    assertThat(QuantityValue.parse(text).asLong()).hasValue(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "100000Gi", "100Ti", "1Pi", "1Ei", "10E", "1000000000000000000", "9223372036854775807",
      "1.5", "1m", "1.5Gi", "1000m"
  })
  void valuesOffTheFastPathOrNotIntegralDoNotConvert(String text) {
    assertThat(QuantityValue.parse(text).asLong()).isEmpty();
  }

  @Test
  void additionStaysOnTheFastPathOnlyWithoutOverflow() {
    QuantityValue big = QuantityValue.parse("9E");
    assertThat(big.add(QuantityValue.ofLong(1)).asLong()).hasValue(9_000_000_000_000_000_001L);
    assertThat(big.add(big).asLong()).isEmpty();
    assertThat(big.add(big).toBigDecimal()).isEqualByComparingTo(new BigDecimal("18e18"));
    assertThat(QuantityValue.parse("1m").add(QuantityValue.parse("999m")).asLong()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"80Gi, 80Gi", "2048Mi, 2Gi", "1536Mi, 1536Mi", "2000, 2k", "1500, 1500", "0.5, 500m",
      "0, 0"})
  void kubernetesTextPrefersTheOriginalKindOfSuffix(String text, String canonical) {
    assertThat(QuantityValue.parse(text).toKubernetesString()).isEqualTo(canonical);
  }

  @Test
  void hugeExponentsAreRefusedInsteadOfHangingComparisons() {
    assertThatThrownBy(() -> QuantityValue.parse("1e999999999"))
        .hasMessage("unable to parse quantity's suffix");
  }
}
