package io.github.dra4j.examples.gpu.nvml.internal;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The NVML functions the backend calls, with {@code nvml.h}'s names and signatures: every
 * function returns an {@code nvmlReturn_t}; {@code unsigned int} maps to {@code int}, {@code
 * unsigned long long} to {@code long}, handles ({@code nvmlDevice_t}, {@code nvmlGpuInstance_t},
 * {@code nvmlEventSet_t}) to {@link Pointer}. NVML is thread-safe, so one instance may be called
 * from any thread; JNA loads it from an explicit path ({@code NvmlSession}).
 */
public interface NvmlLibrary extends Library {

  /** {@code NVML_SUCCESS}. */
  int SUCCESS = 0;
  /** {@code NVML_ERROR_UNINITIALIZED}. */
  int ERROR_UNINITIALIZED = 1;
  /** {@code NVML_ERROR_INVALID_ARGUMENT}. */
  int ERROR_INVALID_ARGUMENT = 2;
  /** {@code NVML_ERROR_NOT_SUPPORTED}. */
  int ERROR_NOT_SUPPORTED = 3;
  /** {@code NVML_ERROR_NOT_FOUND}. */
  int ERROR_NOT_FOUND = 6;
  /** {@code NVML_ERROR_TIMEOUT}. */
  int ERROR_TIMEOUT = 10;
  /** {@code NVML_ERROR_FUNCTION_NOT_FOUND}: also used when JNA finds no such symbol. */
  int ERROR_FUNCTION_NOT_FOUND = 13;
  /** {@code NVML_ERROR_GPU_IS_LOST}. */
  int ERROR_GPU_IS_LOST = 15;

  /** {@code NVML_INIT_FLAG_NO_GPUS}: initialization succeeds on a node without GPUs. */
  int INIT_FLAG_NO_GPUS = 1;
  /** {@code NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE}. */
  int SYSTEM_VERSION_BUFFER_SIZE = 80;
  /** {@code NVML_DEVICE_UUID_V2_BUFFER_SIZE}. */
  int DEVICE_UUID_BUFFER_SIZE = 96;
  /** {@code NVML_DEVICE_NAME_V2_BUFFER_SIZE}. */
  int DEVICE_NAME_BUFFER_SIZE = 96;
  /** {@code NVML_DEVICE_MIG_ENABLE}. */
  int DEVICE_MIG_ENABLE = 1;
  /** {@code NVML_GPU_INSTANCE_PROFILE_COUNT} of recent drivers (older ones know fewer). */
  int GPU_INSTANCE_PROFILE_COUNT = 17;

  /** {@code nvmlEventTypeSingleBitEccError}. */
  long EVENT_SINGLE_BIT_ECC_ERROR = 0x1L;
  /** {@code nvmlEventTypeDoubleBitEccError}. */
  long EVENT_DOUBLE_BIT_ECC_ERROR = 0x2L;
  /** {@code nvmlEventTypeXidCriticalError}. */
  long EVENT_XID_CRITICAL_ERROR = 0x8L;

  /**
   * {@code nvmlInit_v2}, for drivers without {@code nvmlInitWithFlags}.
   *
   * @return the result
   */
  int nvmlInit_v2();

  /**
   * {@code nvmlInitWithFlags}.
   *
   * @param flags {@code NVML_INIT_FLAG_*}
   * @return the result
   */
  int nvmlInitWithFlags(int flags);

  /**
   * {@code nvmlShutdown}.
   *
   * @return the result
   */
  int nvmlShutdown();

  /**
   * {@code nvmlErrorString}.
   *
   * @param result a result code
   * @return its description
   */
  String nvmlErrorString(int result);

  /**
   * {@code nvmlSystemGetDriverVersion}.
   *
   * @param version receives the text
   * @param length the buffer's length
   * @return the result
   */
  int nvmlSystemGetDriverVersion(byte[] version, int length);

