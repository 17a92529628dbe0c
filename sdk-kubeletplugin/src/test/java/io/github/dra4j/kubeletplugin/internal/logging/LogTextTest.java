package io.github.dra4j.kubeletplugin.internal.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

  @Test
  void checkedNamesComeOutUnchangedAndUncopied() {
    String name = "train.claim-1";

    assertThat(LogText.text(name)).isSameAs(name);
    assertThat(LogText.quote(name)).isEqualTo("\"train.claim-1\"");
    assertThat(LogText.quote("a".repeat(253))).isEqualTo("\"" + "a".repeat(253) + "\"");
    assertThat(LogText.text("Grafikkarte für 日本")).isEqualTo("Grafikkarte für 日本");
  }

  @Test
  void whatCouldEndOrHideALineIsEscaped() {
    assertThat(LogText.text("a\nb\rc\td\u0000e\u007f")).isEqualTo("a\\x0ab\\x0dc\\x09d\\x00e\\x7f");
    assertThat(LogText.text("line\u2028sep\u0085nel\u202eevil")).isEqualTo(
        "line\\u2028sep\\u0085nel\\u202eevil");
    assertThat(LogText.quote("say \"hi\" \\ \n")).isEqualTo("\"say \\\"hi\\\" \\\\ \\x0a\"");
    assertThat(LogText.text("\uD83D\uDE00 \uDB40\uDC01")).isEqualTo("\uD83D\uDE00 \\U000e0001");
  }

  @Test
  void longValuesAreShortenedNamingTheirLength() {
    assertThat(LogText.quote("x".repeat(100_000)))
        .isEqualTo("\"" + "x".repeat(LogText.VALUE_LIMIT) + "...(100000 chars)\"");
    assertThat(LogText.text("y".repeat(5000)))
        .hasSize(LogText.MESSAGE_LIMIT + "...(5000 chars)".length());
    assertThat(LogText.text("ab\uD83D\uDE00", 3)).as("no half character")
        .isEqualTo("ab...(4 chars)");
    assertThat(LogText.quote(null)).isEqualTo("null");
  }
}
