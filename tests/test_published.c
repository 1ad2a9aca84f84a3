/* test_published.c - the papers' numbers in results/published/ (CSV): every file loads
 * with as many rows as its table has cells, values match the papers' text, files write
 * back byte for byte, and each kind of malformed CSV is refused naming its line. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <unistd.h>

#include "published.h"
#include "tmpdir.h"

#define PUB_DIR DM_SOURCE_DIR "/results/published"

#define CF10 "episodes-chip-on-chip-cf10"
#define JOURNAL "episodes-gpu-multigpu-journal"
#define TDM "tdm-characterization-ipdps09"
#define RULES "rules-gpu-evaluation-cano2013"
#define COLOC "colocation-grid-gpu-sstd17"

/* Rows each shipped file must hold: the cells of the paper's table (line numbers are
 * those of papers/<paper>.txt), less the empty or garbled ones that
 * results/published/README.md lists. */
static const struct {
    const char *file;
    size_t rows;
} shipped[] = {
    /* cf10.txt:374-375: levels 3..8, one crossover each */
    { "episodes-cf10-table1.csv", 6 },
    /* journal.txt:929-930: the same six */
    { "episodes-journal-table1.csv", 6 },
    /* cf10.txt:368-417, 14 figures; journal.txt:913-1068, 18 figures */
    { "episodes-text-ratios.csv", 32 },
    /* tdm.txt:175-187: 12 features x 3 cards */
    { "tdm-table2.csv", 36 },
    /* rules.txt:798-802: 4 quantities x 3 block sizes */
    { "rules-table3.csv", 12 },
    /* rules.txt:977-1024: 48 rows (12 instance counts x 4 rule counts) x 9 columns */
    { "rules-table4.csv", 432 },
    /* rules.txt:1044-1063, 1069-1088: 40 rows x 9 columns, plus the data-set labels
     * that survived extraction: 6 "Instances:" and 10 "Attributes:" */
    { "rules-table5.csv", 376 },
    /* rules.txt:1111: 6 cells, Total holding two numbers (serial, concurrent) */
    { "rules-table6.csv", 7 },
    /* coloc.txt:298-305: 8 rows x 4 columns, less two "-" speedups */
    { "colocation-table1.csv", 30 },
    /* coloc.txt:323-326: 4 rows x 4 columns, less one "-" and the garbled "26." */
    { "colocation-table2.csv", 14 },
};
#define NSHIPPED (sizeof shipped / sizeof shipped[0])

typedef struct fixture {
    char dir[64];
    char path[128];
    dm_pub_table t;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    if (tmpdir_make(f->dir, sizeof f->dir, "published") != 0) {
        free(f);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s/t.csv", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    published_free(&f->t);
    int rc = tmpdir_remove(f->dir);
    free(f);
    return rc;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fputs(text, fp) >= 0, 1);
    assert_int_equal(fclose(fp), 0);
}

/* The whole file as a malloc'd string. */
static char *read_text(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 0, SEEK_END), 0);
    long n = ftell(fp);
    assert_true(n >= 0);
    rewind(fp);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = '\0';
    fclose(fp);
    *len = (size_t)n;
    return s;
}

static void load_ok(dm_pub_table *t, const char *path)
{
    dm_err err = { 0 };
    if (published_load(path, t, &err) != 0)
        fail_msg("published_load: %s", err.msg);
}

/* Asserts the row exists with this value text, number (NAN: text), unit and source. */
static void expect_cell(const dm_pub_table *t, const char *paper, const char *table,
                        const char *row_key, const char *column, const char *value, double num,
                        const char *unit, const char *source)
{
    const dm_pub_row *r = published_find(t, paper, table, row_key, column);
    if (!r)
        fail_msg("no row %s / %s / %s / %s", paper, table, row_key, column);
    assert_string_equal(r->value, value);
    assert_string_equal(r->unit, unit);
    assert_string_equal(r->source, source);
    if (isnan(num))
        assert_true(isnan(r->num));
    else
        assert_true(r->num == num);
}

/* ---- the shipped files ------------------------------------------------------------- */

