/* test_report.c - `dmbench report` (results/report.c): on a fixture database with a
 * parameter value and a command line holding HTML's specials, the report has its
 * sections, the run's fingerprint, escaped text, balanced HTML tables and SVGs, and
 * markdown tables whose rows all have the header's column count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "analysis_fixture.h"
#include "report.h"

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
    /* a point's row, its median with a unit; the slow block 256 of n=4096 is 40 us */
    assert_non_null(
        strstr(d.md, "| kernel | n=4096,op=a&lt;b\\|c,block=256,scale=0.5 | ok | 20 | 40.0 us |"));
    /* tuning: block 128 is 20% faster than the others in every bucket */
    assert_non_null(
        strstr(d.md, "| Fixture H100 | 9.0 | kernel | n=1024,op=a&lt;b\\|c,scale=0.5 | 128 |"));
    assert_non_null(strstr(d.md, "| Other Card | 8.0 | kernel | n=1024,op=copy,scale=0.5 | 256 |"));
    assert_non_null(strstr(d.md, "Plots left out (--no-plots)."));
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
    assert_non_null(strstr(d.html, "<td>n=1024,op=a&lt;b|c,block=64,scale=0.5</td>"));
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
    char dir[] = "/tmp/dmbench-report-XXXXXX", svg[128];
    doc d = { 0 };
    dm_err err = { 0 };
    assert_non_null(mkdtemp(dir));
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
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void report_notes_missing_gnuplot(void **state)
{
    char dir[] = "/tmp/dmbench-report-XXXXXX", cmd[128];
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
    doc d = { 0 };
    dm_err err = { 0 };
    assert_non_null(mkdtemp(dir));
    setenv("DMBENCH_PLOTS", DM_SOURCE_DIR "/plots", 1);
    setenv("PATH", "/nonexistent", 1);
    int rc = report(*state, NULL, 0, 1, dir, &d, &err);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(d.md, "time-vs-block not drawn: gnuplot not found on PATH"));
    assert_int_equal(count(d.html, "<svg"), 0);
    doc_free(&d);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
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
    char dir[] = "/tmp/dmbench-report-XXXXXX", md[96], html[96], cmd[128];
    struct stat sb;
    assert_non_null(mkdtemp(dir));
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
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(report_has_sections_fingerprint_and_points, setup,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(report_escapes_text_and_balances_html, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_draws_plots_inline, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_notes_missing_gnuplot, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_of_chosen_runs_only, setup, afx_teardown),
        cmocka_unit_test_setup_teardown(report_command_writes_both_files_or_none, setup,
                                        afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
