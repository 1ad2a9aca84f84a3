/* test_rules_workload.c - the rules workload through its contract: datasets from each
 * generator and from a file, and the one-line errors of bad parameters, files and rules
 * files; cpu and cpu-mt against the reference, and what the comparison says of a
 * difference; the facts of a GPU answer and of a multigpu one; multigpu refusing more
 * GPUs than the run has and an unresolved block; the work of an execution; `dmbench mine rules` end to end, its
 * CSV against rl_result_write's and a hand count, and its bad flags. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_fixture.h"
#include "point_set.h"
#include "card_choices.h"
#include "registry.h"
#include "rules/rl_workload.h"

/* A table of five rows, numeric, categorical and a class, with a header. */
static const char small_csv[] = "x,y,colour,class\n"
                                "1,0.5,red,1\n"
                                "2,1.5,blue,0\n"
                                "3,2.5,red,1\n"
                                "4,3.5,green,0\n"
                                "5,4.5,red,1\n";
/* Two rules on it, counted by hand below. */
static const char small_rules[] = "# two rules\n"
                                  "IF x <= 3 AND colour = red THEN class = 1\n"
                                  "IF y in [1, 4] OR NOT colour = blue THEN class = 0\n";

static const dm_workload *rules(void)
{
    dm_err err = {0};
    const dm_workload *w = registry_workload("rules", &err);
    if (!w)
        fail_msg("%s", err.msg);
    return w;
}

/* variant's point at the defaults. */
static void point(const char *variant, dm_point *pt)
{
    point_with("rules", variant, NULL, 0, pt);
}

/* Opens generator's (or, when path is set, the file's) dataset for pt into ds. Returns
 * as dataset_open, err set. */
static int open_ds(const char *generator, const char *path, const dm_point *pt, dm_dataset *ds,
                   dm_err *err)
{
    dm_data_source src = {0};
    snprintf(src.generator, sizeof src.generator, "%s", generator ? generator : "");
    snprintf(src.path, sizeof src.path, "%s", path ? path : "");
    return rules()->dataset_open(&src, pt, ds, err);
}

/* Fails unless msg is one line holding every one of the NULL-ended words. */
static void one_line_naming(const char *msg, ...)
{
    va_list ap;
    va_start(ap, msg);
    if (strchr(msg, '\n'))
        fail_msg("not one line: %s", msg);
    for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
        if (!strstr(msg, w))
            fail_msg("'%s' does not name %s", msg, w);
    va_end(ap);
}

static void generators_make_their_tables_by_seed(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset a, b, c;
    dm_err err = {0};
    point("cpu", &pt);
    dm_point_set_int(&pt, "instances", 300);
    dm_point_set_int(&pt, "attributes", 4);
    assert_int_equal(open_ds("synthetic", NULL, &pt, &a, &err), 0);
    const rl_table *t = a.data;
    assert_int_equal(t->n, 300);
    assert_int_equal(t->ncols, 4);
    assert_string_equal(a.name, "synthetic");
    assert_int_equal(a.size_bytes, 300 * 4 * 8);
    assert_string_equal(a.params, "instances=300,attributes=4,seed=1");
    assert_int_equal(open_ds("synthetic", NULL, &pt, &b, &err), 0);
    assert_string_equal(a.hash, b.hash);
    dm_point_set_int(&pt, "seed", 2);
    assert_int_equal(open_ds("synthetic", NULL, &pt, &c, &err), 0);
    assert_string_not_equal(a.hash, c.hash);
    rules()->dataset_close(&a);
    rules()->dataset_close(&b);
    rules()->dataset_close(&c);

    /* poker: S1, C1, ..., S5, C5, CLASS, whatever attributes says */
    assert_int_equal(open_ds("poker", NULL, &pt, &a, &err), 0);
    t = a.data;
    assert_int_equal(t->n, 300);
    assert_int_equal(t->ncols, 11);
    assert_string_equal(t->cols[0].name, "S1");
    assert_string_equal(t->cols[10].name, "CLASS");
    assert_string_equal(a.name, "poker");
    rules()->dataset_close(&a);
}

