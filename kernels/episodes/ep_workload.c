/* ep_workload.c - the episodes workload's dataset, candidates, CPU reference (Algorithm 1,
 * one thread), comparison and result writer, for variants/episodes. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_machine.h"
#include "episodes/ep_workload.h"

ep_interval ep_point_interval(const dm_point *pt)
{
    int iv = dm_point_int(pt, "relax") || strcmp(dm_point_str(pt, "interval"), "closed") == 0
                 ? EP_CLOSED
                 : EP_OPEN_CLOSED;
    if (strcmp(dm_point_str(pt, "precision"), "float") == 0)
        iv |= EP_FLOAT;
    return (ep_interval)iv;
}

/* ep_point_gaps before relax. */
static int ep_point_gaps_read(const dm_point *pt, int *ngaps, double *lo, double *hi,
                              char *why, size_t n)
{
    const char *text = dm_point_str(pt, "gaps");
    *ngaps = 0;
    if (strcmp(text, "-") == 0) {
        *ngaps = 1;
        lo[0] = dm_point_real(pt, "gap_lo_ms") * 1e-3;
        hi[0] = dm_point_real(pt, "gap_hi_ms") * 1e-3;
        if (lo[0] > hi[0]) {
            snprintf(why, n, "gap_lo_ms %g is above gap_hi_ms %g", lo[0] * 1e3, hi[0] * 1e3);
            return 1;
        }
        return 0;
    }
    for (const char *p = text;; p++) {
        char *end;
        double l = strtod(p, &end), h = NAN;
        if (end != p && *end == ':') {
            p = end + 1;
            h = strtod(p, &end);
        }
        if (end == p || (*end && *end != ';') || !isfinite(l) || !isfinite(h)) {
            snprintf(why, n, "gaps=%s: expected LO:HI in ms, ';' between them", text);
            return 1;
        }
        if (l < 0 || l > h) {
            snprintf(why, n, "gaps=%s: gap %d (%g:%g) must have 0 <= LO <= HI", text,
                     *ngaps + 1, l, h);
            return 1;
        }
        if (*ngaps == EP_MAX_LEVEL - 1) {
            snprintf(why, n, "gaps=%s: more than %d gaps", text, EP_MAX_LEVEL - 1);
            return 1;
        }
        lo[*ngaps] = l * 1e-3;
        hi[(*ngaps)++] = h * 1e-3;
        p = end;
        if (!*p)
            return 0;
    }
}

int ep_point_gaps(const dm_point *pt, int *ngaps, double *lo, double *hi, char *why,
                  size_t n)
{
    if (ep_point_gaps_read(pt, ngaps, lo, hi, why, n))
        return 1;
    for (int k = 0; k < *ngaps && dm_point_int(pt, "relax"); k++)
        lo[k] = 0;
    return 0;
}

int ep_point_runs_needed(const dm_point *pt)
{
    int ngaps, most = 1;
    double lo[EP_MAX_LEVEL - 1], hi[EP_MAX_LEVEL - 1];
    char why[DM_ERR_MAX];
    if (ep_point_gaps(pt, &ngaps, lo, hi, why, sizeof why))
        return 1;
    for (int k = 0; k < ngaps; k++) {
        ep_episode e = { .n = 2, .lo = { lo[k] }, .hi = { hi[k] } };
        int runs = ep_runs_needed(&e, ep_margin(hi[k]));
        most = runs > most ? runs : most;
    }
    return most;
}

/* ep_point_gaps with its message in err (DM_EINPUT). */
static int ep_point_gaps_err(const dm_point *pt, int *ngaps, double *lo, double *hi,
                             dm_err *err)
{
    char why[DM_ERR_MAX];
    return ep_point_gaps(pt, ngaps, lo, hi, why, sizeof why)
               ? dm_err_set(err, DM_EINPUT, "%s", why) : 0;
}

