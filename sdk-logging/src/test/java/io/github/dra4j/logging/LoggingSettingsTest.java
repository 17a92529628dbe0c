package io.github.dra4j.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoggingSettingsTest {

  @Test
  void defaultsAreInfoAndText() {
    LoggingSettings settings = LoggingSettings.from(Map.of("LOG_LEVEL", " ", "LOG_FORMAT", ""),
        null);

    assertThat(settings).isEqualTo(new LoggingSettings(LogLevel.INFO, LogFormat.TEXT,
        java.util.List.of()));
  }

  @Test
  void namesInAnyCaseAndKlogVerbositiesAreLevels() {
    assertThat(LogLevel.parse("ERROR")).contains(LogLevel.ERROR);
    assertThat(LogLevel.parse("warning")).contains(LogLevel.WARN);
    assertThat(LogLevel.parse(" Debug ")).contains(LogLevel.DEBUG);
    assertThat(LogLevel.parse("0")).contains(LogLevel.INFO);
    assertThat(LogLevel.parse("3")).contains(LogLevel.INFO);
    assertThat(LogLevel.parse("4")).contains(LogLevel.DEBUG);
    assertThat(LogLevel.parse("5")).contains(LogLevel.TRACE);
    assertThat(LogLevel.parse("10")).contains(LogLevel.TRACE);
    assertThat(LogLevel.parse("-1")).isEmpty();
    assertThat(LogLevel.parse("99999999999")).isEmpty();
    assertThat(LogLevel.parse("verbose")).isEmpty();
    assertThat(LogFormat.parse("JSON")).contains(LogFormat.JSON);
  }

  @Test
  void aValueThatNamesNothingFallsBackWithOneLineNamingTheVariableAndTheValue() {
    LoggingSettings settings = LoggingSettings.from(
        Map.of("LOG_LEVEL", "verbose", "LOG_FORMAT", "yaml\n"), "error");

    assertThat(settings.level()).isEqualTo(LogLevel.ERROR);
    assertThat(settings.format()).isEqualTo(LogFormat.TEXT);
    assertThat(settings.problems()).containsExactly(
        "LOG_LEVEL=\"verbose\" is not a log level: want error, warn, info, debug, trace or a"
            + " klog verbosity (0-3 info, 4 debug, 5 or more trace); logging at error",
        "LOG_FORMAT=\"yaml\\u000a\" is not a log format: want text or json; logging as text");
  }

  @Test
  void theEnvironmentWinsOverTheProgramsDefaultLevel() {
    assertThat(LoggingSettings.from(Map.of("LOG_LEVEL", "debug"), "error").level())
        .isEqualTo(LogLevel.DEBUG);
    assertThat(LoggingSettings.from(Map.of(), "error").level()).isEqualTo(LogLevel.ERROR);
    assertThat(LoggingSettings.from(Map.of(), "loud").problems()).singleElement().asString()
        .startsWith("system property dra4j.logging.defaultLevel=\"loud\" is not a log level");
  }
}
