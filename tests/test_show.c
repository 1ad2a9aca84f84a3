/* test_show.c - reading results back: the run list, a run's fingerprint and table
 * (units, speedups, reasons), the multi-GPU points against the fastest one GPU
 * (scaling.h), CSV that an RFC 4180 reader parses back, JSON that a strict validator
 * accepts, and the `dmbench show` / `dmbench export` commands end to end. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <sys/wait.h>
#include <unistd.h>

#include "scaling.h"
#include "store_fixture.h"

/* ---- a database of the toy workload with three runs ---- */

#define FAILED_REASON "setup: block 2048 exceeds \"max\", 1024\nsecond line"
#define FAILED_DETAIL "element 3:\tgot 1, want 2"

typedef struct fixture {
    afx db;
    int64_t run_main, run_units;
} fixture;

/* The facts of every measured kernel point: two groups, a count past 2^32, a time. */
static const dm_fact KERNEL_FACTS[] = {
    { "level 2", "candidates", 78, NULL },
    { "level 2", "filter_s", 0.0125, "s" },
    { "level 3", "candidates", 12345678901.0, NULL },
};

/* Stores point idx of run: variant 0 (cpu) or 1 (kernel, block 128, scale 0.25, with
 * KERNEL_FACTS); ok with three samples around median, or with status and reason when
 * median is NaN. */
static void put_point(dm_store *st, int64_t run, int64_t idx, int variant, int64_t n,
                      double median, const char *status, const char *reason)
{
    dm_point pt;
    afx_toy_point(&pt, variant, n, "copy", 128, 0.25);
    dm_sample samples[3] = {
        { .seconds = median * 0.95, .batch = 1, .sm_mhz = 1980 },
        { .seconds = median, .batch = 1, .sm_mhz = 1980 },
        { .seconds = median * 1.05, .batch = 1, .sm_mhz = NAN },
    };
    dm_measurement m = { .samples = samples, .n = 3, .stop_reason = "noise", .batch = 1,
                         .clock_source = "nvml", .sm_mhz_before = 1980, .sm_mhz_after = 1980,
                         .host_mhz_before = 3300, .host_mhz_after = 2100,
                         .stats = { .n = 3, .min = median * 0.95, .q1 = median * 0.975,
                                    .median = median, .mean = median, .q3 = median * 1.025,
                                    .max = median * 1.05, .stdev = median * 0.05,
                                    .noise = 0.05 },
                         .criterion = "median", .criterion_value = 0.02, .outlier_k = 3.5,
                         /* the 1 ms kernel's samples are all outliers, to show the note */
                         .n_outliers = median < 2e-3 ? 3 : 0 };
    dm_work work = { .bytes = 8e5 * (double)n, .ops = 2048.0 * (double)n, .ops_unit = "steps" };
    int ok = !isnan(median);
    dm_point_result r = {
        .run_id = run, .index = idx, .point = &pt, .status = ok ? "ok" : status,
        .reason = reason,
        .verify = ok ? "match" : strcmp(status, "failed") == 0 ? "error" : "not-run",
        .verify_detail = ok ? NULL : strcmp(status, "failed") == 0 ? FAILED_DETAIL : NULL,
        .m = ok ? &m : NULL, .work = ok ? &work : NULL, .started = 1.7e9, .ended = 1.7e9 + 2,
        .facts = ok && variant ? KERNEL_FACTS : NULL, .nfacts = ok && variant ? 3 : 0,
    };
    dm_err err = { 0 };
    if (store_point(st, &r, NULL, &err) != 0)
        fail_msg("store_point: %s", err.msg);
}

