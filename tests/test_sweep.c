/* test_sweep.c - sweep matrix files with the real membw workload: each axis form, zip,
 * defaults, the stable point order, constraints (device properties from a fake device),
 * pruning by supports(), command-line overrides, and every load error with its exact
 * "LINE:COL" and the key phrase of its message; and every sweep shipped in sweeps/,
 * expanded with and without a GPU. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "registry.h"
#include "sweep.h"

typedef struct fixture {
    dm_sweep *s;
    dm_expansion e;
    dm_err err;
} fixture;

static int setup(void **st)
{
    *st = calloc(1, sizeof(fixture));
    return *st ? 0 : -1;
}

static int teardown(void **st)
{
    fixture *f = *st;
    sweep_expansion_free(&f->e);
    sweep_free(f->s);
    free(f);
    return 0;
}

/* The lines every valid sweep below starts with (lines 1-2). */
#define HEAD "workload: membw\ndataset: {generator: random}\n"

static void parse_ok(fixture *f, const char *text)
{
    if (sweep_parse_string(text, "sweeps/t.yaml", &f->s, &f->err))
        fail_msg("unexpected error: %s", f->err.msg);
}

static void expand_ok(fixture *f, const dm_device *dev)
{
    if (sweep_expand(f->s, dev, &f->e, &f->err))
        fail_msg("unexpected error: %s", f->err.msg);
}

/* Parsing text fails with "t.yaml:WHERE: ...PHRASE..." on one line. */
static void parse_fails(const char *text, const char *where, const char *phrase)
{
    dm_sweep *s = NULL;
    dm_err err = {0};
    char prefix[64];
    assert_int_equal(sweep_parse_string(text, "t.yaml", &s, &err), DM_EINPUT);
    assert_null(s);
    snprintf(prefix, sizeof prefix, "t.yaml:%s: ", where);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, phrase) ||
        strchr(err.msg, '\n'))
        fail_msg("got '%s'; want '%s...%s'", err.msg, prefix, phrase);
}

/* Overriding with assignment fails with "-a ASSIGNMENT: ...PHRASE...". */
static void override_fails(fixture *f, const char *assignment, const char *phrase)
{
    char prefix[128];
    assert_int_equal(sweep_override(f->s, assignment, &f->err), DM_EINPUT);
    snprintf(prefix, sizeof prefix, "-a %s: ", assignment);
    if (strncmp(f->err.msg, prefix, strlen(prefix)) != 0 || !strstr(f->err.msg, phrase))
        fail_msg("got '%s'; want '%s...%s'", f->err.msg, prefix, phrase);
}

/* "name=value,..." of point i. */
static const char *pt(const fixture *f, size_t i)
{
    static char buf[512];
    assert_true(i < f->e.n);
    dm_point_format(&f->e.points[i].point, buf, sizeof buf);
    return buf;
}

/* The value of parameter name at point i, as text. */
static const char *val(const fixture *f, size_t i, const char *name)
{
    static char buf[64];
    assert_true(i < f->e.n);
    const dm_value *v = dm_point_get(&f->e.points[i].point, name);
    assert_non_null(v);
    dm_value_format(v, buf, sizeof buf);
    return buf;
}

static dm_device fake_device(void)
{
    dm_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "fake");
    d.cc_major = 9;
    d.sms = 132;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 2048;
    d.warp_size = 32;
    return d;
}

/* ---- axes ------------------------------------------------------------------------ */

static void list_axis_gives_each_value(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  block: [128, 256, 512]\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 3);
    assert_string_equal(val(f, 0, "block"), "128");
    assert_string_equal(val(f, 2, "block"), "512");
}

static void range_axis_includes_to_when_reached(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  block: {range: [64, 256, 64]}\n"
                "  blocks_per_sm: {range: [1, 6, 2]}\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 12);
    assert_string_equal(val(f, 0, "block"), "64");
    assert_string_equal(val(f, 11, "block"), "256");
    assert_string_equal(val(f, 2, "blocks_per_sm"), "5");
}

static void pow2_axis_doubles_from_to(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu]\naxes:\n  n: {pow2: [1024, 8192]}\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 4);
    assert_string_equal(val(f, 0, "n"), "1024");
    assert_string_equal(val(f, 1, "n"), "2048");
    assert_string_equal(val(f, 3, "n"), "8192");
}

static void scalar_axis_sets_every_point(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  op: triad\n  block: [64, 128]\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 3);
    for (size_t i = 0; i < f->e.n; i++)
        assert_string_equal(val(f, i, "op"), "triad");
}

static void enum_axis_and_dataset_axis_apply_to_all_variants(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  op: [copy, triad]\n"
                "  seed: [1, 2]\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 8);
    assert_string_equal(pt(f, 0), "n=16777216,seed=1,op=copy");
    assert_string_equal(pt(f, 3), "n=16777216,seed=2,op=triad");
    assert_string_equal(pt(f, 4), "n=16777216,seed=1,op=copy,block=256,blocks_per_sm=0");
}

