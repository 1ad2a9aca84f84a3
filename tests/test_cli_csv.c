/* test_cli_csv.c - inputs as users have them (issue 35), through `dmbench mine`: a
 * 100,003-row table of 14 columns whose categorical column holds the level a,b (quoted,
 * as Python's csv module writes it) loads and mines the same as the table with ab, also
 * gzip-compressed; malformed files of each loader (a quote never closed, a ragged row,
 * text after a closing quote) exit 2 with one line naming path:line:col and leave the
 * file as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_fixture.h"

#define ROWS 100003

/* Writes the table to dir/name: a header, then ROWS rows of 12 numbers, the
 * level (level, or every third row "c") and the class. */
static void write_table(const fixture *f, const char *name, const char *level, char *path,
                        size_t n)
{
    snprintf(path, n, "%s/%s", f->dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    for (int k = 0; k < 12; k++)
        fprintf(fp, "x%d,", k);
    fputs("cat,class\r\n", fp);
    for (int i = 0; i < ROWS; i++) {
        for (int k = 0; k < 12; k++)
            fprintf(fp, "%d.%d,", (i * (k + 3)) % 101, k);
        fprintf(fp, "%s,%d\r\n", i % 3 ? level : "c", (i * 7) % 3);
    }
    fclose(fp);
}

/* The text after the rule, the last quoted field, of each line of csv (the header
 * whole), as one string. */
static char *measures(const char *csv)
{
    char *out = calloc(1, strlen(csv) + 1);
    for (const char *line = csv; *line;) {
        const char *nl = strchr(line, '\n'), *q = line;
        for (const char *p = line; p < nl; p++)
            if (*p == '"')
                q = p + 1;
        strncat(out, q, (size_t)(nl + 1 - q));
        line = nl + 1;
    }
    return out;
}

/* Mines data with the rules of rules_text; returns the result CSV (malloc'd). */
static char *mine(fixture *f, const char *data, const char *rules_text)
{
    char rules[160];
    snprintf(rules, sizeof rules, "%s/r.txt", f->dir);
    write_file(rules, rules_text);
    int rc = dmbench(f, "mine rules --variant cpu --data %s --rules %s", data, rules);
    if (rc)
        fail_msg("mine rules --data %s: exit %d: %s", data, rc, slurp(f->errf));
    return strdup(slurp(f->out));
}

static void a_quoted_level_mines_as_a_plain_one(void **state)
{
    fixture *f = *state;
    char quoted[160], plain[160], cmd[400];
    write_table(f, "quoted.csv", "\"a,b\"", quoted, sizeof quoted);
    write_table(f, "plain.csv", "ab", plain, sizeof plain);
    char *a = mine(f, quoted, "IF cat = \"a,b\" AND x1 <= 40 THEN class = 1\n"
                              "IF NOT cat = \"a,b\" OR x0 > 70 THEN class = 0\n");
    char *b = mine(f, plain, "IF cat = ab AND x1 <= 40 THEN class = 1\n"
                             "IF NOT cat = ab OR x0 > 70 THEN class = 0\n");
    assert_non_null(strstr(a, "IF cat = \"\"a,b\"\" AND x1 <= 40 THEN class = 1"));
    assert_int_equal(count_lines(a), 3);
    char *ma = measures(a), *mb = measures(b);
    assert_string_equal(ma, mb);
    assert_true(atoi(strchr(ma, '\n') + 2) > 1000); /* rule 1 holds on many rows */
    /* gzip-compressed, the same */
    snprintf(cmd, sizeof cmd, "gzip -k '%s'", quoted);
    assert_int_equal(system(cmd), 0);
    strcat(quoted, ".gz");
    char *c = mine(f, quoted, "IF cat = \"a,b\" AND x1 <= 40 THEN class = 1\n"
                              "IF NOT cat = \"a,b\" OR x0 > 70 THEN class = 0\n");
    assert_string_equal(c, a);
    free(a);
    free(b);
    free(c);
    free(ma);
    free(mb);
}

/* Runs "dmbench mine WORKLOAD --data dir/name ARGS" on text written there; asserts exit
 * 2, one line on stderr naming "path:where: " and holding what, no output file, and the
 * data file as it was. */
static void refused(fixture *f, const char *workload, const char *args, const char *name,
                    const char *text, const char *where, const char *what)
{
    char data[160], out[160], want[256];
    snprintf(data, sizeof data, "%s/%s", f->dir, name);
    snprintf(out, sizeof out, "%s/out.csv", f->dir);
    write_file(data, text);
    int rc = dmbench(f, "mine %s --variant cpu --data %s %s --out %s", workload, data, args,
                     out);
    const char *said = slurp(f->errf);
    snprintf(want, sizeof want, "%s:%s: ", data, where);
    if (rc != 2 || count_lines(said) != 1 || !strstr(said, want) || !strstr(said, what))
        fail_msg("mine %s on '%s': exit %d, said: %s (expected %s...%s)", workload, text, rc,
                 said, want, what);
    assert_false(exists(out));
    assert_string_equal(slurp(data), text);
}

static void malformed_files_exit_2_naming_line_and_column(void **state)
{
    fixture *f = *state;
    char rules[160], args[200];
    snprintf(rules, sizeof rules, "%s/r.txt", f->dir);
    write_file(rules, "IF x <= 3 THEN y = 1\n");
    snprintf(args, sizeof args, "--rules %s", rules);
    refused(f, "rules", args, "open.csv", "x,y\n1,\"2\n3,4\n", "2:3",
            "opens a quoted field that is never closed");
    refused(f, "rules", args, "ragged.csv", "x,y\n1,\"a,b\"\n\"3\n\",4,5\n", "4:5",
            "3 fields, expected 2 as in line 1");
    refused(f, "rules", args, "after.csv", "x,y\r\n1,\"2\"3\r\n", "2:6",
            "'3' after the closing quote");
    refused(f, "coloc", "--distance 2", "points.csv", "a,1,2\n\"b\n\",1,2,3\n", "3:7",
            "4 fields, expected 3 (feature,x,y)");
    refused(f, "coloc", "--distance 2", "open.csv", "a,1,2\nb,\"1,2\n", "2:3", "never closed");
    refused(f, "episodes", "", "events.csv", "a,1\n\"b\" c,2\n", "2:5",
            "'c' after the closing quote");
    refused(f, "episodes", "", "ragged.csv", "a,1\nb,2,\"x\ny\"\n", "2:5",
            "3 fields, expected 2 (type,time)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_quoted_level_mines_as_a_plain_one, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed_files_exit_2_naming_line_and_column, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
