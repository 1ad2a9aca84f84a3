/* test_coloc_mine.c - the colocation miners against an independent brute force (every
 * combination of instances, every pair tested) on many small random point sets, the
 * filters' bounds never below the true PI, many threads equal to one bit for bit, the
 * generator's planted patterns found, and options refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "coloc/cl_gpu.h"
#include "coloc/cl_index.h"
#include "rng.h"

static const cl_filter filters[] = {CL_FILTER_NONE, CL_FILTER_MULTIRES, CL_FILTER_CELLAGG};

/* Marks, in part, the instances of the features feat[m..k-1] that complete the partial
 * clique pick[0..m-1] into a row instance; returns whether any did. */
static int brute_extend(const cl_points *p, const int *feat, int k, int m, uint32_t *pick,
                        double d2, uint8_t *part)
{
    if (m == k) {
        for (int a = 0; a < k; a++)
            part[pick[a]] = 1;
        return 1;
    }
    int any = 0;
    for (uint32_t i = p->start[feat[m]]; i < p->start[feat[m] + 1]; i++) {
        int ok = 1;
        for (int a = 0; a < m && ok; a++)
            ok = cl_near(p->x[pick[a]], p->y[pick[a]], p->x[i], p->y[i], d2);
        if (!ok)
            continue;
        pick[m] = i;
        any |= brute_extend(p, feat, k, m + 1, pick, d2, part);
    }
    return any;
}

/* PI of the pattern mask by trying every combination of one instance per feature. */
static double brute_pi(const cl_points *p, uint64_t mask, double d)
{
    int feat[CL_MAX_FEATURES], k = cl_mask_features(mask, feat);
    uint8_t *part = calloc(p->n, 1);
    uint32_t pick[CL_MAX_FEATURES];
    brute_extend(p, feat, k, 0, pick, d * d, part);
    double pi = 1;
    for (int m = 0; m < k; m++) {
        uint64_t count = 0, n = p->start[feat[m] + 1] - p->start[feat[m]];
        for (uint32_t i = p->start[feat[m]]; i < p->start[feat[m] + 1]; i++)
            count += part[i];
        double ratio = (double)count / (double)n;
        if (ratio < pi)
            pi = ratio;
    }
    free(part);
    return pi;
}

/* A random point set: 2-4 features of 1-9 points each; lattice points (so that many pairs
 * are at distance d exactly, 3-4-5 triangles included) or real ones; *d to match. */
static void random_points(uint64_t seed, cl_points *p, double *d)
{
    dm_rng r = dm_rng_seed(seed);
    int nfeat = 2 + (int)dm_rng_below(&r, 3), feature[64];
    double x[64], y[64];
    uint32_t n = 0;
    int lattice = dm_rng_below(&r, 2);
    static const double lattice_d[] = {1, 2, 3, 5}, real_d[] = {1.5, 3, 4.25};
    *d = lattice ? lattice_d[dm_rng_below(&r, 4)] : real_d[dm_rng_below(&r, 3)];
    double extent = lattice ? 4 + dm_rng_below(&r, 12) : 5 + 15 * dm_rng_unit(&r);
    for (int f = 0; f < nfeat; f++) {
        uint32_t count = 1 + dm_rng_below(&r, 9);
        for (uint32_t i = 0; i < count; i++, n++) {
            feature[n] = f;
            x[n] = lattice ? dm_rng_below(&r, (uint32_t)extent + 1) : extent * dm_rng_unit(&r);
            y[n] = lattice ? dm_rng_below(&r, (uint32_t)extent + 1) : extent * dm_rng_unit(&r);
        }
    }
    const double box[4] = {-1, -2, extent + 3, extent + 1};
    dm_err err = {0};
    assert_int_equal(cl_points_build(p, nfeat, NULL, n, feature, x, y, seed % 3 ? box : NULL,
                                     &err),
                     0);
}

/* Mines p, failing the test on an error. */
static void mine(const cl_points *p, double d, double theta, cl_filter filter, int threads,
                 cl_result *r)
{
    cl_mine_opts o = {.distance = d, .prevalence = theta, .filter = filter, .threads = threads};
    dm_err err = {0};
    if (cl_mine(p, &o, r, &err) != 0)
        fail_msg("cl_mine: %s", err.msg);
}