static void defaults_fill_parameters_without_an_axis(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  n: 4096\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 1);
    assert_string_equal(pt(f, 0), "n=4096,seed=1,op=copy,block=256,blocks_per_sm=0");
    assert_int_equal(f->e.points[0].pruned, 0);
}

static void order_is_variants_then_axes_last_fastest(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel, cpu]\naxes:\n  n: [1, 2]\n  block: [32, 64]\n");
    expand_ok(f, NULL);
    static const char *const want[] = {
        "n=1,seed=1,op=copy,block=32,blocks_per_sm=0",
        "n=1,seed=1,op=copy,block=64,blocks_per_sm=0",
        "n=2,seed=1,op=copy,block=32,blocks_per_sm=0",
        "n=2,seed=1,op=copy,block=64,blocks_per_sm=0",
        "n=1,seed=1,op=copy",
        "n=2,seed=1,op=copy",
    };
    assert_int_equal(f->e.n, 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(pt(f, i), want[i]);
    assert_string_equal(f->e.points[0].point.variant->name, "kernel");
    assert_string_equal(f->e.points[5].point.variant->name, "cpu");
}

static void zip_advances_together_at_its_first_member(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  n: [1024, 2048, 4096]\n"
                "  op: [copy, triad]\n  block: [64, 128, 256]\nzip:\n  - [block, n]\n");
    expand_ok(f, NULL);
    /* cpu: the group is n alone; kernel: (n, block) then op. */
    assert_int_equal(f->e.n, 6 + 6);
    assert_string_equal(pt(f, 0), "n=1024,seed=1,op=copy");
    assert_string_equal(pt(f, 1), "n=1024,seed=1,op=triad");
    assert_string_equal(pt(f, 2), "n=2048,seed=1,op=copy");
    assert_string_equal(pt(f, 6), "n=1024,seed=1,op=copy,block=64,blocks_per_sm=0");
    assert_string_equal(pt(f, 7), "n=1024,seed=1,op=triad,block=64,blocks_per_sm=0");
    assert_string_equal(pt(f, 8), "n=2048,seed=1,op=copy,block=128,blocks_per_sm=0");
    assert_string_equal(pt(f, 11), "n=4096,seed=1,op=triad,block=256,blocks_per_sm=0");
}

/* ---- constraints and pruning ------------------------------------------------------- */

static void constraint_prunes_only_points_having_its_parameters(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  block: [64, 256]\n"
                "constraints:\n  - \"block <= 128\"\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 3);
    assert_int_equal(f->e.n_pruned, 1);
    assert_int_equal(f->e.points[0].pruned, 0); /* cpu has no block */
    assert_int_equal(f->e.points[1].pruned, 0);
    assert_int_equal(f->e.points[2].pruned, 1);
    assert_string_equal(f->e.points[2].reason, "constraint 'block <= 128' is false");
}

static void counts_before_and_after_pruning(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  block: {pow2: [32, 1024]}\n"
                "  blocks_per_sm: [1, 2, 4, 8]\nconstraints:\n"
                "  - block * blocks_per_sm <= 1024\n  - op == \"copy\" || block >= 64\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 6 * 4);
    /* block*bps <= 1024: 32 and 64 keep all 4, 128: 4, 256: 3, 512: 2, 1024: 1. */
    assert_int_equal(f->e.n_pruned, 24 - 18);
    size_t pruned = 0;
    for (size_t i = 0; i < f->e.n; i++)
        pruned += f->e.points[i].pruned != 0;
    assert_int_equal(pruned, f->e.n_pruned);
    assert_string_equal(f->e.points[23].reason,
                        "constraint 'block * blocks_per_sm <= 1024' is false");
}

static void device_constraint_reads_the_device(void **st)
{
    fixture *f = *st;
    dm_device dev = fake_device();
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  block: [256, 512, 1024]\n"
                "constraints:\n  - \"block <= device.max_threads / 2\"\n");
    expand_ok(f, &dev);
    assert_int_equal(f->e.n, 4);
    assert_int_equal(f->e.n_pruned, 1);
    assert_int_equal(f->e.points[3].pruned, 1);
    assert_string_equal(f->e.points[3].reason,
                        "constraint 'block <= device.max_threads / 2' is false");
    dev.max_threads_per_block = 2048;
    sweep_expansion_free(&f->e);
    expand_ok(f, &dev);
    assert_int_equal(f->e.n_pruned, 0);
}

static void device_constraint_is_skipped_without_a_device(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  block: [256, 1024]\n"
                "constraints:\n  - \"block * 4 <= device.max_threads\"\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 2);
    assert_int_equal(f->e.n_pruned, 0);
}

/* A constraint undefined at a point is an error naming the constraint and the point, not
 * a silent prune (issue 15). */
static void division_by_zero_is_an_error_naming_the_point(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  blocks_per_sm: [4, 0]\n"
                "constraints:\n  - \"block / blocks_per_sm >= 32\"\n");
    assert_int_equal(sweep_expand(f->s, NULL, &f->e, &f->err), DM_EINPUT);
    assert_non_null(strstr(f->err.msg, "t.yaml: constraint 'block / blocks_per_sm >= 32' is "
                                       "undefined at point #1 (kernel "));
    assert_non_null(strstr(f->err.msg, "blocks_per_sm=0): division by zero"));
    assert_null(f->e.points);
    assert_int_equal(f->e.n, 0);
}

