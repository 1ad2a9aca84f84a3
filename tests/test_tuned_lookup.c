/* test_tuned_lookup.c - the per-card lookup of tuned block sizes and crossover fits walked
 * with stand-in devices of other names and compute capabilities: this card and bucket;
 * the bucket on another card of the architecture; the nearest bucket by problem size on
 * this card, then on the architecture; none (the default) - stored choices before
 * shipped ones at each step, never a value pooled over other problems, a parameter added
 * after the tuning matching at its default; and the rule each point notes for its chosen
 * values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "card_choices.h"
#include "registry.h"

#define H100 "NVIDIA H100 80GB HBM3"
#define A100 "NVIDIA A100-SXM4-40GB"

/* A workload w: a problem size n, a seed, a level that must match; variants k and
 * other, each with a block size. */
static const dm_param_spec w_data[] = {
    { .name = "n", .type = DM_P_INT, .def = "1000", .tune = DM_TUNE_SIZE },
    { .name = "seed", .type = DM_P_INT, .def = "1", .tune = DM_TUNE_ANY },
    { 0 },
};
static const dm_param_spec w_problem[] = { { .name = "level", .type = DM_P_INT, .def = "1" },
                                           { 0 } };
static const dm_param_spec w_block[] = { { .name = "block", .type = DM_P_INT, .def = "64",
                                           .allowed = "1..1024" },
                                         { 0 } };
/* Variant later: its parameter merge came after its choices were tuned. */
static const dm_param_spec w_later[] = { { .name = "block", .type = DM_P_INT, .def = "64",
                                           .allowed = "1..1024" },
                                         { .name = "merge", .type = DM_P_INT, .def = "0",
                                           .allowed = "0..1" },
                                         { 0 } };
static const dm_variant w_variants[] = { { .name = "k", .params = w_block },
                                         { .name = "other", .params = w_block },
                                         { .name = "later", .params = w_later },
                                         { 0 } };

/* Shipped: an H100 at two sizes of level 1 and one of level 2; an A100 at one. */
static const dm_tuned shipped[] = {
    { H100, "9.0", "k", "block", "n=1000,seed=1,level=1", 128 },
    { H100, "9.0", "k", "block", "n=4000,seed=1,level=1", 256 },
    { H100, "9.0", "k", "block", "n=1000,seed=1,level=2", 32 },
    { A100, "8.0", "k", "block", "n=1000,seed=1,level=1", 512 },
    { H100, "9.0", "later", "block", "n=1000,seed=1,level=1", 96 },
    { H100, "9.0", "later", "block", "n=1000,seed=1,level=2,data=f.csv", 224 },
    { 0 },
};

static const dm_workload w = { .name = "w", .dataset_params = w_data,
                               .problem_params = w_problem, .variants = w_variants,
                               .tuned = shipped };

/* A stand-in device called name of compute capability major.minor. */
static dm_device standin(const char *name, int major, int minor)
{
    dm_device d = { .cc_major = major, .cc_minor = minor, .max_threads_per_block = 1024 };
    snprintf(d.name, sizeof d.name, "%s", name);
    return d;
}

/* Variant k of w at n, seed and level. */
static dm_point w_point(int64_t n, int64_t seed, int64_t level)
{
    dm_point pt;
    dm_err err = { 0 };
    assert_int_equal(registry_point_defaults(&w, &w_variants[0], &pt, &err), 0);
    dm_point_set_int(&pt, "n", n);
    dm_point_set_int(&pt, "seed", seed);
    dm_point_set_int(&pt, "level", level);
    return pt;
}

/* The value found for pt on dev (-1: none), its rule in how. */
static int64_t look(int64_t n, int64_t seed, int64_t level, const dm_device *dev, char *how)
{
    dm_point pt = w_point(n, seed, level);
    int64_t v;
    how[0] = '\0';
    return tuned_lookup(&pt, NULL, dev, "block", &v, how, DM_HOW_MAX) ? v : -1;
}

