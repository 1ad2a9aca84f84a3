/* test_gpu_coloc.c - every GPU variant of coloc (MG, MH, CG, CH, none) against the CPU
 * miner, exactly: the workload's reference (prevalent patterns, PI bit for bit) and the
 * CPU miner with the variant's own filter (every candidate, its bound, whether pruned,
 * its rows and PI bit for bit, each level's counts and rows); and the answer's phase
 * facts present and adding up (candidates, prevalent, device costs). Data: the generator's planted
 * patterns at clumpiness 1 and 20, hundreds of small random sets with points at distance
 * d exactly and on cell borders, and Seattle when the shared folder has it; block sizes
 * 32 to 1024, slices from one input row to the whole table, tables on the device and in
 * host memory, every point an instance and the points merged (sites: Seattle's 165,458
 * points are 52,235 sites, the random sets' lattice points often share places; twins: a
 * clump's points of one feature often share their neighbours).
 * Exits 77 (skip) without a GPU. */
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
#include <cuda_runtime_api.h>

#include "coloc/cl_workload.h"
#include "gpu_fixture.h"
#include "point_set.h"
#include "registry.h"
#include "rng.h"

extern const dm_workload coloc_workload;

/* The execution parameters tried on one dataset. */
typedef struct grid_of {
    const int *blocks;
    int nblocks;
    const int64_t *slices;
    int nslices;
    const int64_t *device_mb; /* 0: the device's memory; 1: nearly every table on the host */
    int ndevice;
} grid_of;

/* The CPU filter a GPU variant's name begins with (none: no filter). */
static cl_filter filter_of(const char *variant)
{
    return variant[0] == 'M' ? CL_FILTER_MULTIRES
           : variant[0] == 'C' ? CL_FILTER_CELLAGG
                               : CL_FILTER_NONE;
}

/* Asserts that the GPU's answer g is the CPU miner's c with the same filter: every
 * candidate, bound, pruning, row count and PI bit for bit, and each level's counts. */
static void assert_same_result(const char *where, const cl_result *c, const cl_result *g)
{
    if (c->nlevels != g->nlevels || c->ncand != g->ncand)
        fail_msg("%s: %d levels and %lld candidates, the CPU %d and %lld", where, g->nlevels,
                 (long long)g->ncand, c->nlevels, (long long)c->ncand);
    for (int i = 0; i < c->nlevels; i++) {
        const cl_level *x = &c->levels[i], *y = &g->levels[i];
        if (x->size != y->size || x->candidates != y->candidates || x->pruned != y->pruned ||
            x->prevalent != y->prevalent)
            fail_msg("%s: size %d: %lld candidates, %lld pruned, %lld prevalent; the CPU "
                     "%lld, %lld, %lld", where, y->size, (long long)y->candidates,
                     (long long)y->pruned, (long long)y->prevalent, (long long)x->candidates,
                     (long long)x->pruned, (long long)x->prevalent);
        if (!(y->filter_s >= 0 && y->refine_s >= 0 && isfinite(y->filter_s + y->refine_s)))
            fail_msg("%s: size %d: times %g and %g s", where, y->size, y->filter_s,
                     y->refine_s);
        if (x->rows != y->rows)
            fail_msg("%s: size %d: %llu rows, the CPU %llu", where, y->size,
                     (unsigned long long)y->rows, (unsigned long long)x->rows);
    }
    for (int64_t i = 0; i < c->ncand; i++) {
        const cl_candidate *x = &c->cand[i], *y = &g->cand[i];
        if (x->mask != y->mask || x->pruned != y->pruned || x->prevalent != y->prevalent ||
            x->rows != y->rows || memcmp(&x->pi, &y->pi, sizeof x->pi) != 0 ||
            memcmp(&x->bound, &y->bound, sizeof x->bound) != 0)
            fail_msg("%s: candidate %lld (mask %#llx): pruned %d prevalent %d rows %llu PI "
                     "%.17g bound %.17g; the CPU mask %#llx pruned %d prevalent %d rows %llu "
                     "PI %.17g bound %.17g", where, (long long)i, (unsigned long long)y->mask,
                     y->pruned, y->prevalent, (unsigned long long)y->rows, y->pi, y->bound,
                     (unsigned long long)x->mask, x->pruned, x->prevalent,
                     (unsigned long long)x->rows, x->pi, x->bound);
    }
}

