/* gpumem.c - device memory for variants: stream-ordered allocation from the device's
 * default memory pool, kept warm between points. A request the card cannot hold is
 * DM_ENOMEM, with what was asked and what is free, and leaves the context working. */
#include <cuda_runtime_api.h>

#include "dm.h"

int dm_gpu_alloc(void *stream, size_t bytes, void **ptr, dm_err *err)
{
    *ptr = NULL;
    cudaError_t e = cudaMallocAsync(ptr, bytes, (cudaStream_t)stream);
    size_t free_b = 0, total_b = 0;
    if (e != cudaErrorMemoryAllocation)
        return DM_CUDA(err, e) ? DM_ERUNTIME : 0;
    cudaGetLastError(); /* not sticky: the next point may fit */
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        cudaGetLastError();
    return dm_err_set(err, DM_ENOMEM,
                      "out of device memory: %.1f MiB asked, %.1f MiB free of %.1f MiB "
                      "(cudaMallocAsync: cudaErrorMemoryAllocation)",
                      (double)bytes / 1048576.0, (double)free_b / 1048576.0,
                      (double)total_b / 1048576.0);
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
