/* test_csv.c - the common reader of delimited text (bench/core/csv.c): RFC 4180 quoting
 * (separators, doubled quotes and line breaks inside quotes), CRLF, a byte-order mark,
 * a last line without its newline, empty fields and blank lines, TSV, the exact
 * line:col of each malformation (physical lines, counting quoted line breaks), and gzip
 * through zlib (dm_read_text) against the system gzip: levels, members, damage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "csv.h"
#include "rng.h"
#include "tmpdir.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return tmpdir_make(dir, sizeof dir, "csv");
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir_remove(dir);
}

/* Reads every record of text (sep as dm_csv_text takes it) and returns them as one
 * string: fields joined by '|', quoted ones in <>, records ended by '\n'. Asserts that
 * the text reads without error. */
static const char *records(const char *text, char sep)
{
    static char out[16384];
    dm_csv c;
    dm_err err = {0};
    int rc;
    out[0] = '\0';
    dm_csv_text(&c, text, strlen(text), "t.csv", sep);
    while ((rc = dm_csv_next(&c, &err)) == 1)
        for (int k = 0; k < c.nf; k++)
            dm_append(out, sizeof out, "%s%s%.*s%s%s", k ? "|" : "", c.f[k].quoted ? "<" : "",
                      (int)(c.f[k].e - c.f[k].b), c.f[k].b, c.f[k].quoted ? ">" : "",
                      k + 1 == c.nf ? "\n" : "");
    if (rc)
        fail_msg("'%s': %s", text, err.msg);
    dm_csv_free(&c);
    return out;
}

/* Asserts that reading the string literal text fails with DM_EINPUT and the one line
 * "t.csv:where: ..." holding what. */
#define MALFORMED(text, where, what) malformed(text, sizeof text - 1, where, what)
static void malformed(const char *text, size_t len, const char *where, const char *what)
{
    dm_csv c;
    dm_err err = {0};
    int rc;
    dm_csv_text(&c, text, len, "t.csv", ',');
    while ((rc = dm_csv_next(&c, &err)) == 1)
        ;
    dm_csv_free(&c);
    char want[64];
    snprintf(want, sizeof want, "t.csv:%s: ", where);
    if (rc != DM_EINPUT || strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
        fail_msg("'%s' gave %d '%s', expected '%s...%s'", text, rc, err.msg, want, what);
    assert_null(strchr(err.msg, '\n'));
}

static void test_quoted_fields(void **state)
{
    (void)state;
    /* a separator, doubled quotes, a line break and a CRLF inside quotes */
    assert_string_equal(records("a,\"b,c\",d\n", ','), "a|<b,c>|d\n");
    assert_string_equal(records("\"say \"\"hi\"\"\",\"\"\"\"\n", ','), "<say \"hi\">|<\">\n");
    assert_string_equal(records("\"one\ntwo\",x\n\"3\r\n4\"\r\n", ','),
                        "<one\ntwo>|x\n<3\r\n4>\n");
    /* blanks around the quotes go, those inside stay; a quote inside an unquoted field
     * is text */
    assert_string_equal(records("  \" a \"  , b\"c\" \n", ','), "< a >|b\"c\"\n");
}

static void test_line_ends_bom_and_empty(void **state)
{
    (void)state;
    assert_string_equal(records("a,b\r\nc,d\r\n", ','), "a|b\nc|d\n");
    assert_string_equal(records("a,b\nc,d", ','), "a|b\nc|d\n"); /* no final newline */
    assert_string_equal(records("\xef\xbb\xbf" "a,b\n", ','), "a|b\n");
    assert_string_equal(records(",,\n\"\",x\n", ','), "||\n<>|x\n");
    assert_string_equal(records("", ','), "");
    /* blank lines are records of one empty unquoted field; "" is not blank */
    dm_csv c;
    dm_err err = {0};
    const char *text = "a\n \t\r\n\"\"\n";
    dm_csv_text(&c, text, strlen(text), "t.csv", ',');
    int blank[3];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(dm_csv_next(&c, &err), 1);
        blank[i] = dm_csv_blank(&c);
    }
    assert_int_equal(dm_csv_next(&c, &err), 0);
    assert_true(!blank[0] && blank[1] && !blank[2]);
    dm_csv_free(&c);
}