static int64_t put_run(dm_store *st, const char *sweep, const char *baseline)
{
    static dm_device dev = { .sms = 132, .cc_major = 9, .cc_minor = 0, .l2_bytes = 52428800,
                             .mem_bytes = 85520809984LL, .driver_version = 13000,
                             .runtime_version = 13000, .name = "NVIDIA H100 80GB HBM3",
                             .uuid = "GPU-0123abcd", .pci_bus_id = "00000000:19:00.0" };
    dm_measure_opts mo = { .mode = DM_MODE_COLD, .min_samples = 10, .max_noise = 0.005,
                           .max_time = 2, .max_samples = 100000, .outlier_k = 3.5 };
    dm_run_info info = { .host = "gpu-01", .device = &dev, .sm_clock_mhz_start = 1980,
                         .mem_clock_mhz_start = 2619, .clock_source = "nvml",
                         .dmbench_version = "0.1.0", .git_commit = "abcdef012345",
                         .git_dirty = 1, .build_flags = "RelWithDebInfo",
                         .argv = "dmbench run sweeps/toy.yaml", .sweep_name = sweep,
                         .sweep_path = "sweeps/toy.yaml", .sweep_text = "workload: toy\n",
                         .workload = "toy", .baseline = baseline, .measure = &mo,
                         .points_total = 5, .points_planned = 4 };
    dm_err err = { 0 };
    int64_t id;
    if (store_run_begin(st, &info, &id, &err) != 0)
        fail_msg("store_run_begin: %s", err.msg);
    return id;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    dm_err err = { 0 };
    *state = f;
    if (!f || afx_open(&f->db) != 0)
        return -1;
    dm_store *st = f->db.st;
    f->run_main = put_run(st, "toy-main", "cpu");
    put_point(st, f->run_main, 0, 0, 1024, 4e-3, NULL, NULL);
    put_point(st, f->run_main, 1, 1, 1024, 999.7e-6, NULL, NULL);
    put_point(st, f->run_main, 2, 1, 2048, NAN, "failed", FAILED_REASON);
    put_point(st, f->run_main, 3, 1, 4096, NAN, "skipped", "no GPU");
    if (store_run_note(st, f->run_main, "memcpy_gbps", "2890.5", &err) != 0 ||
        store_run_end(st, f->run_main, "complete", &err) != 0)
        return -1;
    /* a run to see each time unit, without a baseline */
    f->run_units = put_run(st, "toy-units", NULL);
    put_point(st, f->run_units, 0, 0, 1, 12.34e-9, NULL, NULL);
    put_point(st, f->run_units, 1, 0, 2, 2.5e-6, NULL, NULL);
    put_point(st, f->run_units, 2, 0, 3, 123.4e-6, NULL, NULL);
    put_point(st, f->run_units, 3, 0, 4, 1.5, NULL, NULL);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    int rc = afx_close(&f->db);
    free(f);
    return rc;
}

/* ---- capturing output ---- */

typedef struct capture {
    char *text;
    size_t len;
    FILE *fp;
} capture;

static FILE *capture_begin(capture *c)
{
    memset(c, 0, sizeof *c);
    c->fp = open_memstream(&c->text, &c->len);
    assert_non_null(c->fp);
    return c->fp;
}

static char *capture_end(capture *c)
{
    fclose(c->fp);
    return c->text;
}

/* The line of text that starts with prefix, copied to buf; fails the test when none. */
static const char *line_starting(const char *text, const char *prefix, char *buf, size_t n)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            size_t len = strcspn(p, "\n");
            snprintf(buf, n, "%.*s", (int)len, p);
            return buf;
        }
    }
    fail_msg("no line starting with '%s' in:\n%s", prefix, text);
    return NULL;
}

/* ---- show ---- */

static void test_show_runs_lists_every_run(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    char line[512];
    assert_int_equal(store_show_runs(f->db.st, capture_begin(&c), &err), 0);
    char *out = capture_end(&c);
    line_starting(out, "  run", line, sizeof line);
    assert_non_null(strstr(line, "sweep"));
    line_starting(out, "    1  ", line, sizeof line);
    assert_non_null(strstr(line, "complete"));
    assert_non_null(strstr(line, "complete          4       2  toy"));
    assert_non_null(strstr(line, "toy-main"));
    assert_non_null(strstr(line, "NVIDIA H100 80GB HBM3"));
    line_starting(out, "    2  ", line, sizeof line);
    assert_non_null(strstr(line, "running"));
    assert_non_null(strstr(line, "toy-units"));
    free(out);
}

