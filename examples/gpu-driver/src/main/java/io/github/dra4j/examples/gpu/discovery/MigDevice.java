package io.github.dra4j.examples.gpu.discovery;

import java.util.Objects;

/**
 * A MIG (multi-instance GPU) device that exists on a GPU: one GPU instance with one compute
 * instance, created outside the driver (static MIG).
 *
 * @param uuid the MIG device's own UUID, {@code MIG-...}
 * @param profile the GPU instance profile's name, for example {@code 1g.10gb}
 * @param giProfileId the GPU instance profile's ID
 * @param placementStart the first memory slice of its placement
 * @param placementSize how many memory slices it occupies
 * @param giId the GPU instance's ID
 * @param ciId the compute instance's ID
 * @param memoryBytes its memory in bytes
 * @param multiprocessors its streaming multiprocessors
 * @param copyEngines its copy engines
 * @param decoders its video decoders
 * @param encoders its video encoders
 * @param jpegEngines its JPEG engines
 * @param ofaEngines its optical-flow engines
 */
public record MigDevice(String uuid, String profile, int giProfileId, int placementStart,
    int placementSize, int giId, int ciId, long memoryBytes, int multiprocessors,
    int copyEngines, int decoders, int encoders, int jpegEngines, int ofaEngines) {

  /**
  
   * Checks the fields.
  
   *
  
   * @param uuid the MIG device's own UUID, {@code MIG-...}
  
   * @param profile the GPU instance profile's name, for example {@code 1g.10gb}
  
   * @param giProfileId the GPU instance profile's ID
  
   * @param placementStart the first memory slice of its placement
  
   * @param placementSize how many memory slices it occupies
  
   * @param giId the GPU instance's ID
  
   * @param ciId the compute instance's ID
  
   * @param memoryBytes its memory in bytes
  
   * @param multiprocessors its streaming multiprocessors
  
   * @param copyEngines its copy engines
  
   * @param decoders its video decoders
  
   * @param encoders its video encoders
  
   * @param jpegEngines its JPEG engines
  
   * @param ofaEngines its optical-flow engines
  
   */

  public MigDevice {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(profile, "profile");
    if (placementStart < 0 || placementSize < 1) {
      throw new IllegalArgumentException("placement must start at 0 or later and have a size,"
          + " got start " + placementStart + " size " + placementSize);
    }
  }
}