/* The value of fact group/name among f[0..n), failing when it is missing. */
static double fact_of(const char *where, const dm_fact *f, int n, const char *group,
                      const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(f[i].group, group) == 0 && strcmp(f[i].name, name) == 0)
            return f[i].value;
    fail_msg("%s: no fact %s %s", where, group, name);
    return NAN;
}

/* Asserts that the facts of the GPU's answer a (the workload's facts) are present and
 * add up: per size the level's counts, rows and device costs (a wait and a copy back at
 * least, input rows tested wherever rows were made), the candidates and prevalent
 * patterns summing to the answer's, the phases within the whole call's time. */
static void assert_gpu_facts(const char *where, const dm_point *pt, const cl_answer *a)
{
    const cl_result *r = &a->r;
    dm_fact f[DM_MAX_FACTS];
    int n = coloc_workload.facts(a, pt, f, DM_MAX_FACTS);
    if (!r->on_device || n != 15 * r->nlevels + 3 ||
        fact_of(where, f, n, "all", "instances") != (double)r->instances ||
        !(fact_of(where, f, n, "all", "merge_s") >= 0))
        fail_msg("%s: %d facts of %d levels, on the device %d", where, n, r->nlevels,
                 r->on_device);
    double candidates = 0, prevalent = 0, phases = 0;
    for (int i = 0; i < r->nlevels; i++) {
        const cl_level *lv = &r->levels[i];
        char g[32];
        snprintf(g, sizeof g, "size %d", lv->size);
        candidates += fact_of(where, f, n, g, "candidates");
        prevalent += fact_of(where, f, n, g, "prevalent");
        phases += fact_of(where, f, n, g, "filter_s") + fact_of(where, f, n, g, "refine_s") +
                  fact_of(where, f, n, g, "host_s");
        if (fact_of(where, f, n, g, "rows") != (double)lv->rows ||
            fact_of(where, f, n, g, "waits") < 1 || fact_of(where, f, n, g, "copies") < 1 ||
            fact_of(where, f, n, g, "copy_bytes") < 8 ||
            (lv->rows > 0 && fact_of(where, f, n, g, "tested") < 1) ||
            !(fact_of(where, f, n, g, "wait_s") >= 0 && fact_of(where, f, n, g, "copy_s") >= 0 &&
              fact_of(where, f, n, g, "alloc_s") >= 0 && fact_of(where, f, n, g, "allocs") >= 0))
            fail_msg("%s: %s: device costs out of place (rows %llu)", where, g,
                     (unsigned long long)lv->rows);
    }
    int64_t want = 0;
    for (int64_t i = 0; i < r->ncand; i++)
        want += r->cand[i].prevalent;
    double wall = fact_of(where, f, n, "all", "wall_s");
    if (candidates != (double)r->ncand || prevalent != (double)want ||
        !(phases <= wall * 1.01 + 1e-3))
        fail_msg("%s: facts: %g candidates, %g prevalent, phases %g s of %g s; the answer "
                 "%lld and %lld", where, candidates, prevalent, phases, wall,
                 (long long)r->ncand, (long long)want);
}

/* The CPU miner's answer for pt's problem on p with filter, on every core. */
static void cpu_mine(const cl_points *p, const dm_point *pt, cl_filter filter, cl_result *r)
{
    dm_err err = {0};
    cl_mine_opts o = cl_point_opts(pt, filter, 0);
    if (cl_mine(p, &o, r, &err))
        fail_msg("cl_mine: %s", err.msg);
}

/* Runs v at vp (twice, the second over the first's output) and checks each answer against
 * the reference ref and the CPU miner's cpu; returns how many patterns were prevalent. */
