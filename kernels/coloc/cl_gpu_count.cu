/* cl_gpu_count.cu - the sums the colocation kernels share: the prefix sum of the rows
 * each thread counted (where each writes in the second run) and the participating
 * instances of each feature of a pattern from its bitmap. Integer sums: the same in any
 * order the threads add them, so the ratios the host makes from them are bit for bit the
 * CPU miner's. */
#include <cub/device/device_scan.cuh>

#include "coloc/cl_gpu.cuh"

extern "C" int clg_scan_bytes(uint64_t n, size_t *bytes, dm_err *err)
{
    *bytes = 0;
    return DM_CUDA(err, cub::DeviceScan::ExclusiveSum(nullptr, *bytes, (const uint64_t *)nullptr,
                                                      (uint64_t *)nullptr, (int64_t)n))
               ? DM_ERUNTIME
               : 0;
}

extern "C" int clg_scan(const uint64_t *counts, uint64_t *offsets, uint64_t n, void *temp,
                        size_t bytes, void *stream, dm_err *err)
{
    return DM_CUDA(err, cub::DeviceScan::ExclusiveSum(temp, bytes, counts, offsets, (int64_t)n,
                                                      (cudaStream_t)stream))
               ? DM_ERUNTIME
               : 0;
}

/* Block (x, m): instances of feature f.f[m] from blockIdx.x * blockDim.x on. */
__global__ void clg_bits_sum_kernel(clg_set s, const uint32_t *bits, clg_feats f,
                                    unsigned long long *sums)
{
    const int m = blockIdx.y, fe = f.f[m];
    const uint64_t i = s.start[fe] + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = 0;
    if (i < s.start[fe + 1] && (bits[i >> 5] >> (i & 31) & 1))
        v = s.weight ? s.weight[i] : 1;
    clg_block_add(&sums[m], v);
}

extern "C" int clg_bits_sum(const clg_set *s, const uint32_t *bits, const clg_feats *f,
                            unsigned long long *sums, int block, void *stream, dm_err *err)
{
    const uint32_t most = clg_widest(s, f);
    if (most == 0 || f->k == 0)
        return 0;
    dim3 grid(clg_blocks(most, block), (unsigned)f->k);
    clg_bits_sum_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(*s, bits, *f, sums);
    return DM_CUDA(err, cudaGetLastError()) ? DM_ERUNTIME : 0;
}