static void every_fallback_step_in_order(void **st)
{
    (void)st;
    dm_device h100 = standin(H100, 9, 0), h200 = standin("NVIDIA H200", 9, 0),
              a30 = standin("NVIDIA A30", 8, 0), rtx = standin("NVIDIA GeForce RTX 5090", 12, 0);
    char how[DM_HOW_MAX];
    /* 1. this card, this bucket */
    assert_int_equal(look(1000, 1, 1, &h100, how), 128);
    assert_string_equal(how, "this card, this bucket (shipped)");
    /* 2. the same bucket on another card of the architecture */
    assert_int_equal(look(1000, 1, 1, &h200, how), 128);
    assert_string_equal(how, "this bucket on " H100 ", the same architecture 9.0 (shipped)");
    assert_int_equal(look(1000, 1, 2, &h200, how), 32); /* level 2's own, not level 1's */
    assert_int_equal(look(1000, 1, 1, &a30, how), 512);
    /* 3. the nearest size of the same level on this card: 3000 is nearer 4000 than 1000 */
    assert_int_equal(look(3000, 1, 1, &h100, how), 256);
    assert_string_equal(how, "nearest bucket on this card, n=4000 (shipped)");
    assert_int_equal(look(1500, 1, 1, &h100, how), 128);
    assert_int_equal(look(9000, 1, 2, &h100, how), 32); /* level 2 has one size */
    /* a seed picks an instance, not a shape: the same problem with another seed is this
     * bucket, on this card and on the architecture */
    assert_int_equal(look(4000, 7, 1, &h100, how), 256);
    assert_string_equal(how, "this card, this bucket (shipped)");
    assert_int_equal(look(1000, 7, 1, &h200, how), 128);
    assert_string_equal(how, "this bucket on " H100 ", the same architecture 9.0 (shipped)");
    /* ... then on the architecture */
    assert_int_equal(look(3000, 1, 1, &h200, how), 256);
    assert_string_equal(how, "nearest bucket on " H100 ", the same architecture 9.0, n=4000 "
                             "(shipped)");
    /* 4. none: a level never tuned, an architecture without rows */
    assert_int_equal(look(1000, 1, 3, &h100, how), -1);
    assert_int_equal(look(1000, 1, 1, &rtx, how), -1);
    dm_device sm89 = standin("NVIDIA L4", 8, 9); /* 8.9 is not 8.0's architecture */
    assert_int_equal(look(1000, 1, 1, &sm89, how), -1);
}

static void stored_choices_come_first_at_every_step(void **st)
{
    (void)st;
    dm_device h100 = standin(H100, 9, 0), h200 = standin("NVIDIA Stand-In", 9, 0);
    dm_err err = { 0 };
    char how[DM_HOW_MAX];
    const dm_tuned mine[] = { { "NVIDIA Stand-In", "9.0", "k", "block", "n=1000,seed=1,level=1", 96 },
                              { H100, "9.0", "k", "block", "n=1000,seed=1,level=1", 160 } };
    for (int i = 0; i < 2; i++)
        assert_int_equal(card_choices_add_tuned(&w, &mine[i], &err), 0);
    assert_int_equal(look(1000, 1, 1, &h200, how), 96);
    assert_string_equal(how, "this card, this bucket (stored)");
    assert_int_equal(look(1000, 1, 1, &h100, how), 160); /* over the shipped 128 */
    assert_string_equal(how, "this card, this bucket (stored)");
    /* a stored bucket that differs in its seed only comes before a shipped exact one */
    const dm_tuned seeded = { H100, "9.0", "k", "block", "n=4000,seed=9,level=1", 192 };
    assert_int_equal(card_choices_add_tuned(&w, &seeded, &err), 0);
    assert_int_equal(look(4000, 1, 1, &h100, how), 192);
    assert_string_equal(how, "this card, this bucket (stored)");
    assert_int_equal(look(4000, 9, 1, &h100, how), 192);
    /* the H200's nearest is its own stored bucket, before the H100's nearer shipped one */
    assert_int_equal(look(3000, 1, 1, &h200, how), 96);
    assert_string_equal(how, "nearest bucket on this card, n=1000 (stored)");
    assert_true(card_choices_know_card("NVIDIA Stand-In"));
    card_choices_clear();
    assert_int_equal(look(1000, 1, 1, &h200, how), 128);
    assert_false(card_choices_know_card("NVIDIA Stand-In"));
}

static void the_point_notes_the_rule_or_the_default(void **st)
{
    (void)st;
    dm_device h200 = standin("NVIDIA H200", 9, 0), rtx = standin("RTX", 12, 0);
    dm_point pt = w_point(3000, 1, 1);
    tuned_choose(&pt, NULL, &h200, "block");
    assert_int_equal(dm_point_int(&pt, "block"), 256);
    assert_string_equal(pt.chosen, "block: 256, nearest bucket on " H100 ", the same "
                                   "architecture 9.0, n=4000 (shipped)");
    pt = w_point(3000, 1, 1);
    tuned_choose(&pt, NULL, &rtx, "block");
    assert_int_equal(dm_point_int(&pt, "block"), 64);
    assert_string_equal(pt.chosen, "block: 64, the default: no tuning of k for this problem on "
                                   "this card or its architecture");
    /* a second note of the same parameter replaces the first; others stay in order */
    dm_point_note_choice(&pt, "switch_at", "7, fit");
    dm_point_note_choice(&pt, "block", "32, again");
    assert_string_equal(pt.chosen, "switch_at: 7, fit; block: 32, again");
    /* the note is no parameter: the bucket and key leave it out */
    char bucket[256];
    tuned_bucket(&pt, "block", NULL, bucket, sizeof bucket);
    assert_string_equal(bucket, "n=3000,seed=1,level=1");
}