static void test_tsv(void **state)
{
    (void)state;
    /* a tab in the first line: TSV, where a space is trimmed and a comma is text */
    assert_string_equal(records("a\t b,c \t\"d\te\"\n1\t\t3\n", 0), "a|b,c|<d\te>\n1||3\n");
    assert_string_equal(records("a,b\tc\n", 0), "a,b|c\n");
    /* CSV: tabs around a field are blanks */
    assert_string_equal(records("a ,\tb\t\nc,d\t\n", ','), "a|b\nc|d\n");
    assert_string_equal(records("a\tb,c\n", ','), "a\tb|c\n"); /* the separator given */
}

/* Lines are physical, columns are bytes from 1, the record's line is its first's. */
static void test_positions(void **state)
{
    (void)state;
    static const char text[] = "\xef\xbb\xbf" "h1,h2\r\n\"x\ny\",  z\n\nlast";
    dm_csv c;
    dm_err err = {0};
    dm_csv_text(&c, text, sizeof text - 1, "t.csv", ',');
    assert_int_equal(dm_csv_max_records(&c), 5);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_true(c.rec_line == 1 && c.f[0].col == 1 && c.f[1].col == 4);
    assert_true(c.end_line == 1 && c.end_col == 6); /* the CR left out */
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_true(c.rec_line == 2 && c.f[0].line == 2 && c.f[0].col == 1);
    assert_true(c.f[1].line == 3 && c.f[1].col == 6 && c.end_line == 3 && c.end_col == 7);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_true(dm_csv_blank(&c) && c.rec_line == 4);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_true(c.rec_line == 5 && c.end_col == 5);
    assert_int_equal(dm_csv_max_records(&c), 1);
    assert_int_equal(dm_csv_next(&c, &err), 0);
    dm_csv_rewind(&c);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_true(c.rec_line == 1 && c.nf == 2 && memcmp(c.f[1].b, "h2", 2) == 0);
    dm_csv_free(&c);
}

/* Fields unescaped into the buffer stay right when a later one makes it grow. */
static void test_many_escaped_fields(void **state)
{
    (void)state;
    char text[9000], want[9000];
    size_t n = 0, w = 0;
    for (int k = 0; k < 40; k++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\"%d\"\"", k ? "," : "", k);
        w += (size_t)snprintf(want + w, sizeof want - w, "%s<%d\"", k ? "|" : "", k);
        for (int i = 0; i < 5 * k; i++) {
            text[n++] = 'a' + (char)(k % 26);
            want[w++] = 'a' + (char)(k % 26);
        }
        text[n++] = '"';
        want[w++] = '>';
    }
    memcpy(text + n, "\n", 2);
    memcpy(want + w, "\n", 2);
    assert_string_equal(records(text, ','), want);
}

static void test_malformed_names_line_and_column(void **state)
{
    (void)state;
    /* a quote never closed: at the opening quote, whatever the lines after it */
    MALFORMED("a,b\nc,\"d\ne,f\n", "2:3", "opens a quoted field that is never closed");
    MALFORMED("\"", "1:1", "never closed");
    MALFORMED("a,\"b\"\"", "1:3", "never closed");
    /* text after a closing quote: at that text, on its physical line */
    MALFORMED("a,\"b\"x,c\n", "1:6", "'x' after the closing quote");
    MALFORMED("a\n\"b\nc\" d,e\n", "3:4", "'d' after the closing quote");
    MALFORMED("\"a\"\"b\" \"\n", "1:8", "'\"' after the closing quote");
    MALFORMED("\"a\"\x01\n", "1:4", "\\x01 after the closing quote");
    /* a NUL byte, quoted or not */
    MALFORMED("a,b\0c\n", "1:4", "a NUL byte: not text");
    MALFORMED("x\n\"a\n\0\"\n", "3:1", "a NUL byte");
    /* the number of fields, by the loader: at the first extra field or the end */
    dm_csv c;
    dm_err err = {0};
    const char *text = "\"a\nb\",c,d\n1\r\n";
    dm_csv_text(&c, text, strlen(text), "t.csv", ',');
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_int_equal(dm_csv_count_error(&c, 2, " (x,y)", &err), DM_EINPUT);
    assert_string_equal(err.msg, "t.csv:2:6: 3 fields, expected 2 (x,y)");
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_int_equal(dm_csv_count_error(&c, 2, " as in line 1", &err), DM_EINPUT);
    assert_string_equal(err.msg, "t.csv:3:2: 1 field, expected 2 as in line 1");
    dm_csv_free(&c);
}

