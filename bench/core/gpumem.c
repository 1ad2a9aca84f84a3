/* gpumem.c - device memory for variants: stream-ordered allocation from the device's
 * default memory pool, kept warm between points. */
#include <cuda_runtime_api.h>

#include "dm.h"

int dm_gpu_alloc(void *stream, size_t bytes, void **ptr, dm_err *err)
{
    *ptr = NULL;
    return DM_CUDA(err, cudaMallocAsync(ptr, bytes, (cudaStream_t)stream)) ? DM_ERUNTIME : 0;
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