static void test_show_run_prints_fingerprint_and_table(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    char line[512];
    assert_int_equal(store_show_run(f->db.st, f->run_main, capture_begin(&c), &err), 0);
    char *out = capture_end(&c);
    static const char *const expected[] = {
        "run 1: complete", "toy-main (sweeps/toy.yaml)", "speedups against cpu",
        "dmbench run sweeps/toy.yaml", "NVIDIA H100 80GB HBM3, cc 9.0, 132 SMs, L2 50.0 MiB",
        "GPU-0123abcd, PCI 00000000:19:00.0", "SM 1980 MHz, memory 2619 MHz at start",
        "driver 13.0, runtime 13.0, dmbench 0.1.0", "abcdef012345 (dirty)", "RelWithDebInfo",
        "cold; 10 to 100000 samples, stopping at ci95 0.50% (criterion median) or after 2 s; "
        "outliers above median + 3.5 robust sd", "memcpy_gbps = 2890.5",
        "stopped    2 on ci95; 1 of 2 with outliers",
        "outliers: 3 of 3 samples above median + 3.5 robust sd; no sample throttled, SM "
        "clock 1980 -> 1980 MHz, host core 3300 -> 2100 MHz",
        "5 in the sweep, 4 planned; stored: 1 failed, 2 ok, 1 skipped",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!strstr(out, expected[i]))
            fail_msg("'%s' missing from:\n%s", expected[i], out);

    line_starting(out, "  idx", line, sizeof line);
    assert_non_null(strstr(line, "     ci95      rsd  stop"));
    assert_non_null(strstr(line, "GB/s"));
    assert_non_null(strstr(line, "  steps/s  ")); /* the work's unit, a second */
    assert_non_null(strstr(line, "speedup"));
    line_starting(out, "    0  cpu ", line, sizeof line);
    assert_non_null(strstr(line, "n=1024,op=copy"));
    assert_non_null(strstr(line, "4.00 ms"));
    /* the criterion's figure, labelled (column ci95), the rsd beside it, and the stop
     * named by the figure it judged, never as "noise" beside the rsd */
    assert_non_null(strstr(line, "    2.00%    5.00%  ci95 "));
    assert_null(strstr(line, "noise"));
    assert_non_null(strstr(line, "  205  ")); /* 8.192e8 bytes in 4 ms: 204.8 GB/s */
    assert_non_null(strstr(line, "  5.24e+08  ")); /* 2,097,152 steps in 4 ms */
    assert_non_null(strstr(line, "1.00x"));
    line_starting(out, "    1  kernel", line, sizeof line);
    assert_non_null(strstr(line, "n=1024,op=copy,block=128,scale=0.25"));
    assert_non_null(strstr(line, "1.00 ms")); /* 999.7 us rounds up a unit */
    assert_non_null(strstr(line, "4.00x"));
    assert_non_null(strstr(line, "match"));
    /* its facts, a line per group under it, counts with every digit; none under cpu */
    assert_non_null(strstr(out, "\n       facts: level 2: candidates 78, filter_s "
                                "0.0125 s\n              level 3: candidates 12345678901\n"));
    assert_null(strstr(strstr(out, "facts:") + 1, "facts:"));
    line_starting(out, "    2  kernel", line, sizeof line);
    assert_non_null(strstr(line, "failed"));
    assert_non_null(strstr(line, "error"));
    line_starting(out, "       reason: setup: block 2048 exceeds \"max\", 1024", line, sizeof line);
    line_starting(out, "               second line", line, sizeof line);
    line_starting(out, "       verification: " FAILED_DETAIL, line, sizeof line);
    /* points that never ran are summed up by reason, not listed */
    assert_null(strstr(out, "    3  kernel"));
    line_starting(out, "skipped 1 point (from idx 3): no GPU", line, sizeof line);
    line_starting(out, "  time", line, sizeof line);
    assert_non_null(strstr(line, "per measured point beyond its samples"));
    free(out);
}

