/* test_coloc_filters.c - the two upper-bound filters against literal versions written here:
 * Algorithm 2 of the paper over every cell (CountMap, PCountMap) for filter C, and Huang
 * et al.'s coarse participation ratios by trying every combination of occupied cells for
 * filter M; bounds equal bit for bit, on random sets, at every size. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coloc/cl_index.h"
#include "rng.h"

/* A random set of 2-5 features with 1-12 points each in a square of 6 to 40 d, on a
 * lattice of step d/2 or anywhere; d = 3. */
static void random_points(uint64_t seed, cl_points *p)
{
    dm_rng r = dm_rng_seed(seed);
    int nfeat = 2 + (int)dm_rng_below(&r, 4), feature[64];
    double x[64], y[64], extent = 18 + dm_rng_below(&r, 100);
    int lattice = dm_rng_below(&r, 2);
    uint32_t n = 0;
    for (int f = 0; f < nfeat; f++) {
        uint32_t count = 1 + dm_rng_below(&r, 12);
        for (uint32_t i = 0; i < count; i++, n++) {
            feature[n] = f;
            uint32_t steps = (uint32_t)(extent / 1.5);
            x[n] = lattice ? 1.5 * dm_rng_below(&r, steps) : extent * dm_rng_unit(&r);
            y[n] = lattice ? 1.5 * dm_rng_below(&r, steps) : extent * dm_rng_unit(&r);
        }
    }
    dm_err err = {0};
    assert_int_equal(cl_points_build(p, nfeat, NULL, n, feature, x, y, NULL, &err), 0);
}

/* Algorithm 2 as the paper writes it: for every cell with a full quadruplet (itself, right,
 * below, below right), when every feature of the pattern has instances in the four cells,
 * copy the four cells' counts into PCountMap; the bound is the least ratio of summed
 * PCountMap to instances. */
static double algorithm2(const cl_points *p, const cl_grid *g, uint64_t mask)
{
    int feat[CL_MAX_FEATURES], k = cl_mask_features(mask, feat);
    size_t ncells = (size_t)g->ncols * g->nrows;
    uint32_t *count = calloc(ncells * p->nfeat, sizeof *count);
    uint32_t *pcount = calloc(ncells * p->nfeat, sizeof *pcount);
    for (int f = 0; f < p->nfeat; f++)
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++) {
            size_t cell = (size_t)cl_grid_row(g, p->y[i]) * g->ncols + cl_grid_col(g, p->x[i]);
            count[cell * p->nfeat + f]++;
        }
    for (int32_t r = 0; r + 1 < g->nrows; r++)
        for (int32_t c = 0; c + 1 < g->ncols; c++) {
            size_t quad[4] = {(size_t)r * g->ncols + c, (size_t)r * g->ncols + c + 1,
                              (size_t)(r + 1) * g->ncols + c, (size_t)(r + 1) * g->ncols + c + 1};
            int all = 1;
            for (int m = 0; m < k && all; m++) {
                uint32_t agg = 0;
                for (int j = 0; j < 4; j++)
                    agg += count[quad[j] * p->nfeat + feat[m]];
                all = agg > 0;
            }
            if (!all)
                continue;
            for (int m = 0; m < k; m++)
                for (int j = 0; j < 4; j++)
                    pcount[quad[j] * p->nfeat + feat[m]] = count[quad[j] * p->nfeat + feat[m]];
        }
    double bound = 1;
    for (int m = 0; m < k; m++) {
        uint64_t sum = 0;
        for (size_t cell = 0; cell < ncells; cell++)
            sum += pcount[cell * p->nfeat + feat[m]];
        double ratio = cl_ratio(sum, p->start[feat[m] + 1] - p->start[feat[m]]);
        if (ratio < bound)
            bound = ratio;
    }
    free(count);
    free(pcount);
    return bound;
}

/* Huang et al.'s coarse level: the instances are the cells holding a feature, neighbours
 * when the cells are the same or touch (8-neighbourhood); marks the (feature, cell) pairs
 * of every clique of one such cell per feature. */
