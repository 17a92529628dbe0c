/*
 * nvml_stub.h: what the files of the NVML stub share. The nvml.h subset (types, return codes,
 * struct layouts) the stub implements, the node it presents, and its internal state and helpers,
 * which are hidden: only the nvml* functions are exported, so that each loaded copy of the stub
 * uses its own state even when several copies are loaded into one process. See nvml_stub.c.
 */
#ifndef NVML_STUB_H
#define NVML_STUB_H

#include <pthread.h>
#include <stdio.h>

/* ---- the parts of nvml.h this stub implements ---- */

typedef int nvmlReturn_t;
#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_TIMEOUT 10
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_UNKNOWN 999

#define EVENT_SINGLE_BIT_ECC 0x1ULL
#define EVENT_DOUBLE_BIT_ECC 0x2ULL
#define EVENT_PSTATE 0x4ULL
#define EVENT_XID 0x8ULL
#define EVENT_CLOCK 0x10ULL

typedef struct stub_device *nvmlDevice_t;
typedef struct stub_gpu_instance *nvmlGpuInstance_t;
typedef struct stub_event_set *nvmlEventSet_t;

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef struct {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct {
  unsigned int start;
  unsigned int size;
} nvmlGpuInstancePlacement_t;

typedef struct {
  nvmlDevice_t device;
  unsigned int id;
  unsigned int profileId;
  nvmlGpuInstancePlacement_t placement;
} nvmlGpuInstanceInfo_t;

typedef struct {
  unsigned int id;
  unsigned int isP2pSupported;
  unsigned int sliceCount;
  unsigned int instanceCount;
  unsigned int multiprocessorCount;
  unsigned int copyEngineCount;
  unsigned int decoderCount;
  unsigned int encoderCount;
  unsigned int jpegCount;
  unsigned int ofaCount;
  unsigned long long memorySizeMB;
} nvmlGpuInstanceProfileInfo_t;

typedef struct {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlEventData_t;

/* ---- the node ---- */

#define GPU_COUNT 8
#define MAX_MIG 7
#define PROFILE_INDEX_COUNT 17
#define MIB (1024ULL * 1024ULL)
#define GPU_MEMORY_MIB 81559ULL

/* A GPU instance profile, by NVML_GPU_INSTANCE_PROFILE_* index. */
struct stub_profile {
  unsigned int index, id, slices, instances, sms, copyEngines, decoders, encoders, jpegs, ofas;
  unsigned long long memoryMib;
};

struct stub_mig {
  const char *uuid;
  unsigned int gi, ci, profileIndex, start, size;
};

struct stub_gpu {
  unsigned int minor;
  const char *uuid;
  unsigned int bus;
  int migCount; /* 0: MIG off */
  struct stub_mig mig[MAX_MIG];
};

/* A handle: a whole GPU (mig < 0) or one of its MIG devices. */
struct stub_device {
  int gpu;
  int mig;
};
struct stub_gpu_instance {
  int gpu;
  int mig;
};
struct stub_event_set {
  unsigned long long mask[GPU_COUNT];
  long offset; /* how far the events file has been read */
};

#pragma GCC visibility push(hidden)

/* stub_state.c: the node's data, handles and mutable state (guarded by stub_lock). */
extern const struct stub_gpu GPUS[GPU_COUNT];
extern struct stub_device gpu_handles[GPU_COUNT];
extern struct stub_device mig_handles[GPU_COUNT][MAX_MIG];
extern struct stub_gpu_instance gi_handles[GPU_COUNT][MAX_MIG];
extern pthread_mutex_t stub_lock;
extern int init_count;
extern char driver_version[80];
extern int no_events[GPU_COUNT];
extern int no_memory_info[GPU_COUNT];
extern int lost[GPU_COUNT];
extern int remap_pending[GPU_COUNT];

const struct stub_profile *profile_by_index(unsigned int index);
int copy_string(char *out, unsigned int length, const char *value);
int check_device(nvmlDevice_t device);
int is_whole_gpu(nvmlDevice_t device);
/* Control files; call with stub_lock held. */
void find_control_dir(void);
int configured_init_error(void);
void reset_state(void);
void read_events(nvmlEventSet_t set);
int take_event(nvmlEventSet_t set, nvmlEventData_t *data);

#pragma GCC visibility pop

/* A call that needs NVML initialized: runs body under the lock if it is, with code preset. */
#define SYSTEM_CALL(body)                                            \
  pthread_mutex_lock(&stub_lock);                                    \
  int code = init_count == 0 ? NVML_ERROR_UNINITIALIZED : NVML_SUCCESS; \
  if (code == NVML_SUCCESS) {                                        \
    body                                                             \
  }                                                                  \
  pthread_mutex_unlock(&stub_lock);                                  \
  return code;

/* A call on a device handle: runs body under the lock if the handle is valid and not lost. */
#define DEVICE_CALL(device, body)       \
  pthread_mutex_lock(&stub_lock);       \
  int code = check_device(device);      \
  if (code == NVML_SUCCESS) {           \
    body                                \
  }                                     \
  pthread_mutex_unlock(&stub_lock);     \
  return code;

#endif
