package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The chart's own files, read as data: Chart.yaml and values.yaml. */
final class ChartFiles {

  private ChartFiles() {}

  /** Chart.yaml. */
  static Map<String, Object> chart() {
    return read(Helm.CHART.resolve("Chart.yaml"));
  }

  /** values.yaml. */
  static Map<String, Object> values() {
    return read(Helm.CHART.resolve("values.yaml"));
  }

  /**
   * A value of values.yaml by its dotted path.
   *
   * @param path e.g. {@code kubeletPlugin.jvmOptions}
   * @return the value
   */
  static Object value(String path) {
    Object current = values();
    for (String key : path.split("\\.", -1)) {
      assertThat(current).as("values.yaml: %s is not inside a map", path).isInstanceOf(Map.class);
      current = ((Map<?, ?>) current).get(key);
    }
    assertThat(current).as("values.yaml has %s", path).isNotNull();
    return current;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> read(Path file) {
    try {
      return Serialization.unmarshal(Files.readString(file), Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