static void supports_prunes_memcpy_triad(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [memcpy, cpu]\naxes:\n  op: [copy, triad]\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 4);
    assert_int_equal(f->e.n_pruned, 1);
    assert_int_equal(f->e.points[0].pruned, 0);
    assert_int_equal(f->e.points[1].pruned, 2);
    assert_string_equal(val(f, 1, "op"), "triad");
    assert_true(strlen(f->e.points[1].reason) > 0);
    assert_int_equal(f->e.points[3].pruned, 0); /* cpu does triad */
}

static void large_expansion_keeps_order_and_counts(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes:\n  n: {range: [1, 3125, 1]}\n"
                "  block: {range: [32, 1024, 32]}\nconstraints:\n  - n % 7 != 0\n");
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 3125 + 3125 * 32);
    assert_int_equal(f->e.n_pruned, 446 + 446 * 32);
    assert_string_equal(val(f, f->e.n - 1, "n"), "3125");
    assert_string_equal(val(f, f->e.n - 1, "block"), "1024");
}

static void expansion_beyond_the_limit_is_refused(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  n: {range: [1, 2000, 1]}\n"
                "  block: {range: [32, 1024, 1]}\n");
    assert_int_equal(sweep_expand(f->s, NULL, &f->e, &f->err), DM_EINPUT);
    assert_non_null(strstr(f->err.msg, "expands to more than 1000000 points"));
    assert_int_equal(f->e.n, 0);
}

/* ---- the rest of the file ---------------------------------------------------------- */

static void accessors_return_the_file(void **st)
{
    fixture *f = *st;
    const char *text = HEAD "variants: [cpu, kernel]\nbaseline: cpu\n"
                            "description: calibration\n";
    parse_ok(f, text);
    assert_string_equal(sweep_name(f->s), "t");
    assert_string_equal(sweep_path(f->s), "sweeps/t.yaml");
    assert_string_equal(sweep_text(f->s), text);
    assert_string_equal(sweep_workload(f->s)->name, "membw");
    assert_string_equal(sweep_data_source(f->s)->generator, "random");
    assert_string_equal(sweep_data_source(f->s)->path, "");
    assert_int_equal(sweep_nvariants(f->s), 2);
    assert_string_equal(sweep_variant(f->s, 1)->name, "kernel");
    assert_string_equal(sweep_baseline(f->s)->name, "cpu");
}

static void name_key_overrides_the_file_name(void **st)
{
    fixture *f = *st;
    parse_ok(f, "name: bw-table\n" HEAD "variants: [cpu]\n");
    assert_string_equal(sweep_name(f->s), "bw-table");
    assert_null(sweep_baseline(f->s));
}

static void measure_section_sets_options(void **st)
{
    fixture *f = *st;
    dm_measure_opts def;
    sweep_measure_defaults(&def);
    assert_int_equal(def.mode, DM_MODE_COLD);
    assert_int_equal(def.min_samples, 10);
    assert_true(def.max_noise == 0.005);
    assert_true(def.max_time == 2.0);
    assert_int_equal(def.max_samples, 100000);
    assert_int_equal(def.criterion, DM_CRIT_MEDIAN);
    assert_true(def.outlier_k == DM_OUTLIER_K_DEFAULT);
    parse_ok(f, HEAD "variants: [cpu]\nmeasure:\n  mode: hot\n  min_samples: 5\n"
                "  max_noise: 0.01\n  max_time: 1.5\n  max_samples: 50\n"
                "  criterion: stdrel\n  outlier_k: 5\n");
    const dm_measure_opts *o = sweep_measure(f->s);
    assert_int_equal(o->criterion, DM_CRIT_STDREL);
    assert_true(o->outlier_k == 5);
    assert_int_equal(o->mode, DM_MODE_HOT);
    assert_int_equal(o->min_samples, 5);
    assert_true(o->max_noise == 0.01);
    assert_true(o->max_time == 1.5);
    assert_int_equal(o->max_samples, 50);
    sweep_set_measure(f->s, &def);
    assert_int_equal(sweep_measure(f->s)->mode, DM_MODE_COLD);
}

static void measure_defaults_apply_without_a_section(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu]\n");
    dm_measure_opts def;
    sweep_measure_defaults(&def);
    const dm_measure_opts *o = sweep_measure(f->s);
    assert_int_equal(o->mode, def.mode);
    assert_int_equal(o->min_samples, def.min_samples);
    assert_true(o->max_noise == def.max_noise);
    assert_true(o->max_time == def.max_time);
    assert_int_equal(o->max_samples, def.max_samples);
}

static void load_reads_a_file_and_resolves_dataset_paths(void **st)
{
    fixture *f = *st;
    const char *path = DM_SOURCE_DIR "/tests/data/sweeps/membw_path.yaml";
    if (sweep_load(path, &f->s, &f->err))
        fail_msg("%s", f->err.msg);
    assert_string_equal(sweep_name(f->s), "membw_path");
    assert_string_equal(sweep_path(f->s), path);
    assert_string_equal(sweep_data_source(f->s)->generator, "");
    assert_string_equal(sweep_data_source(f->s)->path,
                        DM_SOURCE_DIR "/tests/data/sweeps/../datasets/floats.bin");
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    assert_string_equal(sweep_text(f->s), buf);
}