static int64_t check_case(const gpu_fixture *f, const dm_variant *v, const dm_point *vp,
                          const dm_dataset *ds, const void *ref, const cl_result *cpu)
{
    dm_err err = {0};
    char where[512], why[512];
    void *st;
    const void *out;
    int64_t prevalent = 0;
    dm_point_format(vp, where, sizeof where);
    if (v->supports && v->supports(vp, f->ex.device, why, sizeof why))
        fail_msg("%s %s: refused: %s", v->name, where, why);
    if (v->setup(&f->ex, ds, vp, &st, &err))
        fail_msg("%s %s: setup: %s", v->name, where, err.msg);
    for (int rep = 0; rep < 2; rep++) {
        if (v->run(st, &err) || v->output(st, &out, &err))
            fail_msg("%s %s: %s", v->name, where, err.msg);
        if (coloc_workload.compare(ref, out, vp, why, sizeof why))
            fail_msg("%s %s: %s", v->name, where, why);
        char label[600];
        snprintf(label, sizeof label, "%s %s", v->name, where);
        const cl_result *r = &((const cl_answer *)out)->r;
        assert_same_result(label, cpu, r);
        assert_gpu_facts(label, vp, out);
        prevalent = 0;
        for (int i = 0; i < r->nlevels; i++)
            prevalent += r->levels[i].prevalent;
    }
    v->teardown(st);
    return prevalent;
}

/* Every GPU variant on p at the problem (distance d, prevalence theta), at every
 * execution parameter of grid; returns the prevalent patterns found (the same for all). */
static int64_t check_all(const gpu_fixture *f, const cl_points *p, double d, double theta,
                         const grid_of *grid)
{
    dm_err err = {0};
    dm_dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.data = (void *)p;
    const dm_variant *cpu = registry_variant(&coloc_workload, "cpu", &err);
    dm_point pt;
    assert_int_equal(registry_point_defaults(&coloc_workload, cpu, &pt, &err), 0);
    set_real(&pt, "distance", d);
    set_real(&pt, "prevalence", theta);
    void *ref;
    if (coloc_workload.reference(&ds, &pt, &ref, &err))
        fail_msg("reference: %s", err.msg);
    cl_result by_filter[3];
    for (int i = 0; i < 3; i++)
        cpu_mine(p, &pt, (cl_filter)i, &by_filter[i]);
    int64_t prevalent = -1, cases = 0;
    for (const dm_variant *v = coloc_workload.variants; v->name; v++) {
        if (!v->needs_gpu)
            continue;
        for (int b = 0; b < grid->nblocks; b++)
            for (int s = 0; s < grid->nslices; s++)
                for (int m = 0; m < grid->ndevice; m++)
                    for (int merge = 0; merge < 3; merge++) {
                        dm_point vp;
                        assert_int_equal(
                            registry_point_defaults(&coloc_workload, v, &vp, &err), 0);
                        copy_problem(&vp, &pt);
                        set_int(&vp, "block", grid->blocks[b]);
                        if (grid->slices[s])
                            set_int(&vp, "slice", grid->slices[s]);
                        set_int(&vp, "device_mb", grid->device_mb[m]);
                        static const char *const merges[] = {"none", "sites", "twins"};
                        set_str(&vp, "merge", merges[merge]);
                        int64_t got =
                            check_case(f, v, &vp, &ds, ref, &by_filter[filter_of(v->name)]);
                        assert_true(prevalent < 0 || got == prevalent);
                        prevalent = got;
                        cases++;
                    }
    }
    assert_int_equal(cases, 5 * grid->nblocks * grid->nslices * grid->ndevice * 3);
    for (int i = 0; i < 3; i++)
        cl_result_free(&by_filter[i]);
    coloc_workload.reference_free(ref);
    return prevalent;
}

/* The generator's points at clumpiness c on an area of that side; the planted maximal
 * patterns into planted. */