/* Asserts that r holds exactly the patterns of size 2 and up whose brute-force PI is at
 * least theta, each with the brute force's PI bit for bit, and that every candidate's
 * bound is at least its true PI. */
static void check_against_brute(const cl_points *p, double d, double theta, const cl_result *r,
                                uint64_t seed)
{
    int64_t at = 0;
    for (uint64_t mask = 1; mask < 1ULL << p->nfeat; mask++) {
        if (__builtin_popcountll(mask) < 2)
            continue;
        double pi = brute_pi(p, mask, d);
        const cl_candidate *c = NULL;
        for (int64_t i = 0; i < r->ncand; i++)
            if (r->cand[i].mask == mask)
                c = &r->cand[i];
        if (c && !isnan(c->bound) && !(c->bound >= pi))
            fail_msg("seed %llu: pattern %llx: bound %.17g below PI %.17g",
                     (unsigned long long)seed, (unsigned long long)mask, c->bound, pi);
        if (c && !c->pruned && memcmp(&c->pi, &pi, sizeof pi) != 0)
            fail_msg("seed %llu: pattern %llx: PI %.17g, brute force %.17g",
                     (unsigned long long)seed, (unsigned long long)mask, c->pi, pi);
        int want = pi >= theta, got = c && c->prevalent;
        if (want != got)
            fail_msg("seed %llu d %g theta %g: pattern %llx prevalent %d, brute force PI %.17g",
                     (unsigned long long)seed, d, theta, (unsigned long long)mask, got, pi);
        at += got;
    }
    int64_t prevalent = 0;
    for (int l = 0; l < r->nlevels; l++)
        prevalent += r->levels[l].prevalent;
    assert_int_equal(prevalent, at);
}

static void test_reference_matches_brute_force(void **state)
{
    (void)state;
    static const double thetas[] = {0, 0.1, 0.25, 1.0 / 3, 0.5, 0.75, 1};
    for (uint64_t seed = 1; seed <= 400; seed++) {
        cl_points p;
        double d;
        random_points(seed, &p, &d);
        double theta = thetas[seed % 7];
        for (int f = 0; f < 3; f++) {
            cl_result r;
            mine(&p, d, theta, filters[f], 1, &r);
            check_against_brute(&p, d, theta, &r, seed);
            cl_result_free(&r);
        }
        cl_points_free(&p);
    }
}

static void test_distance_exactly_d(void **state)
{
    (void)state;
    /* a-b at 5 exactly (3-4-5), b-c at 5 exactly, a-c at 9.5: {a,b} and {b,c} are
     * prevalent, {a,c} is not, so {a,b,c} is no candidate; a c 1e-9 further is no
     * neighbour of b, so c's ratio in {b,c} is 1/2. */
    const int feature[] = {0, 1, 2, 2};
    const double x[] = {0, 3, 3, 3}, y[] = {0, 4, 9, 9 + 1e-9};
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_build(&p, 3, NULL, 4, feature, x, y, NULL, &err), 0);
    for (int f = 0; f < 3; f++) {
        cl_result r;
        mine(&p, 5, 0.5, filters[f], 1, &r);
        assert_int_equal(r.nlevels, 1);
        assert_int_equal(r.levels[0].candidates, 3);
        assert_int_equal(r.levels[0].prevalent, 2);
        for (int64_t i = 0; i < r.ncand; i++) {
            const cl_candidate *c = &r.cand[i];
            if (c->mask == 0x3)
                assert_true(c->prevalent && c->pi == 1 && c->rows == 1);
            if (c->mask == 0x6)
                assert_true(c->prevalent && c->pi == 0.5 && c->rows == 1);
            if (c->mask == 0x5)
                assert_false(c->prevalent);
        }
        cl_result_free(&r);
    }
    cl_points_free(&p);
}

