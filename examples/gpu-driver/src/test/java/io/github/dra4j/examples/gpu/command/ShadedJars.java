package io.github.dra4j.examples.gpu.command;

import java.nio.file.Path;

/** The module's two executable jars, as {@code package} writes them. */
final class ShadedJars {

  /** The jar the image runs: the plugin and the webhook. */
  static final Path DRIVER = Path.of("target", "gpu-driver.jar").toAbsolutePath();

  /** The same with the simulated node the demo runs on. */
  static final Path DEMO = Path.of("target", "gpu-driver-demo.jar").toAbsolutePath();

  private ShadedJars() {}
}
