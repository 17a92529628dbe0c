package io.github.dra4j.examples.gpu.command;

import java.util.List;

/**
 * {@link KubeletPluginProcessTest} on {@code target/gpu-driver.jar}, the jar the image runs, as
 * the DaemonSet runs it: the jar leaves out dependencies the driver never loads, and this proves
 * that nothing the plugin needs went with them. Run by Failsafe after {@code package}.
 */
class ShadedKubeletPluginIT extends KubeletPluginProcessTest {

  @Override
  List<String> driverCommand() {
    return DriverCommands.imageJar();
  }
}
