/* cl_workload.c - the coloc workload's dataset (a points file of either format, or the
 * generator `synthetic`), CPU reference, comparison, result writer and facts, for
 * variants/coloc. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/cl_workload.h"

/* The index of name among names[0..n-1], or -1. */
static int cl_named(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

int cl_filter_named(const char *name, cl_filter *f)
{
    static const char *const names[] = { "none", "M", "C" }; /* in cl_filter's order */
    int i = cl_named(name, names, 3);
    *f = (cl_filter)i;
    return i < 0 ? -1 : 0;
}

int cl_merge_named(const char *name, cl_merge *m)
{
    static const char *const names[] = { "none", "sites", "twins" }; /* cl_merge's order */
    int i = cl_named(name, names, 3);
    *m = (cl_merge)i;
    return i < 0 ? -1 : 0;
}

cl_mine_opts cl_point_opts(const dm_point *pt, cl_filter filter, int threads)
{
    return (cl_mine_opts){ .distance = dm_point_real(pt, "distance"),
                           .prevalence = dm_point_real(pt, "prevalence"),
                           .filter = filter, .threads = threads };
}

/* The generator's parameters from pt's dataset parameters (the planting distance is
 * the paper's d = 10 of cl_gen_defaults). */
static cl_gen_params cl_point_gen(const dm_point *pt)
{
    cl_gen_params g;
    cl_gen_defaults(&g);
    g.instances = (uint32_t)dm_point_int(pt, "instances");
    g.clumpiness = (uint32_t)dm_point_int(pt, "clumpiness");
    g.area = dm_point_real(pt, "area");
    g.max_size = (int)dm_point_int(pt, "max_size");
    g.patterns = (int)dm_point_int(pt, "patterns");
    g.noise_features = (int)dm_point_int(pt, "noise_features");
    g.seed = (uint64_t)dm_point_int(pt, "seed");
    return g;
}

int cl_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                    dm_err *err)
{
    int rc;
    cl_points *p = calloc(1, sizeof *p);
    if (!p)
        return dm_err_set(err, DM_ERUNTIME, "coloc: out of memory");
    memset(ds, 0, sizeof *ds);
    if (src->path[0]) {
        if ((rc = cl_points_load(src->path, p, err)))
            goto fail;
        dm_dataset_file(ds, src->path);
    } else {
        if (strcmp(src->generator, "synthetic") != 0) {
            rc = dm_err_set(err, DM_EINPUT, "coloc has no generator '%s'; the generators "
                            "are: synthetic", src->generator);
            goto fail;
        }
        cl_gen_params g = cl_point_gen(pt);
        if ((rc = cl_generate(&g, p, NULL, err)) != 0) {
            dm_err_prefix(err, "coloc generator synthetic");
            goto fail;
        }
        snprintf(ds->name, sizeof ds->name, "%s", src->generator);
    }
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    snprintf(ds->shape, sizeof ds->shape, "%" PRIu32 " instances of %d features", p->n,
             p->nfeat);
    uint64_t h = DM_HASH_INIT;
    for (int f = 0; f < p->nfeat; f++) /* each name with its terminator, not past it */
        h = dm_hash_bytes(h, p->names[f], strlen(p->names[f]) + 1);
    h = dm_hash_bytes(h, p->start, (size_t)(p->nfeat + 1) * sizeof *p->start);
    h = dm_hash_bytes(h, p->x, (size_t)p->n * sizeof *p->x);
    h = dm_hash_bytes(h, p->y, (size_t)p->n * sizeof *p->y);
    snprintf(ds->hash, sizeof ds->hash, "%016" PRIx64, h);
    ds->size_bytes = (int64_t)p->n * (int64_t)(sizeof *p->x + sizeof *p->y);
    ds->data = p;
    return 0;
fail:
    free(p);
    return rc;
}

void cl_dataset_close(dm_dataset *ds)
{
    cl_points *p = ds->data;
    if (p)
        cl_points_free(p);
    free(p);
    ds->data = NULL;
}

/* The reference mines with filter M, Huang et al.'s multi-resolution bound, on all
 * cores. Every filter gives the same answer (a bound only spares candidates whose PI is
 * below theta the refinement), so the choice is one of cost and independence. No filter
 * would be the most independent, but it refines every candidate and writes every table
 * one joins: on Seattle at d = 10, theta = 0.3 that runs out of memory where M's largest
 * table already has 913 million rows. C is the cheapest on the synthetic sets, but it is
 * cpu-mt's default, which would then be checked against itself. M is the paper's CPU
 * baseline (the answer its tables are of); across all cores it differs from cpu (M, one
 * thread) in the threads, whose answers the core makes bit-identical
 * (tests/test_coloc_mine.c), and from cpu-mt in the filter. */
