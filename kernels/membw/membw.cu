/* membw.cu - the memory-bandwidth kernels and their extern "C" launchers.
 * version 1 is scalar: one float per thread per step of a grid-stride loop.
 * version 2 is float4: one float4 per thread per step, then a scalar tail of n % 4;
 * it is used when all arrays are 16-byte aligned (cudaMalloc'd arrays always are).
 * Triad uses __fmaf_rn so it matches the CPU reference's fmaf bit for bit. */
#include <stdint.h>

#include <cuda_runtime.h>

#include "membw/membw.h"

static int64_t membw_ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

__global__ void membw_scalar(membw_op op, const float *__restrict__ a,
                             const float *__restrict__ b, const float *__restrict__ c,
                             float *__restrict__ out, int64_t n)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = op == MEMBW_COPY ? a[i] : __fmaf_rn(3.0f, c[i], b[i]);
}

__global__ void membw_vec4(membw_op op, const float *__restrict__ a,
                           const float *__restrict__ b, const float *__restrict__ c,
                           float *__restrict__ out, int64_t n)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t n4 = n / 4;
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    const float4 *c4 = reinterpret_cast<const float4 *>(c);
    float4 *out4 = reinterpret_cast<float4 *>(out);
    if (op == MEMBW_COPY) {
        for (int64_t i = first; i < n4; i += stride)
            out4[i] = a4[i];
    } else {
        for (int64_t i = first; i < n4; i += stride) {
            float4 x = b4[i], y = c4[i];
            out4[i] = make_float4(__fmaf_rn(3.0f, y.x, x.x), __fmaf_rn(3.0f, y.y, x.y),
                                  __fmaf_rn(3.0f, y.z, x.z), __fmaf_rn(3.0f, y.w, x.w));
        }
    }
    for (int64_t i = 4 * n4 + first; i < n; i += stride)
        out[i] = op == MEMBW_COPY ? a[i] : __fmaf_rn(3.0f, c[i], b[i]);
}

static bool membw_aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

extern "C" int membw_launch(membw_op op, const float *a, const float *b, const float *c,
                            float *out, int64_t n, int block, int64_t grid, void *stream,
                            dm_err *err)
{
    bool vec = membw_aligned16(out) &&
               (op == MEMBW_COPY ? membw_aligned16(a)
                                 : membw_aligned16(b) && membw_aligned16(c));
    int64_t items = vec ? (n / 4 > 0 ? n / 4 : n) : n;
    if (grid == 0)
        grid = membw_ceil_div(items, block);
    if (grid > INT32_MAX)
        grid = INT32_MAX; /* grid-stride covers the rest */
    cudaStream_t s = (cudaStream_t)stream;
    if (vec)
        membw_vec4<<<(unsigned)grid, block, 0, s>>>(op, a, b, c, out, n);
    else
        membw_scalar<<<(unsigned)grid, block, 0, s>>>(op, a, b, c, out, n);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int membw_plain_memcpy(int64_t bytes, int iters, double *gbps, dm_err *err)
{
    void *src = NULL, *dst = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0;
    int rc = -1;
    if (bytes < 1 || iters < 1)
        return dm_err_set(err, DM_EINPUT, "membw_plain_memcpy: bytes %lld and iters %d must "
                          "be positive", (long long)bytes, iters);
    if (DM_CUDA(err, cudaMalloc(&src, (size_t)bytes)) ||
        DM_CUDA(err, cudaMalloc(&dst, (size_t)bytes)) ||
        DM_CUDA(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) ||
        DM_CUDA(err, cudaEventCreate(&start)) || DM_CUDA(err, cudaEventCreate(&stop)) ||
        DM_CUDA(err, cudaMemsetAsync(src, 0x5A, (size_t)bytes, stream)) ||
        DM_CUDA(err, cudaMemcpyAsync(dst, src, (size_t)bytes, cudaMemcpyDeviceToDevice,
                                     stream)) ||
        DM_CUDA(err, cudaEventRecord(start, stream)))
        goto fail;
    for (int i = 0; i < iters; i++)
        if (DM_CUDA(err, cudaMemcpyAsync(dst, src, (size_t)bytes, cudaMemcpyDeviceToDevice,
                                         stream)))
            goto fail;
    if (DM_CUDA(err, cudaEventRecord(stop, stream)) ||
        DM_CUDA(err, cudaEventSynchronize(stop)) ||
        DM_CUDA(err, cudaEventElapsedTime(&ms, start, stop)))
        goto fail;
    *gbps = 2.0 * (double)bytes * iters / (ms / 1e3) / 1e9;
    rc = 0;
fail:
    if (start)
        DM_CUDA_WARN(cudaEventDestroy(start));
    if (stop)
        DM_CUDA_WARN(cudaEventDestroy(stop));
    if (stream)
        DM_CUDA_WARN(cudaStreamDestroy(stream));
    DM_CUDA_WARN(cudaFree(src));
    DM_CUDA_WARN(cudaFree(dst));
    return rc;
}
