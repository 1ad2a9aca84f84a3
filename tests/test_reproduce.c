/* test_reproduce.c - `dmbench reproduce`: the targets' sweeps and published rows exist;
 * tdm Table 2 set beside a planted H100 run (facts, peak and measured bandwidth,
 * ratios); a figure's grid and claim verdicts from planted tdm-fig7 runs; the unmeasured
 * cases (no run, a run without a GPU, a workload this build lacks); and the command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_fixture.h"
#include "store_fixture.h"
#include "report.h"
#include "reproduce.h"
#include "sweep.h"
#include "tdm_fixture.h"

#define PUB_DIR DM_SOURCE_DIR "/results/published"

/* Target name, with the latest run of its sweep on card, in a malloc'd string: as
 * repro_write's markdown, or with summary as the main job's repro_summary. */
static char *target_text(afx *f, const char *name, const char *card, int summary)
{
    repro_target t;
    chz_ctx c = { .st = { f->st }, .nst = 1 };
    dm_pub_table pub = { 0 };
    dm_err err = { 0 };
    chz_run run = { 0 };
    assert_int_equal(published_load_dir(PUB_DIR, &pub, &err), 0);
    assert_true(repro_find(&pub, name, &t));
    if (t.t->sweep)
        assert_int_equal(chz_latest_run(&c, t.t->sweep, card, &run, &err), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *md = open_memstream(&buf, &len);
    dm_report_doc d = { .md = md };
    if (summary ? repro_summary(&c, &pub, &t, &run, md, &err)
                : repro_write(&c, &pub, &t, &run, &d, &err))
        fail_msg("%s", err.msg);
    fclose(md);
    published_free(&pub);
    return buf;
}

static char *write_target(afx *f, const char *name, const char *card)
{
    return target_text(f, name, card, 0);
}

static void test_every_target_has_its_sweep_and_published_rows(void **state)
{
    (void)state;
    dm_pub_table pub = { 0 };
    dm_err err = { 0 };
    assert_int_equal(published_load_dir(PUB_DIR, &pub, &err), 0);
    const dm_device h100 = { .max_threads_per_block = 1024, .smem_per_block_optin = 232448,
                             .sms = 132, .warp_size = 32 };
    repro_target all[REPRO_MAX_TARGETS], found;
    size_t n = repro_targets(&pub, all, REPRO_MAX_TARGETS), listed = 0;
    assert_true(n < REPRO_MAX_TARGETS);
    for (size_t k = 0; k < n; k++) {
        const dm_target *t = all[k].t;
        assert_true(repro_find(&pub, t->name, &found));
        assert_ptr_equal(found.t, t);
        for (size_t j = 0; j < k; j++)
            assert_string_not_equal(all[j].t->name, t->name);
        size_t rows = 0;
        for (size_t i = 0; t->table && i < pub.n; i++)
            rows += !strcmp(pub.rows[i].paper, t->paper) && !strcmp(pub.rows[i].table, t->table);
        if (t->table && !rows)
            fail_msg("%s: no published rows of %s %s", t->name, t->paper, t->table);
        assert_true(t->sweep || t->kind == DM_TARGET_PUBLISHED);
        assert_true((all[k].study != NULL) == (t->kind != DM_TARGET_PUBLISHED));
        listed += all[k].study == NULL;
        if (!t->sweep)
            continue;
        char path[512];
        dm_sweep *s;
        dm_expansion e;
        snprintf(path, sizeof path, "%s/sweeps/%s.yaml", DM_SOURCE_DIR, t->sweep);
        if (sweep_load(path, &s, &err) || sweep_expand(s, &h100, &e, &err))
            fail_msg("%s: %s", t->name, err.msg);
        assert_true(repro_find_sweep(t->sweep, &found));
        assert_ptr_equal(found.t, t);
        assert_true(e.n > e.n_pruned);
        sweep_expansion_free(&e);
        sweep_free(s);
    }
    /* the tables nothing measures yet are listed from results/published */
    assert_int_equal(listed, pub.ntargets);
    assert_int_equal(listed, 4);
    assert_false(repro_find(&pub, "tdm-fig10", &found));
    published_free(&pub);
}

/* A complete run of tdm-table2 on an H100 with its device notes and one copy point of
 * bytes moved in seconds; without a GPU when card is NULL. */
static void plant_table2_run(afx *f, const char *card, double bytes, double seconds)
{
    static const char *const notes[][2] = {
        { "sms", "132" },          { "mem_bytes", "85029158912" }, { "sm_clock_mhz", "1980" },
        { "mem_clock_mhz", "2619" }, { "mem_bus_bits", "5120" },   { "regs_per_sm", "65536" },
        { "max_threads", "1024" }, { "max_threads_per_sm", "2048" }, { "max_blocks_per_sm", "32" },
        { "warp_size", "32" },     { "cc_major", "9" },            { "cc_minor", "0" },
    };
    dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132 };
    snprintf(dev.name, sizeof dev.name, "%s", card ? card : "");
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = card ? &dev : NULL, .no_gpu_reason = "no CUDA device",
                         .workload = "membw", .sweep_name = "tdm-table2",
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN };
    int64_t run = 0;
    dm_err err = { 0 };
    assert_int_equal(store_run_begin(f->st, &info, &run, &err), 0);
    for (size_t i = 0; card && i < sizeof notes / sizeof notes[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "device.%s", notes[i][0]);
        assert_int_equal(store_run_note(f->st, run, key, notes[i][1], &err), 0);
    }
    if (card) {
        double x[10];
        afx_samples(x, 10, seconds, 0.001);
        afx_point(f, run, 0, 67108864, "copy", 256, x, 10);
        char sql[160];
        snprintf(sql, sizeof sql, "UPDATE points SET bytes_per_run = %.17g WHERE run_id = %lld",
                 bytes, (long long)run);
        assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL), SQLITE_OK);
    }
    assert_int_equal(store_run_end(f->st, run, "complete", &err), 0);
}

