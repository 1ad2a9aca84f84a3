/* test_rules_table.c - the rules workload's tables: the CSV/TSV loader (separators,
 * headers and kinds detected or given, quoted cells, gzip read through zlib) and each error it
 * names by path:line:column, every shared dataset of ../shared/datasets/rules (skipped
 * when absent), the synthetic table generator, and the slices that cut a table across
 * GPUs with the views of their rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rng.h"
#include "rules/rl_table.h"
#include "tmpdir.h"

#define RULES_DATA DM_SOURCE_DIR "/../shared/datasets/rules"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "rules-table");
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir_remove(dir);
}

/* Writes text to dir/name; returns the path (a static buffer). */
static const char *write_text(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Loads text (written to a file) with opts; asserts success. */
static void load_ok(const char *text, const rl_load_opts *opts, rl_table *t)
{
    const char *path = write_text("ok.csv", text);
    dm_err err = {0};
    if (rl_table_load(path, opts, t, &err))
        fail_msg("'%s': %s", text, err.msg);
}

/* Asserts that loading text fails with DM_EINPUT and one line starting "path:where: "
 * and containing what. */
static void load_fails(const char *text, const char *where, const char *what)
{
    const char *path = write_text("bad.csv", text);
    rl_table t;
    dm_err err = {0};
    assert_int_equal(rl_table_load(path, NULL, &t, &err), DM_EINPUT);
    char want[192];
    snprintf(want, sizeof want, "%s:%s: ", path, where);
    if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave '%s', expected '%s...%s'", text, err.msg, want, what);
    assert_null(strchr(err.msg, '\n'));
    assert_null(t.cols);
    assert_int_equal(t.n, 0);
}

static void test_load_csv_header_and_kinds(void **state)
{
    (void)state;
    rl_table t;
    load_ok("len, colour ,n\r\n1.5,red,3\r\n-2e1, blue ,4\r\n.5,red,5\r\n\r\n\n", NULL, &t);
    assert_int_equal(t.n, 3);
    assert_int_equal(t.ncols, 3);
    assert_string_equal(t.cols[0].name, "len");
    assert_string_equal(t.cols[1].name, "colour");
    assert_int_equal(t.cols[0].kind, RL_NUMERIC);
    assert_int_equal(t.cols[1].kind, RL_CATEGORICAL);
    assert_true(t.cols[0].num[0] == 1.5 && t.cols[0].num[1] == -20 && t.cols[0].num[2] == 0.5);
    assert_int_equal(t.cols[1].nlevels, 2);
    assert_string_equal(t.cols[1].levels[0], "red");
    assert_string_equal(t.cols[1].levels[1], "blue");
    assert_int_equal(t.cols[1].code[0], 0);
    assert_int_equal(t.cols[1].code[1], 1);
    assert_int_equal(t.cols[1].code[2], 0);
    assert_int_equal(rl_table_column(&t, "n"), 2);
    assert_int_equal(rl_table_column(&t, "x"), -1);
    assert_int_equal(rl_column_level(&t.cols[1], "blue"), 1);
    assert_int_equal(rl_column_level(&t.cols[1], "green"), -1);
    rl_table_free(&t);
    assert_null(t.cols);
}

static void test_load_no_header_tsv_and_options(void **state)
{
    (void)state;
    rl_table t;
    /* No header: the first row's text column is text below it too. */
    load_ok("M\t1\t0.30000000000000004\nF\t2\t3\n", NULL, &t);
    assert_int_equal(t.n, 2);
    assert_string_equal(t.cols[0].name, "a0");
    assert_string_equal(t.cols[2].name, "a2");
    assert_int_equal(t.cols[0].kind, RL_CATEGORICAL);
    assert_true(t.cols[2].num[0] == 0.30000000000000004);
    rl_table_free(&t);
    /* One row only: data, not a header. */
    load_ok("x,y\n", NULL, &t);
    assert_int_equal(t.n, 1);
    assert_int_equal(t.cols[1].kind, RL_CATEGORICAL);
    rl_table_free(&t);
    /* Numbers in a categorical column are levels. */
    load_ok("a,b\nred,1\n7,2\n", NULL, &t);
    assert_int_equal(t.cols[0].kind, RL_CATEGORICAL);
    assert_string_equal(t.cols[0].levels[1], "7");
    rl_table_free(&t);
    /* Header given: an all-text header over text rows. */
    rl_load_opts yes = {.header = RL_HEADER_YES}, no = {.header = RL_HEADER_NO};
    load_ok("k,v\na,b\n", &yes, &t);
    assert_int_equal(t.n, 1);
    assert_string_equal(t.cols[1].name, "v");
    rl_table_free(&t);
    load_ok("k,v\n1,2\n", &no, &t);
    assert_int_equal(t.n, 2);
    assert_int_equal(t.cols[0].kind, RL_CATEGORICAL);
    rl_table_free(&t);
    /* Separator given: a tab in a CSV cell is no separator. */
    rl_load_opts comma = {.sep = ','};
    load_ok("a\tb,1\nc,2\n", &comma, &t);
    assert_int_equal(t.ncols, 2);
    assert_string_equal(t.cols[0].levels[0], "a\tb");
    rl_table_free(&t);
}

static void test_load_gzip(void **state)
{
    (void)state;
    const char *path = write_text("t.tsv", "x\ty\ttarget\n1\t2\t0\n3\t4\t1\n");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "gzip -f '%s'", path);
    assert_int_equal(system(cmd), 0);
    char gz[160];
    snprintf(gz, sizeof gz, "%s/t.tsv.gz", dir);
    rl_table t;
    dm_err err = {0};
    assert_int_equal(rl_table_load(gz, NULL, &t, &err), 0);
    assert_int_equal(t.n, 2);
    assert_string_equal(t.cols[2].name, "target");
    assert_true(t.cols[1].num[1] == 4);
    rl_table_free(&t);
    /* Cut short: a gzip error naming the file. */
    FILE *f = fopen(gz, "r+b");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), 20), 0);
    fclose(f);
    assert_int_equal(rl_table_load(gz, NULL, &t, &err), DM_EINPUT);
    assert_true(strncmp(err.msg, gz, strlen(gz)) == 0);
    assert_non_null(strstr(err.msg, ": gzip: "));
    assert_null(t.cols);
    /* Quoted CSV, compressed: read as the CSV. */
    path = write_text("q.csv", "name,\"size, cm\"\r\n\"a,b\",1\r\n\"say \"\"x\"\"\",2\r\n");
    snprintf(cmd, sizeof cmd, "gzip -f '%s'", path);
    assert_int_equal(system(cmd), 0);
    snprintf(gz, sizeof gz, "%s/q.csv.gz", dir);
    assert_int_equal(rl_table_load(gz, NULL, &t, &err), 0);
    assert_int_equal(t.n, 2);
    assert_string_equal(t.cols[1].name, "size, cm");
    assert_string_equal(t.cols[0].levels[0], "a,b");
    assert_string_equal(t.cols[0].levels[1], "say \"x\"");
    assert_true(t.cols[1].num[1] == 2);
    rl_table_free(&t);
}