int ep_candidates(const ep_stream *s, const dm_point *pt, ep_episode **eps, int64_t *n,
                  dm_err *err)
{
    int level = (int)dm_point_int(pt, "level"), ngaps;
    int64_t count = dm_point_int(pt, "count"), total = 1;
    double lo[EP_MAX_LEVEL - 1], hi[EP_MAX_LEVEL - 1];
    const char *file = dm_point_str(pt, "episodes");
    int rc = ep_point_gaps_err(pt, &ngaps, lo, hi, err);
    *eps = NULL;
    *n = 0;
    if (rc)
        return rc;
    if (strcmp(file, "-") != 0)
        return ep_episodes_load(file, s, ngaps, lo, hi, eps, n, err);
    if (ngaps > 1 && ngaps != level - 1)
        return dm_err_set(err, DM_EINPUT, "level %d has %d link%s, and %d gap intervals are "
                          "given, one per link", level, level - 1, level == 2 ? "" : "s",
                          ngaps);
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
            e[i].lo[k] = lo[ngaps == 1 ? 0 : k];
            e[i].hi[k] = hi[ngaps == 1 ? 0 : k];
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
        dm_dataset_file(ds, src->path);
    } else {
        if (strcmp(src->generator, "sym26") != 0) {
            rc = dm_err_set(err, DM_EINPUT, "episodes has no generator '%s'; the generators "
                            "are: sym26", src->generator);
            goto fail;
        }
        if ((rc = ep_sym26((uint64_t)dm_point_int(pt, "seed"), dm_point_real(pt, "seconds"),
                           dm_point_real(pt, "basal_hz"), (int)dm_point_int(pt, "neurons"),
                           &d->s, d->chains, err)) != 0)
            goto fail;
        d->nchains = 2;
        snprintf(ds->name, sizeof ds->name, "%s", src->generator);
    }
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    snprintf(ds->shape, sizeof ds->shape, "%" PRId64 " events of %d types over %.6g s",
             d->s.n, d->s.ntypes, d->s.n ? d->s.time[d->s.n - 1] - d->s.time[0] : 0.0);
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
    int ngaps, level = (int)dm_point_int(pt, "level");
    double lo[EP_MAX_LEVEL - 1], hi[EP_MAX_LEVEL - 1];
    int64_t support = dm_point_int(pt, "support"), count = dm_point_int(pt, "count");
    int file = strcmp(dm_point_str(pt, "episodes"), "-") != 0;
    if (ep_point_gaps(pt, &ngaps, lo, hi, why, n))
        return 1;
    if (support > 0 && count > 0)
        snprintf(why, n, "count %" PRId64 " with support %" PRId64 ": mining counts every "
                 "candidate of a level; count is for support 0", count, support);
    else if (file && (support > 0 || count > 0))
        snprintf(why, n, "an episodes file with %s: the file gives the episodes counted",
                 support > 0 ? "support" : "count");
    else if (ngaps > 1 && support == 0 && strcmp(dm_point_str(pt, "links"), "any") == 0)
        snprintf(why, n, "links=any is for mining (support > 0): counting gives one gap per "
                 "link");
    else if (ngaps > 1 && !file && support == 0 && ngaps != level - 1)
        snprintf(why, n, "level %d has %d link%s, and %d gap intervals are given, one per "
                 "link", level, level - 1, level == 2 ? "" : "s", ngaps);
    else if (support > 0) {
        ep_mine_spec spec;
        dm_err err = {0};
        if (ep_point_mine_spec(pt, &spec, &err) == 0)
            return 0;
        snprintf(why, n, "%s", err.msg);
    } else
        return 0;
    return 1;
}

int ep_point_mine_spec(const dm_point *pt, ep_mine_spec *spec, dm_err *err)
{
    *spec = (ep_mine_spec){
        .support = dm_point_int(pt, "support"),
        .max_level = (int)dm_point_int(pt, "level"),
        .links = strcmp(dm_point_str(pt, "links"), "any") == 0 ? EP_LINKS_ANY
                                                                 : EP_LINKS_PER_POSITION,
    };
    int rc = ep_point_gaps_err(pt, &spec->ngaps, spec->lo, spec->hi, err);
    if (rc)
        return rc;
    if (spec->ngaps == 1)
        spec->links = EP_LINKS_ANY; /* one gap: every link gets it */
    return ep_mine_spec_check(spec, err);
}

int ep_point_work(const ep_stream *s, const dm_point *pt, int *mine, ep_mine_spec *spec,
                  ep_mine_result *m, dm_err *err)
{
    *mine = dm_point_int(pt, "support") > 0;
    if (*mine)
        return ep_point_mine_spec(pt, spec, err);
    int rc = ep_candidates(s, pt, &m->eps, &m->n, err);
    if (rc)
        return rc;
    if (!(m->counts = calloc((size_t)(m->n ? m->n : 1), sizeof *m->counts)))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %" PRId64 " counts",
                          m->n);
    return 0;
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
    ep_count_ctx ctx = {.s = &d->s, .iv = ep_point_interval(pt), .mt = 1, .threads = 0};
    ep_mine_spec spec;
    int rc, mine;
    if (!r)
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    if ((rc = ep_point_work(&d->s, pt, &mine, &spec, &r->m, err)) != 0 ||
        (rc = mine ? ep_mine(&d->s, &spec, ep_count_cb, &ctx, &r->m, err)
                   : ep_count_cb(&ctx, r->m.eps, r->m.n, r->m.counts, err)) != 0)
        goto fail;
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

/* 1 when pt's episodes of the same types may differ in their links' intervals (mining
 * with links=any and several gaps): their names then show the intervals. */
static int ep_named_with_links(const dm_point *pt)
{
    return pt && strcmp(dm_point_str(pt, "links"), "any") == 0 &&
           strchr(dm_point_str(pt, "gaps"), ';') != NULL;
}

/* Writes e's name into buf: with its links' intervals when pt calls for them. */
static void ep_name(const ep_stream *s, const ep_episode *e, const dm_point *pt, char *buf,
                    size_t n)
{
    if (ep_named_with_links(pt))
        ep_episode_format_links(s, e, ep_point_interval(pt), buf, n);
    else
        ep_episode_format(s, e, buf, n);
}

#define EP_NAME_LEN (EP_MAX_LEVEL * (EP_NAME_MAX + 40))