static void test_table2_sets_the_card_beside_the_papers(void **state)
{
    afx *f = *state;
    plant_table2_run(f, "NVIDIA H100 80GB HBM3", 536870912.0, 0.2e-3);
    char *md = write_target(f, "tdm-table2", NULL);
    assert_non_null(strstr(md, "| feature | GeForce 8800 GTS 512 | GeForce 9800 GX2 | "
                               "GeForce GTX 280 | NVIDIA H100 80GB HBM3 (this run) | "
                               "this / GeForce GTX 280 |"));
    assert_non_null(strstr(md, "| GPU | G92 | 2xG92 | GT280 | NVIDIA H100 80GB HBM3 | - |"));
    assert_non_null(strstr(md, "| Memory (MB) | 512 | 2x512 | 1024 | 81090 | 79.2 |"));
    /* peak: 2 x 2619 MHz x 5120 bits / 8 */
    assert_non_null(strstr(md, "| Memory Bandwidth (GBps) | 57.6 | 2x64 | 141.7 | 3352 | 23.7 |"));
    assert_non_null(strstr(md, "| Multiprocessors | 16 | 16 | 30 | 132 | 4.4 |"));
    assert_non_null(strstr(md, "| Cores | 128 | 128 | 240 | 16896 | 70.4 |"));
    assert_non_null(strstr(md, "| Compute Capability | 1.1 | 1.1 | 1.3 | 9.0 | - |"));
    assert_non_null(strstr(md, "| Active Warps per Multiprocessor (Max) | 24 | 24 | 32 | 64 | 2 |"));
    /* 536870912 bytes in 0.2 ms: 2684 GB/s of the 3352 peak */
    assert_non_null(strstr(md, "| Memory Bandwidth measured, device copy (GBps) | - | - | - | "
                               "2684 (kernel, 80% of peak) | 18.9 |"));
    assert_non_null(strstr(md, "30 x 1024 = 30720 on the GeForce GTX 280, 132 x 2048 = 270336 "
                               "here (8.8x)"));
    free(md);
}

static void test_a_run_without_a_gpu_is_not_measurable(void **state)
{
    afx *f = *state;
    plant_table2_run(f, NULL, 0, 0);
    char *md = write_target(f, "tdm-table2", NULL);
    assert_non_null(strstr(md, "Not measurable here: the run had no GPU (no CUDA device)."));
    assert_non_null(strstr(md, "| card=GeForce GTX 280 | Cores | 240 | count | GeForce GTX 280 | "
                               "tdm-characterization-ipdps09.txt:"));
    assert_non_null(strstr(md, "36 published values"));
    free(md);
}

