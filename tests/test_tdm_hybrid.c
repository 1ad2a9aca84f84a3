/* test_tdm_hybrid.c - the tdm hybrid variant on the host: which kernel it picks from the
 * level, the episode count, a crossover fit and switch_at; the fit read from the
 * workload's own table; its pruning reasons; and its open switch point and block
 * resolved at sweep expansion (or pruned without a fit). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "crossover_lookup.h"
#include "point_set.h"
#include "registry.h"
#include "sweep.h"
#include "tdm/tdm.h"
#include "tuned_lookup.h"

extern const dm_workload tdm_workload;

/* f(N) = 100000/N + 5000: 30000 episodes at level 4, 25000 at level 5. */
static const dm_crossover_fit inverse = {
    .card = "NVIDIA H100 80GB HBM3", .cc = "9.0", .variant_a = "block-tex",
    .variant_b = "thread-tex", .axis = "count", .group = "level", .form = "a/N + b",
    .a = 100000, .b = 5000, .r2 = 0.99, .n = 4, .below = "block-tex"};

/* A card no compiled-in table will hold. */
static const dm_device nowhere = {.name = "Test GPU Nowhere", .cc_major = 99, .cc_minor = 9,
                                  .max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                                  .sms = 132};

static void test_switch_point_follows_the_fit(void **state)
{
    (void)state;
    assert_int_equal(tdm_switch_at(&inverse, 4), 30000);
    assert_int_equal(tdm_switch_at(&inverse, 3), 38333); /* 38333.3 rounded */
    dm_crossover_fit linear = inverse;
    linear.form = "a*N + b";
    linear.a = -2000.5;
    linear.b = 9000;
    assert_int_equal(tdm_switch_at(&linear, 2), 4999);
    /* a fit below one episode: the kernel above the crossover everywhere */
    assert_int_equal(tdm_switch_at(&linear, 5), 1);
    linear.a = 1e300;
    assert_int_equal(tdm_switch_at(&linear, 5), TDM_MAX_SWITCH);
}

static void test_choice_switches_at_the_fit_or_at_switch_at(void **state)
{
    (void)state;
    /* the fit: block-tex below f(4) = 30000, thread-tex from it on */
    assert_string_equal(tdm_hybrid_choose(4, 29999, &inverse, 0, "auto"), "block-tex");
    assert_string_equal(tdm_hybrid_choose(4, 30000, &inverse, 0, "auto"), "thread-tex");
    assert_string_equal(tdm_hybrid_choose(5, 25000, &inverse, 0, "auto"), "thread-tex");
    assert_string_equal(tdm_hybrid_choose(5, 24999, &inverse, 0, "auto"), "block-tex");
    /* switch_at set: it wins over the fit, whose side still holds */
    assert_string_equal(tdm_hybrid_choose(4, 29999, &inverse, 100, "auto"), "thread-tex");
    assert_string_equal(tdm_hybrid_choose(4, 99, &inverse, 100, "auto"), "block-tex");
    /* a fit whose thread-tex wins below */
    dm_crossover_fit flipped = inverse;
    flipped.below = "thread-tex";
    assert_string_equal(tdm_hybrid_choose(4, 29999, &flipped, 0, "auto"), "thread-tex");
    assert_string_equal(tdm_hybrid_choose(4, 30000, &flipped, 0, "auto"), "block-tex");
    /* a fit that names no side, or none at all: block-tex below */
    flipped.below = NULL;
    assert_string_equal(tdm_hybrid_choose(4, 29999, &flipped, 0, "auto"), "block-tex");
    assert_string_equal(tdm_hybrid_choose(4, 7, NULL, 8, "auto"), "block-tex");
    assert_string_equal(tdm_hybrid_choose(4, 8, NULL, 8, "auto"), "thread-tex");
    assert_null(tdm_hybrid_choose(4, 8, NULL, 0, "auto"));
    /* below set: it wins over the fit's side */
    assert_string_equal(tdm_hybrid_choose(4, 29999, &inverse, 0, "thread-tex"), "thread-tex");
    assert_string_equal(tdm_hybrid_choose(4, 30000, &inverse, 0, "thread-tex"), "block-tex");
    assert_string_equal(tdm_hybrid_choose(4, 7, NULL, 8, "block-tex"), "block-tex");
}

