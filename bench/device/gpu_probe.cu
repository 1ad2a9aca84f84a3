/* gpu_probe.cu - the SM clock probe kernel, its launcher and the code the driver loads
 * for it (see gpu_probe.h). The globaltimer ticks in nanoseconds, though on some GPUs
 * only every microsecond: a probe of ~200 us keeps that granularity under 1% of the
 * reading. */
#include <cuda_runtime.h>

#include "gpu_probe.h"

static __device__ __forceinline__ unsigned long long probe_globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __global__ void probe_clock_kernel(long long *out, long long ns)
{
    unsigned long long t0 = probe_globaltimer();
    long long c0 = clock64();
    unsigned long long t1;
    do {
        t1 = probe_globaltimer();
    } while ((long long)(t1 - t0) < ns);
    long long c1 = clock64();
    out[0] = c1 - c0;
    out[1] = (long long)(t1 - t0);
}

extern "C" int gpu_probe_clock_launch(void *stream, long long *d_out, long long ns,
                                      dm_err *err)
{
    probe_clock_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(d_out, ns);
    return DM_CUDA(err, cudaGetLastError());
}

extern "C" int gpu_probe_code(int index, int *binary, int *ptx, dm_err *err)
{
    int prev;
    cudaFuncAttributes a;
    if (DM_CUDA(err, cudaGetDevice(&prev)) || DM_CUDA(err, cudaSetDevice(index)))
        return DM_ERUNTIME;
    int rc = DM_CUDA(err, cudaFuncGetAttributes(&a, probe_clock_kernel));
    cudaGetLastError(); /* no code for the GPU is not sticky: leave no error behind */
    DM_CUDA_WARN(cudaSetDevice(prev));
    if (rc)
        return DM_ERUNTIME;
    *binary = a.binaryVersion;
    *ptx = a.ptxVersion;
    return 0;
}
