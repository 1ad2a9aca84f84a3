/* test_gpu_tdm.c - every GPU variant of tdm against the CPU reference, count for count:
 * uniform and planted databases of odd lengths (1, shorter than a block, not a multiple
 * of 16), levels 1-4, block sizes 16 to 1024, the tile, piece and chunk sizes, the
 * thread kernels' mask tables, packed's own kernels and block-tex where packed runs it
 * (small), hybrid's switch points, prefixes of levels 4-6 (count),
 * episode files of 6 and 12 letters, and the paper's full size; packed left to choose
 * by a stand-in crossover fit for the card; and two constant-memory tables in use at
 * once. Each test names the points it expects a variant to refuse and
 * fails on any other refusal. Exits 77 (skip) without a GPU. */
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
#include <math.h>

#include "crossover_lookup.h"
#include "device.h"
#include "gpu_fixture.h"
#include "registry.h"
#include "point_set.h"
#include "tdm/tdm.h"

extern const dm_workload tdm_workload;

/* The tile, piece or chunk values tried for each variant (0: none to set). */
static int extra_values(const char *variant, const char **name, const int64_t **values)
{
    static const int64_t tiles[] = {16, 4096}, pieces[] = {16, 64}, chunks[] = {0, 16, 48};
    /* hybrid: each kernel everywhere, and a switch between levels 1 (26 episodes) and 2 */
    static const int64_t switches[] = {1, 100, 1LL << 40};
    static const int64_t none[] = {0};
    *name = NULL;
    *values = none;
    if (strcmp(variant, "thread-shared") == 0) {
        *name = "tile";
        *values = tiles;
        return 2;
    }
    if (strcmp(variant, "block-shared") == 0) {
        *name = "piece";
        *values = pieces;
        return 2;
    }
    if (strcmp(variant, "packed") == 0) {
        *name = "chunk";
        *values = chunks;
        return 3;
    }
    if (strcmp(variant, "hybrid") == 0) {
        *name = "switch_at";
        *values = switches;
        return 3;
    }
    return 1;
}

/* The values of an enum parameter tried for each variant that has it: the thread kernels'
 * mask tables (tdm_table), and the kernels packed runs (its own, or block-tex at its
 * block for the card, as where the crossover fit sends it on short databases). */
static const struct {
    const char *name;
    int n;
    const char *values[3];
} modes[] = {
    {"table", 3, {"shared", "constant", "readonly"}},
    {"small", 2, {"packed", "block-tex"}},
};

/* The name of the parameter of modes that v has, its values in *values and their number
 * in *n; NULL, and *n 1, when it has none. */
static const char *mode_of(const dm_variant *v, const char *const **values, int *n)
{
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        if (registry_param(&tdm_workload, v, modes[m].name)) {
            *values = modes[m].values;
            *n = modes[m].n;
            return modes[m].name;
        }
    *n = 1;
    return NULL;
}

/* Every GPU variant at every block size in blocks, every extra value and every value of
 * its mode parameter, against the reference of pt's problem on ds, counted in c. */
static void check_all(gpu_fixture *f, check_cases *c, const dm_point *pt, const dm_dataset *ds,
                      const int *blocks, int nblocks)
{
    dm_err err = {0};
    void *ref;
    if (tdm_workload.reference(ds, pt, &ref, &err))
        fail_msg("reference: %s", err.msg);
    for (const dm_variant *v = tdm_workload.variants; v->name; v++) {
        if (!v->needs_gpu)
            continue;
        const char *extra, *const *mode_values = NULL;
        const int64_t *values;
        int nvalues = extra_values(v->name, &extra, &values), nmodes;
        const char *mode = mode_of(v, &mode_values, &nmodes);
        for (int b = 0; b < nblocks; b++) {
            for (int x = 0; x < nvalues; x++) {
                for (int t = 0; t < nmodes; t++) {
                    dm_point vp;
                    assert_int_equal(registry_point_defaults(&tdm_workload, v, &vp, &err), 0);
                    copy_problem(&vp, pt);
                    set_int(&vp, "block", blocks[b]);
                    if (extra)
                        set_int(&vp, extra, values[x]);
                    if (mode)
                        set_str(&vp, mode, mode_values[t]);
                    check_variant(c, &f->ex, &tdm_workload, v, &vp, ds, ref);
                }
            }
        }
    }
    tdm_workload.reference_free(ref);
}

static void open_dataset(dm_point *pt, const char *generator, int64_t length,
                         dm_dataset *ds)
{
    dm_err err = {0};
    dm_data_source src = {0};
    const dm_variant *cpu = registry_variant(&tdm_workload, "cpu", &err);
    snprintf(src.generator, sizeof src.generator, "%s", generator);
    assert_int_equal(registry_point_defaults(&tdm_workload, cpu, pt, &err), 0);
    set_int(pt, "length", length);
    set_str(pt, "plant", "ABC,XYZ");
    set_real(pt, "plant_rate", 0.02);
    if (tdm_workload.dataset_open(&src, pt, ds, &err))
        fail_msg("dataset: %s", err.msg);
}

