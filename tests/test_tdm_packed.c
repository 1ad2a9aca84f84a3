/* test_tdm_packed.c - packed's kernels on short databases, on the host: which it runs
 * (its own or block-tex) from the level, the database's length, a stand-in crossover fit
 * of block-tex and packed over length and its `small` parameter; the fit found in a
 * workload's table apart from hybrid's; `small_block` resolved at expansion to say which
 * ran, and supports() judging the kernels that run; the compiled-in fit, when there is
 * one; and packed's tuned blocks still found for its default points. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crossover_lookup.h"
#include "point_set.h"
#include "registry.h"
#include "sweep.h"
#include "tdm/tdm.h"
#include "tuned_lookup.h"

extern const dm_workload tdm_workload;

#define H100 "NVIDIA H100 80GB HBM3"

/* f(N) = -300000 N + 700000 letters: 400,000 at level 1, 100,000 at level 2, below one
 * letter from level 3 (packed always); block-tex faster below. */
static const dm_crossover_fit linear = {
    .card = H100, .cc = "9.0", .variant_a = "block-tex", .variant_b = "packed",
    .axis = "length", .group = "level", .form = "a*N + b", .a = -300000, .b = 700000,
    .r2 = NAN, .n = 2, .below = "block-tex"};

/* hybrid's fit on the same card, which packed must not take for its own. */
static const dm_crossover_fit hybrids = {
    .card = H100, .cc = "9.0", .variant_a = "block-tex", .variant_b = "thread-tex",
    .axis = "count", .group = "level", .form = "a/N + b", .a = 100000, .b = 5000, .r2 = 0.99,
    .n = 4, .below = "block-tex"};

/* A card no compiled-in table holds, and the H100 of the stand-in fits. */
static const dm_device nowhere = {.name = "Test GPU Nowhere", .cc_major = 99, .cc_minor = 9,
                                  .max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                                  .sms = 132};

static dm_device h100(void)
{
    dm_device d = nowhere;
    snprintf(d.name, sizeof d.name, "%s", H100);
    d.cc_major = 9;
    d.cc_minor = 0;
    return d;
}

static void test_choice_follows_the_fit_and_small(void **state)
{
    (void)state;
    /* auto: block-tex below f(level) letters, the packed kernels from it on */
    assert_string_equal(tdm_packed_choose(1, 24563, &linear, "auto"), "block-tex");
    assert_string_equal(tdm_packed_choose(1, 399999, &linear, "auto"), "block-tex");
    assert_string_equal(tdm_packed_choose(1, 400000, &linear, "auto"), "packed");
    assert_string_equal(tdm_packed_choose(1, 1572076, &linear, "auto"), "packed");
    assert_string_equal(tdm_packed_choose(2, 99999, &linear, NULL), "block-tex");
    assert_string_equal(tdm_packed_choose(2, 100000, &linear, NULL), "packed");
    /* a fit below one letter: packed everywhere */
    assert_string_equal(tdm_packed_choose(3, 1, &linear, "auto"), "packed");
    assert_string_equal(tdm_packed_choose(3, 24563, &linear, "auto"), "packed");
    /* no fit, or one with packed (or no one) faster below: packed everywhere */
    assert_string_equal(tdm_packed_choose(1, 16, NULL, "auto"), "packed");
    dm_crossover_fit other = linear;
    other.below = "packed";
    assert_string_equal(tdm_packed_choose(1, 24563, &other, "auto"), "packed");
    other.below = NULL;
    assert_string_equal(tdm_packed_choose(1, 24563, &other, "auto"), "packed");
    /* small names the kernels, whatever the fit says */
    assert_string_equal(tdm_packed_choose(1, 24563, &linear, "packed"), "packed");
    assert_string_equal(tdm_packed_choose(1, 1572076, &linear, "block-tex"), "block-tex");
    assert_string_equal(tdm_packed_choose(1, 1572076, NULL, "block-tex"), "block-tex");
}

static void test_fit_comes_from_the_table_apart_from_hybrids(void **state)
{
    (void)state;
    dm_crossover_fit reversed = linear;
    reversed.variant_a = "packed";
    reversed.variant_b = "block-tex";
    const dm_crossover_fit table[] = {hybrids, linear, {0}}, turned[] = {reversed, {0}},
                           hybrid_only[] = {hybrids, {0}};
    const dm_workload with = {.name = "with", .fits = table},
                      with_turned = {.name = "turned", .fits = turned},
                      without = {.name = "without", .fits = hybrid_only};
    dm_device card = h100(), family = card;
    snprintf(family.name, sizeof family.name, "NVIDIA H200");
    char how[DM_HOW_MAX];
    assert_ptr_equal(tdm_packed_fit(&with, &card, how, sizeof how), &table[1]);
    assert_string_equal(how, "fit of this card (shipped)");
    assert_ptr_equal(tdm_hybrid_fit(&with, &card, how, sizeof how), &table[0]);
    assert_ptr_equal(tdm_packed_fit(&with, &family, how, sizeof how), &table[1]);
    assert_true(strstr(how, "the same architecture 9.0 (shipped)") != NULL);
    assert_ptr_equal(tdm_packed_fit(&with_turned, &card, how, sizeof how), &turned[0]);
    assert_null(tdm_packed_fit(&with, &nowhere, how, sizeof how));
    assert_null(tdm_packed_fit(&without, &card, how, sizeof how));
}

