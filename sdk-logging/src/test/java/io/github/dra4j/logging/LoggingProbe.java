package io.github.dra4j.logging;

import java.util.List;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * A program that logs what a driver logs, run as its own process by {@link LoggingProcessTest}:
 * nothing calls dra4j-logging, which logback finds on the class path by itself.
 */
public final class LoggingProbe {

  private LoggingProbe() {}

  /**
   * Logs a prepare's line with the SDK's MDC keys, a DEBUG line, two records through {@code
   * java.util.logging} (INFO and FINE) and a warning with an exception.
   *
   * @param args not used
   */
  public static void main(String[] args) {
    Logger log = LoggerFactory.getLogger("io.github.dra4j.kubeletplugin.internal.node.NodeService");
    MDC.put("requestID", "7");
    MDC.put("method", "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources");
    MDC.put("claim", "default/gpu-1:0b9c");
    log.atInfo().setMessage("Prepared claim").addKeyValue("devices", List.of("node-1/gpu-0"))
        .addKeyValue("durationMs", 3.25).log();
    log.debug("a debug line");
    java.util.logging.Logger jul = java.util.logging.Logger.getLogger("io.grpc.internal.Probe");
    jul.info("a record through java.util.logging");
    jul.log(Level.FINE, "a FINE record through java.util.logging");
    log.warn("a warning", new IllegalStateException("device \"gpu-0\" busy"));
    MDC.clear();
  }
}
