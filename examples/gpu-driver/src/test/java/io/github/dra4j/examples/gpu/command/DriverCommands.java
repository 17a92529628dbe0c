package io.github.dra4j.examples.gpu.command;

import java.nio.file.Path;
import java.util.List;

/**
 * The two ways the process tests start the driver's command line: its main class on the test
 * class path (Surefire, before {@code package}), or {@code target/gpu-driver.jar}, the jar the
 * image runs (Failsafe, after {@code package}), which proves that nothing the command needs was
 * left out of that jar.
 */
final class DriverCommands {

  private DriverCommands() {}

  /** The java of this JVM on the test class path, with the tests' logback configuration. */
  static List<String> onTestClassPath() {
    return List.of(java(), "-cp", System.getProperty("java.class.path"),
        "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
        GpuDriverMain.class.getName());
  }

  /** The java of this JVM on the image's jar, as its DaemonSet and Deployment run it. */
  static List<String> imageJar() {
    return List.of(java(), "-jar", ShadedJars.DRIVER.toString());
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