static void coarse_extend(const cl_grid *g, const uint32_t *count, int nfeat, const int *feat,
                          int k, int m, int32_t *pc, int32_t *pr, uint8_t *part)
{
    if (m == k) {
        for (int a = 0; a < k; a++)
            part[((size_t)pr[a] * g->ncols + pc[a]) * nfeat + feat[a]] = 1;
        return;
    }
    for (int32_t r = 0; r < g->nrows; r++)
        for (int32_t c = 0; c < g->ncols; c++) {
            if (!count[((size_t)r * g->ncols + c) * nfeat + feat[m]])
                continue;
            int ok = 1;
            for (int a = 0; a < m && ok; a++)
                ok = abs(pc[a] - c) <= 1 && abs(pr[a] - r) <= 1;
            if (!ok)
                continue;
            pc[m] = c;
            pr[m] = r;
            coarse_extend(g, count, nfeat, feat, k, m + 1, pc, pr, part);
        }
}

/* The multi-resolution bound: per feature, the points in cells that are in some coarse
 * row instance, over the feature's points; the least of those. */
static double multires(const cl_points *p, const cl_grid *g, uint64_t mask)
{
    int feat[CL_MAX_FEATURES], k = cl_mask_features(mask, feat);
    size_t ncells = (size_t)g->ncols * g->nrows;
    uint32_t *count = calloc(ncells * p->nfeat, sizeof *count);
    uint8_t *part = calloc(ncells * p->nfeat, 1);
    for (int f = 0; f < p->nfeat; f++)
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++) {
            size_t cell = (size_t)cl_grid_row(g, p->y[i]) * g->ncols + cl_grid_col(g, p->x[i]);
            count[cell * p->nfeat + f]++;
        }
    int32_t pc[CL_MAX_FEATURES], pr[CL_MAX_FEATURES];
    coarse_extend(g, count, p->nfeat, feat, k, 0, pc, pr, part);
    double bound = 1;
    for (int m = 0; m < k; m++) {
        uint64_t sum = 0;
        for (size_t cell = 0; cell < ncells; cell++)
            if (part[cell * p->nfeat + feat[m]])
                sum += count[cell * p->nfeat + feat[m]];
        double ratio = cl_ratio(sum, p->start[feat[m] + 1] - p->start[feat[m]]);
        if (ratio < bound)
            bound = ratio;
    }
    free(count);
    free(part);
    return bound;
}

/* Mines at theta 0 (nothing pruned, every candidate bounded) with filter and checks each
 * candidate's bound against literal(). */
static void check_filter(cl_filter filter, double (*literal)(const cl_points *,
                                                                const cl_grid *, uint64_t))
{
    for (uint64_t seed = 1; seed <= 150; seed++) {
        cl_points p;
        random_points(seed, &p);
        const double d = 3;
        cl_grid g;
        dm_err err = {0};
        assert_int_equal(cl_grid_make(&p, d, &g, &err), 0);
        for (int threads = 1; threads <= 2; threads++) {
            cl_mine_opts o = {.distance = d, .prevalence = 0, .filter = filter,
                              .threads = threads};
            cl_result r;
            if (cl_mine(&p, &o, &r, &err))
                fail_msg("cl_mine: %s", err.msg);
            for (int64_t i = 0; i < r.ncand; i++) {
                double want = literal(&p, &g, r.cand[i].mask);
                if (memcmp(&want, &r.cand[i].bound, sizeof want) != 0)
                    fail_msg("seed %llu pattern %llx: bound %.17g, literal %.17g",
                             (unsigned long long)seed, (unsigned long long)r.cand[i].mask,
                             r.cand[i].bound, want);
            }
            cl_result_free(&r);
        }
        cl_points_free(&p);
    }
}

static void test_cellagg_is_algorithm2(void **state)
{
    (void)state;
    check_filter(CL_FILTER_CELLAGG, algorithm2);
}

static void test_multires_is_coarse_pi(void **state)
{
    (void)state;
    check_filter(CL_FILTER_MULTIRES, multires);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cellagg_is_algorithm2),
        cmocka_unit_test(test_multires_is_coarse_pi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