static void missing_file_cannot_be_read(void **st)
{
    fixture *f = *st;
    assert_int_equal(sweep_load("/nonexistent/x.yaml", &f->s, &f->err), DM_EINPUT);
    assert_null(f->s);
    assert_string_equal(f->err.msg, "/nonexistent/x.yaml: cannot open: No such file or "
                                    "directory");
}

/* ---- overrides ----------------------------------------------------------------------- */

#define OVERRIDE_BASE HEAD "variants: [kernel]\naxes:\n  n: [1024, 2048]\n  block: [64, 128]\n"

static void override_replaces_an_axis_in_place(void **st)
{
    fixture *f = *st;
    parse_ok(f, OVERRIDE_BASE);
    assert_int_equal(sweep_override(f->s, "n=[1, 2, 4]", &f->err), 0);
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 6);
    assert_string_equal(val(f, 0, "n"), "1");
    assert_string_equal(val(f, 1, "n"), "1"); /* block is still the faster axis */
    assert_string_equal(val(f, 1, "block"), "128");
    assert_string_equal(val(f, 5, "n"), "4");
}

static void override_adds_a_new_axis_last(void **st)
{
    fixture *f = *st;
    parse_ok(f, OVERRIDE_BASE);
    assert_int_equal(sweep_override(f->s, "blocks_per_sm={range: [1, 2, 1]}", &f->err), 0);
    assert_int_equal(sweep_override(f->s, "op=triad", &f->err), 0);
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 8);
    assert_string_equal(pt(f, 0), "n=1024,seed=1,op=triad,block=64,blocks_per_sm=1");
    assert_string_equal(pt(f, 1), "n=1024,seed=1,op=triad,block=64,blocks_per_sm=2");
    assert_string_equal(pt(f, 2), "n=1024,seed=1,op=triad,block=128,blocks_per_sm=1");
}

static void override_keeps_a_zip_of_the_same_length(void **st)
{
    fixture *f = *st;
    parse_ok(f, OVERRIDE_BASE "zip: [[n, block]]\n");
    assert_int_equal(sweep_override(f->s, "n={pow2: [4096, 8192]}", &f->err), 0);
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 2);
    assert_string_equal(pt(f, 1), "n=8192,seed=1,op=copy,block=128,blocks_per_sm=0");
    override_fails(f, "block=[32, 64, 96]", "zipped with 'n', which has 2 values");
}

static void override_errors_name_the_argument(void **st)
{
    fixture *f = *st;
    parse_ok(f, OVERRIDE_BASE);
    override_fails(f, "block", "expected AXIS=VALUES");
    override_fails(f, "=64", "expected AXIS=VALUES");
    override_fails(f, "block=", "expected AXIS=VALUES");
    override_fails(f, "blok=[64]", "axis 'blok' is not a parameter of any listed variant");
    override_fails(f, "block=[64,x]", "bad value for axis 'block' of variant 'kernel'");
    override_fails(f, "block=[64,2048]", "out of range");
    override_fails(f, "block=[64,", "invalid YAML");
    override_fails(f, "block=[]", "empty list for axis 'block'");
    override_fails(f, "block={range: [64, 32, 8]}", "greater than");
    override_fails(f, "n={pow2: [1000, 4096]}", "not a power of two");
    /* the failed overrides left the sweep as it was */
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 4);
}

static void keep_variants_runs_the_named_in_file_order(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel, memcpy]\nbaseline: cpu\naxes: { n: [64, 128] }\n");
    assert_int_equal(sweep_keep_variants(f->s, "memcpy,kernel", &f->err), 0);
    assert_int_equal(sweep_nvariants(f->s), 2);
    assert_string_equal(sweep_variant(f->s, 0)->name, "kernel");
    assert_string_equal(sweep_variant(f->s, 1)->name, "memcpy");
    assert_null(sweep_baseline(f->s)); /* cpu is not run, so nothing is against it */
    expand_ok(f, NULL);
    assert_int_equal(f->e.n, 4);
    assert_string_equal(f->e.points[0].point.variant->name, "kernel");
    assert_string_equal(f->e.points[3].point.variant->name, "memcpy");
}

static void keep_variants_keeps_a_kept_baseline(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\nbaseline: cpu\naxes: { n: 64 }\n");
    assert_int_equal(sweep_keep_variants(f->s, "cpu", &f->err), 0);
    assert_int_equal(sweep_nvariants(f->s), 1);
    assert_string_equal(sweep_baseline(f->s)->name, "cpu");
}