static void a_file_is_read_as_its_table(void **state)
{
    fixture *f = *state;
    char path[160];
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    snprintf(path, sizeof path, "%s/small.csv", f->dir);
    write_file(path, small_csv);
    point("cpu", &pt);
    assert_int_equal(open_ds(NULL, path, &pt, &ds, &err), 0);
    const rl_table *t = ds.data;
    assert_int_equal(t->n, 5);
    assert_int_equal(t->ncols, 4);
    assert_int_equal(t->cols[2].kind, RL_CATEGORICAL);
    assert_int_equal(t->cols[2].nlevels, 3);
    assert_string_equal(ds.name, "small.csv");
    assert_string_equal(ds.path, path);
    assert_int_equal(ds.size_bytes, 5 * (3 * 8 + 4)); /* three numbers and a code a row */
    assert_int_equal(strlen(ds.hash), 16);
    rules()->dataset_close(&ds);
}

static void bad_data_and_rules_are_one_line_errors_naming_them(void **state)
{
    fixture *f = *state;
    char path[160], ragged[160], bad_rules[160], data[160];
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    point("cpu", &pt);
    dm_point_set_int(&pt, "instances", 50);

    assert_int_equal(open_ds("cards", NULL, &pt, &ds, &err), DM_EINPUT);
    one_line_naming(err.msg, "'cards'", "synthetic, poker", NULL);
    snprintf(path, sizeof path, "%s/none.csv", f->dir);
    assert_int_equal(open_ds(NULL, path, &pt, &ds, &err), DM_EINPUT);
    one_line_naming(err.msg, path, NULL);
    snprintf(ragged, sizeof ragged, "%s/ragged.csv", f->dir);
    write_file(ragged, "x,y\n1,2\n3\n");
    assert_int_equal(open_ds(NULL, ragged, &pt, &ds, &err), DM_EINPUT);
    one_line_naming(err.msg, ":3:", "1 field, expected 2", NULL);

    /* a rules file the table cannot have: the reference names the file and the line */
    snprintf(data, sizeof data, "%s/small.csv", f->dir);
    write_file(data, small_csv);
    snprintf(bad_rules, sizeof bad_rules, "%s/bad.txt", f->dir);
    write_file(bad_rules, "IF x <= 3 THEN class = 1\nIF z > 1 THEN class = 0\n");
    dm_point_set_str(&pt, "rules_file", bad_rules);
    assert_int_equal(open_ds(NULL, data, &pt, &ds, &err), 0);
    void *ref = NULL;
    assert_int_equal(rules()->reference(&ds, &pt, &ref, &err), DM_EINPUT);
    one_line_naming(err.msg, "bad.txt:2:", "z", NULL);
    assert_null(ref);
    snprintf(path, sizeof path, "%s/missing.txt", f->dir);
    dm_point_set_str(&pt, "rules_file", path);
    assert_int_equal(rules()->reference(&ds, &pt, &ref, &err), DM_EINPUT);
    one_line_naming(err.msg, path, NULL);
    rules()->dataset_close(&ds);

    /* a parameter out of its range names it */
    dm_value v;
    const dm_param_spec *spec = registry_param(rules(), NULL, "symbols");
    assert_int_equal(dm_value_parse(spec, "1", &v, &err), DM_EINPUT);
    one_line_naming(err.msg, "symbols", NULL);
}

/* variant v at pt on ds, run twice; each output must equal ref. */
static void run_matches(const char *variant, const dm_point *pt, const dm_dataset *ds,
                        const void *ref)
{
    dm_err err = {0};
    dm_exec ex = {0};
    void *st;
    const void *out;
    char why[1024];
    if (pt->variant->setup(&ex, ds, pt, &st, &err))
        fail_msg("%s: setup: %s", variant, err.msg);
    for (int rep = 0; rep < 2; rep++) {
        if (pt->variant->run(st, &err) || pt->variant->output(st, &out, &err))
            fail_msg("%s: %s", variant, err.msg);
        if (rules()->compare(ref, out, pt, why, sizeof why))
            fail_msg("%s: %s", variant, why);
    }
    pt->variant->teardown(st);
}

/* cpu and cpu-mt (every core, and 2, 3, 64 threads) equal the reference on
 * both generators, with rules long and short. */
