/*
 * stub_state.c: the node the NVML stub presents, its handles and state, and the control files
 * (see nvml_stub.c for their format).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "nvml_stub.h"

/* H100 80GB GPU instance profiles. */
static const struct stub_profile PROFILES[] = {
    {0, 19, 1, 7, 16, 1, 1, 0, 1, 0, 9856},    /* 1g.10gb */
    {1, 14, 2, 3, 32, 2, 2, 0, 2, 0, 20096},   /* 2g.20gb */
    {2, 9, 3, 2, 60, 3, 3, 0, 3, 0, 40320},    /* 3g.40gb */
    {3, 5, 4, 1, 64, 4, 4, 0, 4, 0, 40320},    /* 4g.40gb */
    {4, 0, 7, 1, 132, 8, 7, 0, 7, 1, 80896},   /* 7g.80gb */
    {7, 20, 1, 1, 16, 1, 1, 0, 1, 1, 9856},    /* 1g.10gb+me */
    {9, 15, 1, 4, 26, 1, 1, 0, 1, 0, 19968},   /* 1g.20gb */
};
#define PROFILE_COUNT (sizeof(PROFILES) / sizeof(PROFILES[0]))

const struct stub_gpu GPUS[GPU_COUNT] = {
    {1, "GPU-1b7f3c52-8a44-4e0d-b6c1-3f9d2a7e0b11", 0x1b, 0, {{0}}},
    {0, "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22", 0x43, 0, {{0}}},
    {2, "GPU-52c8d1f4-9e3a-4f6b-8d20-7a1e5b3c6d33", 0x52, 0, {{0}}},
    {3, "GPU-61e4b7a9-2d58-4c93-9f1e-0b8c7d2a5e44", 0x61, 0, {{0}}},
    {4, "GPU-9d3f6a18-7b2c-4e5d-a8f9-6c1b0e4d7f55", 0x9d, 0, {{0}}},
    {5, "GPU-c3b5e2d7-4f19-4a6c-b7e8-2d9f3a1c8b66", 0xc3, 0, {{0}}},
    {6, "GPU-d1a9c4e6-3b7f-4d28-9e5a-5f2c8b0d1a77", 0xd1, 7,
     {{"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6001", 7, 0, 0, 0, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6002", 8, 0, 0, 1, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6003", 9, 0, 0, 2, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6004", 10, 0, 0, 3, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6005", 11, 0, 0, 4, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6006", 12, 0, 0, 5, 1},
      {"MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f6007", 13, 0, 0, 6, 1}}},
    {7, "GPU-df6e8b3c-1a4d-4f79-8c2b-9e7a6d5f3c88", 0xdf, 2,
     {{"MIG-7e1b2c3d-4e5f-6071-9b2c-3d4e5f607101", 1, 0, 3, 0, 4},
      {"MIG-7e1b2c3d-4e5f-6071-9b2c-3d4e5f607102", 2, 0, 2, 4, 4}}},
};

struct stub_device gpu_handles[GPU_COUNT];
struct stub_device mig_handles[GPU_COUNT][MAX_MIG];
struct stub_gpu_instance gi_handles[GPU_COUNT][MAX_MIG];

pthread_mutex_t stub_lock = PTHREAD_MUTEX_INITIALIZER;
int init_count;
char driver_version[80] = "570.86.15";
int no_events[GPU_COUNT];
int no_memory_info[GPU_COUNT];
int lost[GPU_COUNT];
int remap_pending[GPU_COUNT];
static char control_dir[4096];

#define QUEUE_SIZE 256
struct stub_event {
  int gpu;
  unsigned long long type, data;
};
static struct stub_event queue[QUEUE_SIZE];
static int queue_head, queue_len;

void find_control_dir(void) {
  const char *env = getenv("NVML_STUB_DIR");
  if (env != NULL && env[0] != '\0') {
    snprintf(control_dir, sizeof control_dir, "%s", env);
    return;
  }
  Dl_info info;
  if (dladdr((void *)&find_control_dir, &info) != 0 && info.dli_fname != NULL) {
    snprintf(control_dir, sizeof control_dir, "%s", info.dli_fname);
    char *slash = strrchr(control_dir, '/');
    if (slash != NULL) {
      *slash = '\0';
      return;
    }
  }
  snprintf(control_dir, sizeof control_dir, ".");
}

static FILE *open_control(const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", control_dir, name);
  return fopen(path, "r");
}

int copy_string(char *out, unsigned int length, const char *value) {
  if (out == NULL) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  if (strlen(value) + 1 > length) {
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  memcpy(out, value, strlen(value) + 1);
  return NVML_SUCCESS;
}

const struct stub_profile *profile_by_index(unsigned int index) {
  for (size_t i = 0; i < PROFILE_COUNT; i++) {
    if (PROFILES[i].index == index) {
      return &PROFILES[i];
    }
  }
  return NULL;
}

/* Checks a handle: NVML_SUCCESS, or the code the call returns. Call with stub_lock held. */
int check_device(nvmlDevice_t device) {
  if (init_count == 0) {
    return NVML_ERROR_UNINITIALIZED;
  }
  if (device == NULL || device->gpu < 0 || device->gpu >= GPU_COUNT) {
    return NVML_ERROR_INVALID_ARGUMENT;
  }
  if (lost[device->gpu]) {
    return NVML_ERROR_GPU_IS_LOST;
  }
  return NVML_SUCCESS;
}

int is_whole_gpu(nvmlDevice_t device) { return device->mig < 0; }

static void read_config(void) {
  memset(no_events, 0, sizeof no_events);
  memset(no_memory_info, 0, sizeof no_memory_info);
  snprintf(driver_version, sizeof driver_version, "570.86.15");
  FILE *file = open_control("nvml-stub.conf");
  if (file == NULL) {
    return;
  }
  char line[256];
  while (fgets(line, sizeof line, file) != NULL) {
    char word[64];
    char text[64];
    int n;
    if (sscanf(line, "no-events %d", &n) == 1 && n >= 0 && n < GPU_COUNT) {
      no_events[n] = 1;
    } else if (sscanf(line, "no-memory-info %d", &n) == 1 && n >= 0 && n < GPU_COUNT) {
      no_memory_info[n] = 1;
    } else if (sscanf(line, "driver-version %63s", text) == 1) {
      snprintf(driver_version, sizeof driver_version, "%s", text);
    } else if (sscanf(line, "%63s", word) == 1 && strcmp(word, "init-error") != 0) {
      fprintf(stderr, "nvml_stub: unknown line in nvml-stub.conf: %s", line);
    }
  }
  fclose(file);
}

int configured_init_error(void) {
  FILE *file = open_control("nvml-stub.conf");
  if (file == NULL) {
    return NVML_SUCCESS;
  }
  char line[256];
  int code = NVML_SUCCESS;
  while (fgets(line, sizeof line, file) != NULL) {
    int n;
    if (sscanf(line, "init-error %d", &n) == 1) {
      code = n;
    }
  }
  fclose(file);
  return code;
}

static void enqueue(int gpu, unsigned long long type, unsigned long long data) {
  if (queue_len == QUEUE_SIZE) {
    fprintf(stderr, "nvml_stub: event queue full, event dropped\n");
    return;
  }
  queue[(queue_head + queue_len) % QUEUE_SIZE] = (struct stub_event){gpu, type, data};
  queue_len++;
}

static void apply_control_line(const char *line) {
  char word[32];
  int gpu;
  unsigned long long xid;
  if (sscanf(line, "xid %d %llu", &gpu, &xid) == 2 && gpu >= 0 && gpu < GPU_COUNT) {
    enqueue(gpu, EVENT_XID, xid);
  } else if (sscanf(line, "%31s %d", word, &gpu) == 2 && gpu >= 0 && gpu < GPU_COUNT) {
    if (strcmp(word, "ecc") == 0) {
      enqueue(gpu, EVENT_DOUBLE_BIT_ECC, 0);
    } else if (strcmp(word, "sbe") == 0) {
      enqueue(gpu, EVENT_SINGLE_BIT_ECC, 0);
    } else if (strcmp(word, "lost") == 0) {
      lost[gpu] = 1;
    } else if (strcmp(word, "found") == 0) {
      lost[gpu] = 0;
    } else if (strcmp(word, "pending") == 0) {
      remap_pending[gpu] = 1;
    } else if (strcmp(word, "clear") == 0) {
      remap_pending[gpu] = 0;
    } else {
      fprintf(stderr, "nvml_stub: unknown event line: %s\n", line);
    }
  } else if (line[0] != '\0') {
    fprintf(stderr, "nvml_stub: unknown event line: %s\n", line);
  }
}

/* Reads the complete lines appended since the last read. Call with stub_lock held. */
void read_events(nvmlEventSet_t set) {
  FILE *file = open_control("nvml-stub-events");
  if (file == NULL) {
    return;
  }
  if (fseek(file, set->offset, SEEK_SET) == 0) {
    char line[256];
    while (fgets(line, sizeof line, file) != NULL) {
      size_t length = strlen(line);
      if (length == 0 || line[length - 1] != '\n') {
        break; /* a line still being written: read it next time */
      }
      set->offset += (long)length;
      line[length - 1] = '\0';
      apply_control_line(line);
    }
  }
  fclose(file);
}

/* Takes the first queued event the set registered; drops queued events nobody registered. */
int take_event(nvmlEventSet_t set, nvmlEventData_t *data) {
  while (queue_len > 0) {
    struct stub_event event = queue[queue_head];
    queue_head = (queue_head + 1) % QUEUE_SIZE;
    queue_len--;
    if ((set->mask[event.gpu] & event.type) != 0) {
      data->device = &gpu_handles[event.gpu];
      data->eventType = event.type;
      data->eventData = event.data;
      data->gpuInstanceId = 0xFFFFFFFFu;
      data->computeInstanceId = 0xFFFFFFFFu;
      return 1;
    }
  }
  return 0;
}

/* Back to the initial state, at the first initialization. Call with stub_lock held. */
void reset_state(void) {
  read_config();
  memset(lost, 0, sizeof lost);
  memset(remap_pending, 0, sizeof remap_pending);
  queue_head = 0;
  queue_len = 0;
  for (int g = 0; g < GPU_COUNT; g++) {
    gpu_handles[g] = (struct stub_device){g, -1};
    for (int m = 0; m < MAX_MIG; m++) {
      mig_handles[g][m] = (struct stub_device){g, m};
      gi_handles[g][m] = (struct stub_gpu_instance){g, m};
    }
  }
}