  /**
   * {@code nvmlSystemGetNVMLVersion}.
   *
   * @param version receives the text
   * @param length the buffer's length
   * @return the result
   */
  int nvmlSystemGetNVMLVersion(byte[] version, int length);

  /**
   * {@code nvmlSystemGetCudaDriverVersion_v2}.
   *
   * @param cudaDriverVersion receives major * 1000 + minor * 10
   * @return the result
   */
  int nvmlSystemGetCudaDriverVersion_v2(IntByReference cudaDriverVersion);

  /**
   * {@code nvmlDeviceGetCount_v2}.
   *
   * @param deviceCount receives the count
   * @return the result
   */
  int nvmlDeviceGetCount_v2(IntByReference deviceCount);

  /**
   * {@code nvmlDeviceGetHandleByIndex_v2}.
   *
   * @param index the index
   * @param device receives the handle
   * @return the result
   */
  int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

  /**
   * {@code nvmlDeviceGetMinorNumber}.
   *
   * @param device the GPU
   * @param minorNumber receives the minor number
   * @return the result
   */
  int nvmlDeviceGetMinorNumber(Pointer device, IntByReference minorNumber);

  /**
   * {@code nvmlDeviceGetUUID}.
   *
   * @param device the GPU or MIG device
   * @param uuid receives the text
   * @param length the buffer's length
   * @return the result
   */
  int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

  /**
   * {@code nvmlDeviceGetName}.
   *
   * @param device the GPU
   * @param name receives the text
   * @param length the buffer's length
   * @return the result
   */
  int nvmlDeviceGetName(Pointer device, byte[] name, int length);

  /**
   * {@code nvmlDeviceGetBrand}.
   *
   * @param device the GPU
   * @param type receives an {@code nvmlBrandType_t}
   * @return the result
   */
  int nvmlDeviceGetBrand(Pointer device, IntByReference type);

  /**
   * {@code nvmlDeviceGetArchitecture}.
   *
   * @param device the GPU
   * @param arch receives an {@code nvmlDeviceArchitecture_t}
   * @return the result
   */
  int nvmlDeviceGetArchitecture(Pointer device, IntByReference arch);

  /**
   * {@code nvmlDeviceGetCudaComputeCapability}.
   *
   * @param device the GPU
   * @param major receives the major version
   * @param minor receives the minor version
   * @return the result
   */
  int nvmlDeviceGetCudaComputeCapability(Pointer device, IntByReference major,
      IntByReference minor);

  /**
   * {@code nvmlDeviceGetPciInfo_v3}.
   *
   * @param device the GPU
   * @param pci receives the PCI information
   * @return the result
   */
  int nvmlDeviceGetPciInfo_v3(Pointer device, NvmlStructs.PciInfo pci);

  /**
   * {@code nvmlDeviceGetMemoryInfo}.
   *
   * @param device the GPU or MIG device
   * @param memory receives the memory information
   * @return the result
   */
  int nvmlDeviceGetMemoryInfo(Pointer device, NvmlStructs.MemoryInfo memory);

  /**
   * {@code nvmlDeviceGetRetiredPagesPendingStatus}.
   *
   * @param device the GPU
   * @param isPending receives an {@code nvmlEnableState_t}
   * @return the result
   */
  int nvmlDeviceGetRetiredPagesPendingStatus(Pointer device, IntByReference isPending);

  /**
   * {@code nvmlDeviceGetRemappedRows}.
   *
   * @param device the GPU
   * @param corrRows receives rows remapped for correctable errors
   * @param uncRows receives rows remapped for uncorrectable errors
   * @param isPending receives 1 if a remapping waits for a GPU reset
   * @param failureOccurred receives 1 if a remapping failed
   * @return the result
   */
  int nvmlDeviceGetRemappedRows(Pointer device, IntByReference corrRows, IntByReference uncRows,
      IntByReference isPending, IntByReference failureOccurred);