/* Issue 35: a level holding the separator, quoted as RFC 4180 (and Python's csv module)
 * writes it, is one cell; the table is the one with the level written ab. Quoted
 * numbers are numbers; a quoted line break is in its cell and counts as a line. */
static void test_load_quoted_cells(void **state)
{
    (void)state;
    rl_table q, p;
    load_ok("x,cat,class\n1,\"a,b\",0\n2,c,1\n\"3\",\"a,b\",1\n", NULL, &q);
    load_ok("x,cat,class\n1,ab,0\n2,c,1\n3,ab,1\n", NULL, &p);
    assert_true(q.n == 3 && q.ncols == 3 && q.cols[0].kind == RL_NUMERIC);
    assert_string_equal(q.cols[1].levels[0], "a,b");
    for (int64_t i = 0; i < 3; i++) {
        assert_int_equal(q.cols[1].code[i], p.cols[1].code[i]);
        assert_true(q.cols[0].num[i] == p.cols[0].num[i] && q.cols[2].num[i] == p.cols[2].num[i]);
    }
    rl_table_free(&q);
    rl_table_free(&p);
    load_ok("\xef\xbb\xbfk,\"v\"\n\"two\nlines\",7", NULL, &q);
    assert_string_equal(q.cols[0].name, "k");
    assert_string_equal(q.cols[1].name, "v");
    assert_string_equal(q.cols[0].levels[0], "two\nlines");
    rl_table_free(&q);
    /* positions after a quoted line break are physical lines */
    load_fails("a,b\n\"x\ny\",1\nz,w\n", "4:3", "field 2 (b): 'w' is not a number");
    load_fails("a,b\n1,\"\"\n", "2:3", "field 2 (b): missing value");
    load_fails("a,b\n1,\"2\n", "2:3", "never closed");
    load_fails("a,b\n1,\"2\" 3\n", "2:7", "'3' after the closing quote");
    /* a quoted line break in a message is shown \n: the message stays one line */
    load_fails("a,b\n1,2\n3,\"x\ny\"\n", "3:3", "'x\\ny' is not a number");
}