static void test_show_run_picks_time_units(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    char line[512];
    /* run 0 is the newest: the units run */
    assert_int_equal(store_show_run(f->db.st, 0, capture_begin(&c), &err), 0);
    char *out = capture_end(&c);
    assert_non_null(strstr(out, "run 2: running"));
    assert_null(strstr(out, "speedup"));
    static const char *const rows[][2] = {
        { "    0  cpu", "12.3 ns" }, { "    1  cpu", "2.50 us" },
        { "    2  cpu", "123 us" }, { "    3  cpu", "1.50 s" },
    };
    for (int i = 0; i < 4; i++) {
        line_starting(out, rows[i][0], line, sizeof line);
        if (!strstr(line, rows[i][1]))
            fail_msg("'%s' missing from '%s'", rows[i][1], line);
    }
    free(out);
}

static void test_unknown_run_is_an_input_error(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    char want[256];
    snprintf(want, sizeof want, "no run 99 in %s", f->db.path);
    assert_int_equal(store_show_run(f->db.st, 99, capture_begin(&c), &err), DM_EINPUT);
    free(capture_end(&c));
    assert_string_equal(err.msg, want);
    assert_int_equal(store_export(f->db.st, 99, DM_EXPORT_JSON, capture_begin(&c), &err), DM_EINPUT);
    free(capture_end(&c));
    assert_string_equal(err.msg, want);
}

/* ---- CSV ---- */

#define CSV_MAX_FIELDS 96
#define CSV_MAX_ROWS 16

typedef struct csv_table {
    int nrows, ncols[CSV_MAX_ROWS];
    char *cell[CSV_MAX_ROWS][CSV_MAX_FIELDS];
} csv_table;

/* Parses RFC 4180 text (CRLF records, quoted fields with doubled quotes) into t. Returns
 * 0, or -1 on malformed input. */
static int csv_parse(const char *p, csv_table *t)
{
    memset(t, 0, sizeof *t);
    while (*p) {
        if (t->nrows == CSV_MAX_ROWS)
            return -1;
        int r = t->nrows++;
        for (;;) {
            char *field = malloc(strlen(p) + 1);
            size_t n = 0;
            if (*p == '"') {
                for (p++;; p++) {
                    if (!*p)
                        return -1;
                    if (*p == '"' && p[1] == '"')
                        field[n++] = *p++;
                    else if (*p == '"')
                        break;
                    else
                        field[n++] = *p;
                }
                p++;
            } else {
                while (*p && *p != ',' && *p != '\r' && *p != '\n' && *p != '"')
                    field[n++] = *p++;
                if (*p == '"')
                    return -1;
            }
            field[n] = '\0';
            if (t->ncols[r] == CSV_MAX_FIELDS)
                return -1;
            t->cell[r][t->ncols[r]++] = field;
            if (*p == ',') {
                p++;
                continue;
            }
            if (p[0] != '\r' || p[1] != '\n')
                return -1;
            p += 2;
            break;
        }
    }
    return 0;
}

static void csv_free(csv_table *t)
{
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols[r]; c++)
            free(t->cell[r][c]);
}

/* The cell of row r in the column whose header is name; fails the test when none. */
static const char *csv_get(const csv_table *t, int r, const char *name)
{
    for (int c = 0; c < t->ncols[0]; c++)
        if (strcmp(t->cell[0][c], name) == 0)
            return t->cell[r][c];
    fail_msg("no CSV column '%s'", name);
    return NULL;
}

