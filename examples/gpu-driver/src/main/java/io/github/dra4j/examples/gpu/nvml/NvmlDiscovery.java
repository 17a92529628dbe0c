package io.github.dra4j.examples.gpu.nvml;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.GpuDiscovery;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlLibrary;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlStructs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the GPUs through NVML. Every value of a {@link Gpu} comes from an NVML call: {@code
 * nvmlDeviceGetCount_v2}, then per GPU {@code nvmlDeviceGetHandleByIndex_v2}, its minor number,
 * UUID, name, brand, architecture, CUDA compute capability, PCI info ({@code _v3}), memory and
 * MIG mode, with the system's driver and CUDA driver versions; MIG devices come from {@link
 * MigReader}. Only the PCIe root is read elsewhere: from sysfs, where readable. A failed call is
 * a {@link DiscoveryException} naming the call, the GPU and {@code nvmlErrorString}; the only
 * tolerated failures are memory and MIG mode {@code NOT_SUPPORTED} (memory 0, MIG off).
 *
 * <p>Stateless beyond the borrowed session, so {@link #discover} may run on any thread, also
 * while the health source runs; the {@link NvmlBackend} owns the session, so {@link #close} does
 * nothing.
 */
final class NvmlDiscovery implements GpuDiscovery {

  private static final Logger LOG = LoggerFactory.getLogger(NvmlDiscovery.class);

  private final NvmlSession session;
  private final Path sysfsRoot;
  private final MigReader migReader;

  NvmlDiscovery(NvmlSession session, Path sysfsRoot) {
    this.session = session;
    this.sysfsRoot = sysfsRoot;
    this.migReader = new MigReader(session);
  }

  @Override
  public List<Gpu> discover() throws DiscoveryException {
    try {
      return read();
    } catch (NvmlException e) {
      throw new DiscoveryException(e.getMessage() + " (NVML from " + session.path() + ")", e);
    } catch (IllegalArgumentException e) {
      throw new DiscoveryException(e.getMessage() + " (NVML from " + session.path() + ")", e);
    }
  }

  @Override
  public String describe() {
    NvmlLibrary nvml = session.library();
    String version;
    try {
      version = session.text("nvmlSystemGetNVMLVersion", "",
          NvmlLibrary.SYSTEM_VERSION_BUFFER_SIZE, nvml::nvmlSystemGetNVMLVersion);
    } catch (NvmlException e) {
      version = "(version unknown: " + e.getMessage() + ")";
    }
    return "NVML " + version + " from " + session.path();
  }

  private List<Gpu> read() throws NvmlException {
    NvmlLibrary nvml = session.library();
    String driverVersion = NvmlFormats.semver("driver version",
        session.text("nvmlSystemGetDriverVersion", "", NvmlLibrary.SYSTEM_VERSION_BUFFER_SIZE,
            nvml::nvmlSystemGetDriverVersion));
    String cudaVersion = NvmlFormats.cudaVersion(session.number(
        "nvmlSystemGetCudaDriverVersion_v2", "", nvml::nvmlSystemGetCudaDriverVersion_v2));
    int count = session.number("nvmlDeviceGetCount_v2", "", nvml::nvmlDeviceGetCount_v2);
    List<Gpu> gpus = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      gpus.add(readGpu(i, driverVersion, cudaVersion));
    }
    gpus.sort(Comparator.comparingInt(Gpu::minor));
    LOG.debug("NVML found {} GPUs", gpus.size());
    return gpus;
  }

  private Gpu readGpu(int index, String driverVersion, String cudaVersion)
      throws NvmlException {
    NvmlLibrary nvml = session.library();
    Pointer device = session.handle("nvmlDeviceGetHandleByIndex_v2", "GPU index " + index,
        ref -> nvml.nvmlDeviceGetHandleByIndex_v2(index, ref));
    String uuid = session.text("nvmlDeviceGetUUID", "GPU index " + index,
        NvmlLibrary.DEVICE_UUID_BUFFER_SIZE, (b, l) -> nvml.nvmlDeviceGetUUID(device, b, l));
    String subject = "GPU index " + index + " (" + uuid + ")";
    int minor = session.number("nvmlDeviceGetMinorNumber", subject,
        v -> nvml.nvmlDeviceGetMinorNumber(device, v));
    String name = session.text("nvmlDeviceGetName", subject,
        NvmlLibrary.DEVICE_NAME_BUFFER_SIZE, (b, l) -> nvml.nvmlDeviceGetName(device, b, l));
    String brand = NvmlFormats.brand(session.number("nvmlDeviceGetBrand", subject,
        v -> nvml.nvmlDeviceGetBrand(device, v)));
    String architecture = NvmlFormats.architecture(session.number("nvmlDeviceGetArchitecture",
        subject, v -> nvml.nvmlDeviceGetArchitecture(device, v)));
    IntByReference major = new IntByReference();
    IntByReference minorCc = new IntByReference();
    session.check("nvmlDeviceGetCudaComputeCapability", subject,
        () -> nvml.nvmlDeviceGetCudaComputeCapability(device, major, minorCc));
    String computeCapability = NvmlFormats.computeCapability(major.getValue(),
        minorCc.getValue());
    NvmlStructs.PciInfo pci = new NvmlStructs.PciInfo();
    session.check("nvmlDeviceGetPciInfo_v3", subject,
        () -> nvml.nvmlDeviceGetPciInfo_v3(device, pci));
    Optional<String> busId = NvmlFormats.busId(pci.busIdText());
    if (busId.isEmpty()) {
      LOG.warn("{}: nvmlDeviceGetPciInfo_v3 gave bus ID \"{}\", which is not"
          + " domain:bus:device.function; publishing none", subject, pci.busIdText());
    }
    Optional<String> pcieRoot = busId.flatMap(id -> NvmlFormats.pcieRoot(sysfsRoot, id));
    long memoryBytes = memory(device, subject);
    boolean migEnabled = migEnabled(device, subject);
    List<MigDevice> migDevices = migEnabled ? migReader.read(device, subject, memoryBytes)
        : List.of();
    return new Gpu(minor, uuid, name, brand, architecture, computeCapability, driverVersion,
        cudaVersion, busId, pcieRoot, memoryBytes, 100, migEnabled, migDevices);
  }

  private long memory(Pointer device, String subject) throws NvmlException {
    NvmlStructs.MemoryInfo memory = new NvmlStructs.MemoryInfo();
    int result = session.status("nvmlDeviceGetMemoryInfo",
        () -> session.library().nvmlDeviceGetMemoryInfo(device, memory));
    if (result == NvmlLibrary.ERROR_NOT_SUPPORTED) {
      LOG.debug("{}: nvmlDeviceGetMemoryInfo is not supported; publishing memory 0", subject);
      return 0;
    }
    if (result != NvmlLibrary.SUCCESS) {
      throw session.failure("nvmlDeviceGetMemoryInfo", subject, result);
    }
    return memory.total;
  }

  private boolean migEnabled(Pointer device, String subject) throws NvmlException {
    IntByReference current = new IntByReference();
    IntByReference pending = new IntByReference();
    int result = session.status("nvmlDeviceGetMigMode",
        () -> session.library().nvmlDeviceGetMigMode(device, current, pending));
    if (result == NvmlLibrary.ERROR_NOT_SUPPORTED) {
      return false;
    }
    if (result != NvmlLibrary.SUCCESS) {
      throw session.failure("nvmlDeviceGetMigMode", subject, result);
    }
    if (current.getValue() != pending.getValue()) {
      LOG.warn("{}: MIG mode {} is pending and takes effect at the next GPU reset", subject,
          pending.getValue() == NvmlLibrary.DEVICE_MIG_ENABLE ? "on" : "off");
    }
    return current.getValue() == NvmlLibrary.DEVICE_MIG_ENABLE;
  }
}