/* Asserts that a and b are the same answer: every candidate, bound, PI and row count. */
static void assert_same_result(const cl_result *a, const cl_result *b)
{
    assert_int_equal(a->nlevels, b->nlevels);
    assert_int_equal(a->ncand, b->ncand);
    for (int64_t i = 0; i < a->ncand; i++) {
        const cl_candidate *x = &a->cand[i], *y = &b->cand[i];
        assert_int_equal(x->mask, y->mask);
        assert_int_equal(x->pruned, y->pruned);
        assert_int_equal(x->prevalent, y->prevalent);
        assert_int_equal(x->rows, y->rows);
        assert_memory_equal(&x->pi, &y->pi, sizeof x->pi);
        assert_memory_equal(&x->bound, &y->bound, sizeof x->bound);
    }
    char why[256];
    if (cl_result_compare(a, b, why, sizeof why))
        fail_msg("%s", why);
}

/* A clustered set: nfeat features around a few hundred centres, so tables are large. */
static void clustered_points(uint64_t seed, int nfeat, uint32_t n, cl_points *p)
{
    dm_rng r = dm_rng_seed(seed);
    int *feature = malloc(n * sizeof *feature);
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double cx[300], cy[300];
    for (int c = 0; c < 300; c++)
        cx[c] = 1000 * dm_rng_unit(&r), cy[c] = 1000 * dm_rng_unit(&r);
    for (uint32_t i = 0; i < n; i++) {
        feature[i] = i < (uint32_t)nfeat ? (int)i : (int)dm_rng_below(&r, (uint32_t)nfeat);
        int c = (int)dm_rng_below(&r, 300);
        x[i] = fmin(1000, fmax(0, cx[c] + 30 * (dm_rng_unit(&r) - 0.5)));
        y[i] = fmin(1000, fmax(0, cy[c] + 30 * (dm_rng_unit(&r) - 0.5)));
    }
    const double box[4] = {0, 0, 1000, 1000};
    dm_err err = {0};
    assert_int_equal(cl_points_build(p, nfeat, NULL, n, feature, x, y, box, &err), 0);
    free(feature);
    free(x);
    free(y);
}

static void test_threads_equal_one_thread(void **state)
{
    (void)state;
    cl_points p;
    clustered_points(7, 6, 20000, &p);
    for (int f = 0; f < 3; f++) {
        cl_result one, many, all;
        mine(&p, 10, 0.2, filters[f], 1, &one);
        mine(&p, 10, 0.2, filters[f], 3, &many);
        mine(&p, 10, 0.2, filters[f], 0, &all);
        assert_true(one.nlevels >= 3); /* joins were exercised */
        assert_same_result(&one, &many);
        assert_same_result(&one, &all);
        cl_result none;
        mine(&p, 10, 0.2, CL_FILTER_NONE, 1, &none);
        char why[256];
        if (cl_result_compare(&none, &one, why, sizeof why)) /* filters lose nothing */
            fail_msg("filter %d: %s", f, why);
        cl_result_free(&one);
        cl_result_free(&many);
        cl_result_free(&all);
        cl_result_free(&none);
    }
    cl_points_free(&p);
}

static void test_bounds_at_least_pi(void **state)
{
    (void)state;
    /* At theta 0 nothing is pruned, so every candidate has both its bound and its PI. */
    for (uint64_t seed = 1; seed <= 6; seed++) {
        cl_points p;
        clustered_points(seed, 5, 3000, &p);
        for (int f = 1; f < 3; f++) {
            cl_result r;
            mine(&p, 5 + (double)seed, 0, filters[f], 2, &r);
            for (int64_t i = 0; i < r.ncand; i++) {
                const cl_candidate *c = &r.cand[i];
                assert_false(c->pruned);
                if (!(c->bound >= c->pi))
                    fail_msg("seed %llu filter %d pattern %llx: bound %.17g below PI %.17g",
                             (unsigned long long)seed, f, (unsigned long long)c->mask, c->bound,
                             c->pi);
            }
            cl_result_free(&r);
        }
        cl_points_free(&p);
    }
}

