/* test_coloc_sites.c - merging each feature's points at one place into weighted sites
 * (cl_inst_merge), against the points themselves: the sites' weights add up to each
 * feature's points, every point has its site, no two sites of a feature share a place,
 * the cells list every site once in order; the coarse set made from the sites is the one
 * made from the points; and, by brute force over every pair and triple, the rows of
 * points a pattern has and its participating points are what its rows of sites say
 * (weights multiplied, a site's points all taking part), on random sets full of shared
 * places. */
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

/* A random set of 2-4 features, 1-16 points each, on a lattice of step 1 in a square of
 * 3 to 8 (so many points of a feature share a place), d = 1 or 2. */
static double random_points(uint64_t seed, cl_points *p)
{
    dm_rng r = dm_rng_seed(seed);
    int nfeat = 2 + (int)dm_rng_below(&r, 3), feature[64];
    double x[64], y[64];
    uint32_t n = 0, side = 3 + dm_rng_below(&r, 6);
    for (int f = 0; f < nfeat; f++) {
        uint32_t count = 1 + dm_rng_below(&r, 16);
        for (uint32_t i = 0; i < count; i++, n++) {
            feature[n] = f;
            x[n] = dm_rng_below(&r, side);
            y[n] = dm_rng_below(&r, side);
        }
    }
    dm_err err = {0};
    assert_int_equal(cl_points_build(p, nfeat, NULL, n, feature, x, y, NULL, &err), 0);
    return 1 + dm_rng_below(&r, 2);
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
    uint32_t listed = 0;
    for (int f = 0; f < p->nfeat; f++) {
        uint64_t weight = 0;
        for (uint32_t i = s->start[f]; i < s->start[f + 1]; i++) {
            weight += s->weight[i];
            assert_int_equal(site_of(s, f, s->x[i], s->y[i]), i); /* the first at its place */
            assert_int_equal(s->col[i], cl_grid_col(g, s->x[i]));
            assert_int_equal(s->row[i], cl_grid_row(g, s->y[i]));
            if (i > s->start[f]) /* in cell order */
                assert_true((int64_t)s->row[i - 1] * g->ncols + s->col[i - 1] <=
                            (int64_t)s->row[i] * g->ncols + s->col[i]);
        }
        assert_int_equal(weight, s->total[f]);
        assert_int_equal(s->total[f], p->start[f + 1] - p->start[f]);
        for (uint32_t i = p->start[f]; i < p->start[f + 1]; i++)
            assert_true(site_of(s, f, p->x[i], p->y[i]) >= 0);
    }
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

static void assert_same_coarse(const cl_inst *a, const cl_inst *b)
{
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->start, b->start, sizeof a->start);
    assert_memory_equal(a->col, b->col, a->n * sizeof *a->col);
    assert_memory_equal(a->row, b->row, a->n * sizeof *a->row);
    assert_memory_equal(a->weight, b->weight, a->n * sizeof *a->weight);
    size_t ncells = (size_t)a->grid.ncols * a->grid.nrows;
    assert_memory_equal(a->cell_start, b->cell_start, (ncells + 1) * sizeof *a->cell_start);
    assert_memory_equal(a->cell_items, b->cell_items, a->n * sizeof *a->cell_items);
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

static void test_sites_are_the_points_merged(void **state)
{
    (void)state;
    uint64_t merged = 0, points = 0, rows = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        cl_points p;
        double d = random_points(seed, &p);
        cl_grid g;
        cl_inst fine, sites, coarse, coarse_sites;
        dm_err err = {0};
        assert_int_equal(cl_grid_make(&p, d, &g, &err), 0);
        assert_int_equal(cl_inst_fine(&p, &g, d, &fine, &err), 0);
        assert_int_equal(cl_inst_fine(&p, &g, d, &sites, &err), 0);
        assert_int_equal(cl_inst_merge(&sites, &err), 0);
        assert_sites(&p, &g, &sites);
        assert_int_equal(cl_inst_coarse(&fine, &coarse, &err), 0);
        assert_int_equal(cl_inst_coarse(&sites, &coarse_sites, &err), 0);
        assert_same_coarse(&coarse, &coarse_sites);
        for (int a = 0; a < p.nfeat; a++)
            for (int b = a + 1; b < p.nfeat; b++)
                for (int c = b; c < p.nfeat; c++) { /* c = b: the pair a, b */
                    int feat[3] = {a, b, c}, k = c == b ? 2 : 3;
                    uint64_t part[3], part_sites[3];
                    uint64_t want = brute_rows(&fine, feat, k, part);
                    assert_int_equal(brute_rows(&sites, feat, k, part_sites), want);
                    assert_memory_equal(part, part_sites, (size_t)k * sizeof *part);
                    rows += want;
                }
        merged += p.n - sites.n;
        points += p.n;
        cl_inst_free(&fine);
        cl_inst_free(&sites);
        cl_inst_free(&coarse);
        cl_inst_free(&coarse_sites);
        cl_points_free(&p);
    }
    fprintf(stderr, "300 random sets: %llu of %llu points merged, %llu rows of points\n",
            (unsigned long long)merged, (unsigned long long)points, (unsigned long long)rows);
    assert_true(merged > points / 8); /* the sets do share places (19 %) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sites_are_the_points_merged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
