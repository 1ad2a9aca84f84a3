/* test_bad_db.c - results databases and paths as users have them (issue 35): a database
 * with a damaged page, a truncated one, one of a newer schema version, a file that is not
 * SQLite and a directory given for one are refused by every command that opens a
 * database (run, mine --db, show, export, report, compare, plot, tune --store, merge's
 * output and inputs), each with exit status 2 and one line, the file kept byte for byte
 * and no -wal, -shm or -journal left beside it; so is one holding another program's
 * interrupted write (a hot -journal, kept to roll back); a directory given for a sweep or a
 * dataset is bad input too; a --db in folders that do not exist gets them made by the
 * commands that write, and is refused by those that read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli_fixture.h"
#include "kept.h"
#include "store.h"

static const char sweep[] = "name: tiny\n"
                            "workload: membw\n"
                            "dataset: { generator: random }\n"
                            "variants: [cpu]\n"
                            "axes: { n: [64, 128] }\n"
                            "measure: { min_samples: 3, max_time: 0.01 }\n";

/* f->dir/NAME into buf. */
static const char *in_dir(fixture *f, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", f->dir, name);
    return buf;
}

/* A real results database at f->db (a run of the tiny sweep, f->dir/tiny.yaml), closed
 * by dmbench, so no -wal or -shm is beside it. */
static void make_good_db(fixture *f)
{
    char path[160];
    write_file(in_dir(f, "tiny.yaml", path, sizeof path), sweep);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", path, f->db), 0);
    char side[192];
    snprintf(side, sizeof side, "%s-wal", f->db);
    assert_false(exists(side));
}

/* Copies f->db to f->dir/NAME (into path). */
static void copy_db(fixture *f, const char *name, char *path, size_t n)
{
    char cmd[512];
    in_dir(f, name, path, n);
    snprintf(cmd, sizeof cmd, "cp %s %s", f->db, path);
    assert_int_equal(system(cmd), 0);
}

/* Overwrites page `page` (1-based) of the database at path with garbage. */
static void damage_page(const char *path, int64_t page, int page_size)
{
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, (long)((page - 1) * page_size), SEEK_SET), 0);
    for (int i = 0; i < page_size; i++)
        fputc(0xa5 ^ (i * 7), fp);
    fclose(fp);
}

/* The bad databases of the issue, made in f->dir from f->db; their paths in bad[] and
 * what each refusal says in says[]. Returns how many. */
static int make_bad_dbs(fixture *f, char bad[][160], const char **says)
{
    int n = 0;
    /* a damaged page: the root page of the samples table written over */
    int64_t root = db_int(f->db, "SELECT rootpage FROM sqlite_schema WHERE name = 'samples'");
    int page_size = (int)db_int(f->db, "PRAGMA page_size");
    assert_true(root > 1);
    copy_db(f, "damaged.sqlite", bad[n], sizeof bad[n]);
    damage_page(bad[n], root, page_size);
    says[n++] = "the database is damaged (SQLite's quick_check: ";
    /* truncated: the last pages cut off, and cut inside its header */
    copy_db(f, "truncated.sqlite", bad[n], sizeof bad[n]);
    assert_int_equal(truncate(bad[n], 3L * page_size), 0);
    says[n++] = "the database is truncated: ";
    copy_db(f, "stub.sqlite", bad[n], sizeof bad[n]);
    assert_int_equal(truncate(bad[n], 60), 0);
    says[n++] = "the database is truncated: 60 bytes, shorter than its header";
    /* a later dmbench's */
    copy_db(f, "newer.sqlite", bad[n], sizeof bad[n]);
    sqlite3 *db;
    char sql[64];
    assert_int_equal(sqlite3_open(bad[n], &db), SQLITE_OK);
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", store_schema_version() + 1);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    says[n++] = "is newer than this dmbench's";
    /* not SQLite, and a directory */
    in_dir(f, "notes.sqlite", bad[n], sizeof bad[n]);
    write_file(bad[n], "these are notes, not a database\n");
    says[n++] = "not an SQLite database (";
    in_dir(f, "folder.sqlite", bad[n], sizeof bad[n]);
    assert_int_equal(mkdir(bad[n], 0700), 0);
    says[n++] = "is a directory, expected a results database file";
    return n;
}