static void keep_variants_errors_name_the_argument(void **st)
{
    fixture *f = *st;
    parse_ok(f, HEAD "variants: [cpu, kernel]\naxes: { n: 64 }\n");
    static const char *const bad[][2] = {
        { "kernal", "--variants kernal: the sweep lists no variant 'kernal'; expected some "
                    "of: cpu, kernel" },
        { "cpu,memcpy", "--variants cpu,memcpy: the sweep lists no variant 'memcpy'" },
        { "", "--variants : an empty name" },
        { "cpu,", "--variants cpu,: an empty name" },
        { "kern", "no variant 'kern'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(sweep_keep_variants(f->s, bad[i][0], &f->err), DM_EINPUT);
        if (!strstr(f->err.msg, bad[i][1]))
            fail_msg("got '%s'; want '%s'", f->err.msg, bad[i][1]);
    }
    /* the refused lists left the sweep as it was */
    assert_int_equal(sweep_nvariants(f->s), 2);
}

/* ---- load errors ---------------------------------------------------------------------- */

static void yaml_syntax_error_reports_its_position(void **st)
{
    (void)st;
    parse_fails("workload: membw\nvariants: [cpu, kernel\ndataset: {generator: random}\n",
                "4:1", "invalid YAML: flow sequence without a closing bracket");
    parse_fails("workload: membw\nvariants: [cpu]\n  axes: 3\n", "3:3",
                "invalid YAML: invalid indentation in mapping");
}

static void duplicate_key_is_refused(void **st)
{
    (void)st;
    parse_fails("workload: membw\nworkload: membw\n", "2:1",
                "duplicate key 'workload' (first at line 1)");
}

static void alias_is_refused(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [cpu]\nname: &x hello\ndescription: *x\n", "5:15",
                "aliases are not supported");
}

static void non_mapping_file_is_refused(void **st)
{
    (void)st;
    parse_fails("- membw\n", "1:1", "the file is a list; expected a mapping of sections");
    parse_fails("", "1:1", "the file is empty");
}

static void unknown_top_level_key_lists_known(void **st)
{
    (void)st;
    parse_fails(HEAD "variant: [cpu]\n", "3:1",
                "unknown key 'variant'; expected one of: name, description, workload, "
                "dataset, variants, baseline, axes, zip, constraints, measure");
}

static void missing_or_unknown_workload_is_refused(void **st)
{
    (void)st;
    parse_fails("dataset: {generator: random}\nvariants: [cpu]\n", "1:1",
                "missing 'workload'; expected the name of a workload (known: membw");
    parse_fails("workload: membww\n", "1:11", "unknown workload 'membww'");
    parse_fails("workload: [membw]\n", "1:11", "'workload' is a list");
}

static void unknown_or_repeated_variant_is_refused(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [cpu, kernal]\n", "3:17",
                "unknown variant 'kernal' of workload 'membw'; did you mean: kernel");
    parse_fails(HEAD "variants: [cpu, cpu]\n", "3:17", "variant 'cpu' listed twice");
    parse_fails(HEAD "variants: []\n", "3:11", "empty list for 'variants'");
    parse_fails(HEAD "axes: {n: 1}\n", "1:1", "missing 'variants'");
}

static void baseline_must_be_listed(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [cpu, kernel]\nbaseline: memcpy\n", "4:11",
                "baseline 'memcpy' is not among the listed variants; expected one of: "
                "cpu, kernel");
}

static void axis_must_be_a_parameter_of_a_listed_variant(void **st)
{
    (void)st;
    dm_sweep *s = NULL;
    dm_err err = {0};
    assert_int_equal(sweep_parse_string(HEAD "variants: [cpu, kernel]\naxes:\n  blok: [64]\n",
                                        "sweeps/x.yaml", &s, &err), DM_EINPUT);
    assert_string_equal(err.msg, "sweeps/x.yaml:5:3: axis 'blok' is not a parameter of any "
                        "listed variant of workload 'membw' (known: n, seed, op, block, "
                        "blocks_per_sm)");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  block: [64]\n", "5:3",
                "axis 'block' is not a parameter of any listed variant of workload 'membw' "
                "(known: n, seed, op)");
}

static void bad_axis_values_are_refused(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: [64, x]\n", "5:15",
                "bad value for axis 'block' of variant 'kernel': block=x: expected an integer");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: [64, 2048]\n", "5:15",
                "out of range; expected an integer in 32..1024");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n: [0]\n", "5:7",
                "bad value for axis 'n': n=0 is out of range");
    /* 2^62 floats once overflowed the arrays' size and crashed (issue 15) */
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n: 4611686018427387904\n", "5:6",
                "n=4611686018427387904 is out of range; expected an integer in 1..4294967296");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  op: [copy, scale]\n", "5:14",
                "expected one of copy|triad");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  op: [copy, [triad]]\n", "5:14",
                "a list in the list of axis 'op'; expected a value");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n:\n", "5:3", "axis 'n' has no value");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  op: \"tri\\nad\"\n", "5:8",
                "bad value for axis 'op': op=tri ad: expected one of copy|triad");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: []\n", "5:10",
                "empty list for axis 'block'");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {steps: [1, 2]}\n", "5:11",
                "unknown form 'steps' for axis 'block'");
    parse_fails(HEAD "variants: [kernel]\naxes: [block]\n", "4:7", "'axes' is a list");
}

