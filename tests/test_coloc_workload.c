/* test_coloc_workload.c - the coloc workload through its contract: datasets from the
 * generator and from files of both formats (detected), bad files, generators and
 * parameters refused by one line naming them; the CPU variants against the reference, the
 * comparison's message, the facts per pattern size; and what a user gets from `dmbench
 * mine coloc`: the CSV rows of a small planted set, --facts, bad flags exiting 2. */
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
#include "coloc/cl_workload.h"
#include "registry.h"

/* Six points of three features, IDs in neither numeric nor first-seen order: 7 and 3
 * twice together, 12 once with both (at distance <= 2 of each) and once far away. At
 * d = 2: {3,7} has PI 1; {7,12}, {3,12} and {3,7,12} have PI 0.5. */
#define POINTS "7,1,1\n3,2,1\n12,1,2\n7,50,50\n3,51,50\n12,90,90\n"
#define SEATTLE_TEXT "6\n" POINTS "\n0,0,100,100\n"
#define CSV_TEXT "feature,x,y\n" POINTS
#define ROWS_AT_HALF "size,features,pi\n2,3+7,1\n2,7+12,0.5\n2,3+12,0.5\n3,3+7+12,0.5\n"

static const dm_workload *coloc(void)
{
    dm_err err = { 0 };
    const dm_workload *w = registry_workload("coloc", &err);
    assert_non_null(w);
    return w;
}

/* The point of variant with "name=value" settings over its defaults. */
static void variant_point(const char *variant, dm_point *pt, const char *const *set, int n)
{
    point_with("coloc", variant, set, n, pt);
}

/* Opens the dataset of path ("" for the generator synthetic) for pt. */
static int open_data(const char *path, const dm_point *pt, dm_dataset *ds, dm_err *err)
{
    dm_data_source src = { 0 };
    if (path[0])
        snprintf(src.path, sizeof src.path, "%s", path);
    else
        snprintf(src.generator, sizeof src.generator, "synthetic");
    return cl_dataset_open(&src, pt, ds, err);
}

/* Runs variant on ds for pt: its answer compared with ref (0: equal, else why), and its
 * CSV into csv (of size n) when csv is not NULL. */
static int run_variant(const char *variant, const dm_dataset *ds, const dm_point *pt,
                       const void *ref, char *why, size_t nwhy, char *csv, size_t n)
{
    const dm_variant *v = registry_variant(coloc(), variant, NULL);
    const dm_exec ex = { 0 };
    dm_err err = { 0 };
    void *st;
    const void *out;
    assert_non_null(v);
    if (v->setup(&ex, ds, pt, &st, &err) || v->run(st, &err) || v->output(st, &out, &err))
        fail_msg("%s: %s", variant, err.msg);
    int rc = cl_compare(ref, out, pt, why, nwhy);
    if (csv) {
        FILE *f = fmemopen(csv, n, "w");
        assert_non_null(f);
        assert_int_equal(cl_write_result(out, pt, f, &err), 0);
        fclose(f);
    }
    v->teardown(st);
    return rc;
}

/* Writes text to the fixture's dir/name; the path into path. */
static void write_in(const fixture *f, const char *name, const char *text, char *path,
                     size_t n)
{
    snprintf(path, n, "%s/%s", f->dir, name);
    write_file(path, text);
}

/* ---- datasets ---- */

