package io.github.dra4j.examples.gpu.chart;

/**
 * The JVM options of the chart's kubelet plugin ({@code kubeletPlugin.jvmOptions}), for process
 * tests that run the plugin as the chart does: its heap, stacks, collector and compiler. The
 * options are written for the image's JDK 25; on an older test JVM the few it does not know
 * (compact object headers) are ignored rather than refused, and every other option, the heap's
 * 48 MiB ceiling first, applies as in the pod. The image's entry point adds only its AOT cache
 * and where JNA's native library is ({@code image/build-runtime.sh}); none of these options
 * writes a file.
 */
public final class ChartJvmOptions {

  private ChartJvmOptions() {}

  /**
   * The chart's options as {@code JAVA_TOOL_OPTIONS} for a JVM like the one running the tests.
   *
   * @return the options, with {@code -XX:+IgnoreUnrecognizedVMOptions} first before JDK 25
   */
  public static String forThisJvm() {
    String options = (String) ChartFiles.value("kubeletPlugin.jvmOptions");
    return Runtime.version().feature() >= 25 ? options
        : "-XX:+IgnoreUnrecognizedVMOptions " + options;
  }
}