/* Writes n bytes to dir/name; returns the path (a static buffer). */
static const char *write_bytes(const char *name, const void *data, size_t n)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
    return path;
}

/* Runs `gzip FLAGS -c` on data; returns the compressed bytes (malloc'd), their count in
 * *gz_len. */
static uint8_t *system_gzip(const void *data, size_t n, const char *flags, size_t *gz_len)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "gzip %s -c '%s'", flags, write_bytes("plain", data, n));
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *gz = malloc(cap);
    while ((got = fread(gz + len, 1, cap - len, p)) > 0)
        if ((len += got) == cap)
            gz = realloc(gz, cap *= 2);
    assert_int_equal(pclose(p), 0);
    *gz_len = len;
    return gz;
}

/* Asserts that dm_read_text of the n bytes gz reads as the n_plain bytes plain. */
static void reads_as(const uint8_t *gz, size_t n, const void *plain, size_t n_plain)
{
    char *text;
    size_t len;
    dm_err err = {0};
    if (dm_read_text(write_bytes("t.gz", gz, n), &text, &len, &err))
        fail_msg("%zu bytes: %s", n, err.msg);
    assert_int_equal(len, n_plain);
    assert_true(n_plain == 0 || memcmp(text, plain, n_plain) == 0);
    assert_int_equal(text[len], '\0');
    free(text);
}

/* Asserts that dm_read_text refuses the n bytes gz: DM_EINPUT, one line "path: gzip: "
 * holding what (anything when NULL), and no text. */
static void refused(const uint8_t *gz, size_t n, const char *what)
{
    const char *path = write_bytes("bad.gz", gz, n);
    char *text = (char *)"unset", want[160];
    size_t len;
    dm_err err = {0};
    if (dm_read_text(path, &text, &len, &err) != DM_EINPUT)
        fail_msg("%zu damaged bytes read", n);
    assert_null(text);
    snprintf(want, sizeof want, "%s: gzip: ", path);
    assert_true(strncmp(err.msg, want, strlen(want)) == 0);
    assert_null(strchr(err.msg, '\n'));
    if (what && !strstr(err.msg, what))
        fail_msg("expected '%s' in '%s'", what, err.msg);
}

/* n bytes of text-like data (repeating words), or of random bytes. */
static uint8_t *some_bytes(size_t n, uint64_t seed, int random)
{
    static const char *words[] = {"rule", "antecedent", ",", "\"a,b\"", "\t", "0.25",
                                  "1e-3", "\n", "lift", "\r\n"};
    dm_rng r = dm_rng_seed(seed);
    uint8_t *b = malloc(n + 16);
    for (size_t i = 0; i < n;) {
        const char *w = words[dm_rng_below(&r, 10)];
        if (random)
            b[i++] = (uint8_t)dm_rng_next(&r);
        for (; !random && *w && i < n; w++)
            b[i++] = (uint8_t)*w;
    }
    return b;
}

static void test_gzip_matches_the_system_gzip(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 100, 70000, 1 << 20};
    static const char *flags[] = {"-1", "-9", "-6 -N"}; /* -N: a name in the header */
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int l = 0; l < 3; l++)
            for (int random = 0; random < 2; random++) { /* random: stored blocks */
                size_t gz_len;
                uint8_t *plain = some_bytes(sizes[s], s, random);
                uint8_t *gz = system_gzip(plain, sizes[s], flags[l], &gz_len);
                reads_as(gz, gz_len, plain, sizes[s]);
                free(gz);
                free(plain);
            }
    /* not gzip: the bytes as they are */
    reads_as((const uint8_t *)"a,b\n\x1f", 5, "a,b\n\x1f", 5);
}