static void bad_ranges_are_refused(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {range: [64, 256, 0]}\n", "5:28",
                "range step 0 is not positive");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {range: [256, 64, 32]}\n", "5:19",
                "range from 256 is greater than to 64");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {range: [64, 128]}\n", "5:18",
                "range takes 3 integers, found 2");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {range: [64, 1.5, 8]}\n", "5:23",
                "range bound '1.5' is not an integer");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  op: {range: [1, 2, 1]}\n", "5:7",
                "{range: ...} needs an integer parameter, and 'op' is an enum");
    parse_fails(HEAD "variants: [kernel]\naxes:\n  block: {range: [0, 64, 32]}\n", "5:10",
                "block=0 is out of range");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n: {range: [1, 2000000, 1]}\n", "5:14",
                "range gives 2000000 values; expected at most 1000000");
}

static void pow2_bounds_must_be_powers_of_two(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n: {pow2: [1000, 4096]}\n", "5:14",
                "pow2 bound 1000 is not a power of two; expected one such as 512 or 1024");
    /* above 2^62 the next power of two overflows: only the one below is offered */
    dm_sweep *big = NULL;
    dm_err err = {0};
    assert_int_equal(sweep_parse_string(HEAD "variants: [cpu]\naxes:\n  n: {pow2: [1, "
                                        "9223372036854775807]}\n", "t.yaml", &big, &err),
                     DM_EINPUT);
    assert_string_equal(err.msg, "t.yaml:5:17: pow2 bound 9223372036854775807 is not a power "
                                 "of two; expected one such as 4611686018427387904");
    parse_fails(HEAD "variants: [cpu]\naxes:\n  n: {pow2: [4096, 1024]}\n", "5:14",
                "pow2 from 4096 is greater than to 1024");
}

#define ZIP_BASE HEAD "variants: [kernel]\naxes:\n  n: [1024, 2048]\n  block: [64, 128, 256]\n"

static void bad_zip_groups_are_refused(void **st)
{
    (void)st;
    parse_fails(ZIP_BASE "zip:\n  - [n, blok]\n", "8:9",
                "zip names 'blok', which is not an axis; expected one of the axes (n, block)");
    parse_fails(ZIP_BASE "zip:\n  - [n, block]\n", "8:9",
                "zipped axes of different lengths: 'block' has 3 values, 'n' has 2");
    parse_fails(ZIP_BASE "zip:\n  - [n, n]\n", "8:9",
                "axis 'n' is zipped twice (first at line 8, column 6)");
    parse_fails(ZIP_BASE "zip:\n  - [n]\n", "8:5", "zip group of 1 axis");
    parse_fails(ZIP_BASE "zip: []\n", "7:6", "empty list for 'zip'");
}

static void bad_measure_keys_and_values_are_refused(void **st)
{
    (void)st;
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  mode: warm\n", "5:9",
                "mode=warm: expected one of cold|hot");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  min_samples: 0\n", "5:16",
                "min_samples=0 is out of range");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  max_noise: -0.1\n", "5:14",
                "max_noise=-0.1 is out of range");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  max_time: 0\n", "5:13",
                "max_time=0 is not positive");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  max_samples: 5\n", "5:16",
                "max_samples 5 is below min_samples 10");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  criterion: mean\n", "5:14",
                "criterion=mean: expected one of median|stdrel");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  outlier_k: 0\n", "5:14",
                "outlier_k=0 is out of range");
    parse_fails(HEAD "variants: [cpu]\nmeasure:\n  samples: 5\n", "5:3",
                "unknown key 'samples' in 'measure'; expected one of: mode, min_samples");
}

static void dataset_needs_exactly_one_source(void **st)
{
    (void)st;
    parse_fails("workload: membw\ndataset: {generator: random, path: x.bin}\n"
                "variants: [cpu]\n", "2:10", "both a generator and a path");
    parse_fails("workload: membw\ndataset: {}\nvariants: [cpu]\n", "2:10",
                "neither a generator nor a path");
    parse_fails("workload: membw\ndataset: {generator: uniform}\nvariants: [cpu]\n", "2:22",
                "unknown generator 'uniform' of workload 'membw'; expected one of: random");
    parse_fails("workload: membw\ndataset: {file: x.bin}\nvariants: [cpu]\n", "2:11",
                "unknown key 'file' in 'dataset'");
    parse_fails("workload: membw\nvariants: [cpu]\n", "1:1", "missing 'dataset'");
}

#define CONSTRAINT_BASE HEAD "variants: [cpu, kernel]\naxes:\n  block: [64, 128]\nconstraints:\n"

static void bad_constraints_point_into_the_expression(void **st)
{
    (void)st;
    parse_fails(CONSTRAINT_BASE "  - \"block <= \"\n", "7:15",
                "constraint 'block <= ': expected a number, a name, a quoted string or '(' "
                "but found the end");
    parse_fails(CONSTRAINT_BASE "  - blok <= 64\n", "7:5",
                "unknown name 'blok'; expected a parameter of a listed variant (n, seed, op, "
                "block, blocks_per_sm) or device.PROPERTY");
    parse_fails(CONSTRAINT_BASE "  - \"block <= device.max_thread\"\n", "7:15",
                "unknown device property 'device.max_thread'; expected device. followed by "
                "one of: max_threads, sms");
    parse_fails(CONSTRAINT_BASE "  - \"op < 3\"\n", "7:9", "'<' applied to a string");
    parse_fails(CONSTRAINT_BASE "  - 'op'\n", "7:6", "a string is not a condition");
    parse_fails(CONSTRAINT_BASE "  - [block]\n", "7:5", "'constraints' is a list");
}

