package io.github.dra4j.examples.gpu.discovery;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One physical GPU as a discovery backend found it, with what the driver publishes about it.
 *
 * @param minor the device's minor number ({@code /dev/nvidia<minor>}); names the device {@code
 *     gpu-<minor>}
 * @param uuid the GPU's UUID, {@code GPU-...} on NVIDIA hardware, stable across restarts
 * @param productName the product name, for example {@code NVIDIA H100 80GB HBM3}
 * @param brand the brand, for example {@code Nvidia} or {@code Tesla}
 * @param architecture the architecture, for example {@code Hopper}
 * @param cudaComputeCapability the CUDA compute capability as semantic version, for example
 *     {@code 9.0.0}
 * @param driverVersion the kernel driver's version as semantic version, for example {@code
 *     570.86.15}
 * @param cudaDriverVersion the CUDA driver API version as semantic version, for example {@code
 *     12.8.0}
 * @param pciBusId the PCI bus ID ({@code 0000:1b:00.0}) where known
 * @param pcieRoot the PCIe root complex ({@code pci0000:16}) where known
 * @param memoryBytes total memory in bytes; 0 if the backend cannot tell
 * @param compute the share of the GPU's compute a whole GPU offers, in units that partitions and
 *     shared allocations consume (100 = the whole GPU)
 * @param migEnabled whether MIG mode is on: then the GPU is offered as its MIG devices only
 * @param migDevices the MIG devices that exist on it (static MIG: created outside the driver)
 */
public record Gpu(int minor, String uuid, String productName, String brand, String architecture,
    String cudaComputeCapability, String driverVersion, String cudaDriverVersion,
    Optional<String> pciBusId, Optional<String> pcieRoot, long memoryBytes, int compute,
    boolean migEnabled, List<MigDevice> migDevices) {

  /**
  
   * Checks the fields.
  
   *
  
   * @param minor the device's minor number ({@code /dev/nvidia<minor>}); names the device {@code gpu-<minor>}
  
   * @param uuid the GPU's UUID, {@code GPU-...} on NVIDIA hardware, stable across restarts
  
   * @param productName the product name, for example {@code NVIDIA H100 80GB HBM3}
  
   * @param brand the brand, for example {@code Nvidia} or {@code Tesla}
  
   * @param architecture the architecture, for example {@code Hopper}
  
   * @param cudaComputeCapability the CUDA compute capability as semantic version, for example {@code 9.0.0}
  
   * @param driverVersion the kernel driver's version as semantic version, for example {@code 570.86.15}
  
   * @param cudaDriverVersion the CUDA driver API version as semantic version, for example {@code 12.8.0}
  
   * @param pciBusId the PCI bus ID ({@code 0000:1b:00.0}) where known
  
   * @param pcieRoot the PCIe root complex ({@code pci0000:16}) where known
  
   * @param memoryBytes total memory in bytes; 0 if the backend cannot tell
  
   * @param compute the share of the GPU's compute a whole GPU offers, in units that partitions and shared allocations consume (100 = the whole GPU)
  
   * @param migEnabled whether MIG mode is on: then the GPU is offered as its MIG devices only
  
   * @param migDevices the MIG devices that exist on it (static MIG: created outside the driver)
  
   */

  public Gpu {
    if (minor < 0) {
      throw new IllegalArgumentException("minor must not be negative, got " + minor);
    }
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(productName, "productName");
    Objects.requireNonNull(brand, "brand");
    Objects.requireNonNull(architecture, "architecture");
    Objects.requireNonNull(cudaComputeCapability, "cudaComputeCapability");
    Objects.requireNonNull(driverVersion, "driverVersion");
    Objects.requireNonNull(cudaDriverVersion, "cudaDriverVersion");
    Objects.requireNonNull(pciBusId, "pciBusId");
    Objects.requireNonNull(pcieRoot, "pcieRoot");
    if (memoryBytes < 0) {
      throw new IllegalArgumentException("memoryBytes must not be negative, got " + memoryBytes);
    }
    migDevices = List.copyOf(migDevices);
  }
}