static void test_load_errors(void **state)
{
    (void)state;
    load_fails("", "1:1", "empty file");
    load_fails("\n \r\n\t\n", "1:1", "empty file");
    load_fails("a,b\n1,2\n3,4,5\n", "3:5", "3 fields, expected 2 as in line 1");
    load_fails("a,b,c\n1,2,3\n4,5\n", "3:4", "2 fields, expected 3");
    load_fails("1,2\n3\n", "2:2", "1 field, expected 2");
    load_fails("a,b\n1,2\n3, \n", "3:4", "field 2 (b): missing value");
    load_fails("1,,2\n", "1:3", "field 2 (a1): missing value");
    load_fails("a,b\n1,2\n\n3,4\n", "3:1", "empty line followed by more rows (line 4)");
    load_fails("a,b\n1,2\n3,x7\n", "3:3",
               "field 2 (b): 'x7' is not a number, and the column is numeric (its first value, "
               "line 2,");
    load_fails("1,2\n3,1e999\n", "2:3", "'1e999' is not a number");
    load_fails("1,2\n3,nan\n", "2:3", "'nan' is not a number");
    load_fails("1,2\n3,0x10\n", "2:3", "'0x10' is not a number");
    load_fails("1,2\n3,1.5.2\n", "2:3", "is not a number");
    load_fails("a,,c\n1,2,3\n", "1:3", "field 2: empty column name");
    load_fails("a,b,a\n1,2,3\n", "1:5", "field 3 (a): column name repeated (field 1");
    rl_table t;
    dm_err err = {0};
    rl_load_opts yes = {.header = RL_HEADER_YES};
    const char *path = write_text("h.csv", "a,b\n\n");
    assert_int_equal(rl_table_load(path, &yes, &t, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, ":2:1: a header and no rows after it"));
    assert_int_equal(rl_table_load("/nonexistent/r.csv", NULL, &t, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/r.csv"));
}

/* A NUL inside a cell once ended the level's string before the cell's length, and the
 * level lookup read past it (found by scripts/fuzz): NUL bytes are no text. */
static void test_nul_byte_is_not_text(void **state)
{
    (void)state;
    static const char text[] = "a,b\n1,x\0y\n2,x\n";
    rl_table t;
    dm_err err = {0};
    assert_int_equal(rl_table_parse(text, sizeof text - 1, "t.csv", NULL, &t, &err),
                     DM_EINPUT);
    assert_string_equal(err.msg, "t.csv:2:4: a NUL byte: not text");
    assert_null(t.cols);
}

static void test_parse_number(void **state)
{
    (void)state;
    static const char *good[] = {"0", "-1", "+2.5", ".5", "5.", "1e3", "1E-3", "-0.0e+0"};
    static const char *bad[] = {"", "-", ".", "e3", "1e", "1e+", "inf", "nan", "0x1", "1 2",
                                "1,5", "--1"};
    double v;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(rl_parse_number(good[i], good[i] + strlen(good[i]), &v));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (rl_parse_number(bad[i], bad[i] + strlen(bad[i]), &v))
            fail_msg("'%s' read as a number", bad[i]);
}

/* The shared files as the datasets README lists them: rows, columns, the target last. */
static void test_load_shared_datasets(void **state)
{
    (void)state;
    if (access(RULES_DATA, R_OK) != 0)
        skip();
    static const struct {
        const char *file;
        int64_t rows;
        int cols;
    } sets[] = {
        {"wdbc.tsv.gz", 569, 31},          {"page_blocks.tsv.gz", 5473, 11},
        {"ann_thyroid.tsv.gz", 7200, 22},  {"magic.tsv.gz", 19020, 11},
        {"574_house_16H.tsv.gz", 22784, 17}, {"shuttle.tsv.gz", 58000, 10},
        {"spambase.tsv.gz", 4601, 58},     {"kddcup.tsv.gz", 494020, 42},
        {"abalone.csv", 4177, 9},          {"poker-hand-training.csv", 25010, 11},
    };
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", RULES_DATA, sets[s].file);
        rl_table t;
        dm_err err = {0};
        if (rl_table_load(path, NULL, &t, &err))
            fail_msg("%s", err.msg);
        if (t.n != sets[s].rows || t.ncols != sets[s].cols)
            fail_msg("%s: %lld x %d, expected %lld x %d", sets[s].file, (long long)t.n, t.ncols,
                     (long long)sets[s].rows, sets[s].cols);
        if (strstr(sets[s].file, ".tsv.gz")) { /* header, all numeric, target last */
            assert_string_equal(t.cols[t.ncols - 1].name, "target");
            for (int j = 0; j < t.ncols; j++)
                assert_int_equal(t.cols[j].kind, RL_NUMERIC);
        }
        rl_table_free(&t);
    }
    /* Abalone: no header; sex is categorical (M, F, I), the rest numeric. */
    rl_table t;
    dm_err err = {0};
    assert_int_equal(rl_table_load(RULES_DATA "/abalone.csv", NULL, &t, &err), 0);
    assert_string_equal(t.cols[0].name, "a0");
    assert_int_equal(t.cols[0].kind, RL_CATEGORICAL);
    assert_int_equal(t.cols[0].nlevels, 3);
    assert_true(rl_column_level(&t.cols[0], "M") >= 0 && rl_column_level(&t.cols[0], "F") >= 0 &&
                rl_column_level(&t.cols[0], "I") >= 0);
    for (int j = 1; j < 9; j++)
        assert_int_equal(t.cols[j].kind, RL_NUMERIC);
    rl_table_free(&t);
}

/* Random text from a small alphabet of separators, digits, letters, spaces and line
 * ends: the loader either reads a table whose every row is full or refuses it with one
 * line naming the input; it never crashes. */
static void test_load_random_text(void **state)
{
    (void)state;
    static const char alphabet[] = ",,\t\n\n\r 0123456789.-eEab\"";
    dm_rng r = dm_rng_seed(77);
    char text[200];
    int loaded = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = dm_rng_below(&r, sizeof text);
        for (size_t i = 0; i < n; i++)
            text[i] = alphabet[dm_rng_below(&r, sizeof alphabet - 1)];
        rl_table t;
        dm_err err = {0};
        int rc = rl_table_parse(text, n, "fuzz.csv", NULL, &t, &err);
        if (rc == 0) {
            loaded++;
            assert_true(t.n >= 1 && t.ncols >= 1);
            for (int j = 0; j < t.ncols; j++)
                assert_true(t.cols[j].kind == RL_NUMERIC ? t.cols[j].num != NULL
                                                         : t.cols[j].code != NULL);
            rl_table_free(&t);
        } else {
            assert_int_equal(rc, DM_EINPUT);
            assert_true(strncmp(err.msg, "fuzz.csv:", 9) == 0);
            assert_null(strchr(err.msg, '\n'));
            assert_null(t.cols);
        }
    }
    assert_true(loaded > 100);
}

