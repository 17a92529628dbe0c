/*
 * libcuda_stub.c: a stand-in for the CUDA driver library (libcuda.so.1) for the container tests
 * of the GPU driver (io.github.dra4j.examples.gpu.container). Our own code: a few functions with
 * the names and shapes of the CUDA driver API, answering from the device nodes the container
 * can see instead of from a GPU.
 *
 * Build (the JUnit helper CudaProbeBuild does this):
 *
 *   gcc -shared -fPIC -Wl,-soname,libcuda.so.1 -o libcuda.so.<version> libcuda_stub.c
 *
 * "Devices" are the character device nodes /dev/nvidia<N> (N all digits; nvidiactl and
 * nvidia-uvm do not count), ordered by N. cuInit scans /dev once; the other calls answer from
 * that scan.
 */
#include "cuda_stub.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define MAX_DEVICES 64

static int initialized;
static int device_count;
static long device_numbers[MAX_DEVICES];

static int is_gpu_node_name(const char *name) {
  const char *digits = name + strlen("nvidia");
  if (strncmp(name, "nvidia", strlen("nvidia")) != 0 || *digits == '\0') {
    return 0;
  }
  for (const char *c = digits; *c != '\0'; c++) {
    if (*c < '0' || *c > '9') {
      return 0;
    }
  }
  return strlen(digits) <= 9;
}

static int compare_longs(const void *a, const void *b) {
  long x = *(const long *) a;
  long y = *(const long *) b;
  return (x > y) - (x < y);
}

CUresult cuInit(unsigned int flags) {
  if (flags != 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  DIR *dev = opendir("/dev");
  if (dev == NULL) {
    return CUDA_ERROR_NO_DEVICE;
  }
  device_count = 0;
  struct dirent *entry;
  while ((entry = readdir(dev)) != NULL && device_count < MAX_DEVICES) {
    char path[300];
    struct stat st;
    snprintf(path, sizeof path, "/dev/%s", entry->d_name);
    if (is_gpu_node_name(entry->d_name) && stat(path, &st) == 0 && S_ISCHR(st.st_mode)) {
      device_numbers[device_count++] = strtol(entry->d_name + strlen("nvidia"), NULL, 10);
    }
  }
  closedir(dev);
  qsort(device_numbers, (size_t) device_count, sizeof device_numbers[0], compare_longs);
  initialized = 1;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
  if (version == NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *version = CUDA_STUB_DRIVER_VERSION;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!initialized) {
    return CUDA_ERROR_NOT_INITIALIZED;
  }
  if (count == NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *count = device_count;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!initialized) {
    return CUDA_ERROR_NOT_INITIALIZED;
  }
  if (device == NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (ordinal < 0 || ordinal >= device_count) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  if (!initialized) {
    return CUDA_ERROR_NOT_INITIALIZED;
  }
  if (name == NULL || length <= 0) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (device < 0 || device >= device_count) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  snprintf(name, (size_t) length, "Stub GPU %ld", device_numbers[device]);
  return CUDA_SUCCESS;
}

CUresult cuStubDeviceNode(CUdevice device, char *path, int length, unsigned int *major,
    unsigned int *minor) {
  if (!initialized) {
    return CUDA_ERROR_NOT_INITIALIZED;
  }
  if (path == NULL || length <= 0 || major == NULL || minor == NULL) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (device < 0 || device >= device_count) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  snprintf(path, (size_t) length, "/dev/nvidia%ld", device_numbers[device]);
  struct stat st;
  if (stat(path, &st) != 0) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  *major = major(st.st_rdev);
  *minor = minor(st.st_rdev);
  return CUDA_SUCCESS;
}
