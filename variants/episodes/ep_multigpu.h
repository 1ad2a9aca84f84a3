/* ep_multigpu.h - the multigpu variant's functions (ep_multigpu.c), for the table in
 * episodes_variants.c: level-wise mining with each level's candidates split over several GPUs. */
#ifndef DM_EP_MULTIGPU_H
#define DM_EP_MULTIGPU_H

#include "dm.h"

/* Starts a device thread on each of the point's `gpus` GPUs (ex->gpus, or ex->device
 * alone when the run lists none), each putting the stream on its GPU, and readies the
 * point's mining (or its episodes). Returns 0; DM_EINPUT for more GPUs than the run has,
 * a bad problem or an interval too narrow; DM_ERUNTIME with err set (CUDA, threads). */
int ep_multigpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                      void **state, dm_err *err);
/* Mines (or counts the point's episodes), every level's candidates split over the GPUs
 * and counted there at once; returns when every GPU is done. */
int ep_multigpu_run(void *state, dm_err *err);
int ep_multigpu_output(void *state, const void **out, dm_err *err);
/* Ends the device threads (each freeing its GPU's memory and stream); NULL is fine. */
void ep_multigpu_teardown(void *state);

#endif
