/* verify.h - a point's first execution, checked against the CPU reference before anything
 * is timed or written: set up, run once, fetch the output, compare. The runner and
 * `dmbench mine` both begin a point so. */
#ifndef DM_VERIFY_H
#define DM_VERIFY_H

#include "dm.h"

/* Where the first execution stopped. */
typedef enum dm_verify_stage {
    DM_VERIFY_MATCH = 0, /* the output equals the reference (or there was none to check) */
    DM_VERIFY_SETUP,     /* setup failed (err says why); there is no state */
    DM_VERIFY_RUN,       /* the run, the watch or fetching the output failed (err) */
    DM_VERIFY_MISMATCH,  /* the output differs from the reference (detail says where) */
} dm_verify_stage;

/* Called just before and after the run (the runner notes the kernels it launches);
 * end returns 0, or nonzero with err set. */
typedef struct dm_verify_watch {
    void (*begin)(void *ctx);
    int (*end)(void *ctx, dm_err *err);
    void *ctx;
} dm_verify_watch;

/* Sets up pt's variant on ds, runs it once (between watch's calls; watch may be NULL),
 * takes its output into *out and compares it with ref (NULL: no comparison). Returns
 * the stage it stopped at. Unless setup failed, *state is the variant's state, which
 * the caller tears down (after timing it, say). */
dm_verify_stage verify_point(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                             const void *ref, const dm_verify_watch *watch, void **state,
                             const void **out, char *detail, size_t n, dm_err *err);

#endif