static void test_planted_patterns_found(void **state)
{
    (void)state;
    for (uint32_t clump = 1; clump <= 4; clump += 3) {
        cl_gen_params g;
        cl_gen_defaults(&g);
        g.instances = 24000;
        g.clumpiness = clump;
        cl_points p;
        cl_planted planted;
        dm_err err = {0};
        assert_int_equal(cl_generate(&g, &p, &planted, &err), 0);
        for (int f = 0; f < 3; f++) {
            cl_result r;
            mine(&p, g.distance, 0.5, filters[f], 0, &r);
            int found = 0;
            for (int64_t i = 0; i < r.ncand; i++) {
                const cl_candidate *c = &r.cand[i];
                int inside = (c->mask & planted.mask[0]) == c->mask ||
                             (c->mask & planted.mask[1]) == c->mask;
                assert_int_equal(c->prevalent, inside);
                if (inside) {
                    assert_true(c->pi == 1);
                    found++;
                }
                if (c->mask == planted.mask[0])
                    assert_true(c->rows >= 2000 / clump * (uint64_t)pow(clump, 5));
            }
            assert_int_equal(found, 2 * (32 - 5 - 1)); /* subsets of size 2..5 of each */
            cl_result_free(&r);
        }
        cl_points_free(&p);
    }
}

static void test_seattle_filters_and_threads_agree(void **state)
{
    (void)state;
    const char *path = DM_SOURCE_DIR "/../shared/datasets/coloc/seattle2012.csv";
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "test_seattle_filters_and_threads_agree: %s not there, skipped\n", path);
        skip();
    }
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_load_seattle(path, &p, &err), 0);
    cl_result first;
    mine(&p, 10, 0.5, CL_FILTER_NONE, 1, &first);
    /* As mined here at d = 10, theta = 0.5 (every filter and thread count agrees): 14
     * prevalent pairs of 78 candidates, 4 triples of 7 (the largest table 14,509,918 rows). */
    assert_int_equal(first.nlevels, 2);
    assert_int_equal(first.levels[0].candidates, 78);
    assert_int_equal(first.levels[0].prevalent, 14);
    assert_int_equal(first.levels[1].candidates, 7);
    assert_int_equal(first.levels[1].prevalent, 4);
    uint64_t largest = 0;
    for (int64_t i = 0; i < first.ncand; i++)
        largest = first.cand[i].rows > largest ? first.cand[i].rows : largest;
    assert_int_equal(largest, 14509918);
    for (int f = 0; f < 3; f++) {
        cl_result one, all;
        mine(&p, 10, 0.5, filters[f], 1, &one);
        mine(&p, 10, 0.5, filters[f], 0, &all);
        assert_same_result(&one, &all);
        char why[256];
        if (cl_result_compare(&first, &one, why, sizeof why))
            fail_msg("filter %d: %s", f, why);
        cl_result_free(&one);
        cl_result_free(&all);
    }
    cl_result_free(&first);
    cl_points_free(&p);
}

static void test_degenerate_sets(void **state)
{
    (void)state;
    /* One feature: no candidate. All points at one place: every pattern has PI 1. */
    const int one[] = {0, 0}, three[] = {0, 1, 2, 2};
    const double x[] = {5, 5, 5, 5}, y[] = {7, 7, 7, 7};
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_build(&p, 1, NULL, 2, one, x, y, NULL, &err), 0);
    cl_result r;
    mine(&p, 1, 0.5, CL_FILTER_MULTIRES, 1, &r);
    assert_int_equal(r.nlevels, 0);
    assert_int_equal(r.ncand, 0);
    cl_result_free(&r);
    cl_points_free(&p);
    assert_int_equal(cl_points_build(&p, 3, NULL, 4, three, x, y, NULL, &err), 0);
    for (int f = 0; f < 3; f++) {
        mine(&p, 1, 1, filters[f], 2, &r);
        assert_int_equal(r.nlevels, 2);
        assert_int_equal(r.ncand, 4);
        for (int64_t i = 0; i < r.ncand; i++)
            assert_true(r.cand[i].prevalent && r.cand[i].pi == 1);
        assert_int_equal(r.cand[3].rows, 2);
        cl_result_free(&r);
    }
    cl_points_free(&p);
}