static void both_formats_open_to_the_same_points_and_answer(void **state)
{
    fixture *f = *state;
    const char *const set[] = { "distance=2", "prevalence=0.5" };
    char seattle[160], csv[160], why[512], text[4][1024];
    const char *paths[2] = { seattle, csv };
    write_in(f, "s.txt", SEATTLE_TEXT, seattle, sizeof seattle);
    write_in(f, "p.csv", CSV_TEXT, csv, sizeof csv);
    dm_point pt;
    variant_point("cpu-mt", &pt, set, 2);
    for (int i = 0; i < 2; i++) {
        dm_dataset ds;
        dm_err err = { 0 };
        void *ref;
        if (open_data(paths[i], &pt, &ds, &err))
            fail_msg("%s: %s", paths[i], err.msg);
        const cl_points *p = ds.data;
        assert_int_equal(p->n, 6);
        assert_int_equal(p->nfeat, 3);
        assert_string_equal(p->names[0], "7");
        assert_string_equal(ds.path, paths[i]);
        assert_string_equal(ds.name, i ? "p.csv" : "s.txt");
        assert_int_equal(ds.size_bytes, 6 * 16);
        /* the Seattle box is read, the CSV's is the points' extent */
        assert_true(p->maxx == (i ? 90 : 100));
        assert_int_equal(cl_reference(&ds, &pt, &ref, &err), 0);
        assert_int_equal(run_variant("cpu", &ds, &pt, ref, why, sizeof why, text[2 * i],
                                     sizeof text[0]), 0);
        assert_int_equal(run_variant("cpu-mt", &ds, &pt, ref, why, sizeof why,
                                     text[2 * i + 1], sizeof text[0]), 0);
        cl_reference_free(ref);
        cl_dataset_close(&ds);
    }
    for (int i = 0; i < 4; i++)
        assert_string_equal(text[i], ROWS_AT_HALF);
}

/* The generator is deterministic by seed, and its planted maximal patterns come out
 * prevalent with PI 1. */
static void synthetic_is_deterministic_and_plants_patterns(void **state)
{
    (void)state;
    const char *const set[] = { "instances=2000", "area=1000", "max_size=3",
                                "prevalence=0.9" };
    dm_point pt;
    dm_dataset a, b;
    dm_err err = { 0 };
    void *ref;
    variant_point("cpu", &pt, set, 4);
    assert_int_equal(open_data("", &pt, &a, &err), 0);
    assert_int_equal(open_data("", &pt, &b, &err), 0);
    assert_string_equal(a.name, "synthetic");
    assert_string_equal(a.hash, b.hash);
    assert_non_null(strstr(a.params, "instances=2000"));
    assert_int_equal(((const cl_points *)a.data)->nfeat, 8); /* 2 x 3 + 2 noise */
    cl_dataset_close(&b);
    const char *const seed2[] = { "instances=2000", "area=1000", "max_size=3", "seed=2" };
    variant_point("cpu", &pt, seed2, 4);
    assert_int_equal(open_data("", &pt, &b, &err), 0);
    assert_string_not_equal(a.hash, b.hash);
    cl_dataset_close(&b);

    variant_point("cpu", &pt, set, 4);
    assert_int_equal(cl_reference(&a, &pt, &ref, &err), 0);
    char csv[4096], why[512];
    assert_int_equal(run_variant("cpu", &a, &pt, ref, why, sizeof why, csv, sizeof csv), 0);
    assert_non_null(strstr(csv, "\n3,1+2+3,1\n"));
    assert_non_null(strstr(csv, "\n3,4+5+6,1\n"));
    assert_int_equal(count_lines(csv), 1 + 2 * 4); /* every subset of each, sizes 2 and 3 */
    cl_reference_free(ref);
    cl_dataset_close(&a);
}

/* Opening path (NULL: generator) for cpu's point with set fails with DM_EINPUT and one
 * line holding says. */
static void open_fails(const char *path, const char *generator, const char *const *set,
                       int n, const char *says)
{
    dm_point pt;
    dm_dataset ds;
    dm_err err = { 0 };
    dm_data_source src = { 0 };
    variant_point("cpu", &pt, set, n);
    snprintf(src.path, sizeof src.path, "%s", path ? path : "");
    snprintf(src.generator, sizeof src.generator, "%s", path ? "" : generator);
    if (cl_dataset_open(&src, &pt, &ds, &err) != DM_EINPUT || !strstr(err.msg, says) ||
        strchr(err.msg, '\n'))
        fail_msg("%s: said (%d) '%s', expected one line with '%s'", path ? path : generator,
                 err.code, err.msg, says);
}

