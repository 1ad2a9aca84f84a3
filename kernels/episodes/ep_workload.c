/* ep_workload.c - the episodes workload's dataset, candidates, CPU reference (Algorithm 1,
 * one thread), comparison and result writer, for variants/episodes. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_workload.h"

ep_interval ep_point_interval(const dm_point *pt)
{
    return dm_point_int(pt, "relax") || strcmp(dm_point_str(pt, "interval"), "closed") == 0
               ? EP_CLOSED
               : EP_OPEN_CLOSED;
}

int ep_candidates(const ep_stream *s, const dm_point *pt, ep_episode **eps, int64_t *n,
                  dm_err *err)
{
    int level = (int)dm_point_int(pt, "level");
    int64_t count = dm_point_int(pt, "count"), total = 1;
    double lo = dm_point_int(pt, "relax") ? 0 : dm_point_real(pt, "gap_lo_ms") * 1e-3;
    double hi = dm_point_real(pt, "gap_hi_ms") * 1e-3;
    *eps = NULL;
    *n = 0;
    for (int k = 0; k < level && total <= EP_MAX_CANDIDATES; k++)
        total *= s->ntypes;
    if (count > 0 && count < total)
        total = count;
    if (total > EP_MAX_CANDIDATES)
        return dm_err_set(err, DM_EINPUT, "level %d over %d event types is more than %" PRId64
                          " episodes; set count to count the first ones", level, s->ntypes,
                          EP_MAX_CANDIDATES);
    ep_episode *e = calloc((size_t)(total ? total : 1), sizeof *e);
    if (!e)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64 " episodes",
                          total);
    int32_t digit[EP_MAX_LEVEL] = {0};
    for (int64_t i = 0; i < total; i++) {
        e[i].n = level;
        for (int k = 0; k < level; k++)
            e[i].ev[k] = digit[k];
        for (int k = 0; k + 1 < level; k++) {
            e[i].lo[k] = lo;
            e[i].hi[k] = hi;
        }
        for (int k = level - 1; k >= 0 && ++digit[k] == s->ntypes; k--)
            digit[k] = 0;
    }
    *eps = e;
    *n = total;
    return 0;
}

int ep_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                    dm_err *err)
{
    int rc;
    ep_data *d = calloc(1, sizeof *d);
    if (!d)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    memset(ds, 0, sizeof *ds);
    if (src->path[0]) {
        if ((rc = ep_stream_load_csv(src->path, &d->s, err)) != 0)
            goto fail;
        const char *slash = strrchr(src->path, '/');
        snprintf(ds->name, sizeof ds->name, "%.*s", (int)sizeof ds->name - 1,
                 slash ? slash + 1 : src->path);
        snprintf(ds->path, sizeof ds->path, "%s", src->path);
    } else {
        if (strcmp(src->generator, "sym26") != 0) {
            rc = dm_err_set(err, DM_EINPUT, "episodes has no generator '%s'; the generators "
                            "are: sym26", src->generator);
            goto fail;
        }
        if ((rc = ep_sym26((uint64_t)dm_point_int(pt, "seed"), dm_point_real(pt, "seconds"),
                           dm_point_real(pt, "basal_hz"), &d->s, d->chains, err)) != 0)
            goto fail;
        d->nchains = 2;
        snprintf(ds->name, sizeof ds->name, "%s", src->generator);
    }
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    uint64_t h = dm_hash_bytes(DM_HASH_INIT, d->s.type, (size_t)d->s.n * sizeof *d->s.type);
    h = dm_hash_bytes(h, d->s.time, (size_t)d->s.n * sizeof *d->s.time);
    snprintf(ds->hash, sizeof ds->hash, "%016" PRIx64, h);
    ds->size_bytes = d->s.n * (int64_t)(sizeof *d->s.type + sizeof *d->s.time);
    ds->data = d;
    return 0;
fail:
    ep_stream_free(&d->s);
    free(d);
    return rc;
}

void ep_dataset_close(dm_dataset *ds)
{
    ep_data *d = ds->data;
    if (d)
        ep_stream_free(&d->s);
    free(d);
    ds->data = NULL;
}

int ep_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    const ep_data *d = ds->data;
    ep_result *r = calloc(1, sizeof *r);
    ep_episode *eps = NULL;
    int64_t *counts = NULL;
    int rc;
    if (!r)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    if ((rc = ep_candidates(&d->s, pt, &eps, &r->n, err)) != 0)
        goto fail;
    if (!(counts = malloc((size_t)(r->n ? r->n : 1) * sizeof *counts))) {
        rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64 " counts", r->n);
        goto fail;
    }
    ep_interval iv = ep_point_interval(pt);
    for (int64_t i = 0; i < r->n; i++)
        if ((counts[i] = ep_count(&d->s, &eps[i], iv)) < 0) {
            rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory counting");
            goto fail;
        }
    r->s = &d->s;
    r->eps = eps;
    r->counts = counts;
    *ref = r;
    return 0;
fail:
    free(eps);
    free(counts);
    free(r);
    return rc;
}

void ep_reference_free(void *ref)
{
    ep_result *r = ref;
    if (!r)
        return;
    free((void *)r->eps);
    free((void *)r->counts);
    free(r);
}

int ep_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    const ep_result *r = ref, *o = out;
    if (o->n != r->n) {
        snprintf(why, n, "%" PRId64 " episodes counted, expected %" PRId64, o->n, r->n);
        return 1;
    }
    for (int64_t i = 0; i < r->n; i++)
        if (o->counts[i] != r->counts[i]) {
            char name[EP_MAX_LEVEL * (EP_NAME_MAX + 4)];
            ep_episode_format(r->s, &r->eps[i], name, sizeof name);
            snprintf(why, n, "episode %s (#%" PRId64 " of %" PRId64 "): expected %" PRId64
                     ", got %" PRId64, name, i, r->n, r->counts[i], o->counts[i]);
            return 1;
        }
    return 0;
}

int ep_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    (void)pt;
    const ep_result *o = out;
    char name[EP_MAX_LEVEL * (EP_NAME_MAX + 4)];
    if (fprintf(f, "episode,level,count\n") < 0)
        return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    for (int64_t i = 0; i < o->n; i++) {
        ep_episode_format(o->s, &o->eps[i], name, sizeof name);
        if (fprintf(f, "%s,%d,%" PRId64 "\n", name, o->eps[i].n, o->counts[i]) < 0)
            return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    }
    return 0;
}
