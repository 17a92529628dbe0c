package io.github.dra4j.examples.gpu.command;

import java.util.List;

/**
 * {@link WebhookProcessTest} on {@code target/gpu-driver.jar}, as the chart's webhook Deployment
 * runs it: the jar leaves out BouncyCastle and other dependencies the driver never loads, and
 * this proves the webhook reads its PEM files and serves HTTPS without them. Run by Failsafe
 * after {@code package}.
 */
class ShadedWebhookIT extends WebhookProcessTest {

  @Override
  List<String> driverCommand() {
    return DriverCommands.imageJar();
  }
}
