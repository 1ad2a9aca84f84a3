/* test_inputs.c - inputs as users have them (issue 35), through the dmbench binary: file
 * parameters in a folder of 300 characters and spaces, kept whole from the command line
 * or a sweep to the database and `show`; a path past PATH_MAX refused in one line; relaxed
 * counts that say they are upper bounds; and points on a file of every workload that
 * loads files, which carry none of the generator's parameters and print the data's shape
 * as loaded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli_fixture.h"

/* A folder under the fixture's of more than 300 characters, with spaces and a comma, as
 * users name them: made, and written into dir. */
static void long_folder(const fixture *f, char *dir, size_t n)
{
    static const char *const parts[] = {
        "my projects", "mining 2026-11-27",
        "a folder with a rather long name for the data of the project, as users have them",
        "and another one, named for the run of the day that the data came from in the end",
        "with the own folder of the data set, as it was unpacked from the archive it came in",
        "rules and episodes data",
    };
    snprintf(dir, n, "%s", f->dir);
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        dm_append(dir, n, "/%s", parts[i]);
        assert_int_equal(mkdir(dir, 0755), 0);
    }
    assert_true(strlen(dir) > 300);
}

/* The line of text that starts with prefix (the first), copied into line. */
static const char *line_with(const char *text, const char *prefix, char *line, size_t n)
{
    const char *p = strstr(text, prefix);
    if (!p)
        fail_msg("no '%s' in:\n%s", prefix, text);
    snprintf(line, n, "%.*s", (int)strcspn(p, "\n"), p);
    return line;
}

static const char small_csv[] = "x,y,colour,class\n1,0.5,red,1\n2,1.5,blue,0\n3,2.5,red,1\n"
                                "4,3.5,green,0\n5,4.5,red,1\n";
static const char one_rule[] = "IF x <= 3 AND colour = red THEN class = 1\n";
/* A -> B once at a gap in (4, 6] ms, once at 2 ms: 1 exact, 2 relaxed (every link [0, 6]) */
static const char events_csv[] = "A,0.010\nB,0.012\nA,0.020\nB,0.025\n";

/* `mine rules --rules` and `mine episodes --episodes` in a folder of 300 characters and
 * spaces: the files are read, and the point printed names each whole. */
static void mine_reads_files_at_long_paths_with_spaces(void **state)
{
    fixture *f = *state;
    char dir[1024], data[1200], rules[1200], out[1200], events[1200], eps[1200];
    long_folder(f, dir, sizeof dir);
    snprintf(data, sizeof data, "%s/small table.csv", dir);
    snprintf(rules, sizeof rules, "%s/the rules.txt", dir);
    snprintf(out, sizeof out, "%s/out file.csv", dir);
    write_file(data, small_csv);
    write_file(rules, one_rule);
    assert_int_equal(dmbench(f, "mine rules --variant cpu --data '%s' --rules '%s' --out '%s'",
                             data, rules, out), 0);
    assert_string_equal(slurp(out), "rule,n_ac,n_anc,n_nac,n_nanc,support,confidence,lift,"
                                    "leverage,conviction\n\"IF x <= 3 AND colour = red THEN "
                                    "class = 1\",2,0,1,2,0.4,1,1.6666666666666667,"
                                    "0.16000000000000003,inf\n");
    char want[1300];
    snprintf(want, sizeof want, ",rules_file=%s: verified", rules);
    assert_non_null(strstr(slurp(f->errf), want));

    snprintf(events, sizeof events, "%s/events of the day.csv", dir);
    snprintf(eps, sizeof eps, "%s/the episodes.txt", dir);
    write_file(events, events_csv);
    write_file(eps, "A -> B\n");
    assert_int_equal(dmbench(f, "mine episodes --variant cpu --data '%s' --episodes '%s' "
                                "--gap 4:6 --out '%s'", events, eps, out), 0);
    assert_string_equal(slurp(out), "episode,level,count\nA -> B,2,1\n");
    snprintf(want, sizeof want, ",episodes=%s: verified", eps);
    assert_non_null(strstr(slurp(f->errf), want));
}

/* A sweep whose axis is a file at a long path: the database keeps the path whole, in the
 * point's parameters and its typed parameter, and `show` prints it whole. */
