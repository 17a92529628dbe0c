package ${package};

import ${package}.config.DriverConfig;
import ${package}.devices.DeviceBackend;
import ${package}.devices.DeviceInfo;
import ${package}.devices.SimulatedDevices;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Simulated devices that also record each call, in order: what a test checks on hardware. */
public final class RecordingDevices implements DeviceBackend {

  private final SimulatedDevices devices;
  private final List<String> calls = new CopyOnWriteArrayList<>();

  /**
   * Records the calls to some simulated devices.
   *
   * @param devices the devices
   */
  public RecordingDevices(SimulatedDevices devices) {
    this.devices = devices;
  }

  @Override
  public List<DeviceInfo> discover() {
    return devices.discover();
  }

  @Override
  public void apply(DeviceInfo device, DriverConfig config) {
    calls.add("apply " + device.name() + " " + config.profile());
    devices.apply(device, config);
  }

  @Override
  public void reset(DeviceInfo device) {
    calls.add("reset " + device.name());
    devices.reset(device);
  }

  /**
   * The calls so far.
   *
   * @return e.g. {@code apply device-1 Performance}, {@code reset device-1}
   */
  public List<String> calls() {
    return List.copyOf(calls);
  }
}
