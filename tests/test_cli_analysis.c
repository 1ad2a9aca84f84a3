/* test_cli_analysis.c - the commands that read a results database, end to end on fixture
 * databases: `tune` picks the planted best block and writes it as text and JSON,
 * `crossover` finds the planted crossover of two variants, `characterize` judges a
 * planted run of the claims' sweep and writes markdown; bad workloads, options and
 * databases are one-line usage errors (exit 2). */
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
#include "kept.h"
#include "registry.h"
#include "store_fixture.h"
#include "tdm_fixture.h"

#define H100 "NVIDIA H100 80GB HBM3"
#define NS 20

/* The fixture: a database (afx) the commands read, and the cli fixture's files. */
typedef struct both {
    afx db;
    fixture *cli;
} both;

static int both_setup(void **state)
{
    both *b = calloc(1, sizeof *b);
    void *cli = NULL;
    *state = b;
    if (!b || afx_open(&b->db) != 0 || setup(&cli) != 0)
        return -1;
    b->cli = cli;
    return 0;
}

static int both_teardown(void **state)
{
    both *b = *state;
    void *cli = b->cli;
    int rc = afx_close(&b->db) | teardown(&cli);
    free(b);
    return rc;
}

/* Checks that "dmbench ARGS" exits 2 with one line on stderr containing says, the
 * database kept byte for byte (kept.h). */
static void usage_error(both *b, const char *args, const char *says)
{
    kept ks = { 0 };
    keep(&ks, 1, (const char *[]){ b->db.path });
    refused_keeping(b->cli, &ks, says, "%s", args);
    kept_free(&ks);
}

/* ---- a membw run: cpu n ns; kernel n/2 ns + c at block 128, and 20% slower at 256 ---- */

static int64_t membw_run(afx *f)
{
    dm_device dev = {.cc_major = 9, .sms = 132, .name = H100};
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = {.device = &dev, .workload = "membw", .sweep_name = "fixture",
                        .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = NAN,
                        .mem_clock_mhz_start = NAN};
    int64_t id = 0;
    dm_err err = {0};
    assert_int_equal(store_run_begin(f->st, &info, &id, &err), 0);
    return id;
}

static void membw_point(afx *f, int64_t run, int64_t idx, const char *variant, int64_t seed,
                        int64_t n, int64_t block, double t)
{
    const dm_workload *w = registry_workload("membw", NULL);
    const dm_variant *v = registry_variant(w, variant, NULL);
    dm_point pt;
    dm_err err = {0};
    double x[NS];
    assert_int_equal(registry_point_defaults(w, v, &pt, &err), 0);
    dm_point_set_int(&pt, "n", n);
    dm_point_set_int(&pt, "seed", seed);
    if (dm_point_get(&pt, "block"))
        dm_point_set_int(&pt, "block", block);
    afx_samples(x, NS, t, 0.002);
    afx_store_point(f, run, idx, &pt, x, NS);
}

/* Crossovers at n = 5000 + 10000/seed (15000, 10000, 7500): the fit a/N + b over seed is
 * exact, with a = 10000 and b = 5000. */
static const int64_t seeds[] = {1, 2, 4};

static void plant_membw(afx *f)
{
    int64_t run = membw_run(f), idx = 0;
    for (int s = 0; s < 3; s++) {
        double c = (5000.0 + 10000.0 / (double)seeds[s]) * 0.5e-9;
        for (int64_t n = 2000; n <= 20000; n += 2000) {
            double kernel = (double)n * 0.5e-9 + c;
            membw_point(f, run, idx++, "cpu", seeds[s], n, 0, (double)n * 1e-9);
            membw_point(f, run, idx++, "kernel", seeds[s], n, 128, kernel);
            membw_point(f, run, idx++, "kernel", seeds[s], n, 256, kernel * 1.2);
        }
    }
    dm_err err = {0};
    assert_int_equal(store_run_end(f->st, run, "complete", &err), 0);
}