/* ---- one point from assignments ------------------------------------------------- */

/* sweep_point of membw's variant with the assignments, or fails the test. */
static void one_point(const char *variant, const char *const *assign, int n,
                      const dm_device *dev, dm_point *pt)
{
    dm_err err = {0};
    const dm_workload *w = registry_workload("membw", &err);
    const dm_variant *v = w ? registry_variant(w, variant, &err) : NULL;
    assert_non_null(v);
    if (sweep_point(w, v, assign, n, NULL, dev, pt, &err))
        fail_msg("unexpected error: %s", err.msg);
}

/* sweep_point's error for the assignments, or fails the test when it succeeds. */
static const char *one_point_error(const char *variant, const char *const *assign, int n)
{
    static dm_err err;
    dm_point pt;
    const dm_workload *w = registry_workload("membw", &err);
    const dm_variant *v = registry_variant(w, variant, &err);
    assert_int_equal(sweep_point(w, v, assign, n, NULL, NULL, &pt, &err), DM_EINPUT);
    assert_null(strchr(err.msg, '\n'));
    return err.msg;
}

static void one_point_is_the_point_an_expansion_makes(void **st)
{
    fixture *f = *st;
    dm_device h100 = fake_device();
    snprintf(h100.name, sizeof h100.name, "NVIDIA H100 80GB HBM3");
    const dm_device *devs[] = {NULL, &h100};
    const char *const assign[] = {"n=4096", "blocks_per_sm=5"};
    char want[512], got[512];
    dm_point pt;
    parse_ok(f, HEAD "variants: [kernel]\naxes:\n  n: 4096\n  blocks_per_sm: 5\n");
    for (int d = 0; d < 2; d++) {
        sweep_expansion_free(&f->e);
        expand_ok(f, devs[d]);
        one_point("kernel", assign, 2, devs[d], &pt);
        dm_point_format(&f->e.points[0].point, want, sizeof want);
        dm_point_format(&pt, got, sizeof got);
        assert_string_equal(got, want);
    }
}

static void one_point_takes_the_last_assignment_of_a_name(void **st)
{
    (void)st;
    const char *const assign[] = {"block=64", "op=triad", "block=128"};
    char got[512];
    dm_point pt;
    one_point("kernel", assign, 3, NULL, &pt);
    dm_point_format(&pt, got, sizeof got);
    assert_string_equal(got, "n=16777216,seed=1,op=triad,block=128,blocks_per_sm=0");
}

static void one_point_errors_name_the_assignment(void **st)
{
    (void)st;
    const char *const unknown[] = {"n=64", "blok=64"}, *const bare[] = {"block"},
                      *const bad[] = {"block=x"}, *const low[] = {"block=16"},
                      *const nothing[] = {"op=triad", "=3"}, *const other[] = {"block=64"};
    assert_string_equal(one_point_error("kernel", unknown, 2),
                        "unknown parameter 'blok' of variant 'kernel' of workload 'membw'; "
                        "did you mean: block, blocks_per_sm");
    assert_string_equal(one_point_error("kernel", bare, 1), "'block': expected NAME=VALUE");
    assert_string_equal(one_point_error("kernel", bad, 1), "block=x: expected an integer");
    assert_non_null(strstr(one_point_error("kernel", low, 1), "block=16 is out of range"));
    assert_string_equal(one_point_error("cpu", nothing, 2), "'=3': expected NAME=VALUE");
    /* a parameter of another variant is not one of this variant's */
    assert_string_equal(one_point_error("cpu", other, 1),
                        "unknown parameter 'block' of variant 'cpu' of workload 'membw'; "
                        "its parameters are: n, seed, op");
}

static void one_point_refused_by_supports_says_why(void **st)
{
    (void)st;
    const char *const triad[] = {"op=triad"};
    assert_string_equal(one_point_error("memcpy", triad, 1),
                        "variant 'memcpy' of workload 'membw' does not run this point: "
                        "memcpy only copies (op=copy)");
}

/* A sweep is UTF-8 text, checked before libfyaml sees it (which loops forever on some
 * malformed bytes in a directive line): any well-formed character is taken; a stray, a
 * truncated or an overlong sequence, a surrogate or a code point past U+10FFFF is named
 * by line and column. */
