package ${package}.devices;

import ${package}.config.DriverConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Simulated devices, so that the driver runs (on a laptop, in CI, on any node) before there is
 * hardware: {@code device-0}, {@code device-1}, ..., alternately of model {@code standard}
 * (16Gi) and {@code large} (64Gi), with UUIDs derived from the node's name and the index, so
 * they are the same after a restart. A configuration applied to a device is only logged and
 * remembered ({@link #applied()}). Thread-safe.
 */
public final class SimulatedDevices implements DeviceBackend {

  /** The most devices one node may simulate. */
  public static final int MAX_DEVICES = 64;

  private static final Logger LOG = LoggerFactory.getLogger(SimulatedDevices.class);

  private final List<DeviceInfo> devices;
  private final Map<String, DriverConfig> applied = new ConcurrentHashMap<>();

  /**
   * Simulates the devices of a node.
   *
   * @param nodeName the node's name, which seeds the UUIDs
   * @param count how many devices, from 0 to {@value #MAX_DEVICES}
   * @throws IllegalArgumentException for a count out of range
   */
  public SimulatedDevices(String nodeName, int count) {
    Objects.requireNonNull(nodeName, "nodeName");
    if (count < 0 || count > MAX_DEVICES) {
      throw new IllegalArgumentException("want 0 to " + MAX_DEVICES + " devices, got " + count);
    }
    this.devices = IntStream.range(0, count).mapToObj(i -> new DeviceInfo(i, "device-" + i,
        UUID.nameUUIDFromBytes((nodeName + "/" + i).getBytes(StandardCharsets.UTF_8)).toString(),
        i % 2 == 0 ? "standard" : "large", i % 2 == 0 ? "16Gi" : "64Gi")).toList();
  }

  @Override
  public List<DeviceInfo> discover() {
    return devices;
  }

  @Override
  public void apply(DeviceInfo device, DriverConfig config) {
    applied.put(device.name(), config);
    LOG.info("Simulated {}: profile {}, power limit {}", device.name(), config.profile(),
        config.powerLimitWatts() == null ? "the device's own" : config.powerLimitWatts() + " W");
  }

  @Override
  public void reset(DeviceInfo device) {
    if (applied.remove(device.name()) != null) {
      LOG.info("Simulated {}: back to its own settings", device.name());
    }
  }

  /**
   * The configurations applied now, by device name: what a test reads instead of the hardware.
   *
   * @return a snapshot
   */
  public Map<String, DriverConfig> applied() {
    return Map.copyOf(applied);
  }
}