static void test_synth(void **state)
{
    (void)state;
    rl_table a, b, c;
    dm_err err = {0};
    assert_int_equal(rl_synth_generate(1000, 5, 3, 42, &a, &err), 0);
    assert_int_equal(rl_synth_generate(10, 5, 3, 42, &b, &err), 0);
    assert_int_equal(rl_synth_generate(1000, 5, 0, 43, &c, &err), 0);
    assert_int_equal(a.ncols, 6);
    assert_int_equal(c.ncols, 5);
    assert_string_equal(a.cols[0].name, "a0");
    assert_string_equal(a.cols[5].name, "class");
    int seen[3] = {0};
    double sum = 0;
    for (int64_t i = 0; i < a.n; i++) {
        for (int j = 0; j < 5; j++) {
            double v = a.cols[j].num[i];
            assert_true(v >= 0 && v < 1);
            sum += v;
        }
        double k = a.cols[5].num[i];
        assert_true(k == 0 || k == 1 || k == 2);
        seen[(int)k]++;
    }
    assert_true(sum / 5000 > 0.45 && sum / 5000 < 0.55);
    assert_true(seen[0] > 250 && seen[1] > 250 && seen[2] > 250);
    for (int64_t i = 0; i < b.n; i++) /* a shorter table is a prefix */
        for (int j = 0; j < 6; j++)
            assert_true(a.cols[j].num[i] == b.cols[j].num[i]);
    assert_true(a.cols[0].num[0] != c.cols[0].num[0]);
    rl_table_free(&a);
    rl_table_free(&b);
    rl_table_free(&c);
    assert_int_equal(rl_synth_generate(0, 5, 0, 1, &a, &err), DM_EINPUT);
    assert_int_equal(rl_synth_generate(10, 0, 0, 1, &a, &err), DM_EINPUT);
    assert_int_equal(rl_synth_generate(10, 2, -1, 1, &a, &err), DM_EINPUT);
}

