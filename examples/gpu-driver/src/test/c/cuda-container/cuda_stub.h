/*
 * cuda_stub.h: the functions of the stub CUDA driver library (libcuda_stub.c) that the probe
 * (cuda_probe.c) calls. Names, types and return codes follow the CUDA driver API; cuStubDeviceNode
 * is the stub's own.
 */
#ifndef CUDA_STUB_H
#define CUDA_STUB_H

typedef int CUresult;
typedef int CUdevice;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101

/* What cuDriverGetVersion reports: CUDA 12.8. */
#define CUDA_STUB_DRIVER_VERSION 12080

CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetName(char *name, int length, CUdevice device);

/* The device node of a device: its path and the node's major and minor numbers. */
CUresult cuStubDeviceNode(CUdevice device, char *path, int length, unsigned int *major,
    unsigned int *minor);

#endif
