/*
 * cuda_probe.c: a small "CUDA application" for the container tests of the GPU driver. Linked with
 * -lcuda against the stub libcuda.so.1 (libcuda_stub.c), so the dynamic linker must find
 * libcuda.so.1 when it starts: if it cannot, the loader refuses to start it ("error while
 * loading shared libraries: libcuda.so.1: cannot open shared object file", exit 127).
 *
 * Build (the JUnit helper CudaProbeBuild does this):
 *
 *   gcc -o cuda-probe cuda_probe.c -L<dir with libcuda.so> -lcuda -Wl,--as-needed -ldl
 *
 * Output, one fact a line, exit 0:
 *
 *   libcuda <path the loader loaded libcuda.so.1 from>
 *   driver-version 12080
 *   device-count <n>
 *   device <ordinal> <node path> <major>:<minor> <name>     (one line per device)
 *
 * Exit 2 if a CUDA call fails (the failing call and code on stderr).
 */
#define _GNU_SOURCE
#include "cuda_stub.h"

#include <dlfcn.h>
#include <stdio.h>

static int check(const char *call, CUresult result) {
  if (result != CUDA_SUCCESS) {
    fprintf(stderr, "%s failed: %d\n", call, result);
    return 0;
  }
  return 1;
}

int main(void) {
  Dl_info info;
  if (dladdr((void *) cuInit, &info) != 0 && info.dli_fname != NULL) {
    printf("libcuda %s\n", info.dli_fname);
  }
  int version = 0;
  int count = 0;
  if (!check("cuInit", cuInit(0)) || !check("cuDriverGetVersion", cuDriverGetVersion(&version))
      || !check("cuDeviceGetCount", cuDeviceGetCount(&count))) {
    return 2;
  }
  printf("driver-version %d\ndevice-count %d\n", version, count);
  for (int ordinal = 0; ordinal < count; ordinal++) {
    CUdevice device;
    char name[64];
    char node[64];
    unsigned int major;
    unsigned int minor;
    if (!check("cuDeviceGet", cuDeviceGet(&device, ordinal))
        || !check("cuDeviceGetName", cuDeviceGetName(name, sizeof name, device))
        || !check("cuStubDeviceNode",
            cuStubDeviceNode(device, node, sizeof node, &major, &minor))) {
      return 2;
    }
    printf("device %d %s %u:%u %s\n", ordinal, node, major, minor, name);
  }
  return 0;
}
