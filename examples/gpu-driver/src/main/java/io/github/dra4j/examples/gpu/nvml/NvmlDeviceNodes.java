package io.github.dra4j.examples.gpu.nvml;

import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The device nodes of NVIDIA GPUs, with host paths from {@link DriverRoot}:
 *
 * <ul>
 *   <li>a GPU: {@code /dev/nvidia<minor>};
 *   <li>a MIG device: also {@code /dev/nvidia-caps/nvidia-cap<N>} for its GPU instance and for
 *       its compute instance, N read from {@code
 *       <proc>/driver/nvidia/capabilities/gpu<minor>/mig/gi<gi>/access} and {@code
 *       .../gi<gi>/ci<ci>/access} (the line {@code DeviceFileMinor: N});
 *   <li>common: {@code /dev/nvidiactl}, {@code /dev/nvidia-uvm}, {@code /dev/nvidia-uvm-tools}
 *       and {@code /dev/nvidia-modeset}, each only if it exists where the driver's nodes are
 *       (the UVM nodes appear once {@code nvidia-modprobe} or a first CUDA program created
 *       them); read on every call, so nodes created later are picked up.
 * </ul>
 *
 * <p>Immutable; reads the file system on each call.
 */
final class NvmlDeviceNodes {

  private static final List<String> COMMON = List.of("/dev/nvidiactl", "/dev/nvidia-uvm",
      "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset");
  private static final Pattern MINOR = Pattern.compile(
      "(?m)^DeviceFileMinor:\\s*(\\d{1,9})\\s*$");

  private final DriverRoot driverRoot;
  private final Path procRoot;

  NvmlDeviceNodes(DriverRoot driverRoot, Path procRoot) {
    this.driverRoot = driverRoot;
    this.procRoot = procRoot;
  }

  /**
   * The nodes of a GPU or one of its MIG devices.
   *
   * @throws IllegalStateException if a MIG capability file is missing or has no minor
   */
  List<HostDeviceNode> forDevice(Gpu gpu, Optional<MigDevice> mig) {
    List<HostDeviceNode> nodes = new ArrayList<>();
    nodes.add(driverRoot.deviceNode("/dev/nvidia" + gpu.minor()));
    mig.ifPresent(device -> {
      Path gi = procRoot.resolve("driver/nvidia/capabilities/gpu" + gpu.minor() + "/mig/gi"
          + device.giId());
      nodes.add(capability(gi.resolve("access"), device));
      nodes.add(capability(gi.resolve("ci" + device.ciId()).resolve("access"), device));
    });
    return List.copyOf(nodes);
  }

  /** The common nodes that exist. */
  List<HostDeviceNode> common() {
    return COMMON.stream().filter(driverRoot::deviceExists).map(driverRoot::deviceNode)
        .toList();
  }

  private HostDeviceNode capability(Path access, MigDevice device) {
    String content;
    try {
      content = Files.readString(access, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalStateException("MIG device " + device.uuid() + ": " + access
          + " does not exist (is /proc/driver/nvidia/capabilities readable, and does GPU"
          + " instance " + device.giId() + " / compute instance " + device.ciId()
          + " still exist?)", e);
    } catch (IOException e) {
      throw new UncheckedIOException("MIG device " + device.uuid() + ": cannot read " + access,
          e);
    }
    Matcher m = MINOR.matcher(content);
    if (!m.find()) {
      throw new IllegalStateException("MIG device " + device.uuid() + ": " + access
          + " has no line \"DeviceFileMinor: <number>\"");
    }
    return driverRoot.deviceNode("/dev/nvidia-caps/nvidia-cap" + Integer.parseInt(m.group(1)));
  }
}