static void sweep_text_must_be_utf8(void **state)
{
    fixture *f = *state;
#define WELL_FORMED "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf"
    parse_ok(f, "name: " WELL_FORMED "\n" HEAD "variants: [cpu]\n");
    assert_string_equal(sweep_name(f->s), WELL_FORMED);
#undef WELL_FORMED
    parse_fails("%workload: \xff\xff\n" HEAD, "1:12", "byte 0xff is not UTF-8 text");
    parse_fails(HEAD "name: caf\xe9\n", "3:10", "byte 0xe9 is not UTF-8 text");
    parse_fails(HEAD "name: \xe2\x82", "3:7", "byte 0xe2 is not UTF-8 text");
    parse_fails(HEAD "name: \xc0\xaf\n", "3:7", "byte 0xc0 is not UTF-8 text");
    parse_fails(HEAD "name: \xe0\x80\xaf\n", "3:7", "byte 0xe0 is not UTF-8 text");
    parse_fails(HEAD "name: \xed\xa0\x80\n", "3:7", "byte 0xed is not UTF-8 text");
    parse_fails(HEAD "name: \xf4\x90\x80\x80\n", "3:7", "byte 0xf4 is not UTF-8 text");
}

/* Every file of sweeps/ loads, is named after its file (studies and targets name sweeps
 * so), and leaves points to run on an H100-like device. */
static void every_shipped_sweep_loads_and_expands(void **state)
{
    fixture *f = *state;
    const dm_device h100 = { .max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                             .sms = 132, .warp_size = 32 };
    DIR *d = opendir(DM_SOURCE_DIR "/sweeps");
    struct dirent *ent;
    int n = 0;
    assert_non_null(d);
    while ((ent = readdir(d))) {
        size_t len = strlen(ent->d_name);
        char path[1024];
        if (len < 6 || strcmp(ent->d_name + len - 5, ".yaml"))
            continue;
        snprintf(path, sizeof path, "%s/sweeps/%s", DM_SOURCE_DIR, ent->d_name);
        /* without a GPU too (device constraints then not judged) */
        if (sweep_load(path, &f->s, &f->err) || sweep_expand(f->s, NULL, &f->e, &f->err))
            fail_msg("%s", f->err.msg);
        sweep_expansion_free(&f->e);
        if (sweep_expand(f->s, &h100, &f->e, &f->err))
            fail_msg("%s", f->err.msg);
        if (strlen(sweep_name(f->s)) != len - 5 || strncmp(sweep_name(f->s), ent->d_name, len - 5))
            fail_msg("%s is named %s", ent->d_name, sweep_name(f->s));
        if (f->e.n_pruned == f->e.n)
            fail_msg("%s: every one of its %zu points is pruned", ent->d_name, f->e.n);
        sweep_expansion_free(&f->e);
        sweep_free(f->s);
        f->s = NULL;
        n++;
    }
    closedir(d);
    assert_true(n >= 40);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(sweep_text_must_be_utf8),
        T(list_axis_gives_each_value),
        T(range_axis_includes_to_when_reached),
        T(pow2_axis_doubles_from_to),
        T(scalar_axis_sets_every_point),
        T(enum_axis_and_dataset_axis_apply_to_all_variants),
        T(defaults_fill_parameters_without_an_axis),
        T(order_is_variants_then_axes_last_fastest),
        T(zip_advances_together_at_its_first_member),
        T(constraint_prunes_only_points_having_its_parameters),
        T(counts_before_and_after_pruning),
        T(device_constraint_reads_the_device),
        T(device_constraint_is_skipped_without_a_device),
        T(division_by_zero_is_an_error_naming_the_point),
        T(supports_prunes_memcpy_triad),
        T(large_expansion_keeps_order_and_counts),
        T(expansion_beyond_the_limit_is_refused),
        T(accessors_return_the_file),
        T(name_key_overrides_the_file_name),
        T(measure_section_sets_options),
        T(measure_defaults_apply_without_a_section),
        T(load_reads_a_file_and_resolves_dataset_paths),
        T(missing_file_cannot_be_read),
        T(override_replaces_an_axis_in_place),
        T(override_adds_a_new_axis_last),
        T(override_keeps_a_zip_of_the_same_length),
        T(override_errors_name_the_argument),
        T(keep_variants_runs_the_named_in_file_order),
        T(keep_variants_keeps_a_kept_baseline),
        T(keep_variants_errors_name_the_argument),
        T(yaml_syntax_error_reports_its_position),
        T(duplicate_key_is_refused),
        T(alias_is_refused),
        T(non_mapping_file_is_refused),
        T(unknown_top_level_key_lists_known),
        T(missing_or_unknown_workload_is_refused),
        T(unknown_or_repeated_variant_is_refused),
        T(baseline_must_be_listed),
        T(axis_must_be_a_parameter_of_a_listed_variant),
        T(bad_axis_values_are_refused),
        T(bad_ranges_are_refused),
        T(pow2_bounds_must_be_powers_of_two),
        T(bad_zip_groups_are_refused),
        T(bad_measure_keys_and_values_are_refused),
        T(dataset_needs_exactly_one_source),
        T(bad_constraints_point_into_the_expression),
        T(one_point_is_the_point_an_expansion_makes),
        T(one_point_takes_the_last_assignment_of_a_name),
        T(one_point_errors_name_the_assignment),
        T(one_point_refused_by_supports_says_why),
        T(every_shipped_sweep_loads_and_expands),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