static void test_fit_comes_from_the_workloads_table(void **state)
{
    (void)state;
    const dm_crossover_fit table[] = { inverse, {0} };
    const dm_workload with = {.name = "with", .fits = table}, without = {.name = "without"};
    dm_device h100 = nowhere, h200 = nowhere;
    snprintf(h100.name, sizeof h100.name, "%s", inverse.card);
    snprintf(h200.name, sizeof h200.name, "NVIDIA H200");
    h100.cc_major = h200.cc_major = 9;
    h100.cc_minor = h200.cc_minor = 0;
    char how[DM_HOW_MAX];
    assert_ptr_equal(tdm_hybrid_fit(&with, &h100, how, sizeof how), &table[0]);
    assert_string_equal(how, "fit of this card (shipped)");
    assert_ptr_equal(tdm_hybrid_fit(&with, &h200, how, sizeof how), &table[0]);
    assert_true(strstr(how, "the same architecture 9.0 (shipped)") != NULL);
    assert_null(tdm_hybrid_fit(&with, &nowhere, how, sizeof how));
    assert_null(tdm_hybrid_fit(&without, &h100, how, sizeof how));
}

/* The reason hybrid gives for pt on dev, "" when it is kept. */
static const char *hybrid_refuses(dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    dm_err err = {0};
    const dm_variant *v = registry_variant(&tdm_workload, "hybrid", &err);
    why[0] = '\0';
    pt->variant = v;
    if (!v->supports(pt, dev, why, n))
        why[0] = '\0';
    return why;
}

static void test_supports_without_a_fit_and_the_kernels_limits(void **state)
{
    (void)state;
    dm_err err = {0};
    dm_point pt;
    char why[256];
    const dm_variant *v = registry_variant(&tdm_workload, "hybrid", &err);
    assert_int_equal(registry_point_defaults(&tdm_workload, v, &pt, &err), 0);
    assert_int_equal(dm_point_int(&pt, "switch_at"), 0);
    assert_int_equal(dm_point_int(&pt, "block"), 0);
    assert_string_equal(hybrid_refuses(&pt, &nowhere, why, sizeof why),
                        "no crossover fit for tdm thread-tex/block-tex on Test GPU Nowhere or "
                        "compute capability 99.9; run dmbench crossover --store (or dmbench tune "
                        "--card), or set switch_at");
    set_int(&pt, "switch_at", 5000);
    assert_string_equal(hybrid_refuses(&pt, &nowhere, why, sizeof why), "");
    /* the limits of the kernel it would run */
    set_int(&pt, "block", 2048);
    assert_non_null(strstr(hybrid_refuses(&pt, &nowhere, why, sizeof why),
                           "block 2048 exceeds the device's 1024"));
    set_int(&pt, "block", 0);
    set_int(&pt, "level", 13);
    set_int(&pt, "count", 10);
    assert_non_null(strstr(hybrid_refuses(&pt, NULL, why, sizeof why),
                           "level 13 exceeds the 12 letters hybrid counts"));
    set_int(&pt, "level", 3);
    set_int(&pt, "count", 20000);
    assert_string_equal(hybrid_refuses(&pt, &nowhere, why, sizeof why),
                        "count 20000 exceeds the 15600 episodes of level 3");
}

static const char hybrid_sweep[] = "workload: tdm\n"
                                   "dataset: { generator: uniform }\n"
                                   "variants: [hybrid]\n"
                                   "axes:\n"
                                   "  level: [3, 4]\n"
                                   "  count: [256, 8192]\n";