/* How often what occurs in text. */
static int occurrences(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void test_tune_picks_the_planted_block(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    char json[160];
    plant_membw(&b->db);
    /* 30 buckets (n x seed), block 128 chosen in each: 256 is 20% slower */
    assert_int_equal(dmbench(f, "tune membw --db %s", b->db.path), 0);
    const char *out = slurp(f->out);
    assert_int_equal(count_lines(out), 1 + 30);
    assert_int_equal(occurrences(out, "  kernel  "), 30);
    assert_int_equal(occurrences(out, "    128  "), 30);
    assert_int_equal(occurrences(out, " 256 "), 0);
    /* JSON on stdout, or to a file with the table on stdout */
    assert_int_equal(dmbench(f, "tune membw --db %s --json -", b->db.path), 0);
    out = slurp(f->out);
    assert_non_null(strstr(out, "{\"workload\": \"membw\", \"axis\": \"block\","));
    assert_int_equal(out[0], '{');
    assert_int_equal(occurrences(out, "blocks_per_sm=0\", \"block\": 128, \"median\""), 30);
    snprintf(json, sizeof json, "%s/tune.json", f->dir);
    assert_int_equal(dmbench(f, "tune membw --db %s --json %s", b->db.path, json), 0);
    assert_int_equal(count_lines(slurp(f->out)), 1 + 30);
    assert_int_equal(occurrences(slurp(json), "blocks_per_sm=0\", \"block\": 128, \"median\""),
                     30);
    /* --explain shows the candidates the choice beat */
    assert_int_equal(dmbench(f, "tune membw --db %s --explain", b->db.path), 0);
    assert_true(occurrences(slurp(f->out), "256") >= 30);
}

static void test_tune_refuses_bad_input(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    char args[256];
    plant_membw(&b->db);
    usage_error(b, "tune", "expected one workload");
    snprintf(args, sizeof args, "tune nosuch --db %s", b->db.path);
    usage_error(b, args, "unknown workload 'nosuch'");
    snprintf(args, sizeof args, "tune membw --variant kernal --db %s", b->db.path);
    usage_error(b, args, "unknown variant 'kernal'");
    usage_error(b, "tune membw --alpha 2", "--alpha 2: expected a number in [0, 1]");
    usage_error(b, "tune membw --tolerance x", "--tolerance x: expected a number in [0, 1]");
    usage_error(b, "tune membw --axis", "option --axis needs a value");
    usage_error(b, "tune membw --bogus", "unknown option '--bogus'");
    usage_error(b, "tune membw --db /nonexistent/r.sqlite",
                "/nonexistent/r.sqlite: no results database here");
    snprintf(args, sizeof args, "tune membw --db %s --json %s/t.json", b->db.path, b->db.path);
    usage_error(b, args, "results.sqlite/t.json: /tmp/");
    assert_non_null(strstr(slurp(f->errf), "results.sqlite is a file, not a directory"));
    snprintf(args, sizeof args, "tune membw --db %s --json %s", b->db.path, b->db.dir);
    usage_error(b, args, ": cannot write: Is a directory");
    assert_int_equal(dmbench(f, "tune --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench tune"));
}

static void test_crossover_finds_and_stores_the_planted_crossovers(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    plant_membw(&b->db);
    assert_int_equal(dmbench(f, "crossover membw cpu kernel --axis n --group seed --resamples 50"
                                " --store --db %s", b->db.path),
                     0);
    const char *out = slurp(f->out);
    assert_non_null(strstr(out, "cpu vs kernel over n on " H100));
    assert_non_null(strstr(out, "15000"));
    assert_non_null(strstr(out, "10000"));
    assert_non_null(strstr(out, "7500"));
    assert_non_null(strstr(out, "faster below the crossover: cpu, in every group that crosses"));
    assert_non_null(strstr(out, "stored both fits for " H100));
    /* both forms stored, a/N + b the better and exact */
    dm_store *st = b->db.st;
    assert_int_equal(afx_int(st, "SELECT count(*) FROM crossover_fits WHERE workload = 'membw'"
                                 " AND axis = 'n' AND grp = 'seed'"), 2);
    assert_int_equal(afx_int(st, "SELECT count(*) FROM crossover_fits WHERE better = 1 AND"
                                 " form = 'a/N + b' AND abs(a - 10000) < 1 AND abs(b - 5000) < 1"),
                     1);
}

static void test_crossover_refuses_bad_input(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    char args[256];
    plant_membw(&b->db);
    usage_error(b, "crossover membw cpu", "expected a workload and two variants");
    usage_error(b, "crossover membw cpu kernel", "--axis is required");
    snprintf(args, sizeof args, "crossover membw cpu kernal --axis n --db %s", b->db.path);
    usage_error(b, args, "unknown variant 'kernal'");
    usage_error(b, "crossover membw cpu kernel --axis n --resamples 5",
                "--resamples 5: expected an integer in 10..1000000");
    usage_error(b, "crossover membw cpu kernel --axis n --level 1",
                "--level 1: expected a number in (0, 1)");
    usage_error(b, "crossover membw cpu kernel --axis n --seed x",
                "--seed x: expected an integer in 0..18446744073709551615");
    usage_error(b, "crossover membw cpu kernel --axis n --db /nonexistent/r.sqlite",
                "/nonexistent/r.sqlite: no results database here");
    assert_int_equal(dmbench(f, "crossover --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench crossover"));
}

/* ---- characterize: runs of the claims' sweep on two cards shaped like the paper's ---- */

static void test_characterize_writes_the_verdicts(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    char md[160], text[1 << 16];
    fx_card(&b->db, "GTX 280", 1500, 1000, paper_card, 1.0, 1.0, 3);
    fx_card(&b->db, "8800 GTS", 1000, 500, paper_card, 1.5, 2.0, 3);
    assert_int_equal(dmbench(f, "characterize tdm --db %s --card 'GTX 280'", b->db.path), 0);
    snprintf(text, sizeof text, "%s", slurp(f->out));
    assert_int_equal(text[0], '#');
    assert_non_null(strstr(text, "GTX 280"));
    assert_non_null(strstr(text, b->db.path));
    const char *err = slurp(f->errf);
    if (count_lines(err) != 1 || strncmp(err, "characterize: 8 hold,", 21) != 0)
        fail_msg("characterize said on stderr: %s", err);
    /* --out writes the same verdicts to a file and nothing to stdout */
    snprintf(md, sizeof md, "%s/c.md", f->dir);
    assert_int_equal(dmbench(f, "characterize tdm --db %s --card 'GTX 280' --out %s",
                             b->db.path, md), 0);
    assert_string_equal(slurp(f->out), "");
    const char *file = slurp(md);
    assert_int_equal(occurrences(file, "| holds |"), occurrences(text, "| holds |"));
    assert_true(occurrences(file, "| holds |") >= 8);
}

static void test_characterize_refuses_bad_input(void **state)
{
    both *b = *state;
    fixture *f = b->cli;
    char args[256];
    fx_card(&b->db, "GTX 280", 1500, 1000, paper_card, 1.0, 1.0, 3);
    usage_error(b, "characterize", "characterize");
    usage_error(b, "characterize membw", "characterize");
    usage_error(b, "characterize tdm --db /nonexistent/r.sqlite",
                "/nonexistent/r.sqlite: no results database here");
    snprintf(args, sizeof args, "characterize tdm --db %s --card 'No Such Card'", b->db.path);
    usage_error(b, args, "No Such Card");
    snprintf(args, sizeof args, "characterize tdm --db %s --out %s/c.md", b->db.path,
             b->db.path);
    usage_error(b, args, "results.sqlite/c.md: /tmp/");
    assert_non_null(strstr(slurp(f->errf), "results.sqlite is a file, not a directory"));
    usage_error(b, "characterize tdm --bogus", "unknown option '--bogus'");
    assert_int_equal(dmbench(f, "characterize --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench characterize"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tune_picks_the_planted_block, both_setup,
                                        both_teardown),
        cmocka_unit_test_setup_teardown(test_tune_refuses_bad_input, both_setup, both_teardown),
        cmocka_unit_test_setup_teardown(test_crossover_finds_and_stores_the_planted_crossovers,
                                        both_setup, both_teardown),
        cmocka_unit_test_setup_teardown(test_crossover_refuses_bad_input, both_setup,
                                        both_teardown),
        cmocka_unit_test_setup_teardown(test_characterize_writes_the_verdicts, both_setup,
                                        both_teardown),
        cmocka_unit_test_setup_teardown(test_characterize_refuses_bad_input, both_setup,
                                        both_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