static void cpu_variants_equal_the_reference(void **state)
{
    (void)state;
    static const char *const gens[] = {"synthetic", "poker"};
    static const int symbols[] = {2, 58, 201};
    static const int threads[] = {0, 2, 3, 64};
    for (int g = 0; g < 2; g++)
        for (int s = 0; s < 3; s++) {
            dm_point pt;
            dm_dataset ds;
            dm_err err = {0};
            void *ref;
            point("cpu", &pt);
            dm_point_set_int(&pt, "instances", 70001); /* not a whole number of blocks */
            dm_point_set_int(&pt, "rules", 13);
            dm_point_set_int(&pt, "symbols", symbols[s]);
            dm_point_set_int(&pt, "rule_seed", 10 + s);
            assert_int_equal(open_ds(gens[g], NULL, &pt, &ds, &err), 0);
            if (rules()->reference(&ds, &pt, &ref, &err))
                fail_msg("%s: %s", gens[g], err.msg);
            run_matches("cpu", &pt, &ds, ref);
            for (int k = 0; k < 4; k++) {
                dm_point mt;
                point("cpu-mt", &mt);
                for (int i = 0; i < pt.nparams; i++)
                    mt.values[i] = pt.values[i]; /* same dataset and problem, first */
                dm_point_set_int(&mt, "threads", threads[k]);
                run_matches("cpu-mt", &mt, &ds, ref);
            }
            rules()->reference_free(ref);
            rules()->dataset_close(&ds);
        }
}

/* The GPU variants refuse a per_thread the coverage kernel is not built for (3, 5-31),
 * saying so, and take 1, 2, 4 and 32. */
static void gpu_variants_take_one_two_four_or_32_instances_a_thread(void **state)
{
    (void)state;
    static const char *const gpu[] = {"serial", "concurrent", "multigpu"};
    for (int g = 0; g < 3; g++) {
        dm_err err = {0};
        const dm_variant *v = registry_variant(rules(), gpu[g], &err);
        assert_non_null(v);
        for (int k = 1; k <= 32; k++) {
            dm_point pt;
            char why[256] = "", name[32];
            point(gpu[g], &pt);
            dm_point_set_int(&pt, "per_thread", k);
            int built = k == 1 || k == 2 || k == 4 || k == 32;
            assert_int_equal(v->supports(&pt, NULL, why, sizeof why) != 0, !built);
            snprintf(name, sizeof name, "per_thread %d", k);
            if (!built)
                one_line_naming(why, name, "1, 2, 4 or 32", NULL);
        }
    }
}

/* The comparison names the first difference: a count, a token's support, a measure. */
static void compare_names_the_first_difference(void **state)
{
    fixture *f = *state;
    char data[160], rfile[160], why[1024];
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    void *ref;
    snprintf(data, sizeof data, "%s/small.csv", f->dir);
    write_file(data, small_csv);
    snprintf(rfile, sizeof rfile, "%s/r.txt", f->dir);
    write_file(rfile, small_rules);
    point("cpu", &pt);
    dm_point_set_str(&pt, "rules_file", rfile);
    assert_int_equal(open_ds(NULL, data, &pt, &ds, &err), 0);
    assert_int_equal(rules()->reference(&ds, &pt, &ref, &err), 0);
    const rl_answer *r = ref;
    assert_int_equal(r->res.nrules, 2);
    assert_int_equal(rules()->compare(ref, ref, &pt, why, sizeof why), 0);

    /* a copy of the answer, changed one place at a time */
    rl_rule_result rule[2];
    int64_t tok[64];
    assert_true(r->res.ntok <= 64);
    rl_answer o = *r;
    o.res.rule = rule;
    o.res.tok_support = tok;
    memcpy(rule, r->res.rule, sizeof rule);
    memcpy(tok, r->res.tok_support, (size_t)r->res.ntok * sizeof *tok);
    rule[1].n_anc++;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_string_equal(why, "rule 2 (IF y in [1, 4] OR NOT colour = blue THEN class = 0): "
                             "n(A not C) 4, expected 3");
    rule[1].n_anc--;
    tok[1]++; /* rule 1's second token, colour = red: 3 rows */
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_string_equal(why, "rule 1 (IF x <= 3 AND colour = red THEN class = 1): token 2 "
                             "holds on 4 instances, expected 3");
    tok[1]--;
    rule[0].lift = 1.5;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_non_null(strstr(why, "rule 1 (IF x <= 3 AND colour = red THEN class = 1): lift 1.5, "
                                "expected 1.66666"));
    rule[0].lift = r->res.rule[0].lift;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 0);
    /* measures: RL_MEASURE_ULPS units in the last place either way match, one more does
     * not; -0 is 0; NaN and infinity match only themselves */
    for (int k = 0; k < RL_MEASURE_ULPS; k++)
        rule[0].lift = nextafter(rule[0].lift, 2.0);
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 0);
    rule[0].lift = nextafter(rule[0].lift, 2.0);
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_non_null(strstr(why, "rule 1 (IF x <= 3 AND colour = red THEN class = 1): lift "));
    rule[0].lift = r->res.rule[0].lift;
    assert_true(r->res.rule[1].leverage == 0);
    for (int k = 0; k < RL_MEASURE_ULPS; k++)
        rule[1].leverage = nextafter(rule[1].leverage, -1.0);
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 0);
    rule[1].leverage = -0.0;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 0);
    rule[1].leverage = nextafter(0.0, 1.0) * (RL_MEASURE_ULPS + 1);
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    rule[1].leverage = r->res.rule[1].leverage;
    assert_true(isinf(r->res.rule[0].conviction));
    rule[0].conviction = DBL_MAX;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_non_null(strstr(why, "conviction 1.797"));
    rule[0].conviction = r->res.rule[0].conviction;
    rule[1].confidence = NAN;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_non_null(strstr(why, "confidence nan, expected 0.4"));
    rule[1].confidence = r->res.rule[1].confidence;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 0);
    o.res.n = 6;
    assert_int_equal(rules()->compare(ref, &o, &pt, why, sizeof why), 1);
    assert_string_equal(why, "6 instances, 2 rules, 9 tokens; expected 5, 2, 9");
    rules()->reference_free(ref);
    rules()->dataset_close(&ds);
}

