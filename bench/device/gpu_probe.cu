/* gpu_probe.cu - the SM clock probe kernel and its launcher (see gpu_probe.h). The
 * globaltimer ticks in nanoseconds, though on some GPUs only every microsecond: a
 * probe of ~200 us keeps that granularity under 1% of the reading. */
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