static void every_shipped_file_loads_with_one_row_per_cell(void **state)
{
    fixture *f = *state;
    char path[512];
    size_t total = 0;
    for (size_t i = 0; i < NSHIPPED; i++) {
        dm_pub_table t = { 0 };
        snprintf(path, sizeof path, "%s/%s", PUB_DIR, shipped[i].file);
        load_ok(&t, path);
        if (t.n != shipped[i].rows)
            fail_msg("%s: %zu rows, expected %zu", shipped[i].file, t.n, shipped[i].rows);
        total += t.n;
        published_free(&t);
    }
    dm_err err = { 0 };
    if (published_load_dir(PUB_DIR, &f->t, &err) != 0)
        fail_msg("published_load_dir: %s", err.msg);
    assert_int_equal(f->t.n, total); /* and no file there beyond the list above */
}

static void episodes_values_match_the_papers(void **state)
{
    fixture *f = *state;
    load_ok(&f->t, PUB_DIR "/episodes-cf10-table1.csv");
    load_ok(&f->t, PUB_DIR "/episodes-journal-table1.csv");
    load_ok(&f->t, PUB_DIR "/episodes-text-ratios.csv");
    /* cf10.txt:375 "Crossover 415 190 200 100 100 60" */
    expect_cell(&f->t, CF10, "Table 1", "level=3", "Crossover", "415", 415, "episodes",
                CF10 ".txt:375");
    expect_cell(&f->t, CF10, "Table 1", "level=8", "Crossover", "60", 60, "episodes",
                CF10 ".txt:375");
    /* journal.txt:930 "Crossover || 415 | 190 | 200 | 100 | 100 | 60" */
    expect_cell(&f->t, JOURNAL, "Table 1", "level=4", "Crossover", "190", 190, "episodes",
                JOURNAL ".txt:930");
    expect_cell(&f->t, JOURNAL, "Table 1", "level=7", "Crossover", "100", 100, "episodes",
                JOURNAL ".txt:930");
    /* cf10.txt:368 "3.96X and 2.84X, respectively" */
    expect_cell(&f->t, CF10, "text", "figure=8a;dataset=Sym26;level=3", "PTPE over MTPE",
                "3.96", 3.96, "x", CF10 ".txt:368");
    /* cf10.txt:396 "a speedup of 3.6X over the hybrid algorithm" */
    expect_cell(&f->t, CF10, "text", "figure=10a;dataset=2-1-35;support=3600;level=4",
                "two-pass over hybrid", "3.6", 3.6, "x", CF10 ".txt:396");
    /* journal.txt:953 "(43634 out of 43656)" */
    expect_cell(&f->t, JOURNAL, "text", "figure=11a;level=4", "candidate episodes", "43656",
                43656, "episodes", JOURNAL ".txt:953");
    /* journal.txt:1068 "the speedup is about 35-fold" */
    expect_cell(&f->t, JOURNAL, "text",
                "figure=16;dataset=2-1-33;support=500;gpus=8;qualifier=about", "GPU over CPU",
                "35", 35, "x", JOURNAL ".txt:1068");
    const dm_pub_row *r = published_find(&f->t, JOURNAL, "text",
                                         "figure=13;dataset=2-1-33;support=500;qualifier=more than",
                                         "8 GPUs over 1 GPU");
    assert_non_null(r);
    assert_string_equal(r->card, "4x GeForce GTX 295 (8 GPUs)");
}

static void tdm_card_table_matches_the_paper(void **state)
{
    fixture *f = *state;
    load_ok(&f->t, PUB_DIR "/tdm-table2.csv");
    /* tdm.txt:181 "Processor Clock (MHz) 1625 1500 1296" */
    expect_cell(&f->t, TDM, "Table 2", "card=GeForce GTX 280", "Processor Clock (MHz)",
                "1296", 1296, "MHz", TDM ".txt:181");
    /* tdm.txt:178 "Memory Bandwidth (GBps) 57.6 2x64 141.7": 2x64 stays text */
    expect_cell(&f->t, TDM, "Table 2", "card=GeForce 8800 GTS 512",
                "Memory Bandwidth (GBps)", "57.6", 57.6, "GBps", TDM ".txt:178");
    expect_cell(&f->t, TDM, "Table 2", "card=GeForce 9800 GX2", "Memory Bandwidth (GBps)",
                "2x64", NAN, "text", TDM ".txt:178");
    /* tdm.txt:183 prints 8196 registers for the G92 (as printed, see the README) */
    expect_cell(&f->t, TDM, "Table 2", "card=GeForce 9800 GX2",
                "Registers per Multiprocessor", "8196", 8196, "count", TDM ".txt:183");
    expect_cell(&f->t, TDM, "Table 2", "card=GeForce GTX 280", "GPU", "GT280", NAN, "text",
                TDM ".txt:176");
    const dm_pub_row *r = published_find(&f->t, TDM, "Table 2", "card=GeForce 9800 GX2",
                                         "Cores");
    assert_non_null(r);
    assert_string_equal(r->card, "GeForce 9800 GX2");
}

