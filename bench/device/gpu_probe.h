/* gpu_probe.h - a kernel that measures the SM clock from the device itself, for GPUs
 * whose clock NVML cannot report: it counts SM cycles (clock64) over a stretch of
 * %globaltimer nanoseconds. */
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

#ifdef __cplusplus
}
#endif

#endif
