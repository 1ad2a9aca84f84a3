/* membw.c - the host side of the memory-bandwidth workload: the seeded generator, the
 * CPU reference (shared with the cpu variant), the exact comparison, the bytes each op
 * must move, and the output written as CSV. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "membw/membw.h"
#include "rng.h"

membw_op membw_point_op(const dm_point *pt)
{
    return strcmp(dm_point_str(pt, "op"), "triad") == 0 ? MEMBW_TRIAD : MEMBW_COPY;
}

/* The top 24 bits as k * 2^-23 - 1: exactly representable, uniform in [-1, 1). */
static float membw_uniform(uint64_t *state)
{
    return (float)(dm_splitmix64(state) >> 40) * 0x1p-23f - 1.0f;
}

void membw_generate(uint64_t seed, int64_t n, float *a, float *b, float *c)
{
    uint64_t state = seed;
    for (int64_t i = 0; i < n; i++) {
        a[i] = membw_uniform(&state);
        b[i] = membw_uniform(&state);
        c[i] = membw_uniform(&state);
    }
}

void membw_cpu(membw_op op, const membw_data *d, float *out)
{
    if (op == MEMBW_COPY) {
        memcpy(out, d->a, (size_t)d->n * sizeof(float));
        return;
    }
    for (int64_t i = 0; i < d->n; i++)
        out[i] = fmaf(3.0f, d->c[i], d->b[i]);
}

int membw_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                       dm_err *err)
{
    if (src->path[0])
        return dm_err_set(err, DM_EINPUT,
                          "membw reads no files ('%s'); use generator: random", src->path);
    if (strcmp(src->generator, "random") != 0)
        return dm_err_set(err, DM_EINPUT,
                          "membw has no generator '%s'; the generators are: random",
                          src->generator);
    int64_t n = dm_point_int(pt, "n");
    uint64_t seed = (uint64_t)dm_point_int(pt, "seed");
    membw_data *d = calloc(1, sizeof *d);
    float *arrays = malloc(3 * (size_t)n * sizeof(float));
    if (!d || !arrays) {
        free(d);
        free(arrays);
        return dm_err_set(err, DM_ERUNTIME, "membw: out of memory for 3 x %" PRId64 " floats",
                          n);
    }
    d->n = n;
    d->a = arrays;
    d->b = arrays + n;
    d->c = arrays + 2 * n;
    membw_generate(seed, n, d->a, d->b, d->c);

    memset(ds, 0, sizeof *ds);
    snprintf(ds->name, sizeof ds->name, "random");
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    snprintf(ds->shape, sizeof ds->shape, "3 arrays of %" PRId64 " floats", n);
    uint64_t h = dm_hash_bytes(DM_HASH_INIT, arrays, 3 * (size_t)n * sizeof(float));
    snprintf(ds->hash, sizeof ds->hash, "%016" PRIx64, h);
    ds->size_bytes = 3 * n * (int64_t)sizeof(float);
    ds->data = d;
    return 0;
}

void membw_dataset_close(dm_dataset *ds)
{
    membw_data *d = ds->data;
    if (d)
        free(d->a); /* a, b and c share one allocation */
    free(d);
    ds->data = NULL;
}

int membw_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    const membw_data *d = ds->data;
    float *out = malloc((size_t)d->n * sizeof(float));
    if (!out)
        return dm_err_set(err, DM_ERUNTIME, "membw: out of memory for the reference");
    membw_cpu(membw_point_op(pt), d, out);
    *ref = out;
    return 0;
}

void membw_reference_free(void *ref)
{
    free(ref);
}

int membw_compare(const void *ref, const void *out, const dm_point *pt, char *why,
                  size_t n)
{
    const float *want = ref, *got = out;
    int64_t count = dm_point_int(pt, "n");
    for (int64_t i = 0; i < count; i++) {
        uint32_t w, g;
        memcpy(&w, &want[i], sizeof w);
        memcpy(&g, &got[i], sizeof g);
        if (w != g) {
            snprintf(why, n, "element %" PRId64 ": expected %.9g (0x%08" PRIx32
                     "), got %.9g (0x%08" PRIx32 ")", i, want[i], w, got[i], g);
            return 1;
        }
    }
    return 0;
}

void membw_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w)
{
    (void)ds, (void)ref;
    double n = (double)dm_point_int(pt, "n");
    int arrays = membw_point_op(pt) == MEMBW_COPY ? 2 : 3;
    w->bytes = arrays * n * sizeof(float);
    w->ops = 0;
    w->ops_unit = NULL;
}

int membw_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    const float *v = out;
    int64_t count = dm_point_int(pt, "n");
    fputs("index,value\n", f);
    for (int64_t i = 0; i < count; i++)
        fprintf(f, "%" PRId64 ",%.9g\n", i, v[i]);
    if (fflush(f) != 0 || ferror(f))
        return dm_err_set(err, DM_ERUNTIME, "writing the output: %s", strerror(errno));
    return 0;
}
