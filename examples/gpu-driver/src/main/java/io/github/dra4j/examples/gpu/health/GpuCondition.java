package io.github.dra4j.examples.gpu.health;

import java.util.Objects;

/**
 * Something wrong with one GPU, as a health source sees it. The driver turns each condition into
 * a device taint on every device of the GPU (full GPU, partitions, MIG devices) with key {@code
 * <driver>/<key>}, and a blocking condition also into an unhealthy state on the kubelet's health
 * stream.
 *
 * @param uuid the GPU's UUID ({@link io.github.dra4j.examples.gpu.discovery.Gpu#uuid()})
 * @param key what kind: {@code xid}, {@code ecc}, {@code gpu-lost}, {@code unmonitored} or
 *     {@code unhealthy} (a DNS label, the taint key's name part)
 * @param value the taint's value, for example the XID number; may be empty
 * @param blocking true if new pods must not get the device (taint effect {@code NoSchedule});
 *     false for a condition that is only reported (effect {@code None})
 * @param message a human-readable description for logs and the health stream
 */
public record GpuCondition(String uuid, String key, String value, boolean blocking,
    String message) {

  /**
  
   * Checks the fields.
  
   *
  
   * @param uuid the GPU's UUID ({@link io.github.dra4j.examples.gpu.discovery.Gpu#uuid()})
  
   * @param key what kind: {@code xid}, {@code ecc}, {@code gpu-lost}, {@code unmonitored} or {@code unhealthy} (a DNS label, the taint key's name part)
  
   * @param value the taint's value, for example the XID number; may be empty
  
   * @param blocking true if new pods must not get the device (taint effect {@code NoSchedule}); false for a condition that is only reported (effect {@code None})
  
   * @param message a human-readable description for logs and the health stream
  
   */

  public GpuCondition {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(message, "message");
  }
}