/* facts: none for a CPU answer; a GPU answer's five stages, their sum, its total and
 * chunks, in group "stages". */
static void facts_are_a_gpu_answers_stages(void **state)
{
    (void)state;
    dm_fact f[DM_MAX_FACTS];
    dm_point pt;
    point("cpu", &pt);
    rl_answer a = {0};
    assert_int_equal(rules()->facts(&a, &pt, f, DM_MAX_FACTS), 0);
    rl_stages st = {.s = {1e-6, 2e-3, 1e-3, 5e-4, 4e-5}, .total_s = 3e-3, .chunks = 4};
    a.stages = &st;
    static const char *const names[] = {"copy_in_s", "coverage_s", "reduction_s", "fitness_s",
                                        "copy_out_s", "stages_s", "total_s", "chunks"};
    const double values[] = {1e-6, 2e-3, 1e-3, 5e-4, 4e-5, 1e-6 + 2e-3 + 1e-3 + 5e-4 + 4e-5,
                             3e-3, 4};
    assert_int_equal(rules()->facts(&a, &pt, f, DM_MAX_FACTS), 8);
    for (int k = 0; k < 8; k++) {
        assert_string_equal(f[k].group, "stages");
        assert_string_equal(f[k].name, names[k]);
        assert_true(f[k].value == values[k]);
        if (k < 7)
            assert_string_equal(f[k].unit, "s");
        else
            assert_null(f[k].unit);
    }
    assert_int_equal(rules()->facts(&a, &pt, f, 3), 3); /* as many as there is room for */
}

/* facts of a multigpu answer: the stages (each the largest among its GPUs), then group
 * "gpus" (the point's GPUs, the largest compute and transfer among them, the host's sum)
 * and a group per GPU (its slice's instances, compute, transfer and total), an idle GPU's
 * zero. */
