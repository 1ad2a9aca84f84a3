/* test_report.c - `dmbench report` (results/report.c): on a fixture database with a
 * parameter value and a command line holding HTML's specials, the report has its
 * sections, the run's fingerprint, escaped text, balanced HTML tables and SVGs, and
 * markdown tables whose rows all have the header's column count; on fixtures with stored
 * crossover fits and with tdm-fig7 runs, the fits with their crossovers and the tdm
 * verdicts, in both formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "report.h"
#include "tdm_fixture.h"
#include "tmpdir.h"

/* A run on a card with a full fingerprint; its command line holds a planted <script>. */
static int64_t fingerprinted_run(afx *f)
{
    dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132, .l2_bytes = 50 << 20,
                      .mem_bytes = 80LL << 30, .driver_version = 13000,
                      .runtime_version = 12080 };
    snprintf(dev.name, sizeof dev.name, "Fixture H100");
    snprintf(dev.uuid, sizeof dev.uuid, "GPU-fixture-uuid");
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = "toy", .sweep_name = "fixture-sweep",
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = 1755,
                         .mem_clock_mhz_start = 2619, .clock_source = "nvml",
                         .dmbench_version = "9.8.7", .git_commit = "c0ffee123456",
                         .git_dirty = 1, .argv = "dmbench run '<script>x</script>' & more",
                         .host = "fixture-host", .baseline = "cpu" };
    int64_t id = 0;
    dm_err err = { 0 };
    assert_int_equal(store_run_begin(f->st, &info, &id, &err), 0);
    assert_int_equal(store_run_end(f->st, id, "complete", &err), 0);
    return id;
}

/* Fills the fixture: run 1 fingerprinted with block sizes 64..512 of op "a<b|c" and n
 * 1024 and 4096; run 2 a plain run on another card. */
static int setup(void **state)
{
    if (afx_setup(state) != 0)
        return -1;
    afx *f = *state;
    double x[20];
    int64_t run = fingerprinted_run(f), idx = 0;
    for (int64_t n = 1024; n <= 4096; n *= 4)
        for (int64_t b = 64; b <= 512; b *= 2) {
            afx_samples(x, 20, 1e-5 * (double)n / 1024 * (b == 128 ? 0.8 : 1), 0.01);
            afx_point(f, run, idx++, n, "a<b|c", b, x, 20);
        }
    int64_t other = afx_run(f, "Other Card", 8, 0);
    afx_samples(x, 20, 2e-3, 0.02);
    afx_point(f, other, 0, 1024, "copy", 256, x, 20);
    return 0;
}

typedef struct doc {
    char *md, *html;
    size_t md_len, html_len;
} doc;

/* Writes the report of runs (n of them; NULL for all) into d. Returns report_write's. */
static int report(afx *f, const int64_t *runs, size_t n, int plots, const char *outdir, doc *d,
                  dm_err *err)
{
    dm_report_opts o = { .runs = runs, .nruns = n, .plots = plots, .outdir = outdir };
    FILE *md = open_memstream(&d->md, &d->md_len), *html = open_memstream(&d->html, &d->html_len);
    int rc = report_write(f->st, &o, md, html, err);
    fclose(md);
    fclose(html);
    return rc;
}

static void doc_free(doc *d)
{
    free(d->md);
    free(d->html);
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* Unescaped | in a markdown line: its cell borders. */
static int md_bars(const char *line, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        if (line[i] == '\\')
            i++;
        else if (line[i] == '|')
            n++;
    return n;
}

/* Every markdown table's rows have as many cells as its header; returns the tables. */
static int check_md_tables(const char *md)
{
    int tables = 0, want = -1;
    for (const char *line = md; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] == '|') {
            int bars = md_bars(line, len);
            if (want < 0) {
                want = bars;
                tables++;
            }
            assert_int_equal(bars, want);
        } else {
            want = -1;
        }
        line += len + (end != NULL);
    }
    return tables;
}

