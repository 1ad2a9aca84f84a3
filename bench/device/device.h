/* device.h - what the GPUs are: enumeration and properties, for `dmbench devices`,
 * sweep constraints (device.*) and run fingerprints. No GPU is not an error. */
#ifndef DM_DEVICE_H
#define DM_DEVICE_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable GPUs in *n. Returns 0 with *n >= 0; when *n is 0, why says why
 * (no driver, no device, CUDA's message). Never fails for lack of a GPU. */
int device_count(int *n, char *why, size_t why_len);

/* The GPU to run on: index among the usable GPUs. Returns 0 with *devp = dev, filled,
 * when there are GPUs; 0 with *devp NULL and why (why_len bytes) saying why when there
 * are none; DM_EINPUT for an index beyond the GPUs; DM_ERUNTIME when the device cannot
 * be queried. */
int device_pick(int index, dm_device *dev, const dm_device **devp, char *why, size_t why_len,
                dm_err *err);

/* Properties of GPU index. Returns 0, or DM_ERUNTIME with err set. */
int device_query(int index, dm_device *d, dm_err *err);

/* Value of a device property by the name constraints use after "device." (max_threads,
 * sms, l2_bytes, mem_bytes, smem_per_block, smem_per_block_optin, smem_per_sm,
 * max_threads_per_sm, warp_size, regs_per_block, cc (major*10+minor), cc_major,
 * cc_minor, sm_clock_mhz, mem_clock_mhz). Returns 0 with *out set, or -1 when the name
 * is unknown. */
int device_prop(const dm_device *d, const char *name, double *out);

/* 1 when the current device's CUDA context can run nothing more: a kernel fault (an
 * illegal address, a trap, a launch timeout) leaves an error that every later call
 * returns and no call clears; why (why_len bytes) names it. 0 when the context still
 * works (a failed allocation or a bad launch configuration is cleared, not kept). */
int device_context_lost(char *why, size_t why_len);

/* The property names device_prop knows, NULL-terminated (for error messages). */
const char *const *device_prop_names(void);

#ifdef __cplusplus
}
#endif

#endif