static void test_export_csv_parses_back(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    csv_table t;
    assert_int_equal(store_export(f->db.st, f->run_main, DM_EXPORT_CSV, capture_begin(&c), &err), 0);
    char *out = capture_end(&c);
    assert_int_equal(csv_parse(out, &t), 0);
    assert_int_equal(t.nrows, 5);
    for (int r = 1; r < t.nrows; r++)
        assert_int_equal(t.ncols[r], t.ncols[0]);
    /* head, then the parameters in order of appearance, then the rest */
    assert_string_equal(t.cell[0][0], "run_id");
    assert_string_equal(t.cell[0][5], "reason");
    assert_string_equal(t.cell[0][6], "n");
    assert_string_equal(t.cell[0][7], "op");
    assert_string_equal(t.cell[0][8], "block");
    assert_string_equal(t.cell[0][9], "scale");

    assert_string_equal(csv_get(&t, 1, "variant"), "cpu");
    assert_string_equal(csv_get(&t, 1, "block"), "");
    assert_string_equal(csv_get(&t, 1, "speedup"), "1");
    assert_string_equal(csv_get(&t, 1, "median"), "0.004");
    assert_string_equal(csv_get(&t, 1, "n_samples"), "3");
    assert_string_equal(csv_get(&t, 1, "facts"), "");
    assert_string_equal(csv_get(&t, 2, "facts"),
                        "level 2: candidates 78, filter_s 0.0125 s; level 3: candidates "
                        "12345678901");
    assert_string_equal(csv_get(&t, 2, "variant"), "kernel");
    assert_string_equal(csv_get(&t, 2, "n"), "1024");
    assert_string_equal(csv_get(&t, 2, "block"), "128");
    assert_string_equal(csv_get(&t, 2, "scale"), "0.25");
    assert_string_equal(csv_get(&t, 2, "median"), "0.0009997");
    assert_true(fabs(strtod(csv_get(&t, 2, "speedup"), NULL) - 4e-3 / 999.7e-6) < 1e-12);
    assert_string_equal(csv_get(&t, 2, "verification"), "match");
    assert_string_equal(csv_get(&t, 3, "status"), "failed");
    assert_string_equal(csv_get(&t, 3, "reason"), FAILED_REASON);
    assert_string_equal(csv_get(&t, 3, "verification_detail"), FAILED_DETAIL);
    assert_string_equal(csv_get(&t, 3, "median"), "");
    assert_string_equal(csv_get(&t, 4, "reason"), "no GPU");
    csv_free(&t);
    free(out);
}

/* ---- JSON ---- */

/* A strict JSON validator (RFC 8259 grammar): each returns the text after the value it
 * read, or NULL when the text is not valid there. */
static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

static const char *js_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)p[i]))
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
        p++;
    }
    return p + 1;
}

static const char *js_number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (isdigit((unsigned char)*p))
        while (isdigit((unsigned char)*p))
            p++;
    else
        return NULL;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return p;
}

/* Reads the members of an object (object 1) or the elements of an array (object 0)
 * after the opening bracket; an object's keys must be distinct. */
