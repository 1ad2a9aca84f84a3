/* test_coloc_merge.c - folding each feature's points into weighted instances
 * (cl_inst_merge) against the points themselves, on random sets full of shared places and
 * shared neighbourhoods. Sites: the weights add up to each feature's points, every point
 * has its site, no two sites of a feature share a place. Twins: an instance for each set
 * of neighbours a feature's points have, weighing the points that have it. Both: the
 * instances in cell order, the cells listing each once in order; and, by brute force over
 * every pair and triple, the rows of points a pattern has and its participating points
 * are what its rows of instances say (weights multiplied, a class's points all taking
 * part). */
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

/* A random set of 2-4 features, 1-16 points each, d = 1 or 2: on a lattice of step 1 in a
 * square of 3 to 8 (so many points of a feature share a place), or, for odd seeds,
 * anywhere in one of three clumps, squares of side 0.7 d at random in a square of 10
 * (a clump's points neighbour each other; the clumps may overlap). */
static double random_points(uint64_t seed, cl_points *p)
{
    dm_rng r = dm_rng_seed(seed);
    int nfeat = 2 + (int)dm_rng_below(&r, 3), feature[64];
    double x[64], y[64], d = 1 + dm_rng_below(&r, 2), cx[3], cy[3];
    uint32_t n = 0, side = 3 + dm_rng_below(&r, 6);
    for (int c = 0; c < 3; c++) {
        cx[c] = (10 - 0.7 * d) * dm_rng_unit(&r);
        cy[c] = (10 - 0.7 * d) * dm_rng_unit(&r);
    }
    for (int f = 0; f < nfeat; f++) {
        uint32_t count = 1 + dm_rng_below(&r, 16);
        for (uint32_t i = 0; i < count; i++, n++) {
            feature[n] = f;
            if (seed % 2 == 0) {
                x[n] = dm_rng_below(&r, side);
                y[n] = dm_rng_below(&r, side);
            } else {
                uint32_t c = dm_rng_below(&r, 3);
                x[n] = cx[c] + 0.7 * d * dm_rng_unit(&r);
                y[n] = cy[c] + 0.7 * d * dm_rng_unit(&r);
            }
        }
    }
    dm_err err = {0};
    assert_int_equal(cl_points_build(p, nfeat, NULL, n, feature, x, y, NULL, &err), 0);
    return d;
}

/* The site of feature f at (x, y) in s, or -1. */
static int64_t site_of(const cl_inst *s, int f, double x, double y)
{
    for (uint32_t i = s->start[f]; i < s->start[f + 1]; i++)
        if (s->x[i] == x && s->y[i] == y)
            return i;
    return -1;
}

/* Asserts that the sites s are p's points merged on grid g. */
static void assert_sites(const cl_points *p, const cl_grid *g, const cl_inst *s)
{
    for (int f = 0; f < p->nfeat; f++) {
        uint64_t weight = 0;
        for (uint32_t i = s->start[f]; i < s->start[f + 1]; i++) {
            weight += s->weight[i];
            assert_int_equal(site_of(s, f, s->x[i], s->y[i]), i); /* the first at its place */
            assert_int_equal(s->col[i], cl_grid_col(g, s->x[i]));
            assert_int_equal(s->row[i], cl_grid_row(g, s->y[i]));
        }
        assert_int_equal(weight, s->total[f]);
        assert_int_equal(s->total[f], p->start[f + 1] - p->start[f]);
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++)
            assert_true(site_of(s, f, p->x[i], p->y[i]) >= 0);
    }
}

/* The rows of pattern feat[0..k-1] (k = 2 or 3) among the instances of s, each weighing
 * the product of its instances' weights (1 without weights), and for each feature the
 * weight of its instances in a row into part[]. */
static uint64_t brute_rows(const cl_inst *s, const int *feat, int k, uint64_t *part)
{
    uint64_t rows = 0;
    uint8_t *in = calloc(s->n + 1, 1);
    const uint32_t *st = s->start;
    for (uint32_t a = st[feat[0]]; a < st[feat[0] + 1]; a++)
        for (uint32_t b = st[feat[1]]; b < st[feat[1] + 1]; b++) {
            if (!cl_inst_near(s, a, b))
                continue;
            uint32_t lo = k == 3 ? st[feat[2]] : 0, hi = k == 3 ? st[feat[2] + 1] : 1;
            for (uint32_t c = lo; c < hi; c++) {
                if (k == 3 && !(cl_inst_near(s, a, c) && cl_inst_near(s, b, c)))
                    continue;
                uint64_t w = s->weight ? (uint64_t)s->weight[a] * s->weight[b] : 1;
                if (k == 3) {
                    w *= s->weight ? s->weight[c] : 1;
                    in[c] = 1;
                }
                rows += w;
                in[a] = in[b] = 1;
            }
        }
    for (int m = 0; m < k; m++) {
        part[m] = 0;
        for (uint32_t i = st[feat[m]]; i < st[feat[m] + 1]; i++)
            part[m] += in[i] ? (s->weight ? s->weight[i] : 1) : 0;
    }
    free(in);
    return rows;
}