static void facts_of_a_multigpu_answer_add_its_split(void **state)
{
    (void)state;
    dm_fact f[DM_MAX_FACTS];
    dm_point pt;
    point("multigpu", &pt);
    rl_split sp = {.gpus = 3, .instances = {2, 1, 0}, .sum_s = 2e-6};
    sp.stages[0] = (rl_stages){.s = {1e-6, 2e-3, 1e-3, 5e-4, 4e-5}, .total_s = 4e-3, .chunks = 2};
    sp.stages[1] = (rl_stages){.s = {3e-6, 1e-3, 2e-3, 1e-4, 2e-5}, .total_s = 3e-3, .chunks = 2};
    rl_stages most = {.s = {3e-6, 2e-3, 2e-3, 5e-4, 4e-5}, .total_s = 4e-3, .chunks = 2};
    rl_answer a = {.stages = &most, .split = &sp};
    static const struct {
        const char *group, *name;
        double value;
        int seconds;
    } want[] = {
        {"gpus", "gpus", 3, 0},
        {"gpus", "compute_s", 2e-3 + 1e-3 + 5e-4, 1},
        {"gpus", "transfer_s", 1e-6 + 4e-5, 1},
        {"gpus", "sum_s", 2e-6, 1},
        {"gpu 0", "instances", 2, 0},
        {"gpu 0", "compute_s", 2e-3 + 1e-3 + 5e-4, 1},
        {"gpu 0", "transfer_s", 1e-6 + 4e-5, 1},
        {"gpu 0", "total_s", 4e-3, 1},
        {"gpu 1", "instances", 1, 0},
        {"gpu 1", "compute_s", 1e-3 + 2e-3 + 1e-4, 1},
        {"gpu 1", "transfer_s", 3e-6 + 2e-5, 1},
        {"gpu 1", "total_s", 3e-3, 1},
        {"gpu 2", "instances", 0, 0},
        {"gpu 2", "compute_s", 0, 1},
        {"gpu 2", "transfer_s", 0, 1},
        {"gpu 2", "total_s", 0, 1},
    };
    const int nwant = (int)(sizeof want / sizeof *want);
    assert_int_equal(rules()->facts(&a, &pt, f, DM_MAX_FACTS), 8 + nwant);
    for (int k = 0; k < 8; k++)
        assert_string_equal(f[k].group, "stages");
    assert_true(f[1].value == 2e-3 && f[6].value == 4e-3);
    for (int k = 0; k < nwant; k++) {
        const dm_fact *x = &f[8 + k];
        if (strcmp(x->group, want[k].group) != 0 || strcmp(x->name, want[k].name) != 0 ||
            x->value != want[k].value)
            fail_msg("fact %d: %s %s %g, expected %s %s %g", 8 + k, x->group, x->name,
                     x->value, want[k].group, want[k].name, want[k].value);
        if (want[k].seconds)
            assert_string_equal(x->unit, "s");
        else
            assert_null(x->unit);
    }
}

/* multigpu's open block (its default, 0) takes, at expansion, the block chosen on the
 * card for its pipeline's variant at a slice's instances: this card's stored choice,
 * else that variant's default; a block the sweep sets stays. */
static void multigpu_takes_its_pipelines_block_for_a_slice(void **state)
{
    (void)state;
    dm_device dev = {.cc_major = 9, .cc_minor = 0, .max_threads_per_block = 1024};
    dm_point pt, slice;
    dm_err err = {0};
    char bucket[DM_KEY_MAX];
    snprintf(dev.name, sizeof dev.name, "NVIDIA Stand-In");
    point("multigpu", &pt);
    assert_string_equal(dm_point_str(&pt, "pipeline"), "bitmap");
    assert_int_equal(dm_point_int(&pt, "block"), 0);
    dm_point_set_int(&pt, "instances", 1000001);
    dm_point_set_int(&pt, "gpus", 2);
    dm_point sized = pt;
    card_choices_clear();
    pt.variant->resolve(&pt, &dev);
    point("bitmap", &slice);
    assert_int_equal(dm_point_int(&pt, "block"), dm_point_int(&slice, "block"));
    assert_non_null(strstr(pt.chosen, "bitmap's block at 500001 instances: bitmap's default"));
    /* a choice stored for bitmap at the slice's instances on this card */
    dm_point_set_int(&slice, "instances", 500001);
    tuned_bucket(&slice, "block", NULL, bucket, sizeof bucket);
    const dm_tuned mine = {"NVIDIA Stand-In", "9.0", "bitmap", "block", bucket, 640};
    assert_int_equal(card_choices_add_tuned(rules(), &mine, &err), 0);
    pt = sized;
    pt.variant->resolve(&pt, &dev);
    assert_int_equal(dm_point_int(&pt, "block"), 640);
    assert_non_null(strstr(pt.chosen, "this card, this bucket (stored)"));
    /* the concurrent pipeline has no choice stored: its default */
    pt = sized;
    dm_point_set_str(&pt, "pipeline", "concurrent");
    pt.variant->resolve(&pt, &dev);
    assert_non_null(strstr(pt.chosen, "concurrent's block at 500001 instances: concurrent's "
                                      "default"));
    /* a block set stays */
    pt = sized;
    dm_point_set_int(&pt, "block", 128);
    pt.variant->resolve(&pt, &dev);
    assert_int_equal(dm_point_int(&pt, "block"), 128);
    card_choices_clear();
}