static void rules_tables_match_the_paper(void **state)
{
    fixture *f = *state;
    for (int k = 3; k <= 6; k++) {
        char path[512];
        snprintf(path, sizeof path, PUB_DIR "/rules-table%d.csv", k);
        load_ok(&f->t, path);
    }
    /* rules.txt:802 "Occupancy of each multiprocessor 67 % 100 % 100 %" */
    expect_cell(&f->t, RULES, "Table 3", "threads_per_block=128",
                "Occupancy of each multiprocessor", "67", 67, "%", RULES ".txt:802");
    expect_cell(&f->t, RULES, "Table 3", "threads_per_block=512",
                "Active thread blocks per multiprocessor", "3", 3, "count", RULES ".txt:801");
    /* rules.txt:977 "$2.5 \times 10^2$ 25 $3.62 \times 10^5$ 34 14 0.053 ..." */
    expect_cell(&f->t, RULES, "Table 4", "instances=250;rules=25", "GPops", "3.62×10^5",
                3.62e5, "GPops", RULES ".txt:977");
    expect_cell(&f->t, RULES, "Table 4", "instances=250;rules=25", "Time (ms)/1 GPU", "0.053",
                0.053, "ms", RULES ".txt:977");
    /* rules.txt:1024 "$1.0 \times 10^6$ 200 $1.16 \times 10^{10}$ 1,097,670 ... 67.18" */
    expect_cell(&f->t, RULES, "Table 4", "rules=200;instances=1000000", "GPops",
                "1.16×10^10", 1.16e10, "GPops", RULES ".txt:1024");
    expect_cell(&f->t, RULES, "Table 4", "instances=1000000;rules=200", "Time (ms)/CPU",
                "1,097,670", 1097670, "ms", RULES ".txt:1024");
    expect_cell(&f->t, RULES, "Table 4", "instances=1000000;rules=200", "GPops/s (B)/2 GPUs",
                "67.18", 67.18, "BGPops/s", RULES ".txt:1024");
    /* rules.txt:1044 "WDBC 25 111 39 5 3 2.85 22.20 37.00 7.80 13.00" */
    expect_cell(&f->t, RULES, "Table 5", "dataset=WDBC;rules=25", "Evaluation time (ms)/CPU",
                "111", 111, "ms", RULES ".txt:1044");
    expect_cell(&f->t, RULES, "Table 5", "dataset=WDBC;rules=25", "Speedup vs. CPU/1 GPU",
                "22.20", 22.2, "x", RULES ".txt:1044");
    /* rules.txt:1080 "... 261.38 454.76 79.46 138.24": the abstract's 454x */
    expect_cell(&f->t, RULES, "Table 5", "dataset=Shuttle;rules=200", "Speedup vs. CPU/2 GPUs",
                "454.76", 454.76, "x", RULES ".txt:1080");
    expect_cell(&f->t, RULES, "Table 5", "dataset=Poker;rules=200",
                "Evaluation time (ms)/CPU", "1,465,010", 1465010, "ms", RULES ".txt:1088");
    /* rules.txt:1069 "Magic Instances: 19,020"; Poker's count is lost (rules.txt:1086) */
    expect_cell(&f->t, RULES, "Table 5", "dataset=Magic", "Instances", "19,020", 19020,
                "count", RULES ".txt:1069");
    assert_null(published_find(&f->t, RULES, "Table 5", "dataset=Poker", "Instances"));
    /* rules.txt:1111 "11.456 $\mu$ s ... 1.49 ms (serial) 1.08 ms (concurrent)" */
    expect_cell(&f->t, RULES, "Table 6", "step=HtoD mem", "Runtime", "11.456", 11.456, "us",
                RULES ".txt:1111");
    expect_cell(&f->t, RULES, "Table 6", "step=Coverage;calls=2", "Runtime", "0.303", 0.303,
                "ms", RULES ".txt:1111");
    expect_cell(&f->t, RULES, "Table 6", "execution=concurrent;step=Total", "Runtime", "1.08",
                1.08, "ms", RULES ".txt:1111");
}