/* The other features' points of p neighbouring (x, y), as a mask of their indices. */
static uint64_t neighbours_of(const cl_points *p, int f, double x, double y, double d)
{
    uint64_t mask = 0;
    for (int g = 0; g < p->nfeat; g++)
        for (uint32_t j = p->start[g]; j < p->start[g + 1] && g != f; j++)
            if (cl_near(x, y, p->x[j], p->y[j], d * d))
                mask |= 1ULL << j;
    return mask;
}

/* Asserts that the twins s are p's points merged: one instance for each set of neighbours
 * a feature's points have, weighing the points that have it. */
static void assert_twins(const cl_points *p, double d, const cl_inst *s)
{
    for (int f = 0; f < p->nfeat; f++) {
        uint32_t classes = 0;
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++) {
            uint64_t mine = neighbours_of(p, f, p->x[i], p->y[i], d);
            int first = 1;
            for (uint32_t j = p->start[f]; j < i && first; j++)
                first = neighbours_of(p, f, p->x[j], p->y[j], d) != mine;
            classes += first;
        }
        assert_int_equal(s->start[f + 1] - s->start[f], classes);
        for (uint32_t r = s->start[f]; r < s->start[f + 1]; r++) {
            uint64_t mine = neighbours_of(p, f, s->x[r], s->y[r], d);
            uint32_t have = 0;
            for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++)
                have += neighbours_of(p, f, p->x[i], p->y[i], d) == mine;
            assert_int_equal(s->weight[r], have);
        }
    }
}

/* Asserts that s's instances are in cell order and its cells list each once, in order. */
static void assert_cells(const cl_grid *g, const cl_inst *s)
{
    uint32_t listed = 0;
    for (int f = 0; f < s->nfeat; f++)
        for (uint32_t i = s->start[f] + 1; i < s->start[f + 1]; i++)
            assert_true((int64_t)s->row[i - 1] * g->ncols + s->col[i - 1] <=
                        (int64_t)s->row[i] * g->ncols + s->col[i]);
    assert_int_equal(s->start[s->nfeat], s->n);
    for (int32_t c = 0; c < g->ncols * g->nrows; c++)
        for (uint32_t j = s->cell_start[c]; j < s->cell_start[c + 1]; j++, listed++) {
            uint32_t i = s->cell_items[j];
            assert_int_equal((int64_t)s->row[i] * g->ncols + s->col[i], c);
            if (j > s->cell_start[c])
                assert_true(s->cell_items[j - 1] < i);
        }
    assert_int_equal(listed, s->n);
}

/* Merges 300 random sets as how says, checking each (check: the kind's own assertion);
 * returns the share of points folded away. */
static double check_merge(cl_merge how)
{
    uint64_t merged = 0, points = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        cl_points p;
        double d = random_points(seed, &p);
        cl_grid g;
        cl_inst fine, m;
        dm_err err = {0};
        assert_int_equal(cl_grid_make(&p, d, &g, &err), 0);
        assert_int_equal(cl_inst_fine(&p, &g, d, &fine, &err), 0);
        assert_int_equal(cl_inst_fine(&p, &g, d, &m, &err), 0);
        assert_int_equal(cl_inst_merge(&m, how, 1 + (int)(seed % 3), &err), 0);
        assert_cells(&g, &m);
        if (how == CL_MERGE_SITES)
            assert_sites(&p, &g, &m);
        else
            assert_twins(&p, d, &m);
        for (int a = 0; a < p.nfeat; a++)
            for (int b = a + 1; b < p.nfeat; b++)
                for (int c = b; c < p.nfeat; c++) { /* c = b: the pair a, b */
                    int feat[3] = {a, b, c}, k = c == b ? 2 : 3;
                    uint64_t part[3], part_merged[3];
                    uint64_t want = brute_rows(&fine, feat, k, part);
                    assert_int_equal(brute_rows(&m, feat, k, part_merged), want);
                    assert_memory_equal(part, part_merged, (size_t)k * sizeof *part);
                }
        merged += p.n - m.n;
        points += p.n;
        cl_inst_free(&fine);
        cl_inst_free(&m);
        cl_points_free(&p);
    }
    return (double)merged / (double)points;
}

static void test_sites(void **state)
{
    (void)state;
    double share = check_merge(CL_MERGE_SITES);
    fprintf(stderr, "sites: %.1f %% of the points folded away\n", 100 * share);
    assert_true(share > 0.05); /* the lattice sets do share places (8.4 % of all) */
}

static void test_twins(void **state)
{
    (void)state;
    double share = check_merge(CL_MERGE_TWINS);
    fprintf(stderr, "twins: %.1f %% of the points folded away\n", 100 * share);
    assert_true(share > 0.25); /* more than sites (44.6 %) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_twins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
