/* ep_workload.c - the episodes workload's dataset, candidates, CPU reference (Algorithm 1,
 * one thread), comparison and result writer, for variants/episodes. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_workload.h"

ep_interval ep_point_interval(const dm_point *pt)
{
    return strcmp(dm_point_str(pt, "interval"), "closed") == 0 ? EP_CLOSED : EP_OPEN_CLOSED;
}

int ep_candidates(const ep_stream *s, const dm_point *pt, ep_episode **eps, int64_t *n,
                  dm_err *err)
{
    int level = (int)dm_point_int(pt, "level");
    int64_t count = dm_point_int(pt, "count"), total = 1;
    double lo = dm_point_real(pt, "gap_lo_ms") * 1e-3, hi = dm_point_real(pt, "gap_hi_ms") * 1e-3;
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

int ep_point_check(const dm_point *pt, char *why, size_t n)
{
    double lo = dm_point_real(pt, "gap_lo_ms"), hi = dm_point_real(pt, "gap_hi_ms");
    if (lo > hi) {
        snprintf(why, n, "gap_lo_ms %g is above gap_hi_ms %g", lo, hi);
        return 1;
    }
    if (dm_point_int(pt, "support") > 0 && dm_point_int(pt, "count") > 0) {
        snprintf(why, n, "count %" PRId64 " with support %" PRId64 ": mining counts every "
                 "candidate of a level; count is for support 0", dm_point_int(pt, "count"),
                 dm_point_int(pt, "support"));
        return 1;
    }
    return 0;
}

int ep_point_mine_spec(const dm_point *pt, ep_mine_spec *spec, dm_err *err)
{
    *spec = (ep_mine_spec){
        .support = dm_point_int(pt, "support"),
        .max_level = (int)dm_point_int(pt, "level"),
        .links = EP_LINKS_ANY,
        .ngaps = 1,
        .lo = {dm_point_real(pt, "gap_lo_ms") * 1e-3},
        .hi = {dm_point_real(pt, "gap_hi_ms") * 1e-3},
    };
    return ep_mine_spec_check(spec, err);
}

ep_result ep_result_of(const ep_stream *s, const ep_mine_result *m)
{
    return (ep_result){.s = s, .eps = m->eps, .n = m->n, .counts = m->counts,
                       .nlevels = m->nlevels, .levels = m->nlevels ? m->levels : NULL};
}

/* The reference: the result handed out, and what it is made of. */
typedef struct ep_ref {
    ep_result r; /* first, so the reference is an ep_result */
    ep_mine_result m;
} ep_ref;

int ep_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    const ep_data *d = ds->data;
    ep_ref *r = calloc(1, sizeof *r);
    ep_count_ctx ctx = {.s = &d->s, .iv = ep_point_interval(pt)};
    int rc;
    if (!r)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    if (dm_point_int(pt, "support") > 0) {
        ep_mine_spec spec;
        if ((rc = ep_point_mine_spec(pt, &spec, err)) != 0 ||
            (rc = ep_mine(&d->s, &spec, ep_count_cb, &ctx, &r->m, err)) != 0)
            goto fail;
    } else {
        if ((rc = ep_candidates(&d->s, pt, &r->m.eps, &r->m.n, err)) != 0)
            goto fail;
        if (!(r->m.counts = malloc((size_t)(r->m.n ? r->m.n : 1) * sizeof *r->m.counts))) {
            rc = dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64 " counts",
                            r->m.n);
            goto fail;
        }
        if ((rc = ep_count_cb(&ctx, r->m.eps, r->m.n, r->m.counts, err)) != 0)
            goto fail;
    }
    r->r = ep_result_of(&d->s, &r->m);
    *ref = r;
    return 0;
fail:
    ep_reference_free(r);
    return rc;
}

void ep_reference_free(void *ref)
{
    ep_ref *r = ref;
    if (!r)
        return;
    ep_mine_result_free(&r->m);
    free(r);
}

/* Writes "the episode NAME (#i)" of r into buf. */
static void ep_name_at(const ep_result *r, int64_t i, char *buf, size_t n)
{
    char name[EP_MAX_LEVEL * (EP_NAME_MAX + 4)];
    ep_episode_format(r->s, &r->eps[i], name, sizeof name);
    snprintf(buf, n, "episode %s (#%" PRId64 ")", name, i);
}

int ep_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    const ep_result *r = ref, *o = out;
    char want[EP_MAX_LEVEL * (EP_NAME_MAX + 4) + 32], got[sizeof want];
    int64_t common = o->n < r->n ? o->n : r->n;
    for (int64_t i = 0; i < common; i++) {
        if (ep_episode_cmp(&o->eps[i], &r->eps[i]) != 0) {
            ep_name_at(r, i, want, sizeof want);
            ep_name_at(o, i, got, sizeof got);
            snprintf(why, n, "expected %s, got %s", want, got);
            return 1;
        }
        if (o->counts[i] != r->counts[i]) {
            ep_name_at(r, i, want, sizeof want);
            snprintf(why, n, "%s of %" PRId64 ": expected count %" PRId64 ", got %" PRId64,
                     want, r->n, r->counts[i], o->counts[i]);
            return 1;
        }
    }
    if (o->n == r->n)
        return 0;
    if (o->n < r->n)
        ep_name_at(r, common, want, sizeof want);
    else
        ep_name_at(o, common, want, sizeof want);
    snprintf(why, n, "%" PRId64 " episodes, expected %" PRId64 ": %s %s", o->n, r->n, want,
             o->n < r->n ? "missing" : "extra");
    return 1;
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