/* multigpu refuses, before it touches a GPU, a point asking for more GPUs than the run
 * has (one GPU when the run lists none, ex->device alone, else those listed), and a block
 * left at 0, its open value, by a caller that did not expand the point for a GPU (the
 * kernels' grids would divide by it). */
static void multigpu_refuses_more_gpus_than_the_run_has_or_block_0(void **state)
{
    (void)state;
    const dm_device dev[2] = {{.index = 0}, {.index = 1}};
    const dm_device *const gpus[2] = {&dev[0], &dev[1]};
    const struct {
        dm_exec ex;
        int ask;
        const char *msg;
    } cases[] = {
        {{.device = &dev[0]}, 2, "rules: the point asks for 2 GPUs, and the run has 1"},
        {{.device = &dev[0], .gpus = gpus, .ngpus = 2}, 3,
         "rules: the point asks for 3 GPUs, and the run has 2"},
        {{.device = &dev[0], .gpus = gpus, .ngpus = 2}, 2,
         "rules: block 0 was never resolved to a block size (a sweep expanded for a GPU "
         "chooses it): give one of 32 to 1024"},
    };
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    point("multigpu", &pt);
    assert_int_equal(dm_point_int(&pt, "block"), 0);
    dm_point_set_int(&pt, "instances", 10);
    assert_int_equal(open_ds("synthetic", NULL, &pt, &ds, &err), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        void *st = NULL;
        dm_point_set_int(&pt, "gpus", cases[i].ask);
        assert_int_equal(pt.variant->setup(&cases[i].ex, &ds, &pt, &st, &err), DM_EINPUT);
        assert_string_equal(err.msg, cases[i].msg);
        assert_null(st);
    }
    rules()->dataset_close(&ds);
}

/* work: the GP operations the evaluation counts for generated rules (58 a rule), the table
 * read once; no operations from a point with a rules file. */
static void work_counts_gp_operations(void **state)
{
    (void)state;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    void *ref;
    dm_work w = {0};
    point("cpu", &pt);
    dm_point_set_int(&pt, "instances", 2500);
    dm_point_set_int(&pt, "attributes", 7);
    dm_point_set_int(&pt, "rules", 50);
    assert_int_equal(open_ds("synthetic", NULL, &pt, &ds, &err), 0);
    assert_int_equal(rules()->reference(&ds, &pt, &ref, &err), 0);
    rules()->work(&pt, &ds, NULL, &w);
    assert_true(w.ops == 58.0 * 2500 * 50);
    assert_true(w.ops == (double)((const rl_answer *)ref)->res.gpops);
    assert_string_equal(w.ops_unit, "GPops");
    assert_true(w.bytes == (double)ds.size_bytes);
    rules()->reference_free(ref);
    dm_point_set_str(&pt, "rules_file", "r.txt");
    rules()->work(&pt, &ds, NULL, &w);
    assert_true(w.ops == 0 && w.ops_unit == NULL);
    rules()->dataset_close(&ds);
}

/* The CSV rl_result_write gives for the rules of rfile on the table of data. */
static char *expected_csv(const char *data, const char *rfile)
{
    rl_table t;
    rl_ruleset rs = {0};
    rl_result res;
    dm_err err = {0};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(rl_table_load(data, NULL, &t, &err), 0);
    assert_int_equal(rl_rules_load(rfile, &t, &rs, &err), 0);
    assert_int_equal(rl_evaluate(&t, &rs, 1, &res, &err), 0);
    FILE *m = open_memstream(&text, &len);
    assert_int_equal(rl_result_write(&res, &rs, &t, m, &err), 0);
    fclose(m);
    rl_result_free(&res);
    rl_ruleset_free(&rs);
    rl_table_free(&t);
    return text;
}

/* `dmbench mine rules --data FILE --rules FILE`: a row per rule, as rl_result_write
 * writes it, counted as by hand; generated rules with --generate and --seed. */