static void report_has_sections_fingerprint_and_points(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    for (const dm_report_section *s = report_sections; s->id; s++) {
        char md[64], html[64], toc[64];
        snprintf(md, sizeof md, "\n## %s\n", s->title);
        snprintf(html, sizeof html, "<h2 id=\"%s\">%s</h2>", s->id, s->title);
        snprintf(toc, sizeof toc, "- [%s](#%s)", s->title, s->id);
        assert_non_null(strstr(d.md, md));
        assert_non_null(strstr(d.md, toc));
        assert_non_null(strstr(d.html, html));
    }
    static const char *const fingerprint[] = {
        "Fixture H100, cc 9.0, 132 SMs, L2 50.0 MiB, memory 80.0 GiB, GPU-fixture-uuid",
        "SM 1755 MHz, memory 2619 MHz at start; read by nvml",
        "driver 13.0, runtime 12.8, dmbench 9.8.7", "c0ffee123456 (dirty)", "fixture-host",
    };
    for (size_t i = 0; i < sizeof fingerprint / sizeof *fingerprint; i++) {
        assert_non_null(strstr(d.md, fingerprint[i]));
        assert_non_null(strstr(d.html, fingerprint[i]));
    }
    assert_non_null(strstr(d.md, "### Run 1: fixture-sweep (toy)"));
    assert_non_null(strstr(d.md, "### Run 2: fixture (toy)"));
    assert_non_null(strstr(d.md, "| 2 | fixture | toy | Other Card |"));
    /* a point's row, a column per parameter that varies, its median with a unit; the slow
     * block 256 of n=4096 is 40 us; the constants said once above the table */
    assert_non_null(strstr(d.md, "| idx | variant | n | block | status | samples | median |"));
    assert_non_null(strstr(d.md, "| 6 | kernel | 4096 | 256 | ok | 20 | 40.0 us |"));
    assert_non_null(strstr(d.md, "The same in every point: op=a&lt;b\\|c, scale=0.5."));
    /* tuning: block 128 is 20% faster than the others in every bucket */
    assert_non_null(
        strstr(d.md, "| Fixture H100 | 9.0 | kernel | n=1024,op=a&lt;b\\|c,scale=0.5 | 128 |"));
    /* the other card's one point: a bucket of one block, nothing to choose between */
    assert_null(strstr(d.md, "| Other Card | 8.0 | kernel |"));
    assert_non_null(strstr(d.md, "1 bucket measured at one block only is left out."));
    assert_non_null(strstr(d.md, "Plots left out (--no-plots)."));
    doc_free(&d);
}

