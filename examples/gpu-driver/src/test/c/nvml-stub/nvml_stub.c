/*
 * nvml_stub.c: a stand-in for libnvidia-ml.so.1 for the tests of the NVML backend
 * (io.github.dra4j.examples.gpu.nvml). Our own code; it exports only the NVML functions the
 * backend calls, with the public nvml.h signatures, return codes and struct layouts. This file
 * has initialization, errors, system queries and events; stub_devices.c the device and MIG
 * queries; stub_state.c the node's data, state and control files; nvml_stub.h what they share.
 *
 * Build (the JUnit helper NvmlStub does this, from this directory):
 *
 *   gcc -shared -fPIC -o <driver-root>/usr/lib64/libnvidia-ml.so.1 *.c
 *
 * The node it presents: 8 x "NVIDIA H100 80GB HBM3" (brand NVIDIA, Hopper, compute capability
 * 9.0, 81559 MiB), driver 570.86.15, CUDA 12080, NVML 12.570.86.15. The GPUs are enumerated in
 * PCI order; index 0 has minor 1 and index 1 has minor 0 (minor numbers need not follow the
 * index), the others have minor = index. MIG is on for index 6 (seven 1g.10gb devices) and
 * index 7 (one 4g.40gb and one 3g.40gb device).
 *
 * Control. A JVM loads each copy of the library once, and its environment cannot change, so the
 * stub is controlled through files in its control directory: the directory the loaded library
 * file is in (found with dladdr), or $NVML_STUB_DIR when set. Each test copies the library into
 * its own driver root, so each test has its own loaded copy, state and control files.
 *
 *   nvml-stub.conf    read at every nvmlInit_v2/nvmlInitWithFlags; one directive a line:
 *                       init-error <code>      init returns this nvmlReturn_t (for example 9)
 *                       no-events <index>      nvmlDeviceRegisterEvents: NOT_SUPPORTED
 *                       no-memory-info <index> nvmlDeviceGetMemoryInfo: NOT_SUPPORTED
 *                       driver-version <text>  what nvmlSystemGetDriverVersion returns
 *   nvml-stub-events  appended to by the test; complete new lines are read on every
 *                     nvmlEventSetWait_v2 call (the file is read from its start by a new
 *                     event set):
 *                       xid <index> <n>  an Xid critical error event (0x8), eventData n
 *                       ecc <index>      a double-bit ECC event (0x2)
 *                       sbe <index>      a single-bit ECC event (0x1)
 *                       lost <index>     from now on the GPU's calls return GPU_IS_LOST (15)
 *                       found <index>    the GPU answers again
 *                       pending <index>  row remapping pending (nvmlDeviceGetRemappedRows)
 *                       clear <index>    no row remapping pending
 *                     An event is delivered only to an event set the GPU registered that event
 *                     type in, like NVML does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvml_stub.h"

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- initialization and errors ---- */

static nvmlReturn_t init(void) {
  pthread_mutex_lock(&stub_lock);
  find_control_dir();
  int code = configured_init_error();
  if (code == NVML_SUCCESS) {
    if (init_count == 0) {
      reset_state();
    }
    init_count++;
  }
  pthread_mutex_unlock(&stub_lock);
  return code;
}

nvmlReturn_t nvmlInit_v2(void) { return init(); }

nvmlReturn_t nvmlInitWithFlags(unsigned int flags) {
  (void)flags;
  return init();
}

nvmlReturn_t nvmlShutdown(void) {
  pthread_mutex_lock(&stub_lock);
  int code = init_count == 0 ? NVML_ERROR_UNINITIALIZED : NVML_SUCCESS;
  if (init_count > 0) {
    init_count--;
  }
  pthread_mutex_unlock(&stub_lock);
  return code;
}

const char *nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_TIMEOUT: return "Timeout";
    case 12: return "NVML Shared Library Not Found";
    case 13: return "Function Not Found";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
  }
}

/* ---- system ---- */

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length) {
  SYSTEM_CALL(code = copy_string(version, length, driver_version);)
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length) {
  SYSTEM_CALL(char text[100]; snprintf(text, sizeof text, "12.%s", driver_version);
              code = copy_string(version, length, text);)
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion) {
  SYSTEM_CALL(if (cudaDriverVersion == NULL) { code = NVML_ERROR_INVALID_ARGUMENT; } else {
    *cudaDriverVersion = 12080;
  })
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) {
  SYSTEM_CALL(if (deviceCount == NULL) { code = NVML_ERROR_INVALID_ARGUMENT; } else {
    *deviceCount = GPU_COUNT;
  })
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
  SYSTEM_CALL(if (device == NULL || index >= GPU_COUNT) {
    code = NVML_ERROR_INVALID_ARGUMENT;
  } else if (lost[index]) {
    code = NVML_ERROR_GPU_IS_LOST;
  } else { *device = &gpu_handles[index]; })
}

/* ---- events ---- */

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set) {
  SYSTEM_CALL(if (set == NULL) { code = NVML_ERROR_INVALID_ARGUMENT; } else {
    *set = calloc(1, sizeof(struct stub_event_set));
    if (*set == NULL) {
      code = NVML_ERROR_UNKNOWN;
    }
  })
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  free(set);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device,
                                              unsigned long long *eventTypes) {
  DEVICE_CALL(device, *eventTypes = EVENT_SINGLE_BIT_ECC | EVENT_DOUBLE_BIT_ECC | EVENT_PSTATE
                                    | EVENT_XID | EVENT_CLOCK;)
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes,
                                      nvmlEventSet_t set) {
  DEVICE_CALL(device, if (set == NULL || !is_whole_gpu(device)) {
    code = NVML_ERROR_INVALID_ARGUMENT;
  } else if (no_events[device->gpu]) {
    code = NVML_ERROR_NOT_SUPPORTED;
  } else { set->mask[device->gpu] |= eventTypes; })
}

nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data,
                                 unsigned int timeoutms) {
  long long deadline = now_ms() + timeoutms;
  for (;;) {
    pthread_mutex_lock(&stub_lock);
    if (init_count == 0) {
      pthread_mutex_unlock(&stub_lock);
      return NVML_ERROR_UNINITIALIZED;
    }
    read_events(set);
    int found = take_event(set, data);
    pthread_mutex_unlock(&stub_lock);
    if (found) {
      return NVML_SUCCESS;
    }
    long long left = deadline - now_ms();
    if (left <= 0) {
      return NVML_ERROR_TIMEOUT;
    }
    struct timespec pause = {0, (left < 10 ? left : 10) * 1000000L};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
  }
}