static void test_gzip_members_and_damage(void **state)
{
    (void)state;
    size_t a_len, b_len, n = 50000, gz_len;
    uint8_t *a = system_gzip("first\n", 6, "-6", &a_len);
    uint8_t *b = system_gzip("second\n", 7, "-1", &b_len);
    uint8_t *ab = malloc(a_len + b_len);
    memcpy(ab, a, a_len);
    memcpy(ab + a_len, b, b_len);
    reads_as(ab, a_len + b_len, "first\nsecond\n", 13);
    memcpy(ab + a_len, "junk", 4);
    refused(ab, a_len + 4, "bytes after the last member");
    free(ab);
    free(a);
    free(b);
    uint8_t *t = some_bytes(n, 7, 0), *gz = system_gzip(t, n, "-6 -n", &gz_len);
    uint8_t *bad = malloc(gz_len);
    refused(gz, 3, "data cut short");
    for (size_t cut = 2; cut < gz_len; cut += cut < 40 ? 1 : 997)
        refused(gz, cut, NULL);
    memcpy(bad, gz, gz_len);
    bad[2] = 7;
    refused(bad, gz_len, "unknown compression method");
    memcpy(bad, gz, gz_len);
    bad[gz_len - 8] ^= 1;
    refused(bad, gz_len, "incorrect data check");
    memcpy(bad, gz, gz_len);
    bad[gz_len - 4] ^= 1;
    refused(bad, gz_len, "incorrect length check");
    /* Flipped bits in the compressed data: refused, or, where a copy moved to equal
     * bytes, the same text; never a crash. */
    dm_rng r = dm_rng_seed(3);
    for (int i = 0; i < 200; i++) {
        memcpy(bad, gz, gz_len);
        bad[10 + dm_rng_below(&r, (uint32_t)(gz_len - 19))] ^= (uint8_t)(1u << dm_rng_below(&r, 8));
        char *text;
        size_t len;
        dm_err err = {0};
        if (dm_read_text(write_bytes("flip.gz", bad, gz_len), &text, &len, &err) == 0) {
            assert_true(len == n && memcmp(text, t, n) == 0);
            free(text);
        } else {
            assert_non_null(strstr(err.msg, ": gzip: "));
        }
    }
    free(bad);
    free(gz);
    free(t);
}

/* dm_csv_open reads a gzip file of quoted CSV as the CSV itself. */
static void test_open_gzip_csv(void **state)
{
    (void)state;
    static const char csv[] = "\xef\xbb\xbf" "k,v\r\n\"a,b\",\"x\r\ny\"\r\n";
    size_t gz_len;
    uint8_t *gz = system_gzip(csv, sizeof csv - 1, "-9", &gz_len);
    dm_csv c;
    dm_err err = {0};
    assert_int_equal(dm_csv_open(&c, write_bytes("q.csv.gz", gz, gz_len), 0, &err), 0);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_int_equal(dm_csv_next(&c, &err), 1);
    assert_int_equal(c.nf, 2);
    assert_memory_equal(c.f[0].b, "a,b", 3);
    assert_memory_equal(c.f[1].b, "x\r\ny", 4);
    assert_int_equal(dm_csv_next(&c, &err), 0);
    dm_csv_free(&c);
    free(gz);
    assert_int_equal(dm_csv_open(&c, "/nonexistent/x.csv", 0, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent/x.csv: cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields),
        cmocka_unit_test(test_line_ends_bom_and_empty),
        cmocka_unit_test(test_tsv),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_many_escaped_fields),
        cmocka_unit_test(test_malformed_names_line_and_column),
        cmocka_unit_test(test_gzip_matches_the_system_gzip),
        cmocka_unit_test(test_gzip_members_and_damage),
        cmocka_unit_test(test_open_gzip_csv),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
