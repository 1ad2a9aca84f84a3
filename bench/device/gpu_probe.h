/* gpu_probe.h - a kernel that measures the SM clock from the device itself, for GPUs
 * whose clock NVML cannot report: it counts SM cycles (clock64) over a stretch of
 * %globaltimer nanoseconds. Being in every build, it also shows which of the binary's
 * code the driver loads for a GPU. */
#ifndef DM_GPU_PROBE_H
#define DM_GPU_PROBE_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues the probe on stream (a cudaStream_t): one thread spins for at least ns
 * nanoseconds of %globaltimer, then writes the SM cycles that passed to d_out[0] and the
 * nanoseconds to d_out[1] (d_out is device memory). The SM clock in MHz is
 * d_out[0] / d_out[1] * 1000. Returns 0, or -1 with err set when the launch fails. */
int gpu_probe_clock_launch(void *stream, long long *d_out, long long ns, dm_err *err);

/* The code the driver loads for the probe on GPU index, the driver's own answer to what
 * arch_choose works out: *binary its SASS architecture (90 for sm_90; the GPU's own after
 * a JIT compile), *ptx the PTX architecture it came from (cudaFuncGetAttributes'
 * binaryVersion and ptxVersion). Returns 0, or DM_ERUNTIME with err set
 * (cudaErrorNoKernelImageForDevice: the binary has no code the GPU runs). The current
 * device is left as it was. */
int gpu_probe_code(int index, int *binary, int *ptx, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