static void a_sweep_stores_a_long_path_whole(void **state)
{
    fixture *f = *state;
    char dir[1024], data[1200], rules[1200], sweep[256], text[4096];
    long_folder(f, dir, sizeof dir);
    snprintf(data, sizeof data, "%s/small table.csv", dir);
    snprintf(rules, sizeof rules, "%s/the rules.txt", dir);
    write_file(data, small_csv);
    write_file(rules, one_rule);
    snprintf(sweep, sizeof sweep, "%s/long.yaml", f->dir);
    snprintf(text, sizeof text,
             "name: long\nworkload: rules\ndataset: { path: \"%s\" }\nvariants: [cpu]\n"
             "axes:\n  rules_file: \"%s\"\n"
             "measure: { mode: hot, min_samples: 3, max_time: 0.01 }\n", data, rules);
    write_file(sweep, text);
    if (dmbench(f, "run %s --db %s --quiet", sweep, f->db) != 0)
        fail_msg("run: %s", slurp(f->errf));

    sqlite3 *db;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT p.params, pp.value_text FROM points p JOIN "
                                            "point_params pp ON pp.point_id = p.id WHERE "
                                            "pp.name = 'rules_file'", -1, &q, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    char want[1300];
    snprintf(want, sizeof want, ",rules_file=%s", rules);
    const char *params = (const char *)sqlite3_column_text(q, 0);
    assert_string_equal(params + strlen(params) - strlen(want), want);
    assert_string_equal((const char *)sqlite3_column_text(q, 1), rules);
    sqlite3_finalize(q);
    sqlite3_close(db);

    assert_int_equal(dmbench(f, "show --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), want));
}

/* A path longer than PATH_MAX: exit 2 and one line saying so, by -p, the workload's flag,
 * --data, --out and a sweep's axis; no --out file, no database. */
static void a_path_past_path_max_is_refused_in_one_line(void **state)
{
    fixture *f = *state;
    static char huge[DM_TEXT_MAX + 16], args[DM_TEXT_MAX + 256], text[DM_TEXT_MAX + 512];
    char out[256], sweep[256];
    snprintf(huge, sizeof huge, "%s/", f->dir);
    while (strlen(huge) < DM_TEXT_MAX)
        dm_append(huge, sizeof huge, "a folder/");
    dm_append(huge, sizeof huge, "r.txt");
    snprintf(out, sizeof out, "%s/out.csv", f->dir);
    const char *const forms[] = { "-p 'rules_file=%s'", "--rules '%s'", "--data '%s'",
                                  "--generate 3 --out '%s'" };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        snprintf(args, sizeof args, forms[i], huge);
        int rc = dmbench(f, "mine rules --variant cpu -p instances=100 %s%s%s", args,
                         i < 3 ? " --out " : "", i < 3 ? out : "");
        const char *said = slurp(f->errf);
        if (rc != 2 || count_lines(said) != 1 || !strstr(said, "longer than the 4095"))
            fail_msg("mine rules %.40s...: exit %d, said: %s", forms[i], rc, said);
        assert_false(exists(out));
    }
    snprintf(sweep, sizeof sweep, "%s/huge.yaml", f->dir);
    snprintf(text, sizeof text, "workload: rules\ndataset: { generator: synthetic }\n"
             "variants: [cpu]\naxes:\n  rules_file: \"%s\"\n",
             huge);
    write_file(sweep, text);
    assert_int_equal(dmbench(f, "run %s --db %s", sweep, f->db), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_non_null(strstr(slurp(f->errf), "longer than the 4095"));
    assert_false(exists(f->db));
}

/* Relaxed counts (relax=1: PreElim's problem, which the CPU variants count too) are upper
 * bounds, and say so: the CSV's first line, "# upper bounds: ...", and a line on stderr,
 * verified or not; exact counts have neither. */
static void relaxed_counts_say_they_are_upper_bounds(void **state)
{
    fixture *f = *state;
    char events[256], eps[256], out[256];
    snprintf(events, sizeof events, "%s/e.csv", f->dir);
    snprintf(eps, sizeof eps, "%s/e.txt", f->dir);
    snprintf(out, sizeof out, "%s/out.csv", f->dir);
    write_file(events, events_csv);
    write_file(eps, "A -> B\n");
    const char *const verify[] = { "", "--no-verify" };
    for (int v = 0; v < 2; v++) {
        assert_int_equal(dmbench(f, "mine episodes --variant cpu -p relax=1 --data %s "
                                    "--episodes %s --gap 4:6 %s --out %s", events, eps,
                                 verify[v], out), 0);
        assert_string_equal(slurp(out), "# upper bounds: each count is of the relaxed problem "
                                        "(every link [0, hi]), at least the exact count\n"
                                        "episode,level,count\nA -> B,2,2\n");
        assert_non_null(strstr(slurp(f->errf), "dmbench mine: not exact (the CSV says so in "
                                                "its first line): upper bounds: "));
        assert_int_equal(dmbench(f, "mine episodes --variant cpu --data %s --episodes %s "
                                    "--gap 4:6 %s --out %s", events, eps, verify[v], out), 0);
        assert_string_equal(slurp(out), "episode,level,count\nA -> B,2,1\n");
        assert_null(strstr(slurp(f->errf), "not exact"));
    }
}

/* Each workload that loads files, mined on one: the point printed has none of the
 * generator's parameters (the names of its spec's generated entries), and the data's
 * shape as loaded; -p of a generator's parameter is refused. */
static void points_on_files_carry_no_generator_parameters(void **state)
{
    fixture *f = *state;
    static const struct {
        const char *workload, *file, *text, *flags, *shape;
    } cases[] = {
        { "coloc", "p.csv", "A,1,1\nB,1.5,1\nA,5,5\nB,5.5,5\nC,20,20\n",
          "--distance 1 --prevalence 0.3", "on p.csv (5 instances of 3 features) at " },
        { "rules", "small.csv", small_csv, "--generate 3",
          "on small.csv (5 instances, 4 attributes) at " },
        { "tdm", "t.txt", "ABCABCABCXYZ\n", "-p length=12 -p level=2",
          "on t.txt (12 letters) at " },
        { "episodes", "e.csv", events_csv, "--gap 4:6",
          "on e.csv (4 events of 2 types over 0.015 s) at " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char data[256], line[4096];
        snprintf(data, sizeof data, "%s/%s", f->dir, cases[i].file);
        write_file(data, cases[i].text);
        assert_int_equal(dmbench(f, "mine %s --variant cpu --data %s %s", cases[i].workload,
                                 data, cases[i].flags), 0);
        line_with(slurp(f->errf), "dmbench mine: ", line, sizeof line);
        if (!strstr(line, cases[i].shape))
            fail_msg("%s: no '%s' in: %s", cases[i].workload, cases[i].shape, line);
        const dm_workload *w = registry_workload(cases[i].workload, NULL);
        int generated = 0;
        for (const dm_param_spec *p = w->dataset_params; p->name; p++) {
            if (!p->generated)
                continue;
            char at[64];
            snprintf(at, sizeof at, " at %s=", p->name);
            char mid[64];
            snprintf(mid, sizeof mid, ",%s=", p->name);
            if (strstr(line, at) || strstr(line, mid))
                fail_msg("%s on a file: %s in: %s", cases[i].workload, p->name, line);
            if (generated++ == 0) {
                assert_int_equal(dmbench(f, "mine %s --variant cpu --data %s %s -p %s=%s",
                                         cases[i].workload, data, cases[i].flags, p->name,
                                         p->def), 2);
                assert_non_null(strstr(slurp(f->errf), "describes generated data"));
            }
        }
        assert_true(generated > 0);
    }
}

/* A recording's points in the database carry none of the generator's parameters either:
 * coloc on a file, run from a sweep. */
static void a_recording_stores_no_generator_parameters(void **state)
{
    fixture *f = *state;
    char data[256], sweep[256], text[1024];
    snprintf(data, sizeof data, "%s/p.csv", f->dir);
    write_file(data, "A,1,1\nB,1.5,1\nA,5,5\nB,5.5,5\nC,20,20\n");
    snprintf(sweep, sizeof sweep, "%s/c.yaml", f->dir);
    snprintf(text, sizeof text,
             "workload: coloc\ndataset: { path: %s }\nvariants: [cpu]\n"
             "axes:\n  distance: 1\n  prevalence: 0.3\n"
             "measure: { mode: hot, min_samples: 3, max_time: 0.01 }\n", data);
    write_file(sweep, text);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", sweep, f->db), 0);
    sqlite3 *db;
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT p.params, d.params FROM points p JOIN "
                                            "datasets d ON d.id = p.dataset_id", -1, &q, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(q, 0), "distance=1,prevalence=0.3");
    assert_string_equal((const char *)sqlite3_column_text(q, 1), "");
    assert_int_equal(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(mine_reads_files_at_long_paths_with_spaces, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_sweep_stores_a_long_path_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(a_path_past_path_max_is_refused_in_one_line, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(relaxed_counts_say_they_are_upper_bounds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(points_on_files_carry_no_generator_parameters, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_recording_stores_no_generator_parameters, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
