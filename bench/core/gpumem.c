/* gpumem.c - device memory for variants: stream-ordered allocation from the device's
 * default memory pool, kept warm between points. A request the card cannot hold is
 * DM_ENOMEM, with what was asked and what is free, and leaves the context working: asked
 * before allocating (what the device has free and what the pool keeps unused), and again
 * if the allocation fails all the same. */
#include <cuda_runtime_api.h>

#include "dm.h"

/* Bytes the current device could give an allocation: free memory and what its default
 * pool keeps reserved but unused; total its memory. Returns 0, or -1 when CUDA cannot
 * say (the error cleared: the allocation then decides). */
static int dm_gpu_available(size_t *avail, size_t *total)
{
    size_t free_b = 0;
    int dev = 0;
    cudaMemPool_t pool;
    unsigned long long reserved = 0, used = 0; /* cuuint64_t */
    if (cudaMemGetInfo(&free_b, total) != cudaSuccess || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) !=
            cudaSuccess ||
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    *avail = free_b + (size_t)(reserved > used ? reserved - used : 0);
    return 0;
}

static int dm_gpu_refuse(size_t bytes, size_t avail, size_t total, const char *why, dm_err *err)
{
    return dm_err_set(err, DM_ENOMEM,
                      "out of device memory: %.1f MiB asked, %.1f MiB free of %.1f MiB (%s)",
                      (double)bytes / 1048576.0, (double)avail / 1048576.0,
                      (double)total / 1048576.0, why);
}

int dm_gpu_alloc(void *stream, size_t bytes, void **ptr, dm_err *err)
{
    *ptr = NULL;
    size_t avail = 0, total = 0;
    int known = dm_gpu_available(&avail, &total) == 0;
    if (known && bytes > avail)
        return dm_gpu_refuse(bytes, avail, total, "not allocated", err);
    cudaError_t e = cudaMallocAsync(ptr, bytes, (cudaStream_t)stream);
    if (e != cudaErrorMemoryAllocation)
        return DM_CUDA(err, e) ? DM_ERUNTIME : 0;
    cudaGetLastError(); /* not sticky: the next point may fit */
    if (dm_gpu_available(&avail, &total) != 0)
        avail = total = 0;
    return dm_gpu_refuse(bytes, avail, total, "cudaMallocAsync: cudaErrorMemoryAllocation",
                         err);
}

void dm_gpu_free(void *stream, void *p)
{
    if (p)
        DM_CUDA_WARN(cudaFreeAsync(p, (cudaStream_t)stream));
}

int dm_gpu_pool_keep(int device, uint64_t keep_bytes, dm_err *err)
{
    cudaMemPool_t pool;
    if (DM_CUDA(err, cudaDeviceGetDefaultMemPool(&pool, device)) ||
        DM_CUDA(err, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_bytes)))
        return DM_ERUNTIME;
    return 0;
}

int dm_gpu_pools_share(const int *devs, int n, int on, dm_err *err)
{
    for (int i = 0; on && i < n; i++)
        for (int j = 0; j < n; j++) {
            int can = 0;
            if (i != j && DM_CUDA(err, cudaDeviceCanAccessPeer(&can, devs[i], devs[j])))
                return -1;
            if (i != j && !can)
                return 0;
        }
    for (int j = 0; j < n; j++) {
        cudaMemPool_t pool;
        if (DM_CUDA(err, cudaDeviceGetDefaultMemPool(&pool, devs[j])))
            return -1;
        for (int i = 0; i < n; i++) {
            if (i == j)
                continue;
            struct cudaMemAccessDesc to = {
                .location = {.type = cudaMemLocationTypeDevice, .id = devs[i]},
                .flags = on ? cudaMemAccessFlagsProtReadWrite : cudaMemAccessFlagsProtNone};
            if (DM_CUDA(err, cudaMemPoolSetAccess(pool, &to, 1)))
                return -1;
        }
    }
    return 1;
}