static void report_says_which_rule_chose_each_value(void **state)
{
    afx *f = *state;
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(sqlite3_exec(store_db(f->st), "UPDATE points SET chosen = 'block: 256, "
                                  "this card, this bucket (stored)' WHERE run_id = 2", NULL,
                                  NULL, NULL), SQLITE_OK);
    assert_int_equal(report(f, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    const char *two = strstr(d.md, "### Run 2: ");
    assert_non_null(two);
    assert_non_null(strstr(two, "| verification | chosen for the card |"));
    assert_non_null(strstr(two, "| block: 256, this card, this bucket (stored) |"));
    /* run 1 chose nothing: no such column */
    assert_true(strstr(d.md, "chosen for the card") > two);
    doc_free(&d);
}

/* Each run's facts, folded after its points: a row per point and group, a column per
 * fact name in the order the run first gave it ("-" where a point has none), counts
 * with every digit; a run without facts has no such block. */
static void report_folds_each_runs_facts(void **state)
{
    afx *f = *state;
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(sqlite3_exec(store_db(f->st),
        "INSERT INTO point_facts (point_id, idx, grp, name, value, unit)"
        " SELECT id, 0, 'size 2', 'candidates', 78, NULL FROM points WHERE run_id = 1 AND idx = 0"
        " UNION ALL SELECT id, 1, 'size 2', 'filter_s', 0.0125, 's' FROM points"
        "  WHERE run_id = 1 AND idx = 0"
        " UNION ALL SELECT id, 2, 'size 3', 'candidates', 5, NULL FROM points"
        "  WHERE run_id = 1 AND idx = 0"
        " UNION ALL SELECT id, 0, 'size 2', 'tested', 12345678901, NULL FROM points"
        "  WHERE run_id = 1 AND idx = 1", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(report(f, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    const char *facts = strstr(d.md, "<details><summary>Facts of the points of run 1 (2)"
                                     "</summary>");
    assert_non_null(facts);
    assert_true(facts > strstr(d.md, "<details><summary>Every point of run 1 (11)</summary>"));
    assert_non_null(strstr(facts, "| idx | variant | group | candidates | filter_s | tested |\n"
                                  "| --- | --- | --- | --- | --- | --- |\n"
                                  "| 0 | kernel | size 2 | 78 | 0.0125 | - |\n"
                                  "| 0 | kernel | size 3 | 5 | - | - |\n"
                                  "| 1 | kernel | size 2 | - | - | 12345678901 |\n"));
    assert_null(strstr(d.md, "Facts of the points of run 2"));
    assert_int_equal(count(d.html, "<details>"), count(d.html, "</details>"));
    assert_int_equal(check_md_tables(d.md), count(d.html, "<table>"));
    doc_free(&d);
}

static void report_escapes_text_and_balances_html(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    assert_null(strstr(d.html, "<script>"));
    assert_null(strstr(d.md, "<script>"));
    assert_non_null(
        strstr(d.html, "dmbench run &#39;&lt;script&gt;x&lt;/script&gt;&#39; &amp; more"));
    assert_non_null(strstr(d.html, "<p>The same in every point: op=a&lt;b|c, scale=0.5.</p>"));
    assert_non_null(strstr(d.html, "<td>1</td><td>kernel</td><td>1024</td><td>128</td>"));
    assert_int_equal(strncmp(d.html, "<!DOCTYPE html>", 15), 0);
    assert_non_null(strstr(d.html, "<style>"));
    assert_non_null(strstr(d.html, "</body>\n</html>\n"));
    int tables = count(d.html, "<table>");
    assert_true(tables >= 5); /* runs, two fingerprints, two point tables, tuning */
    assert_int_equal(count(d.html, "</table>"), tables);
    assert_int_equal(count(d.html, "<tr>"), count(d.html, "</tr>"));
    assert_int_equal(check_md_tables(d.md), tables);
    doc_free(&d);
}

static void report_draws_plots_inline(void **state)
{
    char dir[64], svg[128];
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(tmpdir_make(dir, sizeof dir, "report"), 0);
    setenv("DMBENCH_PLOTS", DM_SOURCE_DIR "/plots", 1);
    assert_int_equal(report(*state, NULL, 0, 1, dir, &d, &err), 0);
    /* run 1 has block and n axes; run 2 has one point, nothing to draw */
    assert_non_null(strstr(d.md, "](plots/time-vs-block-run1.svg)"));
    snprintf(svg, sizeof svg, "%s/plots/time-vs-block-run1.svg", dir);
    struct stat sb;
    assert_int_equal(stat(svg, &sb), 0);
    int svgs = count(d.html, "<svg");
    assert_true(svgs >= 1);
    assert_int_equal(count(d.html, "</svg>"), svgs);
    assert_int_equal(count(d.html, "<figure>"), svgs);
    assert_null(strstr(d.html, "<?xml"));
    assert_null(strstr(d.md, "plots/time-vs-block-run2.svg"));
    assert_int_equal(count(d.html, "<table>"), count(d.html, "</table>"));
    check_md_tables(d.md);
    doc_free(&d);
    assert_int_equal(tmpdir_remove(dir), 0);
}

static void report_notes_missing_gnuplot(void **state)
{
    char dir[64];
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(tmpdir_make(dir, sizeof dir, "report"), 0);
    setenv("DMBENCH_PLOTS", DM_SOURCE_DIR "/plots", 1);
    setenv("PATH", "/nonexistent", 1);
    int rc = report(*state, NULL, 0, 1, dir, &d, &err);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(d.md, "time-vs-block not drawn: gnuplot not found on PATH"));
    assert_int_equal(count(d.html, "<svg"), 0);
    doc_free(&d);
    assert_int_equal(tmpdir_remove(dir), 0);
}

static void report_of_chosen_runs_only(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    const int64_t two[] = { 2 };
    assert_int_equal(report(*state, two, 1, 0, "/nonexistent", &d, &err), 0);
    assert_null(strstr(d.md, "### Run 1:"));
    assert_non_null(strstr(d.md, "### Run 2: fixture (toy)"));
    assert_non_null(strstr(d.md, ", 1 run, written"));
    doc_free(&d);
    const int64_t missing[] = { 2, 7 };
    assert_int_equal(report(*state, missing, 2, 0, "/nonexistent", &d, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "run 7 is not in the database"));
    doc_free(&d);
}

/* A run with points on several GPUs: its findings set each against the fastest verified
 * one-GPU point of its problem (bitmap's, with its parameters), its own variant on one
 * GPU beside it; a run without such points has no such table. */
static void report_sets_several_gpus_against_the_fastest_one(void **state)
{
    afx *f = *state;
    doc d = { 0 };
    dm_err err = { 0 };
    const int64_t run = afx_run_of(f, "rules", "NVIDIA H200", 9, 0),
                  other = afx_run_of(f, "rules", "NVIDIA H200", 9, 0);
    afx_plant_scaling(f, run, other);
    const int64_t runs[] = { run, other };
    assert_int_equal(report(f, runs, 2, 0, "/nonexistent", &d, &err), 0);
    assert_int_equal(count(d.md, "Several GPUs: each point against the fastest verified"), 1);
    assert_non_null(strstr(d.md, "| 5 | multigpu | 2 | 600 us | 1.67x | bitmap (instances=1000,"));
    assert_non_null(strstr(d.md, "| 6 | multigpu | 4 | 400 us | 2.50x | bitmap ("));
    assert_non_null(strstr(d.md, "| 7 | multigpu | 2 | 800 us | - | none in the run | - | - |"));
    assert_true(check_md_tables(d.md));
    doc_free(&d);
}

/* Runs "dmbench report --db DB --out DIR ARGS" quietly; returns its exit status. */
static int command(afx *f, const char *dir, const char *args)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s report --db %s --out %s %s >/dev/null 2>&1 </dev/null",
             DM_BINARY_DIR "/dmbench", f->path, dir, args);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void report_command_writes_both_files_or_none(void **state)
{
    char dir[64], md[96], html[96];
    struct stat sb;
    assert_int_equal(tmpdir_make(dir, sizeof dir, "report"), 0);
    snprintf(md, sizeof md, "%s/report.md", dir);
    snprintf(html, sizeof html, "%s/report.html", dir);
    assert_int_equal(command(*state, dir, "--runs 1,2 --no-plots"), 0);
    assert_int_equal(stat(md, &sb), 0);
    assert_true(sb.st_size > 0);
    assert_int_equal(stat(html, &sb), 0);
    assert_true(sb.st_size > 0);
    assert_int_equal(command(*state, dir, "--runs 9 --no-plots"), 2);
    assert_int_not_equal(stat(md, &sb), 0);
    assert_int_not_equal(stat(html, &sb), 0);
    assert_int_equal(command(*state, dir, "--runs 1,x"), 2);
    assert_int_equal(tmpdir_remove(dir), 0);
}

/* The fixture's runs are of a workload without claims: one note, no workload named
 * whose runs are not there. */
static void report_without_fits_or_tdm_runs_says_so(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    static const char *const notes[] = {
        "No crossover fits are stored in this database; dmbench crossover WORKLOAD A B --axis "
        "X --group G --store fits and stores them.",
        "None of the report&#39;s runs is of a workload whose papers&#39; claims are judged "
        "(tdm, ",
    };
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    assert_non_null(strstr(d.md, notes[0]));
    assert_non_null(strstr(d.md, "None of the report's runs is of a workload whose papers' "
                                 "claims are judged (tdm, "));
    assert_null(strstr(d.md, "is a complete GPU run of"));
    assert_non_null(strstr(d.html, notes[0]));
    assert_non_null(strstr(d.html, notes[1]));
    doc_free(&d);
}

static const dm_param_spec level_spec = { .name = "level", .type = DM_P_INT, .def = "1" };

/* Fills the fixture: on "Fixture H100", cpu takes n ns and kernel n/2 ns + c, crossing
 * at n = 100000/level + 5000 for levels 1, 2, 4, 8; a run without points on "Empty
 * Card"; fits of both cards stored, the Fixture H100 ones twice (the older with a = 777777). */
static int fits_setup(void **state)
{
    if (afx_setup(state) != 0)
        return -1;
    afx *f = *state;
    const dm_param_spec *specs[] = { &toy_dataset_params[0], &toy_problem_params[0], &level_spec };
    const int levels[] = { 1, 2, 4, 8 };
    int64_t run = afx_run(f, "Fixture H100", 9, 0), idx = 0;
    double x[15];
    for (int l = 0; l < 4; l++)
        for (int64_t n = 10000; n <= 200000; n += 10000)
            for (int v = 0; v < 2; v++) {
                dm_value vals[3] = { { .type = DM_P_INT, .i = n }, { .type = DM_P_ENUM, .s = "copy" },
                                     { .type = DM_P_INT, .i = levels[l] } };
                double c = (100000.0 / levels[l] + 5000) / 2 * 1e-9;
                afx_samples(x, 15, v == 0 ? (double)n * 1e-9 : (double)n * 0.5e-9 + c, 0.01);
                afx_point_params(f, run, idx++, v, specs, vals, 3, x, 15);
            }
    afx_run(f, "Empty Card", 8, 0);
    return sqlite3_exec(store_db(f->st),
        "INSERT INTO crossover_fits (created_at, card, workload, variant_a, variant_b, axis, grp,"
        " form, a, b, se_a, se_b, r2, n, better) VALUES"
        " ('2026-01-01T00:00:00Z', 'Fixture H100', 'toy', 'cpu', 'kernel', 'n', 'level',"
        "  'a/N + b', 777777, 1, 1, 1, 0.5, 3, 0),"
        " ('2026-01-01T00:00:00Z', 'Fixture H100', 'toy', 'cpu', 'kernel', 'n', 'level',"
        "  'a*N + b', 777777, 1, 1, 1, 0.6, 3, 1),"
        " ('2026-01-02T00:00:00Z', 'Fixture H100', 'toy', 'cpu', 'kernel', 'n', 'level',"
        "  'a/N + b', 100000, 5000, 0.5, 0.25, 0.999999, 4, 1),"
        " ('2026-01-02T00:00:00Z', 'Fixture H100', 'toy', 'cpu', 'kernel', 'n', 'level',"
        "  'a*N + b', -1000, 60000, NULL, NULL, 0.8, 4, 0),"
        " ('2026-01-03T00:00:00Z', 'Empty Card', 'toy', 'cpu', 'kernel', 'n', 'level',"
        "  'a*N + b', 2, 3, 0.1, 0.2, 0.9, 3, 1)", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void report_has_newest_fits_with_better_marked_and_crossovers(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    assert_non_null(strstr(d.md, "| Fixture H100 | toy | cpu vs kernel | n | level | a/N + b | "
                                 "100000 | 0.5 | 5000 | 0.25 | 0.999999 | 4 | yes | "
                                 "2026-01-02T00:00:00Z |"));
    assert_non_null(strstr(d.md, "| Fixture H100 | toy | cpu vs kernel | n | level | a*N + b | "
                                 "-1000 | - | 60000 | - | 0.800000 | 4 | no |"));
    assert_non_null(strstr(d.html, "<td>a/N + b</td><td>100000</td><td>0.5</td><td>5000</td>"
                                   "<td>0.25</td><td>0.999999</td><td>4</td><td>yes</td>"));
    assert_non_null(strstr(d.html, "<td>a*N + b</td><td>-1000</td><td>-</td><td>60000</td>"
                                   "<td>-</td><td>0.800000</td><td>4</td><td>no</td>"));
    assert_null(strstr(d.md, "777777"));
    assert_non_null(strstr(d.md, "(2 older fits left out)"));
    /* the planted crossovers, recomputed: n = 100000/level + 5000, cpu faster below */
    assert_non_null(strstr(d.md, "### toy: cpu vs kernel over n by level on Fixture H100"));
    assert_non_null(strstr(d.md, "| level | problem | n at the crossover | 95% interval | "
                                 "faster below |"));
    static const char *const rows[] = { "| 1 | op=copy | 105000 | [", "| 2 | op=copy | 55000 | [",
                                        "| 4 | op=copy | 30000 | [", "| 8 | op=copy | 17500 | [" };
    for (int i = 0; i < 4; i++) {
        const char *row = strstr(d.md, rows[i]);
        assert_non_null(row);
        assert_non_null(strstr(row, "] | cpu |\n"));
    }
    assert_non_null(strstr(d.html, "<td>105000</td>"));
    assert_non_null(strstr(d.md, "Not recomputed: no ok points of cpu or kernel (workload toy) "
                                 "with 'n' on Empty Card."));
    int tables = count(d.html, "<table>");
    assert_int_equal(count(d.html, "</table>"), tables);
    assert_int_equal(check_md_tables(d.md), tables);
    doc_free(&d);
}

static void report_of_other_runs_does_not_recompute_crossovers(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    const int64_t empty[] = { 2 };
    assert_int_equal(report(*state, empty, 1, 0, "/nonexistent", &d, &err), 0);
    assert_non_null(strstr(d.md, "| Fixture H100 | toy | cpu vs kernel | n | level | a/N + b |"));
    assert_non_null(strstr(d.md, "Not recomputed: none of the report's runs is a run of toy on "
                                 "Fixture H100."));
    assert_null(strstr(d.md, "| 1 | op=copy |"));
    doc_free(&d);
}

/* Fills the fixture: a tdm-fig7 run without level 3 on a card whose name holds HTML's
 * specials, a tdm-fig6 run on "Fig6 Card", and modern-card runs of tdm-fig7 on "H200"
 * and "H100" (so that C8 has a second card). */
static int tdm_setup(void **state)
{
    if (afx_setup(state) != 0)
        return -1;
    afx *f = *state;
    fx_card(f, "R&D <GPU> \"x\"", 1980, 1600, modern_card, 1.0, 2.0, 2);
    fx_sweep_card(f, "tdm-fig6", "Fig6 Card", 1980, 1600, modern_card, 1.0, 2.0, 3);
    fx_card(f, "H200", 1980, 3200, modern_card, 1.0, 1.0, 3);
    fx_card(f, "H100", 1980, 1600, modern_card, 1.0, 2.0, 3); /* the newest: C8's other card */
    return 0;
}

static void report_has_the_tdm_verdicts_of_each_card(void **state)
{
    afx *f = *state;
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(report(f, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    assert_non_null(strstr(d.md, "### tdm on the H200"));
    assert_non_null(strstr(d.md, "Judged on the latest complete run of tdm-fig7 on this card"));
    /* the H200 run's headline has the verdicts too, linking to their evidence */
    const char *reproduced = strstr(d.md, "\n## Reproduced tables\n");
    const char *verdicts = strstr(d.md, "that tdm-fig7 feeds, judged on the latest complete run "
                                        "of it on this card (run 3): 4 hold, 0 partly hold, 3 "
                                        "do not hold, 1 not measurable here.");
    assert_non_null(verdicts);
    assert_true(verdicts < reproduced);
    assert_true(strstr(verdicts, "| C6: Thread-Level Parallelism is Sufficient for Large "
                                 "Problem Sizes | line 283 | does not hold |") < reproduced);
    assert_non_null(strstr(d.md, "Each claim's words and evidence: [Characterization]"
                                 "(#characterization)"));
    assert_non_null(strstr(d.md, "4 hold, 0 partly hold, 3 do not hold, 1 not measurable here."));
    assert_non_null(strstr(d.md, "| claim | paper | verdict |"));
    assert_non_null(strstr(d.html, "<td>C6: Thread-Level Parallelism is Sufficient for Large "
                                   "Problem Sizes</td><td>line 283</td><td>does not hold</td>"));
    assert_non_null(strstr(d.md, "#### C6: Thread-Level Parallelism is Sufficient for Large "
                                 "Problem Sizes - does not hold"));
    assert_non_null(strstr(d.html, "What changed in the hardware: "));
    assert_non_null(strstr(d.md, "CUPTI: dram__bytes_read.sum (dram_read_bytes) and "
                                 "lts__t_sector_hit_rate.pct (l2_hit_rate) would back this"));
    assert_non_null(strstr(d.md, "### tdm on the Fig6 Card"));
    assert_non_null(strstr(d.md, "Judged on the latest complete run of tdm-fig6 on this card"));
    /* the verdict rows are those of dmbench characterize tdm on the same card */
    chz_ctx c = { .st = { f->st }, .nst = 1, .card = "H200", .sweep = "tdm-fig7" };
    char *md = NULL;
    size_t len = 0;
    int counts[DM_NVERDICTS], rows = 0;
    FILE *out = open_memstream(&md, &len);
    assert_int_equal(report_characterize_write(out, &c, fx_study(), "title", "pre", counts,
                                               &err), 0);
    fclose(out);
    for (const char *line = strstr(md, "| C"); line && line[0] == '|'; rows++) {
        const char *end = strchr(line, '\n');
        char row[512];
        snprintf(row, sizeof row, "%.*s", (int)(end - line), line);
        assert_non_null(strstr(d.md, row));
        line = end + 1;
    }
    assert_int_equal(rows, 8);
    free(md);
    int tables = count(d.html, "<table>");
    assert_int_equal(count(d.html, "</table>"), tables);
    assert_int_equal(check_md_tables(d.md), tables);
    doc_free(&d);
}

static void report_escapes_the_evidence(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    const int64_t odd[] = { 1 };
    assert_int_equal(report(*state, odd, 1, 0, "/nonexistent", &d, &err), 0);
    /* level 3 is missing: C1's evidence names the card */
    assert_non_null(strstr(d.html, "<p>Measured: no ok point of thread-tex at level 3 on a card "
                                   "named like &quot;R&amp;D &lt;GPU&gt; &quot;x&quot;&quot; in "
                                   "complete runs of tdm-fig7. "));
    assert_non_null(strstr(d.md, "Measured: no ok point of thread-tex at level 3 on a card "
                                 "named like \"R&amp;D &lt;GPU&gt; \"x\"\" in complete runs"));
    assert_null(strstr(d.html, "<GPU>"));
    assert_null(strstr(d.md, "<GPU>"));
    assert_null(strstr(d.md, "### tdm on the H200"));
    doc_free(&d);
}

/* Fills the fixture: run 1 (baseline cpu) solves n = 1024 and 4096 with cpu (1 ms per
 * 1024) and kernel at blocks 64, 128, 256 (20x faster at block 128), and n = 16384 not at
 * all: cpu failed, kernel skipped twice; run 2 (baseline cpu) has 8 problems, cpu the
 * fastest of the first 2 and kernel (10x) of the other 6. */
static int headline_setup(void **state)
{
    if (afx_setup(state) != 0)
        return -1;
    afx *f = *state;
    double x[9];
    dm_point pt;
    int64_t one = afx_run(f, "Fixture H100", 9, 0), idx = 0;
    for (int64_t n = 1024; n <= 16384; n *= 4) {
        afx_samples(x, 9, 1e-3 * (double)n / 1024, 0.01);
        afx_toy_point(&pt, 0, n, "copy", 0, 0);
        afx_store_point(f, one, idx++, &pt, x, 9);
        for (int64_t b = 64; b <= 256 && (n < 16384 || b < 256); b *= 2) {
            afx_samples(x, 9, 1e-4 * (double)n / 1024 * (b == 128 ? 0.5 : 1), 0.01);
            afx_point(f, one, idx++, n, "copy", b, x, 9);
        }
    }
    int64_t two = afx_run(f, "Fixture H100", 9, 0);
    idx = 0;
    for (int64_t k = 1; k <= 8; k++) {
        afx_samples(x, 9, 1e-6 * 1024 * (double)k, 0.01);
        afx_toy_point(&pt, 0, 1024 * k, "copy", 0, 0);
        afx_store_point(f, two, idx++, &pt, x, 9);
        afx_samples(x, 9, 1e-7 * 1024 * (double)k * (k <= 2 ? 20 : 1), 0.01);
        afx_point(f, two, idx++, 1024 * k, "copy", 256, x, 9);
    }
    return sqlite3_exec(store_db(f->st),
        "UPDATE runs SET baseline = 'cpu';"
        "UPDATE points SET status = 'failed', reason = 'out of memory' WHERE run_id = 1"
        " AND idx = 8;"
        "UPDATE points SET status = 'skipped', reason = 'no GPU' WHERE run_id = 1"
        " AND idx IN (9, 10);", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static void report_opens_with_each_runs_headline(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    /* the findings come first, every point last, folded */
    const char *findings = strstr(d.html, "<h2 id=\"findings\">"), *runs =
        strstr(d.html, "<h2 id=\"runs\">");
    assert_non_null(findings);
    assert_true(runs > findings);
    const char *one = strstr(d.html, "<h3 id=\"finding-run-1\">");
    assert_true(one > findings && one < runs);
    assert_true(strstr(d.html, "<div class=\"finding\">\n<div class=\"headline\">") > one);
    assert_true(strstr(d.html, "<details>\n<summary>Every point of run 1 (11)</summary>") > runs);
    /* run 1: its card, its points, the fastest per problem with its speedup over cpu */
    assert_non_null(strstr(d.md, "Card: Fixture H100, cc 9.0, 132 SMs. Run complete, started "));
    assert_non_null(strstr(d.md, "11 points: 8 ok, 1 failed, 2 skipped."));
    assert_non_null(strstr(d.md, "The fastest verified variant of each of its 2 problems:"));
    assert_non_null(strstr(d.md, "| n | fastest | median | speedup over cpu | ci95 | rsd |"));
    assert_non_null(strstr(d.md, "| 1024 | kernel | 50.0 us | 20.00x | "));
    assert_non_null(strstr(d.md, "| 4096 | kernel | 200 us | 20.00x | "));
    /* nothing measured at n = 16384: not in the findings (only in every point's table) */
    assert_true(strstr(d.md, "| 16384 | ") > strstr(d.md, "\n## Reproduced tables\n"));
    /* the points not measured, by why, the most first */
    const char *skipped = strstr(d.md, "2 points skipped (idx 9 to 10): no GPU.");
    assert_non_null(skipped);
    assert_true(strstr(d.md, "1 point failed (idx 8): out of memory.") > skipped);
    assert_non_null(strstr(d.md, "Its fingerprint and every point: [the run's details](#run-1)"));
    assert_non_null(strstr(d.html, "<p>Its fingerprint and every point: <a href=\"#run-1\">"
                                   "the run&#39;s details</a></p>"));
    /* run 2: 8 problems, a line per winner, the table folded */
    assert_non_null(strstr(d.md, "cpu: fastest in 2 of 8 problems, 1.00x over cpu."));
    assert_non_null(strstr(d.md, "kernel: fastest in 6 of 8 problems, 10.00x over cpu."));
    assert_non_null(strstr(d.md, "<details><summary>The fastest verified variant of each of "
                                 "its 8 problems</summary>\n\n| n | fastest |"));
    assert_non_null(strstr(d.md, "| 2048 | cpu | 2.05 ms | 1.00x | "));
    int tables = count(d.html, "<table>");
    assert_int_equal(count(d.html, "</table>"), tables);
    assert_int_equal(count(d.html, "<details>"), count(d.html, "</details>"));
    assert_int_equal(count(d.html, "<div"), count(d.html, "</div>"));
    assert_int_equal(check_md_tables(d.md), tables);
    doc_free(&d);
}

/* The headings of text in order, each on a line: markdown's "## x" and "### x", HTML's
 * <h2 ...>x</h2> and <h3 ...>x</h3>. */
static void headings(const char *text, int html, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *p = text; (p = strstr(p, html ? "<h" : "\n#")); p++) {
        size_t used = strlen(out);
        if (html && (p[2] == '2' || p[2] == '3')) {
            const char *gt = strchr(p, '>'), *end = strstr(p, "</h");
            snprintf(out + used, n - used, "%.*s\n", (int)(end - gt - 1), gt + 1);
        } else if (!html && (!strncmp(p, "\n## ", 4) || !strncmp(p, "\n### ", 5))) {
            const char *t = strchr(p, ' ') + 1;
            snprintf(out + used, n - used, "%.*s\n", (int)strcspn(t, "\n"), t);
        }
    }
}

static void report_markdown_keeps_the_html_order(void **state)
{
    doc d = { 0 };
    dm_err err = { 0 };
    static char md[8192], html[8192];
    assert_int_equal(report(*state, NULL, 0, 0, "/nonexistent", &d, &err), 0);
    headings(d.md, 0, md, sizeof md);
    headings(d.html, 1, html, sizeof html);
    assert_true(count(md, "\n") >= 10); /* 6 sections, 2 findings, 2 runs' details */
    assert_string_equal(md, html);
    doc_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(report_has_sections_fingerprint_and_points, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_says_which_rule_chose_each_value, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_folds_each_runs_facts, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_escapes_text_and_balances_html, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_draws_plots_inline, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_notes_missing_gnuplot, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_of_chosen_runs_only, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_sets_several_gpus_against_the_fastest_one,
                                        setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_command_writes_both_files_or_none, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_without_fits_or_tdm_runs_says_so, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_has_newest_fits_with_better_marked_and_crossovers,
                                        fits_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_of_other_runs_does_not_recompute_crossovers,
                                        fits_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_has_the_tdm_verdicts_of_each_card, tdm_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_escapes_the_evidence, tdm_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_opens_with_each_runs_headline, headline_setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_markdown_keeps_the_html_order, headline_setup,
                                        afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