/* The refusals the tests expect: packed votes over whole warps and is compiled for at most
 * 512 threads per block and 6 letters; a constant-memory mask table holds 512 episodes. */
#define PACKED_BLOCK_16 {"packed", "block=16", "not a multiple of 32"}
#define PACKED_BLOCK_1024                                                                   \
    {"packed", "block=1024", "exceeds the 512 threads per block packed is compiled for"}
#define CONSTANT_TABLE(variant) {variant, "table=constant", "table constant holds at most 512"}

static const check_skip over_512_episodes[] = {
    CONSTANT_TABLE("thread-tex"),
    CONSTANT_TABLE("thread-shared"),
    {0},
};

static void test_gpu_variants_match_reference(void **state)
{
    gpu_fixture *f = *state;
    static const check_skip expected[] = {
        PACKED_BLOCK_16, PACKED_BLOCK_1024, CONSTANT_TABLE("thread-tex"),
        CONSTANT_TABLE("thread-shared"), {0},
    };
    check_cases c;
    check_begin(&c, expected);
    const int blocks[] = {16, 32, 128, 1024};
    const struct {
        const char *generator;
        int64_t length;
    } dbs[] = {{"uniform", 1}, {"uniform", 7}, {"uniform", 1000}, {"planted", 20011},
               {"uniform", 100003}};
    for (size_t d = 0; d < sizeof dbs / sizeof dbs[0]; d++) {
        dm_point pt;
        dm_dataset ds;
        open_dataset(&pt, dbs[d].generator, dbs[d].length, &ds);
        for (int level = 1; level <= 3; level++) {
            set_int(&pt, "level", level);
            check_all(f, &c, &pt, &ds, blocks, 4);
        }
        tdm_workload.dataset_close(&ds);
    }
    check_end(&c, __func__);
}

static void test_gpu_level_4_and_full_size(void **state)
{
    gpu_fixture *f = *state;
    const int block[] = {128};
    dm_point pt;
    dm_dataset ds;
    check_cases c;
    check_begin(&c, over_512_episodes);
    open_dataset(&pt, "uniform", 3001, &ds);
    set_int(&pt, "level", 4);
    check_all(f, &c, &pt, &ds, block, 1);
    tdm_workload.dataset_close(&ds);
    /* the paper's size and level 3, the performance point */
    open_dataset(&pt, "uniform", 393019, &ds);
    set_int(&pt, "level", 3);
    check_all(f, &c, &pt, &ds, block, 1);
    tdm_workload.dataset_close(&ds);
    check_end(&c, __func__);
}

/* Prefixes (count) of levels 4 to 6, level 6 only as a prefix: its 165,765,600
 * episodes are too many to count whole. */
static void test_gpu_count_prefixes(void **state)
{
    gpu_fixture *f = *state;
    const int block[] = {128};
    const int64_t counts[] = {1000, 4097, 3000};
    dm_point pt;
    dm_dataset ds;
    check_cases c;
    check_begin(&c, over_512_episodes);
    open_dataset(&pt, "uniform", 20011, &ds);
    for (int level = 4; level <= 6; level++) {
        set_int(&pt, "level", level);
        set_int(&pt, "count", counts[level - 4]);
        check_all(f, &c, &pt, &ds, block, 1);
    }
    tdm_workload.dataset_close(&ds);
    check_end(&c, __func__);
}

/* Episodes of 6 and 12 letters from a file, over a database of few letters so they
 * complete often. */
static void test_gpu_long_episodes_from_a_file(void **state)
{
    gpu_fixture *f = *state;
    static const check_skip expected[] = {
        {"packed", "level=12", "exceeds the 6 letters packed counts"},
        {0},
    };
    check_cases c;
    check_begin(&c, expected);
    const int blocks[] = {32, 256};
    char path[] = "/tmp/test_gpu_tdm_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text[] = {"ABCDEF\nFEDCBA\nACEBDF\nBADCFE\n",
                          "ABCDEFGHIJKL\nLKJIHGFEDCBA\nACEGIKBDFHJL\n"};
    const int levels[] = {6, 12};
    dm_point pt;
    dm_dataset ds;
    open_dataset(&pt, "uniform", 50021, &ds);
    tdm_data *d = ds.data;
    for (int64_t i = 0; i < d->n; i++)
        d->sym[i] %= 12;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(ftruncate(fd, 0), 0);
        assert_int_equal(pwrite(fd, text[k], strlen(text[k]), 0), (ssize_t)strlen(text[k]));
        set_int(&pt, "level", levels[k]);
        set_str(&pt, "episodes", path);
        check_all(f, &c, &pt, &ds, blocks, 2);
    }
    close(fd);
    unlink(path);
    tdm_workload.dataset_close(&ds);
    check_end(&c, __func__);
}