/* A packed point of w (tdm with a stand-in table of fits) at length and level. */
static dm_point packed_point(const dm_workload *w, int64_t length, int64_t level)
{
    dm_point pt;
    point_with("tdm", "packed", NULL, 0, &pt);
    pt.workload = w;
    set_int(&pt, "length", length);
    set_int(&pt, "level", level);
    return pt;
}

/* The block the tuned table gives block-tex at pt's problem on dev, else 64. */
static int64_t block_tex_block(const dm_point *pt, const dm_device *dev)
{
    dm_point kp;
    int64_t block;
    char how[DM_HOW_MAX];
    point_with("tdm", "block-tex", NULL, 0, &kp);
    copy_problem(&kp, pt);
    return tuned_lookup(&kp, NULL, dev, "block", &block, how, sizeof how) ? block : 64;
}

/* pt's small_block after resolve() on dev: block-tex's block where it runs, else 0. */
static int64_t resolved_block(dm_point pt, const dm_device *dev)
{
    const dm_variant *v = registry_variant(&tdm_workload, "packed", NULL);
    v->resolve(&pt, dev);
    return dm_point_int(&pt, "small_block");
}

static void test_resolve_records_the_kernels_that_run(void **state)
{
    (void)state;
    dm_workload w = tdm_workload;
    const dm_crossover_fit table[] = {linear, {0}};
    w.fits = table;
    const dm_variant *v = registry_variant(&tdm_workload, "packed", NULL);
    dm_device card = h100();
    /* below the crossover: block-tex, at its block for the card and problem; small and
     * packed's own block stay as they were */
    dm_point pt = packed_point(&w, 393019, 1);
    v->resolve(&pt, &card);
    assert_int_equal(dm_point_int(&pt, "small_block"), block_tex_block(&pt, &card));
    assert_true(dm_point_int(&pt, "small_block") > 0);
    assert_string_equal(dm_point_str(&pt, "small"), "auto");
    assert_int_equal(dm_point_int(&pt, "block"), 128);
    pt = packed_point(&w, 24563, 2);
    assert_int_equal(resolved_block(pt, &card), block_tex_block(&pt, &card));
    /* at and above it, at level 3, or without a fit for the card: the packed kernels */
    assert_int_equal(resolved_block(packed_point(&w, 400000, 1), &card), 0);
    assert_int_equal(resolved_block(packed_point(&w, 24563, 3), &card), 0);
    assert_int_equal(resolved_block(packed_point(&w, 24563, 1), &nowhere), 0);
    /* small set: it decides, whatever the fit */
    pt = packed_point(&w, 24563, 1);
    set_str(&pt, "small", "packed");
    assert_int_equal(resolved_block(pt, &card), 0);
    pt = packed_point(&w, 1572076, 2);
    set_str(&pt, "small", "block-tex");
    assert_int_equal(resolved_block(pt, &nowhere), 64); /* no tuned block: the default */
    /* small_block set: it stays where block-tex runs, and is 0 where it does not */
    pt = packed_point(&w, 24563, 2);
    set_int(&pt, "small_block", 256);
    assert_int_equal(resolved_block(pt, &card), 256);
    set_int(&pt, "length", 1572076);
    assert_int_equal(resolved_block(pt, &card), 0);
}

/* The reason packed gives for pt on dev, "" when it is kept. */
static const char *refusal(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    const dm_variant *v = registry_variant(&tdm_workload, "packed", NULL);
    why[0] = '\0';
    if (!v->supports(pt, dev, why, n))
        why[0] = '\0';
    return why;
}

static void test_supports_judges_the_kernels_that_run(void **state)
{
    (void)state;
    dm_workload w = tdm_workload;
    const dm_crossover_fit table[] = {linear, {0}};
    w.fits = table;
    dm_device card = h100();
    char why[256];
    /* block-tex's limits where it runs */
    dm_point pt = packed_point(&w, 24563, 1);
    set_int(&pt, "small_block", 2048);
    assert_non_null(strstr(refusal(&pt, &card, why, sizeof why),
                           "block 2048 exceeds the device's 1024"));
    /* not where the packed kernels run: small_block is not used there */
    set_int(&pt, "length", 1572076);
    assert_string_equal(refusal(&pt, &card, why, sizeof why), "");
    set_str(&pt, "small", "block-tex");
    assert_non_null(strstr(refusal(&pt, &nowhere, why, sizeof why), "block 2048 exceeds"));
    /* and without a device, auto is the packed kernels */
    set_str(&pt, "small", "auto");
    set_int(&pt, "length", 24563);
    assert_string_equal(refusal(&pt, NULL, why, sizeof why), "");
    /* the packed kernels' own limits hold whichever run */
    set_int(&pt, "small_block", 0);
    set_int(&pt, "block", 16);
    assert_non_null(strstr(refusal(&pt, &card, why, sizeof why), "not a multiple of 32"));
    set_int(&pt, "block", 128);
    set_int(&pt, "level", 7);
    set_int(&pt, "count", 100);
    assert_non_null(strstr(refusal(&pt, &card, why, sizeof why),
                           "level 7 exceeds the 6 letters packed counts"));
    set_int(&pt, "level", 1);
    set_int(&pt, "count", 0);
    assert_string_equal(refusal(&pt, &card, why, sizeof why), "");
}