static void colocation_tables_match_the_paper(void **state)
{
    fixture *f = *state;
    load_ok(&f->t, PUB_DIR "/colocation-table1.csv");
    load_ok(&f->t, PUB_DIR "/colocation-table2.csv");
    /* coloc.txt:300 "GPU-Filter:C, Refine:G 0.2 0.7 0.9 37.9x" */
    expect_cell(&f->t, COLOC, "Table 1", "clumpiness=1;approach=GPU-Filter:C, Refine:G",
                "Speedup", "37.9", 37.9, "x", COLOC ".txt:300");
    /* coloc.txt:305 "GPU-Filter:C, Refine:H 0.1 96.9 97 4.2x" */
    expect_cell(&f->t, COLOC, "Table 1", "clumpiness=20;approach=GPU-Filter:C, Refine:H",
                "Total Time", "97", 97, "s", COLOC ".txt:305");
    expect_cell(&f->t, COLOC, "Table 1", "clumpiness=20;approach=CPU Baseline", "Refine Time",
                "407.5", 407.5, "s", COLOC ".txt:302");
    assert_null(published_find(&f->t, COLOC, "Table 1", "clumpiness=1;approach=CPU Baseline",
                               "Speedup")); /* "-" */
    /* coloc.txt:325 "GPU-Filter:C, Refine:G 0.5 5.0 5.5 63.2x" */
    expect_cell(&f->t, COLOC, "Table 2", "approach=GPU-Filter:C, Refine:G", "Speedup", "63.2",
                63.2, "x", COLOC ".txt:325");
    expect_cell(&f->t, COLOC, "Table 2", "approach=GPU-Filter:C, Refine:G", "Refine Time",
                "5.0", 5.0, "s", COLOC ".txt:325");
    /* coloc.txt:324 prints the refine time as "26." */
    assert_null(published_find(&f->t, COLOC, "Table 2", "approach=GPU-Filter:M, Refine:H",
                               "Refine Time"));
    const dm_pub_row *r = published_find(&f->t, COLOC, "Table 2", "approach=CPU Baseline",
                                         "Total Time");
    assert_non_null(r);
    assert_string_equal(r->card, "Intel Xeon E5-2687W v4");
}

/* ---- writing back ------------------------------------------------------------------ */

static void assert_rows_equal(const dm_pub_table *a, const dm_pub_table *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const dm_pub_row *x = &a->rows[i], *y = &b->rows[i];
        assert_string_equal(x->paper, y->paper);
        assert_string_equal(x->table, y->table);
        assert_string_equal(x->row_key, y->row_key);
        assert_string_equal(x->column, y->column);
        assert_string_equal(x->value, y->value);
        assert_string_equal(x->unit, y->unit);
        assert_string_equal(x->card, y->card);
        assert_string_equal(x->source, y->source);
        assert_true(x->num == y->num || (isnan(x->num) && isnan(y->num)));
        assert_int_equal(x->line, y->line);
    }
}

static void shipped_files_write_back_byte_for_byte(void **state)
{
    fixture *f = *state;
    char path[512];
    for (size_t i = 0; i < NSHIPPED; i++) {
        dm_pub_table t = { 0 }, back = { 0 };
        dm_err err = { 0 };
        snprintf(path, sizeof path, "%s/%s", PUB_DIR, shipped[i].file);
        load_ok(&t, path);
        if (published_write(f->path, &t, &err) != 0)
            fail_msg("published_write: %s", err.msg);
        size_t la, lb;
        char *a = read_text(path, &la), *b = read_text(f->path, &lb);
        if (la != lb || memcmp(a, b, la) != 0)
            fail_msg("%s does not write back as it was", shipped[i].file);
        free(a);
        free(b);
        load_ok(&back, f->path);
        assert_rows_equal(&t, &back);
        published_free(&t);
        published_free(&back);
    }
}

