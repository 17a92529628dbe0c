package io.github.dra4j.core.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogValuesTest {

  @Test
  void aNewlineCannotForgeALineAndControlCharactersAreEscaped() {
    assertThat(LogValues.quote("Pod\nINFO admission webhook stopped"))
        .isEqualTo("\"Pod\\nINFO admission webhook stopped\"");
    assertThat(LogValues.quote("a\r\tb\"c\\d\u001be\u2028"))
        .isEqualTo("\"a\\r\\tb\\\"c\\\\d\\u001be\\u2028\"");
    assertThat(LogValues.quote(null)).isEqualTo("(none)");
  }

  @Test
  void aLongValueKeepsItsStartAndSaysHowLongItWas() {
    String value = "x".repeat(3 * 1024 * 1024);

    String logged = LogValues.quote(value, 10);

    assertThat(logged).isEqualTo("\"xxxxxxxxxx\"... (3145728 characters, 3145718 not shown)");
    assertThat(LogValues.line("ab\ncd", 3)).isEqualTo("ab\\n... (5 characters, 2 not shown)");
  }
}
