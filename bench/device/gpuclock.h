/* gpuclock.h - the SM clock and why it is held down: read through NVML (loaded at run
 * time with dlopen, so neither the build nor a machine without a driver needs it) or,
 * where NVML cannot be loaded, measured by the clock64/globaltimer probe kernel. */
#ifndef DM_GPUCLOCK_H
#define DM_GPUCLOCK_H

#include <stddef.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVML clocks-event reasons that make a timing unrepresentative (the SM clock was
 * lowered by a power cap, thermal limits or a hardware brake, not by idling). */
#define GPUCLOCK_SW_POWER_CAP 0x4ULL
#define GPUCLOCK_HW_SLOWDOWN 0x8ULL
#define GPUCLOCK_SW_THERMAL 0x20ULL
#define GPUCLOCK_HW_THERMAL 0x40ULL
#define GPUCLOCK_HW_POWER_BRAKE 0x80ULL
#define GPUCLOCK_THROTTLE_MASK                                                       \
    (GPUCLOCK_SW_POWER_CAP | GPUCLOCK_HW_SLOWDOWN | GPUCLOCK_SW_THERMAL |            \
     GPUCLOCK_HW_THERMAL | GPUCLOCK_HW_POWER_BRAKE)

typedef struct dm_gpuclock dm_gpuclock;

/* Opens the SM clock of dev: through NVML when try_nvml is set and NVML loads and knows
 * the device, else through the probe kernel, launched on stream (a cudaStream_t).
 * Returns 0, or DM_ERUNTIME with err set when the probe's buffer cannot be allocated. */
int gpuclock_open(const dm_device *dev, void *stream, int try_nvml, dm_gpuclock **out,
                  dm_err *err);
void gpuclock_close(dm_gpuclock *g);

/* "nvml" or "clock64". */
const char *gpuclock_source(const dm_gpuclock *g);

/* The SM clock now in *mhz (NAN when NVML fails to answer). The probe costs ~200 us of
 * GPU time and synchronises the stream. Returns 0, or DM_ERUNTIME with err set when
 * the probe fails (a CUDA error). */
int gpuclock_read(dm_gpuclock *g, double *mhz, dm_err *err);

/* The memory clock now in MHz: NVML only, NAN from the probe or when NVML fails. */
double gpuclock_read_mem(dm_gpuclock *g);

/* The current clocks-event reasons, masked to GPUCLOCK_THROTTLE_MASK, in *mask. Returns
 * 0, or -1 when the source reports no reasons (the probe) or NVML fails to answer. */
int gpuclock_reasons(dm_gpuclock *g, unsigned long long *mask);

/* Writes the names of the reasons in mask, comma-separated ("sw_power_cap,hw_thermal";
 * "" for none), to buf. */
void gpuclock_reason_names(unsigned long long mask, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