static void quoting_round_trips(void **state)
{
    fixture *f = *state;
    /* CRLF line ends, a quoted comma, doubled quotes and a line end inside a field: the
     * record after the two-line one starts on line 4 */
    write_text(f->path, PUBLISHED_HEADER "\r\n"
                        "p,Table 1,\"approach=A, B\",\"the \"\"best\"\" column\",7,s,,p.txt:3\r\n"
                        "p,Table 1,approach=C,\"two\nlines\",\"1,234\",ms,\"card, 2\",p.txt:4\r\n"
                        "p,Table 1,approach=D,x,G92,text,,p.txt:5\r\n");
    load_ok(&f->t, f->path);
    assert_int_equal(f->t.n, 3);
    expect_cell(&f->t, "p", "Table 1", "approach=A, B", "the \"best\" column", "7", 7, "s",
                "p.txt:3");
    expect_cell(&f->t, "p", "Table 1", "approach=C", "two\nlines", "1,234", 1234, "ms",
                "p.txt:4");
    assert_string_equal(f->t.rows[1].card, "card, 2");
    assert_string_equal(f->t.rows[2].card, "");
    assert_int_equal(f->t.rows[2].line, 5);
    assert_string_equal(f->t.rows[2].file, f->path);

    char other[160];
    dm_err err = { 0 };
    dm_pub_table back = { 0 };
    snprintf(other, sizeof other, "%s/back.csv", f->dir);
    assert_int_equal(published_write(other, &f->t, &err), 0);
    load_ok(&back, other);
    assert_rows_equal(&f->t, &back);
    published_free(&back);
}

/* ---- refusing bad files ------------------------------------------------------------ */

#define H PUBLISHED_HEADER "\n"
#define GOOD "p,Table 1,level=3,Crossover,415,episodes,GTX 280,p.txt:375\n"

/* Loads text as a file and asserts DM_EINPUT with the message "PATH" suffix, leaving the
 * table as it was. */
static void expect_refused(fixture *f, const char *text, const char *suffix)
{
    char want[DM_ERR_MAX];
    dm_err err = { 0 };
    size_t n0 = f->t.n;
    write_text(f->path, text);
    snprintf(want, sizeof want, "%s%s", f->path, suffix);
    assert_int_equal(published_load(f->path, &f->t, &err), DM_EINPUT);
    assert_int_equal(err.code, DM_EINPUT);
    assert_string_equal(err.msg, want);
    assert_int_equal(f->t.n, n0);
}

static void bad_header_or_field_count_is_refused(void **state)
{
    fixture *f = *state;
    expect_refused(f, "", ":1: empty file; the header must be " PUBLISHED_HEADER);
    expect_refused(f, "paper,table,row_key,column,value,unit,card\n" GOOD,
                   ":1: the header must be " PUBLISHED_HEADER);
    expect_refused(f, "paper,table,row,column,value,unit,card,source\n" GOOD,
                   ":1: the header must be " PUBLISHED_HEADER);
    expect_refused(f, H GOOD "p,Table 1,level=4,Crossover,190,episodes,p.txt:375\n",
                   ":3: 7 fields, expected 8");
    expect_refused(f, H GOOD "p,Table 1,level=4,Crossover,190,episodes,c,p.txt:375,9\n",
                   ":3: 9 fields, expected 8");
    expect_refused(f, H "\n" GOOD, ":2: 1 field, expected 8");
}

static void empty_required_fields_are_refused(void **state)
{
    fixture *f = *state;
    expect_refused(f, H ",Table 1,level=3,Crossover,415,episodes,c,p.txt:1\n",
                   ":2: empty paper");
    expect_refused(f, H GOOD "p,Table 1,level=4,,190,episodes,c,p.txt:1\n",
                   ":3: empty column");
    expect_refused(f, H "p,Table 1,level=4,Crossover,,episodes,c,p.txt:1\n",
                   ":2: empty value");
    expect_refused(f, H "p,Table 1,level=4,Crossover,1,episodes,c,\n",
                   ":2: empty source");
}

static void values_that_do_not_fit_their_unit_are_refused(void **state)
{
    fixture *f = *state;
    expect_refused(f, H GOOD "p,Table 1,level=4,Crossover,1.2.3,ms,c,p.txt:1\n",
                   ":3: value \"1.2.3\" is not a number, which unit \"ms\" requires");
    expect_refused(f, H "p,Table 1,level=4,Crossover,\"12,34\",ms,c,p.txt:1\n",
                   ":2: value \"12,34\" is not a number, which unit \"ms\" requires");
    expect_refused(f, H "p,Table 1,level=4,Crossover,2x512,MB,c,p.txt:1\n",
                   ":2: value \"2x512\" is not a number, which unit \"MB\" requires");
    expect_refused(f, H "p,Table 1,level=4,Crossover,26.,s,c,p.txt:1\n",
                   ":2: value \"26.\" is not a number, which unit \"s\" requires");
    expect_refused(f, H "p,Table 1,level=4,Crossover,4,furlongs,c,p.txt:1\n",
                   ":2: unknown unit \"furlongs\" (\"text\" for a value that is not a number)");
}