/* Every command that opens a database refuses each bad one, keeping it as it was. */
static void bad_databases_are_refused_by_every_command(void **state)
{
    fixture *f = *state;
    char bad[8][160], path[160], out[160], rep[160];
    const char *says[8];
    make_good_db(f);
    int n = make_bad_dbs(f, bad, says);
    in_dir(f, "tiny.yaml", path, sizeof path);
    in_dir(f, "merged.sqlite", out, sizeof out);
    in_dir(f, "report", rep, sizeof rep);
    for (int i = 0; i < n; i++) {
        kept ks = { 0 };
        const char *paths[] = { bad[i], f->db, path };
        keep(&ks, 3, paths);
        const char *b = bad[i];
        refused_keeping(f, &ks, says[i], "run %s --db %s --quiet", path, b);
        refused_keeping(f, &ks, says[i], "mine membw -v cpu -p n=16 --db %s", b);
        refused_keeping(f, &ks, says[i], "show --db %s", b);
        refused_keeping(f, &ks, says[i], "show 1 --db %s", b);
        refused_keeping(f, &ks, says[i], "export 1 --format json --db %s", b);
        refused_keeping(f, &ks, says[i], "report --db %s --out %s --no-plots", b, rep);
        refused_keeping(f, &ks, says[i], "compare 1 1 --db %s", b);
        refused_keeping(f, &ks, says[i], "plot time-vs-block --db %s --out %s", b, rep);
        refused_keeping(f, &ks, says[i], "tune membw --store --db %s", b);
        /* as merge's output, and as one of its inputs after a good one */
        refused_keeping(f, &ks, says[i], "merge %s %s", b, f->db);
        refused_keeping(f, &ks, says[i], "merge %s %s %s", out, f->db, b);
        assert_false(exists(out));
        kept_free(&ks);
    }
    assert_false(exists(rep));
}

/* The line says what is wrong with which versions where they matter, and how to look. */
static void refusals_say_what_and_how_to_look(void **state)
{
    fixture *f = *state;
    char bad[8][160], want[512];
    const char *says[8];
    make_good_db(f);
    make_bad_dbs(f, bad, says);
    assert_int_equal(dmbench(f, "show --db %s", bad[0]), 2);
    snprintf(want, sizeof want, "; nothing was written to it; look with: sqlite3 '%s' "
             "'PRAGMA integrity_check'\n", bad[0]);
    assert_non_null(strstr(slurp(f->errf), want));
    assert_non_null(strstr(slurp(f->errf), "Page "));
    assert_int_equal(dmbench(f, "show --db %s", bad[1]), 2);
    assert_non_null(strstr(slurp(f->errf), "where its header says "));
    assert_int_equal(dmbench(f, "show --db %s", bad[3]), 2);
    snprintf(want, sizeof want, "%s: database schema version %d is newer than this dmbench's "
             "%d (a later dmbench wrote it); nothing was written to it; look with: sqlite3 "
             "'%s' 'SELECT * FROM schema_version'\n", bad[3], store_schema_version() + 1,
             store_schema_version(), bad[3]);
    assert_string_equal(slurp(f->errf) + 16, want);
}

/* A sound database passes the checks, to read and to write (older ones still migrate:
 * test_store.c). */
static void a_sound_database_still_opens(void **state)
{
    fixture *f = *state;
    char path[160];
    make_good_db(f);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", in_dir(f, "tiny.yaml", path,
                                                                 sizeof path), f->db), 0);
    assert_int_equal(dmbench(f, "show 2 --db %s", f->db), 0);
    assert_int_equal(dmbench(f, "export 1 --format csv --db %s", f->db), 0);
    assert_int_equal(count_lines(slurp(f->out)), 3);
}

/* A directory where a sweep file or a dataset is expected is bad input, the database
 * kept; a file where a folder is expected too. */