/* Writes "episode NAME (#i)" of r into buf. */
static void ep_name_at(const ep_result *r, int64_t i, const dm_point *pt, char *buf, size_t n)
{
    char name[EP_NAME_LEN];
    ep_name(r->s, &r->eps[i], pt, name, sizeof name);
    snprintf(buf, n, "episode %s (#%" PRId64 ")", name, i);
}

int ep_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    const ep_result *r = ref, *o = out;
    char want[EP_NAME_LEN + 32], got[sizeof want];
    int64_t common = o->n < r->n ? o->n : r->n;
    for (int64_t i = 0; i < common; i++) {
        if (ep_episode_cmp(&o->eps[i], &r->eps[i]) != 0) {
            ep_name_at(r, i, pt, want, sizeof want);
            ep_name_at(o, i, pt, got, sizeof got);
            snprintf(why, n, "expected %s, got %s", want, got);
            return 1;
        }
        if (o->counts[i] != r->counts[i]) {
            ep_name_at(r, i, pt, want, sizeof want);
            snprintf(why, n, "%s of %" PRId64 ": expected count %" PRId64 ", got %" PRId64,
                     want, r->n, r->counts[i], o->counts[i]);
            return 1;
        }
    }
    if (o->n == r->n)
        return 0;
    if (o->n < r->n)
        ep_name_at(r, common, pt, want, sizeof want);
    else
        ep_name_at(o, common, pt, want, sizeof want);
    snprintf(why, n, "%" PRId64 " episodes, expected %" PRId64 ": %s %s", o->n, r->n, want,
             o->n < r->n ? "missing" : "extra");
    return 1;
}

int ep_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    const ep_result *o = out;
    char name[EP_NAME_LEN];
    if (fprintf(f, "episode,level,count\n") < 0)
        return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    for (int64_t i = 0; i < o->n; i++) {
        ep_name(o->s, &o->eps[i], pt, name, sizeof name);
        if (fprintf(f, "%s,%d,%" PRId64 "\n", name, o->eps[i].n, o->counts[i]) < 0)
            return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    }
    return 0;
}

/* Adds the facts of one pass over several GPUs at level group g: phase's per_gpu,
 * wall_s, and transfer_s and kernel_s when they were timed. */
static void ep_facts_split(dm_fact *f, int max, int *n, const char *g, const char *phase,
                           const ep_split_pass *p)
{
    char name[32];
    snprintf(name, sizeof name, "%s_per_gpu", phase);
    dm_fact_add(f, max, n, g, name, (double)p->per_gpu, NULL);
    snprintf(name, sizeof name, "%s_wall_s", phase);
    dm_fact_add(f, max, n, g, name, p->wall_s, "s");
    if (!p->timed)
        return;
    snprintf(name, sizeof name, "%s_transfer_s", phase);
    dm_fact_add(f, max, n, g, name, p->transfer_s, "s");
    snprintf(name, sizeof name, "%s_kernel_s", phase);
    dm_fact_add(f, max, n, g, name, p->kernel_s, "s");
}

void ep_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w)
{
    const ep_result *r = ref;
    (void)pt, (void)ds;
    double episodes = r->nlevels ? 0 : (double)r->n;
    for (int i = 0; i < r->nlevels; i++)
        episodes += (double)r->levels[i].candidates;
    *w = (dm_work){.ops = (double)r->s->n * episodes,
                   .ops_unit = episodes > 0 ? "event-episodes" : NULL};
}

int ep_facts(const void *out, const dm_point *pt, dm_fact *f, int max)
{
    const ep_result *o = out;
    (void)pt;
    int n = 0;
    for (int i = 0; i < o->nlevels; i++) {
        const ep_mine_level *lv = &o->levels[i];
        char g[32];
        snprintf(g, sizeof g, "level %d", lv->level);
        dm_fact_add(f, max, &n, g, "candidates", (double)lv->candidates, NULL);
        if (lv->survivors >= 0) {
            dm_fact_add(f, max, &n, g, "survivors", (double)lv->survivors, NULL);
            dm_fact_add(f, max, &n, g, "eliminated",
                    lv->candidates ? 1.0 - (double)lv->survivors / (double)lv->candidates
                                   : 0.0, NULL);
        }
        dm_fact_add(f, max, &n, g, "frequent", (double)lv->frequent, NULL);
        dm_fact_add(f, max, &n, g, "generate_s", lv->generate_s, "s");
        if (lv->survivors >= 0)
            dm_fact_add(f, max, &n, g, "bound_s", lv->bound_s, "s");
        dm_fact_add(f, max, &n, g, "count_s", lv->count_s, "s");
        if (o->split && lv->survivors >= 0)
            ep_facts_split(f, max, &n, g, "bound", &o->split[i].bound);
        if (o->split)
            ep_facts_split(f, max, &n, g, "count", &o->split[i].count);
        if (o->split && o->split[i].by_prefix) {
            dm_fact_add(f, max, &n, g, "moved", (double)o->split[i].moved, NULL);
            dm_fact_add(f, max, &n, g, "fetched", (double)o->split[i].fetched, NULL);
        }
    }
    return n;
}
