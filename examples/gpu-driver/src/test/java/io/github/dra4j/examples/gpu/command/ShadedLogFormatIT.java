package io.github.dra4j.examples.gpu.command;

import java.util.List;

/**
 * {@link LogFormatProcessTest} on {@code target/gpu-driver.jar}, the jar the image runs: its
 * logging is dra4j-logging's, not a missing backend's silence.
 */
class ShadedLogFormatIT extends LogFormatProcessTest {

  @Override
  List<String> driverCommand() {
    return DriverCommands.imageJar();
  }
}