static const char *js_container(const char *p, int object, int depth)
{
    const char *keys[128];
    size_t key_len[128];
    int nkeys = 0;
    char close = object ? '}' : ']';
    p = js_ws(p);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (object) {
            const char *key = js_ws(p);
            if (!(p = js_string(key)) || nkeys == 128)
                return NULL;
            for (int i = 0; i < nkeys; i++)
                if (key_len[i] == (size_t)(p - key) && memcmp(keys[i], key, key_len[i]) == 0)
                    return NULL;
            keys[nkeys] = key;
            key_len[nkeys++] = (size_t)(p - key);
            p = js_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        if (!(p = js_value(p, depth + 1)))
            return NULL;
        p = js_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *js_value(const char *p, int depth)
{
    if (depth > 32)
        return NULL;
    p = js_ws(p);
    switch (*p) {
    case '{': return js_container(p + 1, 1, depth);
    case '[': return js_container(p + 1, 0, depth);
    case '"': return js_string(p);
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return js_number(p);
    }
}

static int json_valid(const char *text)
{
    const char *end = js_value(text, 0);
    return end && *js_ws(end) == '\0';
}

static void test_json_validator_rejects_bad_text(void **state)
{
    (void)state;
    assert_true(json_valid("{\"a\": [1, -2.5e3, \"x\\ty\", null, true]}"));
    assert_false(json_valid("{\"a\": \"tab\there\"}"));
    assert_false(json_valid("{\"a\": nan}"));
    assert_false(json_valid("{\"a\": 1,}"));
    assert_false(json_valid("{\"a\": 1, \"b\": {}, \"a\": 2}"));
    assert_false(json_valid("{\"a\": \"unescaped \" quote\"}"));
}

static void test_export_json_is_valid_with_expected_keys(void **state)
{
    fixture *f = *state;
    capture c;
    dm_err err = { 0 };
    assert_int_equal(store_export(f->db.st, f->run_main, DM_EXPORT_JSON, capture_begin(&c), &err), 0);
    char *out = capture_end(&c);
    if (!json_valid(out))
        fail_msg("invalid JSON:\n%s", out);
    static const char *const expected[] = {
        "\"run\": {", "\"points\": [", "\"gpu_name\": \"NVIDIA H100 80GB HBM3\"",
        "\"git_dirty\": 1", "\"sweep_text\": \"workload: toy\\n\"",
        "\"notes\": {\"memcpy_gbps\": \"2890.5\"}",
        "\"params\": {\"n\": 1024, \"op\": \"copy\"}",
        "\"params\": {\"n\": 1024, \"op\": \"copy\", \"block\": 128, \"scale\": 0.25}",
        "\"stats\": {\"n_samples\": 3, \"min\": ", "\"median\": 0.004,", "\"speedup\": 1,",
        "\"verification\": \"match\"", "\"params_text\": \"n=1024,op=copy\"",
        "\"samples\": [0.00",
        "\"reason\": \"setup: block 2048 exceeds \\\"max\\\", 1024\\nsecond line\"",
        "\"verification_detail\": \"element 3:\\tgot 1, want 2\"",
        "\"stats\": null", "\"samples\": []",
        "\"facts\": [{\"group\": \"level 2\", \"name\": \"candidates\", \"value\": 78, "
        "\"unit\": null}, {\"group\": \"level 2\", \"name\": \"filter_s\", \"value\": 0.0125, "
        "\"unit\": \"s\"}, {\"group\": \"level 3\"",
        "\"facts\": []",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!strstr(out, expected[i]))
            fail_msg("'%s' missing from:\n%s", expected[i], out);
    free(out);
}

/* ---- the commands, through the dmbench binary ---- */

/* Runs dmbench (found next to the tests' directory, so a build tree carried elsewhere
 * still works) with args, stderr joined to stdout; returns the exit status and the
 * output in *out (free it). */
static int dmbench(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int dmbench(char **out, const char *fmt, ...)
{
    char args[1024], self[1024], cmd[2200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = '\0';
    *strrchr(self, '/') = '\0'; /* .../build/tests */
    snprintf(cmd, sizeof cmd, "env -u DMBENCH_DB '%s/../dmbench' %s 2>&1", self, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    capture c;
    FILE *mem = capture_begin(&c);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, n, mem);
    *out = capture_end(&c);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_commands_end_to_end(void **state)
{
    fixture *f = *state;
    char *out, missing[160];

    assert_int_equal(dmbench(&out, "show --help"), 0);
    assert_non_null(strstr(out, "usage: dmbench show"));
    free(out);

    assert_int_equal(dmbench(&out, "show --db %s", f->db.path), 0);
    assert_non_null(strstr(out, "toy-main")); /* the list ... */
    assert_non_null(strstr(out, "run 2: running")); /* ... then the newest run */
    free(out);

    assert_int_equal(dmbench(&out, "show --db %s 1", f->db.path), 0);
    assert_non_null(strstr(out, "run 1: complete"));
    assert_non_null(strstr(out, "4.00x"));
    free(out);

    assert_int_equal(dmbench(&out, "show --db %s 99", f->db.path), 2);
    assert_non_null(strstr(out, "dmbench: error: no run 99 in"));
    free(out);

    assert_int_equal(dmbench(&out, "show --db %s banana", f->db.path), 2);
    free(out);

    snprintf(missing, sizeof missing, "%s/none/x.sqlite", f->db.dir);
    assert_int_equal(dmbench(&out, "show --db %s", missing), 2);
    assert_non_null(strstr(out, missing));
    assert_int_not_equal(access(missing, F_OK), 0); /* reading made no database */
    free(out);

    assert_int_equal(dmbench(&out, "export --db %s --format json latest", f->db.path), 0);
    assert_true(json_valid(out));
    assert_non_null(strstr(out, "\"sweep_name\": \"toy-units\""));
    free(out);

    assert_int_equal(dmbench(&out, "export --db %s 1", f->db.path), 0);
    static const char head[] =
        "run_id,point_id,idx,variant,status,reason,n,op,block,scale,problem_key,params_text,";
    assert_memory_equal(out, head, strlen(head));
    free(out);

    assert_int_equal(dmbench(&out, "export --db %s --format xml", f->db.path), 2);
    assert_non_null(strstr(out, "--format xml: expected one of csv|json"));
    free(out);

    assert_int_equal(dmbench(&out, "show --db %s --bogus", f->db.path), 2);
    assert_non_null(strstr(out, "--bogus"));
    free(out);
}

/* ---- several GPUs against the fastest one GPU ---- */

/* multigpu on 2 and 4 GPUs against the fastest verified one-GPU point of its problem in
 * its run: bitmap's, not the slower concurrent, not cpu-mt (no GPU), not a faster bitmap
 * point that failed verification nor one of another run or problem; its own variant on
 * one GPU beside it; a problem with no one-GPU point has none; show prints them. */
static void test_scaling_is_against_the_fastest_one_gpu(void **state)
{
    fixture *f = *state;
    dm_store *st = f->db.st;
    dm_err err = { 0 };
    const int64_t run = afx_run_of(&f->db, "rules", "NVIDIA H200", 9, 0),
                  other = afx_run_of(&f->db, "rules", "NVIDIA H200", 9, 0);
    afx_plant_scaling(&f->db, run, other);
    scaling_row *rows;
    size_t n;
    assert_int_equal(scaling_rows(st, run, &rows, &n, &err), 0);
    assert_int_equal(n, 3);
    const struct {
        int64_t idx, gpus;
        const char *best;
        double speedup, own;
    } want[] = { { 5, 2, "bitmap", 1.0 / 0.6, 1.2 / 0.6 },
                 { 6, 4, "bitmap", 1.0 / 0.4, 1.2 / 0.4 },
                 { 7, 2, "", NAN, NAN } };
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(rows[i].idx, want[i].idx);
        assert_int_equal(rows[i].gpus, want[i].gpus);
        assert_string_equal(rows[i].variant, "multigpu");
        assert_string_equal(rows[i].best_variant, want[i].best);
        if (isnan(want[i].speedup)) {
            assert_true(isnan(rows[i].best_median) && isnan(rows[i].own_median));
            continue;
        }
        assert_true(fabs(rows[i].best_median / rows[i].median - want[i].speedup) < 1e-9);
        assert_true(fabs(rows[i].own_median / rows[i].median - want[i].own) < 1e-9);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    scaling_print(rows, n, out);
    fclose(out);
    assert_non_null(strstr(text, "fastest verified one-GPU point"));
    assert_non_null(strstr(text, "multigpu        2       0.6 ms      1.67x  bitmap"));
    assert_non_null(strstr(text, "2.00x"));
    assert_non_null(strstr(text, "none in the run"));
    free(text);
    free(rows);
    /* the other run's multigpu-less points: no row */
    assert_int_equal(scaling_rows(st, other, &rows, &n, &err), 0);
    assert_int_equal(n, 0);
    assert_null(rows);
}

/* A rules point of variant at its defaults, but instances 1000, rules_file path, and
 * the int parameter name (NULL: none) at value. */
static void scaling_point_of(dm_point *pt, const char *variant, const char *path,
                             const char *name, int64_t value)
{
    dm_err err = { 0 };
    const dm_workload *w = registry_workload("rules", &err);
    const dm_variant *v = w ? registry_variant(w, variant, &err) : NULL;
    if (!v || registry_point_defaults(w, v, pt, &err) != 0)
        fail_msg("%s: %s", variant, err.msg);
    dm_point_set_int(pt, "instances", 1000);
    dm_point_set_str(pt, "rules_file", path);
    if (name)
        dm_point_set_int(pt, name, value);
}

/* The own 1-GPU twin is matched on the stored parameters, not on the params text: found
 * when its text lists them in another order and a rules file's path holds ",gpus=2,"
 * (rewriting the text's first "gpus=2" would miss it), and not taken when another
 * parameter differs, though that point comes later in the sweep. */
static void test_scaling_twin_is_matched_by_stored_parameters(void **state)
{
    fixture *f = *state;
    dm_err err = { 0 };
    const char *path = "/data/rules,gpus=2,v1.txt";
    const int64_t run = afx_run_of(&f->db, "rules", "NVIDIA H200", 9, 0);
    dm_point pt;
    scaling_point_of(&pt, "bitmap", path, NULL, 0);
    afx_store_verified(&f->db, run, 0, &pt, (double[]){1.0e-3}, 1, "match");
    /* gpus=1 with gpus moved last: the text's order differs from the point on two */
    scaling_point_of(&pt, "multigpu", path, "gpus", 1);
    int at = 0;
    while (strcmp(pt.specs[at]->name, "gpus") != 0)
        at++;
    const dm_param_spec *spec = pt.specs[at];
    const dm_value value = pt.values[at];
    for (int i = at; i + 1 < pt.nparams; i++) {
        pt.specs[i] = pt.specs[i + 1];
        pt.values[i] = pt.values[i + 1];
    }
    pt.specs[pt.nparams - 1] = spec;
    pt.values[pt.nparams - 1] = value;
    afx_store_verified(&f->db, run, 1, &pt, (double[]){1.5e-3}, 1, "match");
    scaling_point_of(&pt, "multigpu", path, "gpus", 2);
    afx_store_verified(&f->db, run, 2, &pt, (double[]){0.5e-3}, 1, "match");
    /* gpus=1 at another block: not the twin */
    dm_point_set_int(&pt, "gpus", 1);
    dm_point_set_int(&pt, "block", 64);
    afx_store_verified(&f->db, run, 3, &pt, (double[]){4.0e-3}, 1, "match");
    assert_int_equal(afx_int(f->db.st, "SELECT count(*) FROM points WHERE params LIKE "
                                       "'%,chunk=0,gpus=1'"), 1);
    scaling_row *rows;
    size_t n;
    assert_int_equal(scaling_rows(f->db.st, run, &rows, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].idx, 2);
    assert_string_equal(rows[0].best_variant, "bitmap");
    assert_true(fabs(rows[0].best_median / rows[0].median - 2.0) < 1e-9);
    assert_true(fabs(rows[0].own_median / rows[0].median - 3.0) < 1e-9);
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_show_runs_lists_every_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_show_run_prints_fingerprint_and_table, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_show_run_picks_time_units, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_run_is_an_input_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_export_csv_parses_back, setup, teardown),
        cmocka_unit_test(test_json_validator_rejects_bad_text),
        cmocka_unit_test_setup_teardown(test_export_json_is_valid_with_expected_keys, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_commands_end_to_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scaling_is_against_the_fastest_one_gpu, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_scaling_twin_is_matched_by_stored_parameters,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