static void test_options_refused(void **state)
{
    (void)state;
    const int feature[] = {0, 1};
    const double x[] = {0, 1e6}, y[] = {0, 1e6};
    cl_points p;
    cl_result r;
    dm_err err = {0};
    assert_int_equal(cl_points_build(&p, 2, NULL, 2, feature, x, y, NULL, &err), 0);
    cl_mine_opts o = {.distance = 0, .prevalence = 0.5};
    assert_int_equal(cl_mine(&p, &o, &r, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "distance"));
    o.distance = NAN;
    assert_int_equal(cl_mine(&p, &o, &r, &err), DM_EINPUT);
    o.distance = 0.01;
    assert_int_equal(cl_mine(&p, &o, &r, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "cells"));
    o.distance = 10;
    o.prevalence = 1.5;
    assert_int_equal(cl_mine(&p, &o, &r, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "prevalence"));
    o.prevalence = 0.5;
    o.threads = -1;
    assert_int_equal(cl_mine(&p, &o, &r, &err), DM_EINPUT);
    assert_null(r.cand);
    cl_points_free(&p);
}

/* The GPU miner refuses options out of range before it touches the device, so this runs
 * without one. */
static void test_gpu_options_refused(void **state)
{
    (void)state;
    const int feature[] = {0, 1};
    const double x[] = {0, 1e6}, y[] = {0, 1e6};
    cl_points p;
    dm_err err = {0};
    assert_int_equal(cl_points_build(&p, 2, NULL, 2, feature, x, y, NULL, &err), 0);
    const cl_gpu_opts good = {.distance = 10, .prevalence = 0.5, .block = 256, .slice = 1024};
    static const struct {
        const char *field, *says;
    } cases[] = {{"prevalence", "prevalence"}, {"filter", "filter"}, {"refine", "refinement"},
                 {"block", "block"}, {"block32", "block"}, {"slice", "slice"},
                 {"distance", "cells"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cl_gpu_opts o = good;
        const char *f = cases[i].field;
        if (strcmp(f, "prevalence") == 0)
            o.prevalence = -0.1;
        else if (strcmp(f, "filter") == 0)
            o.filter = (cl_filter)7;
        else if (strcmp(f, "refine") == 0)
            o.refine = (cl_refine)2;
        else if (strcmp(f, "block") == 0)
            o.block = 2048;
        else if (strcmp(f, "block32") == 0)
            o.block = 100;
        else if (strcmp(f, "slice") == 0)
            o.slice = 0;
        else
            o.distance = 0.01;
        cl_gpu *g = (cl_gpu *)&p; /* must come back NULL */
        assert_int_equal(cl_gpu_open(&p, &o, &g, &err), DM_EINPUT);
        assert_null(g);
        if (!strstr(err.msg, cases[i].says))
            fail_msg("%s: %s", f, err.msg);
    }
    cl_points_free(&p);
}

/* Candidates from masks alone: pairs of all features; above, pairs sharing their first
 * k - 1 features whose every subset is prevalent, in lexicographic order. */
static void test_apriori(void **state)
{
    (void)state;
    uint64_t *c;
    const uint64_t singles[] = {0x1, 0x2, 0x4, 0x8};
    assert_int_equal(cl_apriori(singles, 4, 1, &c), 6);
    const uint64_t pairs[] = {0x3, 0x5, 0x9, 0x6, 0xa, 0xc}; /* 01 02 03 12 13 23 */
    assert_memory_equal(c, pairs, sizeof pairs);
    free(c);
    /* {0,1} {0,2} {0,3} {1,2} {2,3}: {0,1,2} has every pair; {0,1,3} lacks {1,3};
     * {0,2,3} has every pair; {1,2,?} has no partner */
    const uint64_t prev[] = {0x3, 0x5, 0x9, 0x6, 0xc};
    assert_int_equal(cl_apriori(prev, 5, 2, &c), 2);
    assert_int_equal(c[0], 0x7);
    assert_int_equal(c[1], 0xd);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_matches_brute_force),
        cmocka_unit_test(test_distance_exactly_d),
        cmocka_unit_test(test_threads_equal_one_thread),
        cmocka_unit_test(test_bounds_at_least_pi),
        cmocka_unit_test(test_planted_patterns_found),
        cmocka_unit_test(test_seattle_filters_and_threads_agree),
        cmocka_unit_test(test_degenerate_sets),
        cmocka_unit_test(test_options_refused),
        cmocka_unit_test(test_gpu_options_refused),
        cmocka_unit_test(test_apriori),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
