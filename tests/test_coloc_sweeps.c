/* test_coloc_sweeps.c - coloc's tuning sweeps: they expand to the points their comments
 * state, time only GPU variants over threads per block, and their tuning buckets are those
 * of the Table 2 and Fig. 6(a) points they tune for, so that `dmbench tune coloc --header`
 * gives those sweeps their blocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"
#include "tuned_lookup.h"

#define MAX_BUCKETS 64

static const dm_device h100 = { .max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                                .sms = 132, .warp_size = 32 };

typedef struct buckets {
    char text[MAX_BUCKETS][600]; /* "variant:bucket" */
    int n;
} buckets;

/* Expands sweeps/name on the H100-like device into *e; fails the test on an error. */
static dm_sweep *expand(const char *name, dm_expansion *e)
{
    char path[512];
    dm_sweep *s = NULL;
    dm_err err = { 0 };
    snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, name);
    if (sweep_load(path, &s, &err) || sweep_expand(s, &h100, e, &err))
        fail_msg("%s: %s", name, err.msg);
    return s;
}

/* "variant:bucket" of pt, a point of s, for the block axis into out. */
static void bucket_of(const dm_sweep *s, const dm_point *pt, char *out, size_t n)
{
    char b[512];
    const dm_data_source *src = sweep_data_source(s);
    tuned_bucket(pt, "block", src->path[0] ? dm_path_base(src->path) : NULL, b, sizeof b);
    snprintf(out, n, "%s:%s", pt->variant->name, b);
}

/* Adds the tuning sweep name's buckets to *bs, checking that it expands to points, times
 * only GPU variants and gives each bucket the six blocks 32 to 1024. */
static void tuning_buckets(const char *name, size_t points, buckets *bs)
{
    dm_expansion e;
    dm_sweep *s = expand(name, &e);
    int per[MAX_BUCKETS] = { 0 }, first = bs->n;
    if (e.n != points || e.n_pruned)
        fail_msg("%s: %zu points, %zu pruned; its comment says %zu and 0", name, e.n,
                 e.n_pruned, points);
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        char b[600];
        int k = first;
        assert_true(pt->variant->needs_gpu);
        bucket_of(s, pt, b, sizeof b);
        while (k < bs->n && strcmp(bs->text[k], b))
            k++;
        if (k == bs->n) {
            assert_true(bs->n < MAX_BUCKETS);
            snprintf(bs->text[bs->n++], sizeof bs->text[0], "%s", b);
        }
        per[k]++;
    }
    for (int k = first; k < bs->n; k++)
        if (per[k] != 6)
            fail_msg("%s: %d blocks in bucket %s", name, per[k], bs->text[k]);
    sweep_expansion_free(&e);
    sweep_free(s);
}

/* Checks that every GPU point of sweep name whose parameters contain want (a
 * "name=value," piece) is in a bucket of bs; returns how many were. */
static int covered(const char *name, const char *want, const buckets *bs)
{
    dm_expansion e;
    dm_sweep *s = expand(name, &e);
    int n = 0;
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        char b[600];
        int k = 0;
        bucket_of(s, pt, b, sizeof b);
        if (!pt->variant->needs_gpu || !strstr(b, want))
            continue;
        while (k < bs->n && strcmp(bs->text[k], b))
            k++;
        if (k == bs->n)
            fail_msg("%s: no tuning sweep has the bucket of %s", name, b);
        n++;
    }
    sweep_expansion_free(&e);
    sweep_free(s);
    return n;
}

static void tuning_sweeps_cover_table2_and_fig6a(void **state)
{
    (void)state;
    buckets bs = { .n = 0 };
    tuning_buckets("coloc-tune-seattle", 60, &bs);
    tuning_buckets("coloc-tune-synthetic", 30, &bs);
    assert_int_equal(bs.n, 15); /* 5 variants x (2 thresholds + 1 synthetic set) */
    /* Seattle's buckets name its file: its points carry the generator's defaults, so
     * without it Seattle at 0.5 would share the bucket of synthetic 250k at 0.5 */
    int seattle = 0;
    for (int k = 0; k < bs.n; k++)
        seattle += strstr(bs.text[k], ",data=seattle2012.csv") != NULL;
    assert_int_equal(seattle, 10);
    /* Table 2's point and theta 0.5 of Fig. 7; Table 1's clumpiness-1 row */
    assert_int_equal(covered("coloc-table2", "prevalence=0.3,", &bs), 5);
    assert_int_equal(covered("coloc-table2", "prevalence=0.5,", &bs), 5);
    assert_int_equal(covered("coloc-fig6a", "instances=2000000,", &bs), 5);
    /* issue 39's sweep: Table 2's point, every GPU variant merging nothing, sites or
     * twins; the tuning sweeps merge nothing, so only those points take a tuned block */
    assert_int_equal(covered("coloc-fast", "merge=none,", &bs), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tuning_sweeps_cover_table2_and_fig6a),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