static void malformed_row_keys_and_sources_are_refused(void **state)
{
    fixture *f = *state;
    expect_refused(f, H "p,Table 1,Level=3,Crossover,415,episodes,c,p.txt:1\n",
                   ":2: row_key \"Level=3\": \"Level=3\" is not key=value (key of a-z, 0-9, _)");
    expect_refused(f, H "p,Table 1,level=3;,Crossover,415,episodes,c,p.txt:1\n",
                   ":2: row_key \"level=3;\": \"\" is not key=value (key of a-z, 0-9, _)");
    expect_refused(f, H "p,Table 1,level=3;level=4,Crossover,4,episodes,c,p.txt:1\n",
                   ":2: row_key \"level=3;level=4\" gives level twice");
    expect_refused(f, H "p,Table 1,level,Crossover,415,episodes,c,p.txt:1\n",
                   ":2: row_key \"level\": \"level\" is not key=value (key of a-z, 0-9, _)");
    expect_refused(f, H "p,Table 1,level=3,Crossover,415,episodes,c,q.txt:1\n",
                   ":2: source \"q.txt:1\" is not p.txt:LINE");
    expect_refused(f, H "p,Table 1,level=3,Crossover,415,episodes,c,p.txt:0\n",
                   ":2: source \"p.txt:0\" is not p.txt:LINE");
    expect_refused(f, H "p,Table 1,level=3,Crossover,415,episodes,c,p.txt:9a\n",
                   ":2: source \"p.txt:9a\" is not p.txt:LINE");
}

static void broken_quoting_is_refused_at_its_line(void **state)
{
    fixture *f = *state;
    expect_refused(f, H GOOD "p,Table 1,level=4,\"Cross\nover,1,episodes,c,p.txt:1\n",
                   ":3: quoted field 4 is never closed");
    expect_refused(f, H GOOD "p,Table 1,level=4,\"Cross\"over,1,episodes,c,p.txt:1\n",
                   ":3: 'o' after the closing quote of field 4");
    expect_refused(f, H GOOD "p,Table 1,level=4,Cr\"oss,1,episodes,c,p.txt:1\n",
                   ":3: a quote inside unquoted field 4");
    expect_refused(f, H GOOD "p,Table 1,level=4,Cross\rover,1,episodes,c,p.txt:1\n",
                   ":3: a carriage return inside unquoted field 4");
    /* a record spanning lines 2-3 moves the next one to line 4 */
    expect_refused(f, H "p,Table 1,level=4,\"two\nlines\",1,episodes,c,p.txt:1\n"
                      "p,Table 1,level=5,Crossover,1,episodes,p.txt:1\n",
                   ":4: 7 fields, expected 8");
}