static void bad_files_and_generators_are_named(void **state)
{
    fixture *f = *state;
    char path[160], says[256];
    write_in(f, "count.txt", "5\n7,1,1\n\n0,0,1,1\n", path, sizeof path);
    snprintf(says, sizeof says, "%s:", path);
    open_fails(path, NULL, NULL, 0, says);
    write_in(f, "bad.csv", "7,1,1\n7,1,x\n", path, sizeof path);
    snprintf(says, sizeof says, "%s:2:5: field 3 'x' is not a number", path);
    open_fails(path, NULL, NULL, 0, says);
    write_in(f, "outside.txt", "1\n7,5,5\n\n0,0,1,1\n", path, sizeof path);
    snprintf(says, sizeof says, "%s:2: point (5, 5) lies outside the bounding box", path);
    open_fails(path, NULL, NULL, 0, says);
    snprintf(path, sizeof path, "%s/none.csv", f->dir);
    snprintf(says, sizeof says, "%s: cannot open", path);
    open_fails(path, NULL, NULL, 0, says);
    open_fails(NULL, "random", NULL, 0,
               "coloc has no generator 'random'; the generators are: synthetic");
    const char *const big[] = { "patterns=32", "max_size=16" };
    open_fails(NULL, "synthetic", big, 2, "coloc generator synthetic: 514 features");
}

/* ---- variants ---- */

static void cpu_variants_equal_the_reference(void **state)
{
    (void)state;
    const char *const cases[][4] = {
        { "instances=3000", "area=400", "clumpiness=3", "prevalence=0.3" },
        { "instances=3000", "area=400", "noise_features=6", "prevalence=0.1" },
        { "instances=1000", "area=300", "max_size=4", "prevalence=0.6" },
    };
    const char *const mt[] = { "filter=C", "filter=M", "filter=none", "threads=1",
                               "threads=3" };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        dm_point pt;
        dm_dataset ds;
        dm_err err = { 0 };
        void *ref;
        char why[512];
        variant_point("cpu", &pt, cases[c], 4);
        assert_int_equal(open_data("", &pt, &ds, &err), 0);
        assert_int_equal(cl_reference(&ds, &pt, &ref, &err), 0);
        if (run_variant("cpu", &ds, &pt, ref, why, sizeof why, NULL, 0))
            fail_msg("case %zu cpu: %s", c, why);
        for (size_t m = 0; m < sizeof mt / sizeof mt[0]; m++) {
            const char *set[5] = { cases[c][0], cases[c][1], cases[c][2], cases[c][3], mt[m] };
            variant_point("cpu-mt", &pt, set, 5);
            if (run_variant("cpu-mt", &ds, &pt, ref, why, sizeof why, NULL, 0))
                fail_msg("case %zu cpu-mt %s: %s", c, mt[m], why);
        }
        cl_reference_free(ref);
        cl_dataset_close(&ds);
    }
}

/* The facts of r (cl_facts) add up to its candidates: per size the candidates, pruned,
 * prevalent and rows are those of r's candidates of that size; the phases' times are not
 * negative and sum to at most the whole call's; the CPU miner's have no device costs. */
static const char *const cpu_fact_names[] = { "candidates", "pruned", "prevalent", "rows",
                                               "filter_s", "refine_s", "host_s" };

static void assert_facts_add_up(const cl_result *r)
{
    dm_fact facts[DM_MAX_FACTS];
    dm_point pt = { 0 };
    cl_answer a = { .r = *r };
    int n = cl_facts(&a, &pt, facts, DM_MAX_FACTS);
    double phases = 0, wall = -1;
    int64_t seen = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(facts[i].group, "all") == 0) {
            wall = facts[i].value;
            continue;
        }
        int size = atoi(facts[i].group + strlen("size "));
        double want = 0;
        for (int64_t j = 0; j < r->ncand; j++) {
            const cl_candidate *c = &r->cand[j];
            if (c->size != size)
                continue;
            want += strcmp(facts[i].name, "candidates") == 0 ? 1
                    : strcmp(facts[i].name, "pruned") == 0    ? c->pruned
                    : strcmp(facts[i].name, "prevalent") == 0 ? c->prevalent
                    : strcmp(facts[i].name, "rows") == 0      ? (double)c->rows
                                                              : 0;
        }
        if (facts[i].unit) {
            assert_true(facts[i].value >= 0);
            phases += facts[i].value;
        } else {
            assert_true(facts[i].value == want);
        }
        seen += strcmp(facts[i].name, "candidates") == 0 ? (int64_t)facts[i].value : 0;
        int known = 0; /* no device costs */
        for (size_t k = 0; k < sizeof cpu_fact_names / sizeof *cpu_fact_names; k++)
            known |= strcmp(facts[i].name, cpu_fact_names[k]) == 0;
        assert_true(known);
    }
    assert_true(seen == r->ncand);
    assert_true(wall >= phases);
}