static void test_a_figure_is_its_grid_and_its_claims(void **state)
{
    afx *f = *state;
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    char *md = write_target(f, "tdm-fig7", "H200");
    assert_non_null(strstr(md, "on H200."));
    assert_non_null(strstr(md, "| block | thread-tex level 1 | thread-tex level 2 | "));
    /* modern_card: thread-tex 3.2 ms at every block; block-tex level 1 falls with block */
    assert_non_null(strstr(md, "| 16 | 3.2 | 3.2 | 3.2 |"));
    assert_non_null(strstr(md, "| fastest | 3.2 at"));
    assert_non_null(strstr(md, "| C6: Thread-Level Parallelism is Sufficient for Large Problem "
                               "Sizes | line 283 | does not hold |"));
    assert_non_null(strstr(md, "#### C4: Thread Level Parallelism Alone is Not Sufficient for "
                               "Small Problem Sizes - holds"));
    assert_non_null(strstr(md, "Paper (heading line 269), line 271:"));
    assert_null(strstr(md, "C1:")); /* Fig. 7 bears on C4-C6 only */
    free(md);
    /* the grid reads the run of the figure's own sweep */
    md = write_target(f, "tdm-fig6", NULL);
    assert_non_null(strstr(md, "Not measured: the database holds no complete run of "
                               "sweeps/tdm-fig6.yaml"));
    free(md);
    fx_sweep_card(f, "tdm-fig6", "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    md = write_target(f, "tdm-fig6", NULL);
    assert_non_null(strstr(md, "| C1: Thread Parallel Algorithm has O(C) Time Complexity Per "
                               "Episode | line 231 | holds |"));
    free(md);
}

/* Points of one variant apart only in a third parameter get a column each, named by it;
 * a variant without such points keeps its plain columns. */
static void test_a_third_axis_names_its_columns(void **state)
{
    afx *f = *state;
    int64_t run = fx_run(f, "tdm-fig7", "H200", 1980, 3200);
    fx_point(f, run, 0, 0, 1, 16, 3.0);
    fx_point(f, run, 1, 0, 1, 16, 5.0);
    fx_point(f, run, 2, 0, 1, 32, 7.0);
    fx_point(f, run, 3, 2, 1, 16, 1.0);
    assert_int_equal(sqlite3_exec(store_db(f->st), "UPDATE point_params SET value_text = '1000',"
                                  " value_num = 1000 WHERE name = 'length' AND point_id IN"
                                  " (SELECT id FROM points WHERE idx = 1)", NULL, NULL, NULL),
                     SQLITE_OK);
    char *md = write_target(f, "tdm-fig7", "H200");
    assert_non_null(strstr(md, "| block | thread-tex level 1 length 393019 | thread-tex level 1 "
                               "length 1000 | block-tex level 1 |"));
    assert_non_null(strstr(md, "| 16 | 3 | 5 | 1 |"));
    assert_non_null(strstr(md, "| 32 | 7 | - | - |"));
    free(md);
}

/* A plot's grid says the paper prints no numbers; a table the reproduce figures as a grid
 * lists the paper's values above it, without an empty measured column, and of a table
 * the paper prints whole only the target's part. */
static void test_a_measured_table_lists_its_published_values_above_its_grid(void **state)
{
    afx *f = *state;
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    char *md = write_target(f, "tdm-fig7", "H100");
    assert_non_null(strstr(md, "Published: Fig. 7 is a plot; the paper prints no numbers"));
    free(md);
    /* Table 6: no counterparts said, the values listed alone */
    fx_sweep_card(f, "rules-table6", "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    md = write_target(f, "rules-table6", "H100");
    assert_non_null(strstr(md, "Published: Table 6 as the paper prints it, on its cards; then "
                               "measured, on this card:"));
    assert_non_null(strstr(md, "| step=HtoD mem | Runtime | 11.456 | us | GeForce GTX 480 | "
                               "rules-gpu-evaluation-cano2013.txt:1111 |\n"));
    assert_non_null(strstr(md, "7 published values"));
    assert_null(strstr(md, "prints no numbers"));
    free(md);
    /* Table 2: each value beside its counterpart, none of which a tdm run has */
    fx_sweep_card(f, "coloc-table2", "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    md = write_target(f, "colocation-table2", "H100");
    assert_non_null(strstr(md, "Published: Table 2 as the paper prints it, on its cards, each "
                               "value beside its counterpart measured on this card"));
    assert_non_null(strstr(md, "| approach=CPU Baseline | Total Time | 347.4 | Intel Xeon "
                               "E5-2687W v4 | - | s | - | - |\n"));
    assert_non_null(strstr(md, "14 published values (results/published, "
                               "colocation-grid-gpu-sstd17 Table 2), 0 measured here"));
    free(md);
    /* a table the paper prints whole, a target a part: its own rows only */
    md = write_target(f, "rules-table5-shuttle", NULL);
    assert_non_null(strstr(md, "| dataset=Shuttle;rules=25 | Evaluation time (ms)/CPU | 9,519 |"));
    assert_null(strstr(md, "dataset=WDBC"));
    assert_non_null(strstr(md, "36 published values (results/published, "
                               "rules-gpu-evaluation-cano2013 Table 5, rows dataset=Shuttle;)."));
    free(md);
}

static void test_a_table_no_sweep_measures_lists_the_published_values(void **state)
{
    afx *f = *state;
    /* a table of a built workload whose study has no sweep for it yet */
    char *md = write_target(f, "rules-table3", NULL);
    assert_non_null(strstr(md, "Not measurable here: the rules workload's study has no sweep "
                               "for it yet"));
    assert_non_null(strstr(md, "| threads_per_block=128 | Active threads per multiprocessor | "
                               "1024 | count | GeForce GTX 480 | "
                               "rules-gpu-evaluation-cano2013.txt:799 | - |"));
    assert_non_null(strstr(md, "12 published values"));
    free(md);
}

static void test_the_report_reproduces_the_newest_run_per_card(void **state)
{
    afx *f = *state;
    fx_sweep_card(f, "tdm-fig6", "H100", 1980, 1600, flat_card, 1.0, 1.0, 3);
    fx_sweep_card(f, "tdm-fig6", "H100", 1980, 1600, modern_card, 1.0, 1.0, 3);
    fx_sweep_card(f, "tdm-fig6", "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_run(f, "unrelated", "H100", 1980, 1600);
    char *md = NULL, *html = NULL;
    size_t mdlen = 0, htmllen = 0;
    FILE *mf = open_memstream(&md, &mdlen), *hf = open_memstream(&html, &htmllen);
    dm_report_opts o = { .outdir = "/nonexistent" };
    dm_err err = { 0 };
    if (report_write(f->st, &o, mf, hf, &err))
        fail_msg("%s", err.msg);
    fclose(mf);
    fclose(hf);
    const char *sec = strstr(md, "## Reproduced tables");
    assert_non_null(sec);
    /* run 1 (H100, flat) is replaced by run 2; run 3 is the H200's */
    assert_null(strstr(sec, "Measured: run 1 of"));
    assert_non_null(strstr(sec, "Measured: run 2 of sweeps/tdm-fig6.yaml"));
    assert_non_null(strstr(sec, "Measured: run 3 of sweeps/tdm-fig6.yaml"));
    assert_non_null(strstr(html, "<h3 id=\"tdm-fig6-run3\">tdm-fig6: Fig. 6</h3>"));
    free(md);
    free(html);
}

/* The main job's closing screen, a target in a few lines: its run and card, each headline
 * published beside measured (a speedup from two published times), each claim's verdict. */
static void test_the_main_jobs_summary(void **state)
{
    afx *f = *state;
    char *s = target_text(f, "tdm-fig9", NULL, 1);
    assert_non_null(strstr(s, "tdm, Fig. 9 (tdm-fig9, papers/tdm-characterization-ipdps09.txt)\n"
                              "  not measured: no complete run of sweeps/tdm-fig9.yaml\n"));
    free(s);
    fx_sweep_card(f, "tdm-fig9", "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    s = target_text(f, "tdm-fig9", NULL, 1);
    assert_non_null(strstr(s, "  run 1 on H100, started "));
    assert_non_null(strstr(s, "  claims: C1 holds, C2 "));
    assert_non_null(strstr(s, ", C8 not measurable here\n")); /* it compares two cards */
    free(s);
    /* Table 4's headline, one core's time over the GTX 480's (C5's 3,183x) */
    fx_sweep_card(f, "rules-table4", "H100", 1980, 1600, modern_card, 1.0, 2.0, 3);
    s = target_text(f, "rules-table4", NULL, 1);
    assert_non_null(strstr(s, "  1 GPU over 1 CPU core, instances=1000000;rules=200: published "
                              "3.18e+03x (GeForce GTX 480 against Intel Core i7 (quad-core, "
                              "3.0 GHz)), not measured here\n"));
    free(s);
}

static void test_the_command(void **state)
{
    afx *f = *state;
    const char *out;
    char args[256];
    assert_int_equal(dmbench_output("reproduce --list", &out), 0);
    assert_non_null(strstr(out, "tdm-fig9"));
    assert_non_null(strstr(out, "colocation-table2"));
    assert_non_null(strstr(out, "coloc-table2"));
    assert_int_equal(dmbench_output("reproduce tdm-fgi7", &out), 2);
    assert_non_null(strstr(out, "unknown target 'tdm-fgi7'; did you mean: "));
    assert_non_null(strstr(out, "tdm-fig7"));
    assert_int_equal(dmbench_output("reproduce", &out), 2);
    /* the main job: each main target's sweep with its overrides */
    snprintf(args, sizeof args, "reproduce --main --db %s -- --dry-run", f->path);
    assert_int_equal(dmbench_output(args, &out), 0);
    assert_non_null(strstr(out, "sweeps/tdm-fig9.yaml --db"));
    assert_non_null(strstr(out, "sweeps/episodes-table1.yaml --db "));
    assert_non_null(strstr(out, " -a instances=[25000,1000000] -a rules=[25,200]"));
    assert_non_null(strstr(out, "sweeps/coloc-fig6a.yaml --db "));
    assert_int_equal(dmbench_output("reproduce --main tdm-fig7", &out), 2);
    assert_non_null(strstr(out, "--main takes --db PATH, --out DIR and run options"));
    assert_int_equal(dmbench_output("reproduce tdm-fig7 --no-run --db /nonexistent/x.sqlite", &out), 2);
    assert_non_null(strstr(out, "/nonexistent/x.sqlite: no results database here"));
    /* without a GPU the sweep runs its (GPU) points as skipped, and says so */
    snprintf(args, sizeof args, "reproduce tdm-table2 --db %s -- --quiet", f->path);
    assert_int_equal(dmbench_output(args, &out), 0);
    assert_non_null(strstr(out, "Measured: run 1 of sweeps/tdm-table2.yaml"));
    assert_non_null(strstr(out, "Not measurable here: the run had no GPU"));
    /* options after -- are dmbench run's: a bad one is its usage error */
    snprintf(args, sizeof args, "reproduce tdm-table2 --db %s -- --bogus", f->path);
    assert_int_equal(dmbench_output(args, &out), 2);
    assert_non_null(strstr(out, "unknown option '--bogus'"));
    /* a measured table not yet run: its published values are listed */
    snprintf(args, sizeof args, "reproduce rules-table4 --no-run --db %s", f->path);
    assert_int_equal(dmbench_output(args, &out), 0);
    assert_non_null(strstr(out, "Not measured: the database holds no complete run of "
                                "sweeps/rules-table4.yaml"));
    assert_non_null(strstr(out, "432 published values"));
    /* --out and --html: the same section in both, nothing on stdout */
    snprintf(args, sizeof args, "reproduce rules-table3 --out %s.md --html %s.html", f->path,
             f->path);
    assert_int_equal(dmbench_output(args, &out), 0);
    assert_string_equal(out, "");
    char path[96], text[8192];
    snprintf(path, sizeof path, "%s.html", f->path);
    FILE *h = fopen(path, "r");
    assert_non_null(h);
    text[fread(text, 1, sizeof text - 1, h)] = '\0';
    fclose(h);
    unlink(path);
    assert_non_null(strstr(text, "<h3 id=\"rules-table3\">rules-table3: Table 3</h3>"));
    assert_non_null(strstr(text, "<td>threads_per_block=128</td><td>Active threads per "
                                 "multiprocessor</td><td>1024</td>"));
    snprintf(path, sizeof path, "%s.md", f->path);
    assert_int_equal(unlink(path), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_target_has_its_sweep_and_published_rows),
        cmocka_unit_test_setup_teardown(test_table2_sets_the_card_beside_the_papers, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_run_without_a_gpu_is_not_measurable, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_figure_is_its_grid_and_its_claims, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_third_axis_names_its_columns, afx_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_measured_table_lists_its_published_values_above_its_grid,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_table_no_sweep_measures_lists_the_published_values,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_the_report_reproduces_the_newest_run_per_card,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_the_main_jobs_summary, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_the_command, afx_setup, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