/* packed with small auto, in a copy of the workload whose table of fits holds a stand-in
 * for this card: a crossover of block-tex and packed far above the database (block-tex
 * runs), then below one letter (the packed kernels run), at levels 1 and 2, each
 * verified; supports() refusing block-tex's block 2048 tells which was chosen. */
static void test_gpu_packed_follows_a_stand_in_fit(void **state)
{
    gpu_fixture *f = *state;
    char cc[16], why[512];
    snprintf(cc, sizeof cc, "%d.%d", f->dev.cc_major, f->dev.cc_minor);
    dm_crossover_fit fits[] = {
        {.card = f->dev.name, .cc = cc, .variant_a = "block-tex", .variant_b = "packed",
         .axis = "length", .group = "level", .form = "a*N + b", .a = 0, .b = 1e9, .r2 = NAN,
         .n = 2, .below = "block-tex"},
        {0},
    };
    dm_workload w = tdm_workload;
    w.fits = fits;
    dm_err err = {0};
    const dm_variant *v = registry_variant(&w, "packed", &err);
    check_cases c;
    check_begin(&c, NULL);
    dm_point pt;
    dm_dataset ds;
    open_dataset(&pt, "planted", 20011, &ds);
    for (int below = 1; below >= 0; below--) {
        fits[0].b = below ? 1e9 : 0;
        for (int level = 1; level <= 2; level++) {
            void *ref;
            dm_point vp;
            set_int(&pt, "level", level);
            if (w.reference(&ds, &pt, &ref, &err))
                fail_msg("reference: %s", err.msg);
            assert_int_equal(registry_point_defaults(&w, v, &vp, &err), 0);
            copy_problem(&vp, &pt);
            assert_string_equal(dm_point_str(&vp, "small"), "auto");
            check_variant(&c, &f->ex, &w, v, &vp, &ds, ref);
            set_int(&vp, "small_block", 2048);
            assert_int_equal(v->supports(&vp, &f->dev, why, sizeof why) != 0, below);
            w.reference_free(ref);
        }
    }
    tdm_workload.dataset_close(&ds);
    check_end(&c, __func__);
}

/* Constant memory holds one table: two table=constant states set up together (level 1's
 * 26 episodes by thread-tex, 500 of level 2's by thread-shared) take turns, and each
 * run must count with its own masks. */
static void test_gpu_constant_tables_take_turns(void **state)
{
    gpu_fixture *f = *state;
    const char *names[2] = {"thread-tex", "thread-shared"};
    const int64_t levels[2] = {1, 2}, counts[2] = {0, 500};
    dm_err err = {0};
    dm_point pt, vp[2];
    dm_dataset ds;
    const dm_variant *v[2];
    void *ref[2], *st[2];
    const void *out;
    char why[512] = "";
    open_dataset(&pt, "planted", 20011, &ds);
    for (int k = 0; k < 2; k++) {
        set_int(&pt, "level", levels[k]);
        set_int(&pt, "count", counts[k]);
        if (tdm_workload.reference(&ds, &pt, &ref[k], &err))
            fail_msg("reference: %s", err.msg);
        v[k] = registry_variant(&tdm_workload, names[k], &err);
        assert_int_equal(registry_point_defaults(&tdm_workload, v[k], &vp[k], &err), 0);
        copy_problem(&vp[k], &pt);
        set_int(&vp[k], "block", 64);
        set_str(&vp[k], "table", "constant");
        if (v[k]->supports(&vp[k], &f->dev, why, sizeof why))
            fail_msg("%s refused: %s", names[k], why);
        if (v[k]->setup(&f->ex, &ds, &vp[k], &st[k], &err))
            fail_msg("%s setup: %s", names[k], err.msg);
    }
    /* the second setup loaded its table last: the first runs first, then the second */
    for (int turn = 0; turn < 4; turn++) {
        int k = turn % 2;
        if (v[k]->run(st[k], &err) || v[k]->output(st[k], &out, &err))
            fail_msg("%s: %s", names[k], err.msg);
        if (tdm_workload.compare(ref[k], out, &vp[k], why, sizeof why))
            fail_msg("%s turn %d: %s", names[k], turn, why);
    }
    for (int k = 0; k < 2; k++) {
        v[k]->teardown(st[k]);
        tdm_workload.reference_free(ref[k]);
    }
    tdm_workload.dataset_close(&ds);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_tdm: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_variants_match_reference),
        cmocka_unit_test(test_gpu_level_4_and_full_size),
        cmocka_unit_test(test_gpu_count_prefixes),
        cmocka_unit_test(test_gpu_long_episodes_from_a_file),
        cmocka_unit_test(test_gpu_packed_follows_a_stand_in_fit),
        cmocka_unit_test(test_gpu_constant_tables_take_turns),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
