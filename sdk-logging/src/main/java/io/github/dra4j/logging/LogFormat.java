package io.github.dra4j.logging;

import java.util.Locale;
import java.util.Optional;

/** The line formats {@value LoggingSettings#FORMAT_VARIABLE} chooses from. */
public enum LogFormat {
  /** One klog-like line per event, for people: {@link KlogTextEncoder}. The default. */
  TEXT,
  /** One JSON object per line as the kubelet writes them, for log pipelines: {@link
   * KubernetesJsonEncoder}. */
  JSON;

  /**
   * The format a setting names, in any case.
   *
   * @param text the setting's value
   * @return the format, or empty if the text names none
   */
  public static Optional<LogFormat> parse(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "text" -> Optional.of(TEXT);
      case "json" -> Optional.of(JSON);
      default -> Optional.empty();
    };
  }

  /**
   * The lower-case name, as the setting spells it.
   *
   * @return {@code text} or {@code json}
   */
  public String settingName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