/* The comparison names the first pattern that differs; the facts give each size's
 * candidates, pruned and prevalent patterns, rows, and the three phases' times, and add
 * up to the answer's candidates. */
static void compare_and_facts(void **state)
{
    fixture *f = *state;
    const char *const half[] = { "distance=2", "prevalence=0.5" };
    const char *const more[] = { "distance=2", "prevalence=0.6" };
    char path[160], why[512];
    write_in(f, "p.csv", CSV_TEXT, path, sizeof path);
    dm_point pt;
    dm_dataset ds;
    dm_err err = { 0 };
    void *ref, *strict;
    variant_point("cpu", &pt, more, 2);
    assert_int_equal(open_data(path, &pt, &ds, &err), 0);
    assert_int_equal(cl_reference(&ds, &pt, &strict, &err), 0);
    variant_point("cpu", &pt, half, 2);
    assert_int_equal(cl_reference(&ds, &pt, &ref, &err), 0);
    assert_int_equal(cl_compare(strict, ref, &pt, why, sizeof why), 1);
    assert_string_equal(why, "prevalent pattern 2: none against 0+2");
    assert_int_equal(cl_compare(ref, ref, &pt, why, sizeof why), 0);

    dm_fact facts[DM_MAX_FACTS];
    int n = cl_facts(ref, &pt, facts, DM_MAX_FACTS);
    assert_int_equal(n, 2 * 7 + 1); /* sizes 2 and 3, then the whole call's wall time */
    assert_string_equal(facts[0].group, "size 2");
    for (int i = 0; i < 7; i++) {
        assert_string_equal(facts[i].name, cpu_fact_names[i]);
        assert_string_equal(facts[7 + i].name, cpu_fact_names[i]);
        assert_true(i < 4 ? facts[i].unit == NULL : strcmp(facts[i].unit, "s") == 0);
    }
    assert_true(facts[0].value == 3 && facts[1].value == 0 && facts[2].value == 3);
    assert_string_equal(facts[7].group, "size 3");
    assert_true(facts[7].value == 1 && facts[9].value == 1);
    assert_string_equal(facts[14].group, "all");
    assert_string_equal(facts[14].name, "wall_s");
    assert_int_equal(cl_facts(ref, &pt, facts, 4), 4);
    assert_facts_add_up(&((const cl_answer *)ref)->r);
    cl_reference_free(strict);
    cl_reference_free(ref);
    cl_dataset_close(&ds);
}

/* On the generator's planted patterns, with every filter, on one thread and on all
 * cores, the facts add up to the answer: per size its candidates, pruned, prevalent and
 * rows, the phases within the whole call's time. */
static void facts_add_up_on_generated(void **state)
{
    (void)state;
    cl_gen_params g;
    cl_gen_defaults(&g);
    g.instances = 3000;
    g.area = 600;
    cl_points p;
    dm_err err = { 0 };
    assert_int_equal(cl_generate(&g, &p, NULL, &err), 0);
    for (int filter = CL_FILTER_NONE; filter <= CL_FILTER_CELLAGG; filter++)
        for (int threads = 0; threads <= 1; threads++) {
            cl_mine_opts o = { .distance = 10, .prevalence = 0.3, .filter = (cl_filter)filter,
                               .threads = threads };
            cl_result r;
            assert_int_equal(cl_mine(&p, &o, &r, &err), 0);
            assert_true(r.nlevels >= 4); /* the planted patterns of 5 */
            assert_false(r.on_device);
            assert_facts_add_up(&r);
            cl_result_free(&r);
        }
    cl_points_free(&p);
}

