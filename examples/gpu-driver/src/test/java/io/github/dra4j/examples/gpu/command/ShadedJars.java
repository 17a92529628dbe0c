package io.github.dra4j.examples.gpu.command;

import java.nio.file.Path;

/** The module's executable jar, as {@code package} writes it. */
final class ShadedJars {

  /** The jar the image runs: the plugin and the webhook. */
  static final Path DRIVER = Path.of("target", "gpu-driver.jar").toAbsolutePath();

  private ShadedJars() {}
}