  /**
   * {@code nvmlDeviceGetMigMode}.
   *
   * @param device the GPU
   * @param currentMode receives the current mode
   * @param pendingMode receives the mode after the next reset
   * @return the result
   */
  int nvmlDeviceGetMigMode(Pointer device, IntByReference currentMode,
      IntByReference pendingMode);

  /**
   * {@code nvmlDeviceGetMaxMigDeviceCount}.
   *
   * @param device the GPU
   * @param count receives the count
   * @return the result
   */
  int nvmlDeviceGetMaxMigDeviceCount(Pointer device, IntByReference count);

  /**
   * {@code nvmlDeviceGetMigDeviceHandleByIndex}.
   *
   * @param device the GPU
   * @param index the MIG device's index
   * @param migDevice receives the MIG device's handle
   * @return the result; {@code NVML_ERROR_NOT_FOUND} if no MIG device has the index
   */
  int nvmlDeviceGetMigDeviceHandleByIndex(Pointer device, int index,
      PointerByReference migDevice);

  /**
   * {@code nvmlDeviceGetGpuInstanceId}.
   *
   * @param device the MIG device
   * @param id receives the GPU instance's ID
   * @return the result
   */
  int nvmlDeviceGetGpuInstanceId(Pointer device, IntByReference id);

  /**
   * {@code nvmlDeviceGetComputeInstanceId}.
   *
   * @param device the MIG device
   * @param id receives the compute instance's ID
   * @return the result
   */
  int nvmlDeviceGetComputeInstanceId(Pointer device, IntByReference id);

  /**
   * {@code nvmlDeviceGetGpuInstanceById}.
   *
   * @param device the GPU
   * @param id the GPU instance's ID
   * @param gpuInstance receives the GPU instance's handle
   * @return the result
   */
  int nvmlDeviceGetGpuInstanceById(Pointer device, int id, PointerByReference gpuInstance);

  /**
   * {@code nvmlGpuInstanceGetInfo}.
   *
   * @param gpuInstance the GPU instance
   * @param info receives its information
   * @return the result
   */
  int nvmlGpuInstanceGetInfo(Pointer gpuInstance, NvmlStructs.GpuInstanceInfo info);

  /**
   * {@code nvmlDeviceGetGpuInstanceProfileInfo}.
   *
   * @param device the GPU
   * @param profile a profile index, {@code NVML_GPU_INSTANCE_PROFILE_*}
   * @param info receives the profile's information
   * @return the result
   */
  int nvmlDeviceGetGpuInstanceProfileInfo(Pointer device, int profile,
      NvmlStructs.GpuInstanceProfileInfo info);

  /**
   * {@code nvmlEventSetCreate}.
   *
   * @param set receives the event set
   * @return the result
   */
  int nvmlEventSetCreate(PointerByReference set);

  /**
   * {@code nvmlEventSetFree}.
   *
   * @param set the event set
   * @return the result
   */
  int nvmlEventSetFree(Pointer set);

  /**
   * {@code nvmlDeviceGetSupportedEventTypes}.
   *
   * @param device the GPU
   * @param eventTypes receives the event type mask
   * @return the result
   */
  int nvmlDeviceGetSupportedEventTypes(Pointer device, LongByReference eventTypes);

  /**
   * {@code nvmlDeviceRegisterEvents}.
   *
   * @param device the GPU
   * @param eventTypes the event type mask
   * @param set the event set
   * @return the result
   */
  int nvmlDeviceRegisterEvents(Pointer device, long eventTypes, Pointer set);

  /**
   * {@code nvmlEventSetWait_v2}.
   *
   * @param set the event set
   * @param data receives the event
   * @param timeoutms how long to wait, in milliseconds
   * @return the result; {@code NVML_ERROR_TIMEOUT} if no event came
   */
  int nvmlEventSetWait_v2(Pointer set, NvmlStructs.EventData data, int timeoutms);
}