static void directories_for_files_are_bad_input(void **state)
{
    fixture *f = *state;
    char dir[160], yaml[160], text[512], nested[192];
    make_good_db(f);
    in_dir(f, "adir", dir, sizeof dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    kept ks = { 0 };
    const char *paths[] = { f->db, dir };
    keep(&ks, 2, paths);
    refused_keeping(f, &ks, "adir: is a directory, expected a file", "run %s --db %s", dir,
                    f->db);
    snprintf(text, sizeof text, "workload: tdm\ndataset: { path: %s }\nvariants: [cpu]\n"
             "axes: { length: 100 }\n", dir);
    write_file(in_dir(f, "dirdata.yaml", yaml, sizeof yaml), text);
    refused_keeping(f, &ks, "adir: is a directory, expected a file", "run %s --db %s --quiet",
                    yaml, f->db);
    refused_keeping(f, &ks, "adir: is a directory, expected a file",
                    "mine tdm -v cpu -p length=100 --data %s --db %s", dir, f->db);
    refused_keeping(f, &ks, "adir: is a directory, expected a file",
                    "mine episodes -v cpu --data %s --db %s", dir, f->db);
    refused_keeping(f, &ks, "adir: is a directory, expected a file",
                    "mine coloc -v cpu --data %s --db %s", dir, f->db);
    refused_keeping(f, &ks, "adir: is a directory, expected a file",
                    "mine rules -v cpu --rules %s --db %s", dir, f->db);
    /* a --db or --out inside a file */
    snprintf(nested, sizeof nested, "%s/x.sqlite", f->db);
    refused_keeping(f, &ks, "is a file, not a directory", "run %s/tiny.yaml --db %s --quiet",
                    f->dir, nested);
    refused_keeping(f, &ks, "is a file, not a directory", "report --db %s --out %s/rep",
                    f->db, f->db);
    kept_free(&ks);
}

/* --db in folders that do not exist: made by the commands that write (as report --out
 * and mine --out make theirs), refused by those that read, which make nothing. */
static void missing_db_folders_are_made_to_write_and_refused_to_read(void **state)
{
    fixture *f = *state;
    char path[160], db[192], top[160];
    write_file(in_dir(f, "tiny.yaml", path, sizeof path), sweep);
    in_dir(f, "no", top, sizeof top);
    snprintf(db, sizeof db, "%s/such/r.sqlite", top);
    const char *readers[] = { "show", "export", "report --no-plots --out %s/rep",
                              "tune membw --store" };
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
        char args[512];
        snprintf(args, sizeof args, readers[i], f->dir);
        kept ks = { 0 };
        const char *paths[] = { top };
        keep(&ks, 1, paths);
        refused_keeping(f, &ks, "no results database here", "%s --db %s", args, db);
        kept_free(&ks);
    }
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", path, db), 0);
    assert_int_equal(db_int(db, "SELECT count(*) FROM runs"), 1);
    snprintf(db, sizeof db, "%s/made/m.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s %s/no/such/r.sqlite", db, f->dir), 0);
    assert_int_equal(db_int(db, "SELECT count(*) FROM runs"), 1);
}

/* A database with another program's interrupted write (a hot -journal: the program died
 * inside a transaction that had written pages) is refused as it is: rolling the journal
 * back would write it. */
static void an_interrupted_write_is_left_to_roll_back(void **state)
{
    fixture *f = *state;
    char path[160], journal[192], yaml[160];
    write_file(in_dir(f, "tiny.yaml", yaml, sizeof yaml), sweep);
    in_dir(f, "hot.sqlite", path, sizeof path);
    snprintf(journal, sizeof journal, "%s-journal", path);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sqlite3 *db;
        if (sqlite3_open(path, &db) != SQLITE_OK ||
            sqlite3_exec(db, "CREATE TABLE t (x); WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL"
                             " SELECT i + 1 FROM k WHERE i < 2000) INSERT INTO t SELECT"
                             " randomblob(500) FROM k; PRAGMA cache_size = 2; BEGIN;"
                             " UPDATE t SET x = randomblob(500);", NULL, NULL, NULL) != SQLITE_OK)
            _exit(1);
        _exit(0); /* dies inside the transaction, its pages spilled into the file */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(exists(journal));
    kept ks = { 0 };
    keep(&ks, 1, (const char *[]){ path });
    refused_keeping(f, &ks, "holds another program's interrupted write, not rolled back",
                    "show --db %s", path);
    refused_keeping(f, &ks, "holds another program's interrupted write, not rolled back",
                    "run %s --db %s", yaml, path);
    kept_free(&ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(bad_databases_are_refused_by_every_command, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(refusals_say_what_and_how_to_look, setup, teardown),
        cmocka_unit_test_setup_teardown(a_sound_database_still_opens, setup, teardown),
        cmocka_unit_test_setup_teardown(an_interrupted_write_is_left_to_roll_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(directories_for_files_are_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_db_folders_are_made_to_write_and_refused_to_read,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