static const char packed_sweep[] = "workload: tdm\n"
                                   "dataset: { generator: uniform }\n"
                                   "variants: [packed]\n"
                                   "axes:\n"
                                   "  length: [24563, 98254, 393019, 1572076]\n"
                                   "  level: [1, 2, 3]\n"
                                   "  block: [128, 256]\n";

/* Expanded on a card, every point's small_block is that of the fit the workload compiles
 * in (none: the packed kernels everywhere, 0), and none is pruned. */
static void expand_on(const dm_device *dev, const dm_crossover_fit *fit)
{
    dm_sweep *s;
    dm_expansion e;
    dm_err err = {0};
    assert_int_equal(sweep_parse_string(packed_sweep, "t", &s, &err), 0);
    assert_int_equal(sweep_expand(s, dev, &e, &err), 0);
    assert_int_equal(e.n, 24);
    assert_int_equal(e.n_pruned, 0);
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        const char *kernel = tdm_packed_choose((int)dm_point_int(pt, "level"),
                                               dm_point_int(pt, "length"), fit, "auto");
        assert_string_equal(dm_point_str(pt, "small"), "auto");
        assert_int_equal(dm_point_int(pt, "small_block"),
                         strcmp(kernel, "block-tex") ? 0 : block_tex_block(pt, dev));
    }
    sweep_expansion_free(&e);
    sweep_free(s);
}

static void test_expansion_without_a_fit_runs_the_packed_kernels(void **state)
{
    (void)state;
    expand_on(&nowhere, NULL);
}

/* Each card's fit of packed in variants/tdm/fits.h, on that card. */
static void test_expansion_takes_the_compiled_in_fits(void **state)
{
    (void)state;
    int cards = 0;
    for (const dm_crossover_fit *f = tdm_workload.fits; f && f->card; f++) {
        char how[DM_HOW_MAX];
        dm_device dev = nowhere;
        snprintf(dev.name, sizeof dev.name, "%s", f->card);
        if (strcmp(f->axis, "length") != 0)
            continue;
        assert_ptr_equal(tdm_packed_fit(&tdm_workload, &dev, how, sizeof how), f);
        expand_on(&dev, f);
        cards++;
    }
    if (!cards)
        skip(); /* variants/tdm/fits.h holds no fit of packed to test with yet */
}

/* packed's tuned blocks are looked up at expansion before resolve(), with small and
 * small_block as the sweep leaves them: a row tuned on the packed kernels at a default
 * point (small=auto,small_block=0, as `dmbench tune` stores them from such points, and
 * as the rows from before `small` were given) must be found there by card and bucket. A
 * row without small is from before the parameter and found by no point. */
static void test_default_points_find_packeds_tuned_block(void **state)
{
    (void)state;
    dm_device card = h100();
    int rows = 0;
    for (const dm_tuned *t = tdm_workload.tuned; t && t->card; t++) {
        if (strcmp(t->variant, "packed") || strcmp(t->card, H100))
            continue;
        if (!strstr(t->bucket, ",small="))
            fail_msg("packed's tuned row %s has no small: no point finds it", t->bucket);
        if (!strstr(t->bucket, "length=393019,") ||
            !strstr(t->bucket, ",chunk=0,small=auto,small_block=0"))
            continue;
        const char *level = strstr(t->bucket, "level=");
        assert_non_null(level);
        dm_point pt;
        int64_t block;
        char how[DM_HOW_MAX];
        point_with("tdm", "packed", NULL, 0, &pt);
        set_int(&pt, "level", strtoll(level + 6, NULL, 10));
        assert_true(tuned_lookup(&pt, NULL, &card, "block", &block, how, sizeof how));
        assert_string_equal(how, "this card, this bucket (shipped)");
        assert_int_equal(block, t->value);
        rows++;
    }
    if (!rows)
        skip(); /* no row of a default point: nothing to find */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice_follows_the_fit_and_small),
        cmocka_unit_test(test_fit_comes_from_the_table_apart_from_hybrids),
        cmocka_unit_test(test_resolve_records_the_kernels_that_run),
        cmocka_unit_test(test_supports_judges_the_kernels_that_run),
        cmocka_unit_test(test_expansion_without_a_fit_runs_the_packed_kernels),
        cmocka_unit_test(test_expansion_takes_the_compiled_in_fits),
        cmocka_unit_test(test_default_points_find_packeds_tuned_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
