/*
 * stub_devices.c: the NVML stub's device and MIG queries. Every call checks its handle under the
 * stub_lock (DEVICE_CALL): a lost GPU answers NVML_ERROR_GPU_IS_LOST.
 */
#include <string.h>

#include "nvml_stub.h"

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber) {
  DEVICE_CALL(device, if (!is_whole_gpu(device)) { code = NVML_ERROR_NOT_SUPPORTED; } else {
    *minorNumber = GPUS[device->gpu].minor;
  })
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
  DEVICE_CALL(device, const struct stub_gpu *gpu = &GPUS[device->gpu];
              code = copy_string(uuid, length,
                                 is_whole_gpu(device) ? gpu->uuid : gpu->mig[device->mig].uuid);)
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
  DEVICE_CALL(device, code = copy_string(name, length, "NVIDIA H100 80GB HBM3");)
}

nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, int *type) {
  DEVICE_CALL(device, *type = 14; /* NVML_BRAND_NVIDIA */)
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, unsigned int *arch) {
  DEVICE_CALL(device, *arch = 9; /* NVML_DEVICE_ARCH_HOPPER */)
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor) {
  DEVICE_CALL(device, *major = 9; *minor = 0;)
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
  DEVICE_CALL(device, if (!is_whole_gpu(device)) { code = NVML_ERROR_NOT_SUPPORTED; } else {
    unsigned int bus = GPUS[device->gpu].bus;
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02X:00.0", bus);
    snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", bus);
    pci->domain = 0;
    pci->bus = bus;
    pci->device = 0;
    pci->pciDeviceId = 0x233010DE;
    pci->pciSubSystemId = 0x16C110DE;
  })
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
  DEVICE_CALL(device, if (no_memory_info[device->gpu]) { code = NVML_ERROR_NOT_SUPPORTED; } else {
    unsigned long long mib = GPU_MEMORY_MIB;
    if (!is_whole_gpu(device)) {
      mib = profile_by_index(GPUS[device->gpu].mig[device->mig].profileIndex)->memoryMib;
    }
    memory->total = mib * MIB;
    memory->used = 512ULL * MIB;
    memory->free = memory->total - memory->used;
  })
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t device, int *isPending) {
  /* Hopper remaps rows instead of retiring pages. */
  DEVICE_CALL(device, (void)isPending; code = NVML_ERROR_NOT_SUPPORTED;)
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int *corrRows,
                                       unsigned int *uncRows, unsigned int *isPending,
                                       unsigned int *failureOccurred) {
  DEVICE_CALL(device, *corrRows = 0; *uncRows = remap_pending[device->gpu] ? 1 : 0;
              *isPending = remap_pending[device->gpu] ? 1 : 0; *failureOccurred = 0;)
}

/* ---- MIG ---- */

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *currentMode,
                                  unsigned int *pendingMode) {
  DEVICE_CALL(device, if (!is_whole_gpu(device)) { code = NVML_ERROR_NOT_SUPPORTED; } else {
    *currentMode = GPUS[device->gpu].migCount > 0 ? 1 : 0;
    *pendingMode = *currentMode;
  })
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count) {
  DEVICE_CALL(device, *count = MAX_MIG;)
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index,
                                                 nvmlDevice_t *migDevice) {
  DEVICE_CALL(device, if (!is_whole_gpu(device) || index >= MAX_MIG) {
    code = NVML_ERROR_INVALID_ARGUMENT;
  } else if ((int)index >= GPUS[device->gpu].migCount) {
    code = NVML_ERROR_NOT_FOUND;
  } else { *migDevice = &mig_handles[device->gpu][index]; })
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id) {
  DEVICE_CALL(device, if (is_whole_gpu(device)) { code = NVML_ERROR_INVALID_ARGUMENT; } else {
    *id = GPUS[device->gpu].mig[device->mig].gi;
  })
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id) {
  DEVICE_CALL(device, if (is_whole_gpu(device)) { code = NVML_ERROR_INVALID_ARGUMENT; } else {
    *id = GPUS[device->gpu].mig[device->mig].ci;
  })
}

nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id,
                                          nvmlGpuInstance_t *gpuInstance) {
  DEVICE_CALL(device, const struct stub_gpu *gpu = &GPUS[device->gpu];
              code = NVML_ERROR_NOT_FOUND;
              if (!is_whole_gpu(device) || gpu->migCount == 0) {
                code = NVML_ERROR_INVALID_ARGUMENT;
              } else {
                for (int m = 0; m < gpu->migCount; m++) {
                  if (gpu->mig[m].gi == id) {
                    *gpuInstance = &gi_handles[device->gpu][m];
                    code = NVML_SUCCESS;
                  }
                }
              })
}

nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gpuInstance, nvmlGpuInstanceInfo_t *info) {
  pthread_mutex_lock(&stub_lock);
  int code = init_count == 0 ? NVML_ERROR_UNINITIALIZED : NVML_SUCCESS;
  if (code == NVML_SUCCESS && (gpuInstance == NULL || info == NULL)) {
    code = NVML_ERROR_INVALID_ARGUMENT;
  } else if (code == NVML_SUCCESS && lost[gpuInstance->gpu]) {
    code = NVML_ERROR_GPU_IS_LOST;
  } else if (code == NVML_SUCCESS) {
    const struct stub_mig *mig = &GPUS[gpuInstance->gpu].mig[gpuInstance->mig];
    info->device = &gpu_handles[gpuInstance->gpu];
    info->id = mig->gi;
    info->profileId = profile_by_index(mig->profileIndex)->id;
    info->placement.start = mig->start;
    info->placement.size = mig->size;
  }
  pthread_mutex_unlock(&stub_lock);
  return code;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int profile,
                                                 nvmlGpuInstanceProfileInfo_t *info) {
  DEVICE_CALL(device, const struct stub_profile *p = profile_by_index(profile);
              if (!is_whole_gpu(device) || profile >= PROFILE_INDEX_COUNT) {
                code = NVML_ERROR_INVALID_ARGUMENT;
              } else if (p == NULL) {
                code = NVML_ERROR_NOT_SUPPORTED;
              } else {
                info->id = p->id;
                info->isP2pSupported = 0;
                info->sliceCount = p->slices;
                info->instanceCount = p->instances;
                info->multiprocessorCount = p->sms;
                info->copyEngineCount = p->copyEngines;
                info->decoderCount = p->decoders;
                info->encoderCount = p->encoders;
                info->jpegCount = p->jpegs;
                info->ofaCount = p->ofas;
                info->memorySizeMB = p->memoryMib;
              })
}
