package io.github.dra4j.examples.gpu.nvml;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlLibrary;
import io.github.dra4j.examples.gpu.nvml.internal.NvmlStructs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the MIG devices that exist on a GPU in MIG mode: each MIG device's UUID, GPU and compute
 * instance IDs and memory from its own handle, its GPU instance's profile and placement from
 * {@code nvmlDeviceGetGpuInstanceById} and {@code nvmlGpuInstanceGetInfo}, and the profile's
 * name and engine counts from {@code nvmlDeviceGetGpuInstanceProfileInfo} (the engine counts are
 * the GPU instance's: a static MIG device has one compute instance spanning it). Reading GPU
 * instances needs a privileged process, as the driver's plugin is. Stateless; used by {@link
 * NvmlDiscovery} on its caller's thread.
 */
final class MigReader {

  /** A GPU instance profile, as {@code nvmlDeviceGetGpuInstanceProfileInfo} describes it. */
  private record Profile(String name, int multiprocessors, int copyEngines, int decoders,
      int encoders, int jpegEngines, int ofaEngines, long memoryMib) {}

  private final NvmlSession session;

  MigReader(NvmlSession session) {
    this.session = session;
  }

  /**
   * The MIG devices of a GPU, in NVML's index order.
   *
   * @param gpu the GPU's handle
   * @param subject the GPU, for messages
   * @param gpuBytes the GPU's memory, to name profiles; 0 if unknown
   * @throws NvmlException if a call fails
   */
  List<MigDevice> read(Pointer gpu, String subject, long gpuBytes) throws NvmlException {
    NvmlLibrary nvml = session.library();
    int max = session.number("nvmlDeviceGetMaxMigDeviceCount", subject,
        count -> nvml.nvmlDeviceGetMaxMigDeviceCount(gpu, count));
    Map<Integer, Profile> profiles = null;
    List<MigDevice> devices = new ArrayList<>();
    for (int i = 0; i < max; i++) {
      int index = i;
      PointerByReference ref = new PointerByReference();
      int result = session.status("nvmlDeviceGetMigDeviceHandleByIndex",
          () -> nvml.nvmlDeviceGetMigDeviceHandleByIndex(gpu, index, ref));
      if (result == NvmlLibrary.ERROR_NOT_FOUND) {
        continue;
      }
      if (result != NvmlLibrary.SUCCESS) {
        throw session.failure("nvmlDeviceGetMigDeviceHandleByIndex", "MIG index " + i + " of "
            + subject, result);
      }
      if (profiles == null) {
        profiles = profiles(gpu, subject, gpuBytes);
      }
      devices.add(readOne(gpu, ref.getValue(), "MIG device " + i + " of " + subject, profiles));
    }
    return devices;
  }

  private MigDevice readOne(Pointer gpu, Pointer mig, String subject,
      Map<Integer, Profile> profiles) throws NvmlException {
    NvmlLibrary nvml = session.library();
    String uuid = session.text("nvmlDeviceGetUUID", subject,
        NvmlLibrary.DEVICE_UUID_BUFFER_SIZE, (b, l) -> nvml.nvmlDeviceGetUUID(mig, b, l));
    String about = subject + " (" + uuid + ")";
    int giId = session.number("nvmlDeviceGetGpuInstanceId", about,
        id -> nvml.nvmlDeviceGetGpuInstanceId(mig, id));
    int ciId = session.number("nvmlDeviceGetComputeInstanceId", about,
        id -> nvml.nvmlDeviceGetComputeInstanceId(mig, id));
    Pointer gpuInstance = session.handle("nvmlDeviceGetGpuInstanceById",
        "GPU instance " + giId + " of " + about,
        ref -> nvml.nvmlDeviceGetGpuInstanceById(gpu, giId, ref));
    NvmlStructs.GpuInstanceInfo info = new NvmlStructs.GpuInstanceInfo();
    session.check("nvmlGpuInstanceGetInfo", "GPU instance " + giId + " of " + about,
        () -> nvml.nvmlGpuInstanceGetInfo(gpuInstance, info));
    Profile profile = profiles.get(info.profileId);
    if (profile == null) {
      throw new NvmlException("GPU instance " + giId + " of " + about + " has profile ID "
          + info.profileId + ", which nvmlDeviceGetGpuInstanceProfileInfo does not list (known: "
          + profiles.keySet() + ")", NvmlLibrary.ERROR_NOT_FOUND);
    }
    NvmlStructs.MemoryInfo memory = new NvmlStructs.MemoryInfo();
    int result = session.status("nvmlDeviceGetMemoryInfo",
        () -> nvml.nvmlDeviceGetMemoryInfo(mig, memory));
    long memoryBytes;
    if (result == NvmlLibrary.SUCCESS) {
      memoryBytes = memory.total;
    } else if (result == NvmlLibrary.ERROR_NOT_SUPPORTED) {
      memoryBytes = profile.memoryMib() * 1024 * 1024;
    } else {
      throw session.failure("nvmlDeviceGetMemoryInfo", about, result);
    }
    return new MigDevice(uuid, profile.name(), info.profileId, info.placementStart,
        info.placementSize, giId, ciId, memoryBytes, profile.multiprocessors(),
        profile.copyEngines(), profile.decoders(), profile.encoders(), profile.jpegEngines(),
        profile.ofaEngines());
  }

  /** The GPU's instance profiles by ID; profile indexes the GPU or driver lacks are skipped. */
  private Map<Integer, Profile> profiles(Pointer gpu, String subject, long gpuBytes)
      throws NvmlException {
    NvmlLibrary nvml = session.library();
    Map<Integer, Profile> profiles = new HashMap<>();
    for (int i = 0; i < NvmlLibrary.GPU_INSTANCE_PROFILE_COUNT; i++) {
      int index = i;
      NvmlStructs.GpuInstanceProfileInfo info = new NvmlStructs.GpuInstanceProfileInfo();
      int result = session.status("nvmlDeviceGetGpuInstanceProfileInfo",
          () -> nvml.nvmlDeviceGetGpuInstanceProfileInfo(gpu, index, info));
      if (result == NvmlLibrary.SUCCESS) {
        String name = NvmlFormats.migProfileName(index, info.sliceCount, info.memorySizeMB,
            gpuBytes);
        profiles.putIfAbsent(info.id, new Profile(name, info.multiprocessorCount,
            info.copyEngineCount, info.decoderCount, info.encoderCount, info.jpegCount,
            info.ofaCount, info.memorySizeMB));
      } else if (result != NvmlLibrary.ERROR_NOT_SUPPORTED
          && result != NvmlLibrary.ERROR_INVALID_ARGUMENT
          && result != NvmlLibrary.ERROR_NOT_FOUND) {
        throw session.failure("nvmlDeviceGetGpuInstanceProfileInfo", "profile index " + i
            + " of " + subject, result);
      }
    }
    return profiles;
  }
}