static void generate(uint32_t instances, uint32_t c, double area, cl_points *p,
                     cl_planted *planted)
{
    cl_gen_params g;
    cl_gen_defaults(&g);
    g.instances = instances;
    g.clumpiness = c;
    g.area = area;
    dm_err err = {0};
    if (cl_generate(&g, p, planted, &err))
        fail_msg("cl_generate: %s", err.msg);
}

/* Asserts that every planted maximal pattern is prevalent in the CPU answer at theta, so
 * the sets above hold the patterns they are meant to. */
static void assert_planted_found(const cl_points *p, const cl_planted *planted, double theta)
{
    cl_result r;
    dm_err err = {0};
    cl_mine_opts o = {.distance = 10, .prevalence = theta, .filter = CL_FILTER_CELLAGG};
    if (cl_mine(p, &o, &r, &err))
        fail_msg("cl_mine: %s", err.msg);
    for (int i = 0; i < planted->n; i++) {
        int found = 0;
        for (int64_t j = 0; j < r.ncand; j++)
            found |= r.cand[j].mask == planted->mask[i] && r.cand[j].prevalent;
        assert_true(found);
    }
    cl_result_free(&r);
}

/* Checks every GPU variant on the generator's points at clumpiness c on the area, at
 * theta, over grid. */
static void check_planted(void **state, uint32_t instances, uint32_t c, double area,
                          double theta, const grid_of *grid)
{
    cl_points p;
    cl_planted planted;
    generate(instances, c, area, &p, &planted);
    assert_planted_found(&p, &planted, theta);
    int64_t n = check_all(*state, &p, 10, theta, grid);
    fprintf(stderr, "planted, %u points, clumpiness %u, area %g, theta %g: %lld prevalent "
            "patterns\n", instances, c, area, theta, (long long)n);
    cl_points_free(&p);
}

static void test_planted_clumpiness_1(void **state)
{
    static const int blocks[] = {32, 256, 1024}, big_block[] = {1024}, one_block[] = {256};
    static const int64_t slices[] = {0, 97}, some_slices[] = {0, 331}, whole[] = {0},
                         device_mb[] = {0, 1};
    /* 24,000 points, 2,000 a feature. On 4,000 x 4,000 the filters prune 46 of the 66
     * pairs at theta 0.2, and the planted patterns are all there is: every parameter. */
    const grid_of all = {blocks, 3, slices, 2, device_mb, 2};
    check_planted(state, 24000, 1, 4000, 0.2, &all);
    /* On 1,000 x 1,000, noise patterns too: at theta 0.3 some 800 candidates up to size 6
     * (the filters prune none), at 0.1 some 1,800 up to size 10. */
    const grid_of some = {big_block, 1, some_slices, 2, device_mb, 2};
    check_planted(state, 24000, 1, 1000, 0.3, &some);
    const grid_of once = {one_block, 1, whole, 1, device_mb, 2};
    check_planted(state, 24000, 1, 1000, 0.1, &once);
}

static void test_planted_clumpiness_20(void **state)
{
    static const int blocks[] = {64, 512};
    static const int64_t slices[] = {0, 4099}, device_mb[] = {0, 1};
    const grid_of grid = {blocks, 2, slices, 2, device_mb, 2};
    /* 2,400 points, 200 a feature: 10 clumps of 20 row instances for each pattern, so a
     * size-4 table has 10 x 20^4 = 1.6 million rows, many slices of 4,099, and a size-5
     * one 32 million */
    check_planted(state, 2400, 20, 1000, 0.5, &grid);
}

/* A random set of 2-5 features, 1-12 points each, d = 1, 2, 3 or 5: coordinates from
 * three kinds mixed, lattice points (whole multiples of 1: many pairs at distance d
 * exactly, 3-4-5 triangles included), points on cell borders (whole multiples of the
 * cell side d (1 + 2^-20), the grid's, from a box at 0) and uniform reals. */
