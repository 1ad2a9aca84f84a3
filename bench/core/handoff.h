/* handoff.h - worker threads that live across rounds of work: each keeps what it made
 * (a GPU's context, stream and buffers, say) from one round to the next; the calling
 * thread is worker 0, hands every other thread a round, does its own part and sleeps
 * until all report done, through one mutex and two condition variables, with no
 * polling. One worker is the calling thread alone: no thread, no wake-up. */
#ifndef DM_HANDOFF_H
#define DM_HANDOFF_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most threads a hand-off runs (one a GPU). */
#define DM_HANDOFF_MAX DM_MAX_GPUS

/* One thread's part of a round: thread `worker` (0..n-1) of n, err clear. Returns 0, or
 * a DM_ status with err set. */
typedef int (*dm_handoff_fn)(void *ctx, int worker, dm_err *err);

typedef struct dm_handoff dm_handoff;

/* Starts n workers (1..DM_HANDOFF_MAX): the calling thread, and n - 1 threads each
 * waiting for rounds. Returns 0 with *out, or DM_ERUNTIME with err set (no memory, or a
 * thread could not be made: those made are stopped). */
int dm_handoff_start(int n, dm_handoff **out, dm_err *err);

/* Runs fn(ctx, i, ...) on every worker i at once (0 on the calling thread, which must be
 * the one that started h) and returns when all are done. Returns
 * 0, or the status of the lowest-numbered thread that failed, with its message in err
 * (which may be NULL); the others' parts ran all the same. */
int dm_handoff_round(dm_handoff *h, dm_handoff_fn fn, void *ctx, dm_err *err);

/* Ends the threads (between rounds) and frees h; NULL is fine. */
void dm_handoff_stop(dm_handoff *h);

#ifdef __cplusplus
}
#endif

#endif
