package io.github.dra4j.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KlogTextEncoderTest {

  private final KlogTextEncoder encoder = new KlogTextEncoder();

  private String line(Level level, String message, Throwable throwable, Map<String, String> mdc,
      Object... pairs) {
    return new String(encoder.encode(Events.event(level, message, throwable, mdc, pairs)),
        StandardCharsets.UTF_8);
  }

  @Test
  void aLineHasKlogsHeaderTheQuotedMessageAndTheMdcAndPairsAsKeyValues() {
    String line = line(Level.INFO, "Prepared claim", null,
        Map.of("requestID", "17", "method", "DRAPlugin/NodePrepareResources",
            "claim", "default/gpu-1:6f0c"),
        "devices", List.of("node-1/gpu-0"), "durationMs", 12.5);

    LocalDateTime local = LocalDateTime.ofInstant(
        Instant.parse("2026-11-28T12:32:01.943123456Z"), ZoneId.systemDefault());
    String header = String.format("I%02d%02d %02d:%02d:%02d.943123 NodeService] ",
        local.getMonthValue(), local.getDayOfMonth(), local.getHour(), local.getMinute(),
        local.getSecond());
    assertThat(line).isEqualTo(header + "\"Prepared claim\" claim=\"default/gpu-1:6f0c\""
        + " method=\"DRAPlugin/NodePrepareResources\" requestID=\"17\""
        + " devices=[\"node-1/gpu-0\"] durationMs=12.5\n");
  }

  @Test
  void levelsAreKlogsLettersAndAnExceptionStaysOnTheLine() {
    assertThat(line(Level.WARN, "w", null, Map.of())).startsWith("W");
    assertThat(line(Level.DEBUG, "d", null, Map.of())).startsWith("I");
    assertThat(line(Level.TRACE, "t", null, Map.of())).startsWith("I");

    String error = line(Level.ERROR, "write failed", new IOException("disk \"full\""),
        Map.of(), "attempt", 2);

    assertThat(error).startsWith("E");
    assertThat(error.indexOf('\n')).isEqualTo(error.length() - 1);
    assertThat(error).contains("] \"write failed\" attempt=2 err=\"java.io.IOException: disk"
        + " \\\"full\\\"\" stacktrace=\"java.io.IOException: disk \\\"full\\\"\\n\\tat ");
  }

  @Test
  void messagesAndValuesAreQuotedAndEscapedAndKeysCannotBreakThePair() {
    String line = line(Level.INFO, "two\nlines \"quoted\"", null, Map.of("a key=", "x y"));

    assertThat(line.indexOf('\n')).isEqualTo(line.length() - 1);
    assertThat(line).endsWith("] \"two\\nlines \\\"quoted\\\"\" a_key_=\"x y\"\n");
  }
}