static void mine_writes_a_row_per_rule(void **state)
{
    fixture *f = *state;
    char data[160], rfile[160], out[160];
    snprintf(data, sizeof data, "%s/small.csv", f->dir);
    write_file(data, small_csv);
    snprintf(rfile, sizeof rfile, "%s/r.txt", f->dir);
    write_file(rfile, small_rules);
    snprintf(out, sizeof out, "%s/out.csv", f->dir);
    assert_int_equal(dmbench(f, "mine rules --variant cpu --data %s --rules %s --out %s", data,
                             rfile, out), 0);
    char *want = expected_csv(data, rfile);
    assert_string_equal(slurp(out), want);
    free(want);
    /* by hand: rule 1 covers rows 1 and 3, both class 1 of the three (conviction +inf);
     * rule 2 covers all five, class 0 on two */
    assert_string_equal(slurp(out),
                        "rule,n_ac,n_anc,n_nac,n_nanc,support,confidence,lift,leverage,"
                        "conviction\n"
                        "\"IF x <= 3 AND colour = red THEN class = 1\",2,0,1,2,0.4,1,"
                        "1.6666666666666667,0.16000000000000003,inf\n"
                        "\"IF y in [1, 4] OR NOT colour = blue THEN class = 0\",2,3,0,0,0.4,"
                        "0.4,1,0,1\n");
    assert_non_null(strstr(slurp(f->errf), "verified against the CPU reference"));

    /* cpu-mt on generated rules: as many rows, the same as cpu's */
    assert_int_equal(dmbench(f, "mine rules --variant cpu-mt -p threads=2 -p instances=3000 "
                                "--generate 7 --seed 5 --out %s", out), 0);
    char first[8192];
    snprintf(first, sizeof first, "%s", slurp(out));
    assert_int_equal(count_lines(first), 8);
    assert_int_equal(dmbench(f, "mine rules --variant cpu --generator poker -p instances=3000 "
                                "--generate 7 --seed 5 --out %s", out), 0);
    assert_int_equal(count_lines(slurp(out)), 8);
    assert_string_not_equal(slurp(out), first); /* another table, other rules */
    assert_int_equal(dmbench(f, "mine rules --variant cpu -p instances=3000 --generate 7 "
                                "--seed 5 --out %s", out), 0);
    assert_string_equal(slurp(out), first);
}

/* Bad flags and inputs: exit 2, one line naming the problem, no --out file. */
static void mine_refuses_bad_input_in_one_line(void **state)
{
    fixture *f = *state;
    char data[160], bad[160], out[160];
    snprintf(data, sizeof data, "%s/small.csv", f->dir);
    write_file(data, small_csv);
    snprintf(bad, sizeof bad, "%s/bad.txt", f->dir);
    write_file(bad, "IF x <= 3 AND THEN class = 1\n");
    snprintf(out, sizeof out, "%s/out.csv", f->dir);
    /* each args is a format given the folder twice */
    const struct {
        const char *args, *says;
    } cases[] = {
        {"--data %s/small.csv --rules %s/none.txt", "none.txt: cannot open"},
        {"--data %s/small.csv --rules %s/bad.txt",
         "bad.txt:1:15: expected a condition, got keyword 'THEN'"},
        {"-p instances=100 --generate 0", "rules=0 is out of range"},
        {"-p instances=100 --seed x", "rule_seed=x: expected an integer"},
        {"--data %s/none.csv", "none.csv"},
        {"--generator cards", "rules has no generator 'cards'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, cases[i].args, f->dir, f->dir);
        int rc = dmbench(f, "mine rules --variant cpu %s --out %s", args, out);
        const char *said = slurp(f->errf);
        if (rc != 2 || count_lines(said) != 1 || !strstr(said, cases[i].says))
            fail_msg("mine rules %s: exit %d, said: %s", args, rc, said);
        assert_false(exists(out));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generators_make_their_tables_by_seed),
        cmocka_unit_test_setup_teardown(a_file_is_read_as_its_table, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_data_and_rules_are_one_line_errors_naming_them,
                                        setup, teardown),
        cmocka_unit_test(cpu_variants_equal_the_reference),
        cmocka_unit_test(gpu_variants_take_one_two_four_or_32_instances_a_thread),
        cmocka_unit_test_setup_teardown(compare_names_the_first_difference, setup, teardown),
        cmocka_unit_test(facts_are_a_gpu_answers_stages),
        cmocka_unit_test(facts_of_a_multigpu_answer_add_its_split),
        cmocka_unit_test(multigpu_refuses_more_gpus_than_the_run_has_or_block_0),
        cmocka_unit_test(multigpu_takes_its_pipelines_block_for_a_slice),
        cmocka_unit_test(work_counts_gp_operations),
        cmocka_unit_test_setup_teardown(mine_writes_a_row_per_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(mine_refuses_bad_input_in_one_line, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