static void test_expansion_prunes_an_open_switch_point_without_a_fit(void **state)
{
    (void)state;
    dm_sweep *s;
    dm_expansion e;
    dm_err err = {0};
    assert_int_equal(sweep_parse_string(hybrid_sweep, "t", &s, &err), 0);
    assert_int_equal(sweep_expand(s, &nowhere, &e, &err), 0);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.n_pruned, 4);
    assert_non_null(strstr(e.points[0].reason, "no crossover fit for tdm"));
    sweep_expansion_free(&e);
    /* with switch_at set, the points run, each at its kernel's block: tuned for the card
     * (none for this one), else the default */
    assert_int_equal(sweep_override(s, "switch_at=[1000]", &err), 0);
    assert_int_equal(sweep_expand(s, &nowhere, &e, &err), 0);
    assert_int_equal(e.n_pruned, 0);
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(dm_point_int(&e.points[i].point, "switch_at"), 1000);
        assert_int_equal(dm_point_int(&e.points[i].point, "block"), 64);
    }
    sweep_expansion_free(&e);
    /* a block the sweep sets stays */
    assert_int_equal(sweep_override(s, "block=[256]", &err), 0);
    assert_int_equal(sweep_expand(s, &nowhere, &e, &err), 0);
    assert_int_equal(dm_point_int(&e.points[0].point, "block"), 256);
    sweep_expansion_free(&e);
    sweep_free(s);
}

static void test_expansion_takes_the_compiled_in_fit(void **state)
{
    (void)state;
    const dm_crossover_fit *fit = NULL;
    for (const dm_crossover_fit *f = tdm_workload.fits; f && f->card && !fit; f++)
        if (!strcmp(f->axis, "count") && !strcmp(f->group, "level"))
            fit = f;
    if (!fit)
        skip(); /* variants/tdm/fits.h holds no fit to test with yet */
    dm_device dev = nowhere;
    snprintf(dev.name, sizeof dev.name, "%s", fit->card);
    char how[DM_HOW_MAX];
    assert_ptr_equal(tdm_hybrid_fit(&tdm_workload, &dev, how, sizeof how), fit);
    dm_sweep *s;
    dm_expansion e;
    dm_err err = {0};
    assert_int_equal(sweep_parse_string(hybrid_sweep, "t", &s, &err), 0);
    assert_int_equal(sweep_expand(s, &dev, &e, &err), 0);
    for (size_t i = 0; i < e.n; i++) {
        const dm_point *pt = &e.points[i].point;
        int level = (int)dm_point_int(pt, "level");
        int64_t at = tdm_switch_at(fit, level), block, want = 64;
        assert_int_equal(dm_point_int(pt, "switch_at"), at);
        assert_string_equal(dm_point_str(pt, "below"), fit->below ? fit->below : "block-tex");
        const char *kernel = tdm_hybrid_choose(level, dm_point_int(pt, "count"), fit, at, "auto");
        /* the block tdm's table holds for the kernel's own point of the same problem */
        dm_point kp;
        assert_int_equal(registry_point_defaults(&tdm_workload,
                                                 registry_variant(&tdm_workload, kernel, &err),
                                                 &kp, &err), 0);
        set_int(&kp, "level", level);
        set_int(&kp, "count", dm_point_int(pt, "count"));
        if (tuned_lookup(&kp, NULL, &dev, "block", &block, how, sizeof how))
            want = block;
        assert_int_equal(dm_point_int(pt, "block"), want);
        /* each open parameter says which rule chose it */
        assert_non_null(strstr(pt->chosen, "switch_at: "));
        assert_non_null(strstr(pt->chosen, "fit of this card (shipped)"));
        assert_non_null(strstr(pt->chosen, "block: "));
    }
    sweep_expansion_free(&e);
    sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switch_point_follows_the_fit),
        cmocka_unit_test(test_choice_switches_at_the_fit_or_at_switch_at),
        cmocka_unit_test(test_fit_comes_from_the_workloads_table),
        cmocka_unit_test(test_supports_without_a_fit_and_the_kernels_limits),
        cmocka_unit_test(test_expansion_prunes_an_open_switch_point_without_a_fit),
        cmocka_unit_test(test_expansion_takes_the_compiled_in_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
