/* verify.c - a point's first execution checked against the CPU reference. */
#include "verify.h"

dm_verify_stage verify_point(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                             const void *ref, const dm_verify_watch *watch, void **state,
                             const void **out, char *detail, size_t n, dm_err *err)
{
    const dm_variant *v = pt->variant;
    *state = NULL;
    *out = NULL;
    if (v->setup(ex, ds, pt, state, err) != 0) {
        *state = NULL;
        return DM_VERIFY_SETUP;
    }
    if (watch)
        watch->begin(watch->ctx);
    int rc = v->run(*state, err);
    if (watch && watch->end(watch->ctx, rc ? NULL : err) != 0 && rc == 0)
        rc = DM_ERUNTIME;
    if (rc != 0 || v->output(*state, out, err) != 0)
        return DM_VERIFY_RUN;
    if (ref && pt->workload->compare(ref, *out, pt, detail, n) != 0)
        return DM_VERIFY_MISMATCH;
    return DM_VERIFY_MATCH;
}