/* Every cut of n rows into parts slices: contiguous from row 0 in slice order, covering
 * the n rows, sizes differing by one at most, the larger first, so the empty ones (when
 * n < parts) are the last. */
static void test_slices_cover_the_rows_in_order(void **state)
{
    (void)state;
    static const int64_t counts[] = {1, 2, 3, 5, 7, 15, 16, 17, 1000, 1025010, 100000000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int parts = 1; parts <= 16; parts++) {
            const int64_t n = counts[c];
            int64_t next = 0, prev = INT64_MAX;
            for (int k = 0; k < parts; k++) {
                int64_t i0, len;
                rl_table_slice(n, parts, k, &i0, &len);
                if (i0 != next || len > prev || len < n / parts || len > n / parts + 1)
                    fail_msg("%lld rows in %d slices: slice %d is [%lld, +%lld)", (long long)n,
                             parts, k, (long long)i0, (long long)len);
                assert_true(len > 0 || k >= n);
                next = i0 + len;
                prev = len;
            }
            assert_true(next == n);
        }
    int64_t i0, len;
    rl_table_slice(10, 4, 3, &i0, &len); /* 3 3 2 2 */
    assert_true(i0 == 8 && len == 2);
    rl_table_slice(2, 3, 2, &i0, &len); /* 1 1 0 */
    assert_true(i0 == 2 && len == 0);
}

/* A view of some rows holds those rows' values, numeric and categorical, and shares the
 * table's names and levels; freeing it leaves the table whole. */
static void test_a_view_holds_its_rows(void **state)
{
    (void)state;
    rl_table t, v;
    dm_err err = {0};
    const char *path = write_text("v.csv", "x,colour\n1,red\n2,blue\n3,red\n4,green\n5,red\n");
    assert_int_equal(rl_table_load(path, NULL, &t, &err), 0);
    assert_int_equal(rl_table_rows(&t, 1, 3, &v, &err), 0);
    assert_int_equal(v.n, 3);
    assert_int_equal(v.ncols, 2);
    for (int64_t i = 0; i < 3; i++) {
        assert_true(v.cols[0].num[i] == (double)(i + 2));
        assert_int_equal(v.cols[1].code[i], t.cols[1].code[i + 1]);
    }
    assert_ptr_equal(v.cols[0].name, t.cols[0].name);
    assert_ptr_equal(v.cols[1].levels, t.cols[1].levels);
    assert_int_equal(v.cols[1].nlevels, 3);
    assert_int_equal(rl_table_column(&v, "colour"), 1);
    rl_table_view_free(&v);
    assert_null(v.cols);
    assert_true(t.cols[0].num[4] == 5);
    assert_string_equal(t.cols[1].levels[t.cols[1].code[3]], "green");
    rl_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_number),
        cmocka_unit_test(test_load_csv_header_and_kinds),
        cmocka_unit_test(test_load_no_header_tsv_and_options),
        cmocka_unit_test(test_load_gzip),
        cmocka_unit_test(test_load_quoted_cells),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_nul_byte_is_not_text),
        cmocka_unit_test(test_load_random_text),
        cmocka_unit_test(test_load_shared_datasets),
        cmocka_unit_test(test_synth),
        cmocka_unit_test(test_slices_cover_the_rows_in_order),
        cmocka_unit_test(test_a_view_holds_its_rows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