/* The value found for variant later at n, level and merge, its data in the file data
 * (NULL: generated), on dev (-1: none), its rule in how. */
static int64_t look_later(int64_t n, int64_t level, int64_t merge, const char *data,
                          const dm_device *dev, char *how)
{
    dm_point pt;
    dm_err err = { 0 };
    int64_t v;
    assert_int_equal(registry_point_defaults(&w, &w_variants[2], &pt, &err), 0);
    dm_point_set_int(&pt, "n", n);
    dm_point_set_int(&pt, "level", level);
    dm_point_set_int(&pt, "merge", merge);
    how[0] = '\0';
    return tuned_lookup(&pt, data, dev, "block", &v, how, DM_HOW_MAX) ? v : -1;
}

/* A parameter added after the tuning (merge), which the choices' buckets lack: at its
 * default the point is the problem tuned, at another value it is not. */
static void a_parameter_added_later_keeps_the_choices_at_its_default(void **st)
{
    (void)st;
    dm_device h100 = standin(H100, 9, 0);
    char how[DM_HOW_MAX];
    assert_int_equal(look_later(1000, 1, 0, NULL, &h100, how), 96);
    assert_string_equal(how, "this card, this bucket (shipped)");
    assert_int_equal(look_later(3000, 1, 0, NULL, &h100, how), 96);
    assert_string_equal(how, "nearest bucket on this card, n=1000 (shipped)");
    assert_int_equal(look_later(1000, 2, 0, "f.csv", &h100, how), 224); /* before data= */
    assert_int_equal(look_later(1000, 2, 0, "g.csv", &h100, how), -1);
    assert_int_equal(look_later(1000, 1, 1, NULL, &h100, how), -1);
    assert_int_equal(look_later(3000, 1, 1, NULL, &h100, how), -1);
    assert_int_equal(look_later(1000, 2, 1, "f.csv", &h100, how), -1);
}

static void stored_fits_come_before_shipped_ones(void **st)
{
    (void)st;
    static const dm_crossover_fit fits[] = {
        { H100, "9.0", "a", "b", "count", "level", "a/N + b", 100, 1, 0.9, 3, "a", NULL, 0 },
        { 0 } };
    const dm_workload wf = { .name = "wf", .variants = w_variants, .fits = fits };
    const dm_crossover_measured groups[] = { { 2, 40, 1, 100, "a" } };
    const dm_crossover_fit own = { "NVIDIA H200", "9.0", "b", "a", "count", "level", "a*N + b",
                                   5, 7, 0.99, 4, "b", groups, 1 };
    dm_device h200 = standin("NVIDIA H200", 9, 0);
    dm_err err = { 0 };
    const dm_crossover_fit *fit;
    char how[DM_HOW_MAX];
    assert_true(crossover_lookup(&wf, &h200, "a", "b", "count", "level", &fit, how, sizeof how));
    assert_ptr_equal(fit, &fits[0]);
    assert_string_equal(how, "fit of " H100 ", the same architecture 9.0 (shipped)");
    assert_int_equal(card_choices_add_fit(&wf, &own, &err), 0);
    assert_true(crossover_lookup(&wf, &h200, "a", "b", "count", "level", &fit, how, sizeof how));
    assert_string_equal(how, "fit of this card (stored)");
    assert_string_equal(fit->form, "a*N + b");
    assert_int_equal(fit->nmeasured, 1);
    assert_string_equal(fit->measured[0].faster, "a"); /* copied, groups too */
    assert_true(crossover_switch_at(fit, 2) == 40);
    card_choices_clear();
    assert_true(crossover_lookup(&wf, &h200, "a", "b", "count", "level", &fit, NULL, 0));
    assert_ptr_equal(fit, &fits[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_fallback_step_in_order),
        cmocka_unit_test(stored_choices_come_first_at_every_step),
        cmocka_unit_test(the_point_notes_the_rule_or_the_default),
        cmocka_unit_test(stored_fits_come_before_shipped_ones),
        cmocka_unit_test(a_parameter_added_later_keeps_the_choices_at_its_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