int cl_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    cl_answer *a = calloc(1, sizeof *a);
    if (!a)
        return dm_err_set(err, DM_ERUNTIME, "coloc: out of memory");
    a->p = ds->data;
    cl_mine_opts o = cl_point_opts(pt, CL_FILTER_MULTIRES, 0);
    int rc = cl_mine(a->p, &o, &a->r, err);
    if (rc) {
        free(a);
        return rc;
    }
    *ref = a;
    return 0;
}

void cl_reference_free(void *ref)
{
    cl_answer *a = ref;
    if (a)
        cl_result_free(&a->r);
    free(a);
}

int cl_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n)
{
    (void)pt;
    return cl_result_compare(&((const cl_answer *)ref)->r, &((const cl_answer *)out)->r, why,
                             n);
}

/* Orders feature names: numerically when both are integers, else as strings. */
static int cl_name_cmp(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    char *ex, *ey;
    errno = 0;
    long long nx = strtoll(x, &ex, 10), ny = strtoll(y, &ey, 10);
    if (errno == 0 && *x && *y && !*ex && !*ey && nx != ny)
        return nx < ny ? -1 : 1;
    return strcmp(x, y);
}

int cl_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    const cl_answer *a = out;
    (void)pt;
    if (fprintf(f, "size,features,pi\n") < 0)
        return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    for (int64_t i = 0; i < a->r.ncand; i++) {
        const cl_candidate *c = &a->r.cand[i];
        if (!c->prevalent)
            continue;
        int feat[CL_MAX_FEATURES], k = cl_mask_features(c->mask, feat);
        const char *names[CL_MAX_FEATURES];
        for (int j = 0; j < k; j++)
            names[j] = a->p->names[feat[j]];
        qsort(names, (size_t)k, sizeof *names, cl_name_cmp);
        char text[CL_MAX_FEATURES * CL_NAME_MAX], pi[32];
        text[0] = '\0';
        for (int j = 0; j < k; j++)
            dm_append(text, sizeof text, "%s%s", j ? "+" : "", names[j]);
        dm_format_double(c->pi, pi, sizeof pi);
        if (fprintf(f, "%d,%s,%s\n", c->size, text, pi) < 0)
            return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    }
    return 0;
}

int cl_facts(const void *out, const dm_point *pt, dm_fact *f, int max)
{
    const cl_answer *a = out;
    (void)pt;
    int n = 0;
    for (int i = 0; i < a->r.nlevels; i++) {
        const cl_level *lv = &a->r.levels[i];
        const cl_dev_costs *d = &lv->dev;
        char g[32];
        snprintf(g, sizeof g, "size %d", lv->size);
        dm_fact_add(f, max, &n, g, "candidates", (double)lv->candidates, NULL);
        dm_fact_add(f, max, &n, g, "pruned", (double)lv->pruned, NULL);
        dm_fact_add(f, max, &n, g, "prevalent", (double)lv->prevalent, NULL);
        dm_fact_add(f, max, &n, g, "rows", (double)lv->rows, NULL);
        dm_fact_add(f, max, &n, g, "filter_s", lv->filter_s, "s");
        dm_fact_add(f, max, &n, g, "refine_s", lv->refine_s, "s");
        dm_fact_add(f, max, &n, g, "host_s", lv->host_s, "s");
        if (!a->r.on_device)
            continue;
        dm_fact_add(f, max, &n, g, "tested", (double)d->tested, NULL);
        dm_fact_add(f, max, &n, g, "allocs", (double)d->allocs, NULL);
        dm_fact_add(f, max, &n, g, "alloc_s", d->alloc_s, "s");
        dm_fact_add(f, max, &n, g, "waits", (double)d->waits, NULL);
        dm_fact_add(f, max, &n, g, "wait_s", d->wait_s, "s");
        dm_fact_add(f, max, &n, g, "copies", (double)d->copies, NULL);
        dm_fact_add(f, max, &n, g, "copy_bytes", (double)d->copy_bytes, NULL);
        dm_fact_add(f, max, &n, g, "copy_s", d->copy_s, "s");
    }
    dm_fact_add(f, max, &n, "all", "wall_s", a->r.wall_s, "s");
    if (a->r.on_device) {
        dm_fact_add(f, max, &n, "all", "instances", (double)a->r.instances, NULL);
        dm_fact_add(f, max, &n, "all", "merge_s", a->r.merge_s, "s");
    }
    return n;
}
