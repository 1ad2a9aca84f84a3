/* kernel_block.cuh - for kernel launchers (CUDA only): the largest block a compiled
 * kernel can be launched with, its registers considered. */
#ifndef DM_KERNEL_BLOCK_CUH
#define DM_KERNEL_BLOCK_CUH

#include <cuda_runtime.h>

/* The smaller of most and the threads a block of kernel may have (its registers' limit);
 * most when CUDA cannot say. */
template <typename K> static int dm_kernel_max_block(K kernel, int most)
{
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, kernel) != cudaSuccess) {
        cudaGetLastError();
        return most;
    }
    return fa.maxThreadsPerBlock < most ? fa.maxThreadsPerBlock : most;
}

#endif