static void random_points(uint64_t seed, cl_points *p, double *d)
{
    static const double ds[] = {1, 2, 3, 5};
    dm_rng r = dm_rng_seed(seed);
    int nfeat = 2 + (int)dm_rng_below(&r, 4), feature[64];
    double x[64], y[64];
    uint32_t n = 0;
    *d = ds[dm_rng_below(&r, 4)];
    const double side = *d * (1 + 0x1p-20), extent = 6 + dm_rng_below(&r, 10);
    for (int f = 0; f < nfeat; f++) {
        uint32_t count = 1 + dm_rng_below(&r, 12);
        for (uint32_t i = 0; i < count && n < 64; i++, n++) {
            feature[n] = f;
            double *c[2] = {&x[n], &y[n]};
            for (int a = 0; a < 2; a++) {
                uint32_t kind = dm_rng_below(&r, 3), at = dm_rng_below(&r, (uint32_t)extent);
                *c[a] = kind == 0   ? at
                        : kind == 1 ? fmin(extent, floor(at / side) * side)
                                    : extent * dm_rng_unit(&r);
            }
        }
    }
    const double box[4] = {0, 0, extent, extent};
    dm_err err = {0};
    if (cl_points_build(p, nfeat, NULL, n, feature, x, y, box, &err))
        fail_msg("cl_points_build: %s", err.msg);
}

static void test_small_random_sets(void **state)
{
    static const int blocks[] = {32};
    static const int64_t slices[] = {0, 1}, device_mb[] = {0, 1};
    const grid_of grid = {blocks, 1, slices, 2, device_mb, 2};
    static const double thetas[] = {0, 0.25, 0.5};
    int64_t prevalent = 0;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        cl_points p;
        double d;
        random_points(seed, &p, &d);
        prevalent += check_all(*state, &p, d, thetas[seed % 3], &grid);
        cl_points_free(&p);
    }
    fprintf(stderr, "150 random sets: %lld prevalent patterns in all\n", (long long)prevalent);
    assert_true(prevalent > 150);
}

/* Pairs at distance d exactly within a cell and across a cell border (the side is
 * d (1 + 2^-20); u = (side - d, 0) and v = (side, 0) lie in columns 0 and 1, exactly d
 * apart), and points on borders just over d from another: each pair must be decided as
 * cl_near decides it on the CPU, at every theta. */
static void test_distance_and_borders(void **state)
{
    const double d = 5, side = d * (1 + 0x1p-20), u = side - d;
    const int feature[] = {0, 0, 1, 1, 2, 2};
    const double x[] = {0, u, d, side, 0, side}, y[] = {0, 0, 0, 0, d, d};
    cl_points p;
    dm_err err = {0};
    const double box[4] = {0, 0, 2 * side, 2 * side};
    assert_int_equal(cl_points_build(&p, 3, NULL, 6, feature, x, y, box, &err), 0);
    static const int blocks[] = {32, 1024};
    static const int64_t slices[] = {0, 1}, device_mb[] = {0, 1};
    const grid_of grid = {blocks, 2, slices, 2, device_mb, 2};
    for (double theta = 0; theta <= 1; theta += 0.5)
        check_all(*state, &p, d, theta, &grid);
    cl_points_free(&p);
}

static void test_seattle(void **state)
{
    const char *path = DM_SOURCE_DIR "/../shared/datasets/coloc/seattle2012.csv";
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "test_seattle: %s not there, skipped\n", path);
        skip();
    }
    cl_points p;
    dm_err err = {0};
    if (cl_points_load_seattle(path, &p, &err))
        fail_msg("%s", err.msg);
    static const int blocks[] = {256};
    static const int64_t slices[] = {0, 65536}, device_mb[] = {0};
    const grid_of grid = {blocks, 1, slices, 2, device_mb, 1};
    /* 18 prevalent patterns at 0.5 (docs/records/coloc-cpu-dev-2026-11-25.md) */
    assert_int_equal(check_all(*state, &p, 10, 0.5, &grid), 18);
    cl_points_free(&p);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_coloc: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_and_borders),
        cmocka_unit_test(test_small_random_sets),
        cmocka_unit_test(test_planted_clumpiness_1),
        cmocka_unit_test(test_planted_clumpiness_20),
        cmocka_unit_test(test_seattle),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
