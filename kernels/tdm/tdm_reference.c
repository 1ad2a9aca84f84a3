/* tdm_reference.c - the tdm workload's answer: the CPU reference (the counting machine
 * on every core), the exact comparison that names the first differing episode, the
 * work of one count, and the counts written as CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdm/tdm.h"

int tdm_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    const tdm_data *d = ds->data;
    tdm_ref *r = calloc(1, sizeof *r);
    int rc;
    if (!r)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory");
    if ((rc = tdm_episodes_for_point(pt, &r->eps, err)) != 0)
        goto fail;
    r->counts = malloc((size_t)r->eps.n * sizeof *r->counts);
    if (!r->counts) {
        rc = dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %" PRId64 " counts",
                        r->eps.n);
        goto fail;
    }
    if ((rc = tdm_cpu_count_mt(d->sym, d->n, &r->eps, r->counts, 0, err)) != 0)
        goto fail;
    *ref = r;
    return 0;
fail:
    tdm_reference_free(r);
    return rc;
}

void tdm_reference_free(void *ref)
{
    tdm_ref *r = ref;
    if (!r)
        return;
    tdm_episodes_free(&r->eps);
    free(r->counts);
    free(r);
}

int tdm_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    const tdm_ref *r = ref;
    const uint32_t *got = out;
    for (int64_t i = 0; i < r->eps.n; i++) {
        if (got[i] != r->counts[i]) {
            char name[TDM_MAX_LEVEL + 1];
            tdm_episode_format(&r->eps, i, name, sizeof name);
            snprintf(why, n,
                     "episode %s (#%" PRId64 " of %" PRId64 "): expected %" PRIu32
                     ", got %" PRIu32,
                     name, i, r->eps.n, r->counts[i], got[i]);
            return 1;
        }
    }
    return 0;
}

void tdm_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w)
{
    (void)ds, (void)ref;
    double length = (double)dm_point_int(pt, "length");
    int64_t neps = 0;
    if (tdm_problem_size(pt, &neps, NULL) != 0)
        neps = 0;
    w->bytes = length;
    w->ops = length * (double)neps;
    w->ops_unit = neps ? "steps" : NULL;
}

int tdm_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    const uint32_t *counts = out;
    tdm_episodes eps;
    char name[TDM_MAX_LEVEL + 1];
    int rc;
    if ((rc = tdm_episodes_for_point(pt, &eps, err)) != 0)
        return rc;
    fputs("episode,count\n", f);
    for (int64_t i = 0; i < eps.n; i++) {
        tdm_episode_format(&eps, i, name, sizeof name);
        fprintf(f, "%s,%" PRIu32 "\n", name, counts[i]);
    }
    tdm_episodes_free(&eps);
    if (fflush(f) != 0 || ferror(f))
        return dm_err_set(err, DM_ERUNTIME, "writing the counts: %s", strerror(errno));
    return 0;
}