static void a_cell_given_twice_is_refused(void **state)
{
    fixture *f = *state;
    char want[DM_ERR_MAX], first[160];
    dm_err err = { 0 };

    /* within one file, the row key's pairs in another order */
    write_text(f->path, PUBLISHED_HEADER "\n"
                        "p,Table 4,instances=250;rules=25,GPops,1,GPops,,p.txt:7\n"
                        "p,Table 4,rules=25;instances=250,GPops,2,GPops,,p.txt:8\n");
    assert_int_equal(published_load(f->path, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s:3: the same cell as %s:2 (p, Table 4, "
             "rules=25;instances=250, GPops)", f->path, f->path);
    assert_string_equal(err.msg, want);
    assert_int_equal(f->t.n, 0);

    /* across files: the second file's rows are all dropped, the first file's stay */
    snprintf(first, sizeof first, "%s/first.csv", f->dir);
    write_text(first, PUBLISHED_HEADER "\n" GOOD);
    load_ok(&f->t, first);
    snprintf(want, sizeof want, ":3: the same cell as %s:2 (p, Table 1, level=3, Crossover)",
             first);
    expect_refused(f, H "p,Table 1,level=4,Crossover,190,episodes,c,p.txt:375\n" GOOD,
                   want);
    assert_int_equal(f->t.n, 1);
}

static void find_matches_every_part_of_the_cell(void **state)
{
    fixture *f = *state;
    write_text(f->path, PUBLISHED_HEADER "\n"
                        "p,Table 1,a=1;b=2,c1,1,x,,p.txt:1\n"
                        "p,Table 1,a=1;b=22,c1,2,x,,p.txt:2\n"
                        "p,Table 2,a=1;b=2,c1,3,x,,p.txt:3\n"
                        "q,Table 1,a=1;b=2,c1,4,x,,q.txt:4\n"
                        "p,Table 1,a=1;b=2,c2,5,x,,p.txt:5\n");
    load_ok(&f->t, f->path);
    assert_true(published_find(&f->t, "p", "Table 1", "b=2;a=1", "c1")->num == 1);
    assert_true(published_find(&f->t, "p", "Table 1", "a=1;b=22", "c1")->num == 2);
    assert_true(published_find(&f->t, "p", "Table 2", "a=1;b=2", "c1")->num == 3);
    assert_true(published_find(&f->t, "q", "Table 1", "a=1;b=2", "c1")->num == 4);
    assert_true(published_find(&f->t, "p", "Table 1", "a=1;b=2", "c2")->num == 5);
    assert_null(published_find(&f->t, "p", "Table 1", "a=1", "c1"));
    assert_null(published_find(&f->t, "p", "Table 1", "a=1;b=2;c=3", "c1"));
    assert_null(published_find(&f->t, "p", "Table 1", "a=1;b=2", "c3"));
}

static void numbers_parse_as_the_papers_print_them(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        double v;
    } good[] = {
        { "0", 0 },           { "415", 415 },           { "-12.5", -12.5 },
        { "22.20", 22.2 },    { "1,076", 1076 },        { "1,097,670", 1097670 },
        { "3.62×10^5", 3.62e5 }, { "1.16×10^10", 1.16e10 }, { "2.5×10^-3", 2.5e-3 },
    };
    static const char *const bad[] = {
        "", "-", ".5", "1.", "1.2.3", "12,34", "1,0000", "1234,567", ",123", "1,234,",
        "1e5", "inf", "nan", "0x10", " 1", "1 ", "2x512", "26.", "3.62×10^", "3.62×10", "+1",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = NAN;
        if (published_parse_number(good[i].s, &v) != 0 || v != good[i].v)
            fail_msg("\"%s\" parsed as %g, expected %g", good[i].s, v, good[i].v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v;
        if (published_parse_number(bad[i], &v) == 0)
            fail_msg("\"%s\" parsed as %g, expected a refusal", bad[i], v);
    }
}

static void directories_without_csv_files_are_refused(void **state)
{
    fixture *f = *state;
    char want[DM_ERR_MAX], missing[160];
    dm_err err = { 0 };
    char other[160];
    snprintf(other, sizeof other, "%s/notes.txt", f->dir); /* not a .csv: not read */
    write_text(other, PUBLISHED_HEADER "\n" GOOD);
    assert_int_equal(published_load_dir(f->dir, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s: no .csv file", f->dir);
    assert_string_equal(err.msg, want);

    snprintf(missing, sizeof missing, "%s/missing", f->dir);
    assert_int_equal(published_load_dir(missing, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s: cannot read the directory: No such file or directory",
             missing);
    assert_string_equal(err.msg, want);

    snprintf(missing, sizeof missing, "%s/missing.csv", f->dir);
    assert_int_equal(published_load(missing, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", missing);
    assert_string_equal(err.msg, want);
    assert_int_equal(f->t.n, 0);
}

static void a_bad_file_in_a_directory_names_itself(void **state)
{
    fixture *f = *state;
    char a[160], b[160], want[DM_ERR_MAX];
    dm_err err = { 0 };
    snprintf(a, sizeof a, "%s/a.csv", f->dir);
    snprintf(b, sizeof b, "%s/b.csv", f->dir);
    write_text(a, PUBLISHED_HEADER "\n" GOOD);
    write_text(b, PUBLISHED_HEADER "\n" GOOD);
    assert_int_equal(published_load_dir(f->dir, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s:2: the same cell as %s:2 (p, Table 1, level=3, Crossover)",
             b, a);
    assert_string_equal(err.msg, want);
    assert_int_equal(f->t.n, 1); /* a.csv, loaded first (name order), stays */
}

/* ---- listed targets ----------------------------------------------------------------- */

static void the_shipped_targets_load_and_name_published_tables(void **state)
{
    fixture *f = *state;
    dm_err err = { 0 };
    if (published_load_dir(PUB_DIR, &f->t, &err) != 0)
        fail_msg("published_load_dir: %s", err.msg);
    assert_int_equal(f->t.ntargets, 4);
    const dm_pub_target *r3 = &f->t.targets[3];
    assert_string_equal(r3->target.name, "rules-table3");
    assert_string_equal(r3->target.paper, RULES);
    assert_string_equal(r3->target.table, "Table 3");
    assert_string_equal(r3->workload, "rules");
    assert_string_equal(r3->target.caption, "threads per block and multiprocessor occupancy");
    assert_int_equal(r3->target.kind, DM_TARGET_PUBLISHED);
    assert_null(r3->target.sweep);
    assert_int_equal(r3->line, 5);
    for (size_t i = 0; i < f->t.ntargets; i++) {
        size_t rows = 0;
        const dm_target *t = &f->t.targets[i].target;
        for (size_t k = 0; k < f->t.n; k++)
            rows += !strcmp(f->t.rows[k].paper, t->paper) && !strcmp(f->t.rows[k].table, t->table);
        if (!rows)
            fail_msg("%s: no published rows of %s %s", t->name, t->paper, t->table);
    }
}

/* Loading text as a targets file fails with err "PATH:suffix". */
static void expect_targets_refused(fixture *f, const char *text, const char *suffix)
{
    char path[160], want[DM_ERR_MAX];
    dm_err err = { 0 };
    snprintf(path, sizeof path, "%s/" PUBLISHED_TARGETS, f->dir);
    write_text(path, text);
    assert_int_equal(published_load_targets(path, &f->t, &err), DM_EINPUT);
    snprintf(want, sizeof want, "%s:%s", path, suffix);
    assert_string_equal(err.msg, want);
    assert_int_equal(f->t.ntargets, 0);
}

#define TARGET_LINE "t1\tp\tTable 1\tTable 1\tw\tthe caption, with a comma\n"

static void bad_target_lines_are_refused_at_their_line(void **state)
{
    fixture *f = *state;
    expect_targets_refused(f, "name,paper\n", "1: the header must be the tab-separated fields "
                                              "name paper item table workload caption");
    expect_targets_refused(f, "", "1: empty file; the header must be the tab-separated fields "
                                  "name paper item table workload caption");
    expect_targets_refused(f, PUBLISHED_TARGETS_HEADER "\n" TARGET_LINE "t2\tp\tTable 2\n",
                           "3: 3 fields, expected 6 (" PUBLISHED_TARGETS_HEADER ")");
    expect_targets_refused(f, PUBLISHED_TARGETS_HEADER "\nt2\tp\t\tTable 2\tw\tc\n",
                           "2: empty item");
    char first[200];
    snprintf(first, sizeof first, "3: target t1 again (first at %s/" PUBLISHED_TARGETS ":2)",
             f->dir);
    expect_targets_refused(f, PUBLISHED_TARGETS_HEADER "\n" TARGET_LINE TARGET_LINE, first);
    /* a good file: CRLF line ends are fine, and the directory loads it with its .csv */
    char path[160];
    snprintf(path, sizeof path, "%s/" PUBLISHED_TARGETS, f->dir);
    write_text(path, PUBLISHED_TARGETS_HEADER "\r\nt1\tp\tTable 1\tTable 1\tw\tc\r\n");
    write_text(f->path, PUBLISHED_HEADER "\n" GOOD);
    dm_err err = { 0 };
    assert_int_equal(published_load_dir(f->dir, &f->t, &err), 0);
    assert_int_equal(f->t.ntargets, 1);
    assert_string_equal(f->t.targets[0].target.caption, "c");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(every_shipped_file_loads_with_one_row_per_cell),
        T(episodes_values_match_the_papers),
        T(tdm_card_table_matches_the_paper),
        T(rules_tables_match_the_paper),
        T(colocation_tables_match_the_paper),
        T(shipped_files_write_back_byte_for_byte),
        T(quoting_round_trips),
        T(bad_header_or_field_count_is_refused),
        T(empty_required_fields_are_refused),
        T(values_that_do_not_fit_their_unit_are_refused),
        T(malformed_row_keys_and_sources_are_refused),
        T(broken_quoting_is_refused_at_its_line),
        T(a_cell_given_twice_is_refused),
        T(find_matches_every_part_of_the_cell),
        T(numbers_parse_as_the_papers_print_them),
        T(directories_without_csv_files_are_refused),
        T(a_bad_file_in_a_directory_names_itself),
        T(the_shipped_targets_load_and_name_published_tables),
        T(bad_target_lines_are_refused_at_their_line),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