/* ---- dmbench mine coloc ---- */

static void mine_writes_size_features_pi_rows(void **state)
{
    fixture *f = *state;
    char data[160], out[160];
    write_in(f, "s.txt", SEATTLE_TEXT, data, sizeof data);
    snprintf(out, sizeof out, "%s/r.csv", f->dir);
    assert_int_equal(dmbench(f, "mine coloc --data %s --distance 2 --prevalence 0.5 "
                                "--variant cpu --out %s", data, out), 0);
    assert_string_equal(slurp(out), ROWS_AT_HALF);
    assert_int_equal(dmbench(f, "mine coloc --data %s --distance 2 --prevalence 0.6 "
                                "--variant cpu-mt -p filter=M --facts", data), 0);
    assert_string_equal(slurp(f->out), "size,features,pi\n2,3+7,1\n");
    const char *said = slurp(f->errf);
    /* M's coarse cells bound {7,12} and {3,12} by 0.5: pruned; no candidate of size 3 */
    assert_non_null(strstr(said, "# size 2: candidates 3, pruned 2, prevalent 1, rows "));
    assert_null(strstr(said, "size 3"));

    /* the generator: two planted patterns of 5 features, every subset prevalent */
    assert_int_equal(dmbench(f, "mine coloc --variant cpu-mt -p instances=2000 -p area=1000 "
                                "--prevalence 0.9"), 0);
    const char *csv = slurp(f->out);
    assert_non_null(strstr(csv, "\n5,1+2+3+4+5,1\n"));
    assert_non_null(strstr(csv, "\n5,6+7+8+9+10,1\n"));
    assert_int_equal(count_lines(csv), 1 + 2 * 26);
}

static void mine_refuses_bad_flags(void **state)
{
    fixture *f = *state;
    char data[160], out[160];
    write_in(f, "p.csv", CSV_TEXT, data, sizeof data);
    snprintf(out, sizeof out, "%s/bad.csv", f->dir);
    const struct {
        const char *args, *says;
    } bad[] = {
        { "--variant cpu --prevalence 1.5", "prevalence" },
        { "--variant cpu --prevalence high", "prevalence" },
        { "--variant cpu --distance 0", "distance" },
        { "--variant cpu --distance 2 --distance 3", "at most 1 --distance" },
        { "--variant cpu-mt -p filter=X", "filter" },
        { "--variant cpu --distance 0.001", "cells over the bounding box" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(dmbench(f, "mine coloc --data %s %s --out %s", data, bad[i].args,
                                 out), 2);
        const char *msg = slurp(f->errf);
        if (!strstr(msg, bad[i].says) || count_lines(msg) != 1)
            fail_msg("%s: '%s', expected one line with '%s'", bad[i].args, msg, bad[i].says);
        assert_false(exists(out));
    }
    assert_int_equal(dmbench(f, "mine coloc --variant cpu --data %s/none.csv", f->dir), 2);
    assert_non_null(strstr(slurp(f->errf), "none.csv: cannot open"));
    assert_int_equal(count_lines(slurp(f->errf)), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(both_formats_open_to_the_same_points_and_answer, setup,
                                        teardown),
        cmocka_unit_test(synthetic_is_deterministic_and_plants_patterns),
        cmocka_unit_test_setup_teardown(bad_files_and_generators_are_named, setup, teardown),
        cmocka_unit_test(cpu_variants_equal_the_reference),
        cmocka_unit_test_setup_teardown(compare_and_facts, setup, teardown),
        cmocka_unit_test(facts_add_up_on_generated),
        cmocka_unit_test_setup_teardown(mine_writes_size_features_pi_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(mine_refuses_bad_flags, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
