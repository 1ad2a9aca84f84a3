/* test_merge.c - `dmbench run --shard` and `dmbench merge` end to end on a CPU sweep:
 * shards run as parallel processes and merged hold the unsharded run's points, merging
 * twice writes nothing, every table under a run is copied, bad inputs (another schema
 * version, a foreign or missing database; every missing one named) are refused with OUT
 * untouched, and --combine folds the shards into one run, refusing while any shard is
 * missing or still running (naming each). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cli_fixture.h"
#include "kept.h"
#include "store.h"

#define SHARDS 3

/* The points of n = 2048 are pruned by a constraint: positions count them all the same. */
static const char sweep[] = "name: shards\n"
                            "workload: membw\n"
                            "dataset: { generator: random }\n"
                            "variants: [cpu]\n"
                            "baseline: cpu\n"
                            "axes:\n"
                            "  n: [256, 512, 1024, 2048]\n"
                            "  op: [copy, triad]\n"
                            "constraints:\n"
                            "  - \"n != 2048\"\n"
                            "measure: { min_samples: 3, max_time: 0.02 }\n";

/* A sweep whose GPU points are skipped here and two of which its variant does not
 * support (stored as pruned): each is stored by the one shard its position gives. */
static const char mixed_sweep[] = "name: mixed\n"
                                  "workload: tdm\n"
                                  "dataset: { generator: uniform }\n"
                                  "variants: [cpu, thread-tex]\n"
                                  "baseline: cpu\n"
                                  "axes:\n"
                                  "  length: 4000\n"
                                  "  level: [1, 2]\n"
                                  "  block: [64, 128]\n"
                                  "  table: [shared, constant]\n"
                                  "measure: { min_samples: 3, max_time: 0.02 }\n";

/* Every point of the newest run of the database at path (or of run_sql's run), as
 * "idx variant params status" lines in idx order, into buf. */
static const char *points_of(const char *path, const char *run_sql, char *buf, size_t n)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT group_concat(x, char(10)) FROM (SELECT idx || ' ' || variant || ' ' ||"
             " params || ' ' || status AS x FROM points WHERE run_id = (%s) ORDER BY idx)",
             run_sql);
    return db_text(path, sql, buf, n);
}

/* Runs the sweep at sw as SHARDS parallel processes, shard i into dir/<tag>s<i>.sqlite,
 * and whole into dir/<tag>whole.sqlite. */
static void run_shards(fixture *f, const char *sw, const char *tag)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "pids=; for i in $(seq 1 %d); do CUDA_VISIBLE_DEVICES= %s run %s --shard $i/%d"
             " --db %s/%ss$i.sqlite --quiet & pids=\"$pids $!\"; done; rc=0;"
             " for p in $pids; do wait $p || rc=1; done; exit $rc",
             SHARDS, DMBENCH, sw, SHARDS, f->dir, tag);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(dmbench(f, "run %s --db %s/%swhole.sqlite --quiet", sw, f->dir, tag), 0);
}

static int setup_shards(void **state)
{
    if (setup(state))
        return -1;
    fixture *f = *state;
    char sw[160];
    snprintf(sw, sizeof sw, "%s/shards.yaml", f->dir);
    write_file(sw, sweep);
    run_shards(f, sw, "");
    return 0;
}

/* The inputs "DIR/s1.sqlite DIR/s2.sqlite ..." into buf. */
static const char *inputs(const fixture *f, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 1; i <= SHARDS; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), " %s/s%d.sqlite", f->dir, i);
    return buf;
}

static void shards_partition_the_sweep_by_position(void **state)
{
    fixture *f = *state;
    char path[160];
    for (int i = 1; i <= SHARDS; i++) {
        snprintf(path, sizeof path, "%s/s%d.sqlite", f->dir, i);
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM points WHERE idx %% %d != %d", SHARDS,
                 i - 1);
        assert_int_equal(db_int(path, sql), 0);
        assert_int_equal(db_int(path, "SELECT shard_index FROM runs"), i);
        assert_int_equal(db_int(path, "SELECT shard_count FROM runs"), SHARDS);
        assert_int_equal(db_int(path, "SELECT points_total FROM runs"), 8);
    }
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    assert_int_equal(db_int(path, "SELECT count(*) FROM runs WHERE shard_count IS NULL"), 1);
    assert_int_equal(db_int(path, "SELECT count(*) FROM points"), 6); /* 2048 pruned */
}

static void merged_shards_equal_the_unsharded_run(void **state)
{
    fixture *f = *state;
    static char merged[8192], whole[8192];
    char in[1024], out[160], path[160];
    snprintf(out, sizeof out, "%s/out.sqlite", f->dir);
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s%s", out, inputs(f, in, sizeof in)), 0);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs"), SHARDS);
    assert_non_null(strstr(slurp(f->errf), "3 runs copied"));
    /* the union of the shards' points, by position, is the whole run's */
    db_text(out, "SELECT group_concat(x, char(10)) FROM (SELECT idx || ' ' || variant || ' ' ||"
                 " params || ' ' || status AS x FROM points ORDER BY idx)", merged, sizeof merged);
    points_of(path, "SELECT max(id) FROM runs", whole, sizeof whole);
    assert_true(whole[0] != '\0');
    assert_string_equal(merged, whole);
    /* each run keeps its fingerprint and identity */
    for (int i = 1; i <= SHARDS; i++) {
        char sql[256], a[256], b[256];
        snprintf(path, sizeof path, "%s/s%d.sqlite", f->dir, i);
        snprintf(sql, sizeof sql, "SELECT uid || argv || host || started_at FROM runs"
                 " WHERE shard_index = %d", i);
        assert_string_equal(db_text(out, sql, a, sizeof a), db_text(path, sql, b, sizeof b));
    }
}

/* The rows of the database's t-th table, by name. */
static int64_t table_rows(const char *db, int t)
{
    char sql[256], name[64];
    snprintf(sql, sizeof sql, "SELECT name FROM sqlite_schema WHERE type = 'table'"
             " ORDER BY name LIMIT 1 OFFSET %d", t);
    db_text(db, sql, name, sizeof name);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", name);
    return db_int(db, sql);
}

static void merging_twice_writes_nothing(void **state)
{
    fixture *f = *state;
    char in[1024], out[160];
    snprintf(out, sizeof out, "%s/out.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s%s", out, inputs(f, in, sizeof in)), 0);
    int64_t tables = db_int(out, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'");
    int64_t rows[64] = { 0 };
    for (int t = 0; t < tables; t++)
        rows[t] = table_rows(out, t);
    assert_int_equal(dmbench(f, "merge %s%s%s", out, in, in), 0);
    assert_non_null(strstr(slurp(f->errf), "0 runs copied"));
    assert_non_null(strstr(slurp(f->errf), "6 already there"));
    for (int t = 0; t < tables; t++)
        assert_int_equal(table_rows(out, t), rows[t]);
}

static void every_table_under_a_run_is_copied(void **state)
{
    fixture *f = *state;
    char in[1024], out[160], sql[256], path[160];
    snprintf(out, sizeof out, "%s/out.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s%s", out, inputs(f, in, sizeof in)), 0);
    /* every table but the schema's own, the shared datasets and the per-card store */
    int64_t tables = db_int(out, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                                 " AND name NOT IN ('schema_version', 'datasets',"
                                 " 'crossover_fits', 'crossover_groups', 'tuned_choices')");
    assert_int_equal(tables, 13);
    for (int t = 0; t < tables; t++) {
        char name[64];
        int64_t sum = 0;
        snprintf(sql, sizeof sql, "SELECT name FROM sqlite_schema WHERE type = 'table' AND"
                 " name NOT IN ('schema_version', 'datasets', 'crossover_fits',"
                 " 'crossover_groups', 'tuned_choices') ORDER BY name"
                 " LIMIT 1 OFFSET %d", t);
        db_text(out, sql, name, sizeof name);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", name);
        for (int i = 1; i <= SHARDS; i++) {
            snprintf(path, sizeof path, "%s/s%d.sqlite", f->dir, i);
            sum += db_int(path, sql);
        }
        if (db_int(out, sql) != sum)
            fail_msg("table %s: %lld rows merged, %lld in the inputs", name,
                     (long long)db_int(out, sql), (long long)sum);
    }
    /* one dataset per problem, shared by the shards that made it */
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    assert_int_equal(db_int(out, "SELECT count(*) FROM datasets"),
                     db_int(path, "SELECT count(*) FROM datasets"));
    assert_int_equal(db_int(out, "SELECT count(*) FROM points p LEFT JOIN datasets d"
                                 " ON d.id = p.dataset_id WHERE d.id IS NULL"), 0);
}

/* Runs merge into out with the one bad input path (after a good one) and checks it is
 * refused with a line naming path and want, out and the inputs kept byte for byte (out
 * with `before` runs). */
static void refused(fixture *f, const char *out, int64_t before, const char *path,
                    const char *want)
{
    char good[160];
    kept ks = { 0 };
    snprintf(good, sizeof good, "%s/s1.sqlite", f->dir);
    keep(&ks, 3, (const char *[]){ out, good, path });
    refused_keeping(f, &ks, want, "merge %s %s %s", out, good, path);
    assert_non_null(strstr(slurp(f->errf), path));
    kept_free(&ks);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs"), before);
}

static void skipped_and_unsupported_points_fall_in_one_shard_each(void **state)
{
    fixture *f = *state;
    static char combined[8192], whole[8192];
    char sw[160], out[160], path[160];
    snprintf(sw, sizeof sw, "%s/mixed.yaml", f->dir);
    write_file(sw, mixed_sweep);
    run_shards(f, sw, "m");
    snprintf(out, sizeof out, "%s/mixed.sqlite", f->dir);
    snprintf(path, sizeof path, "%s/mwhole.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s %s/ms1.sqlite %s/ms2.sqlite %s/ms3.sqlite --combine",
                             out, f->dir, f->dir, f->dir), 0);
    points_of(out, "SELECT max(id) FROM runs", combined, sizeof combined);
    points_of(path, "SELECT max(id) FROM runs", whole, sizeof whole);
    assert_string_equal(combined, whole);
    assert_int_equal(db_int(out, "SELECT count(*) FROM points WHERE status = 'pruned'"), 2);
    assert_int_equal(db_int(out, "SELECT count(*) FROM points WHERE status = 'ok'"),
                     db_int(path, "SELECT count(*) FROM points WHERE status = 'ok'"));
}

static void bad_inputs_are_refused_and_change_nothing(void **state)
{
    fixture *f = *state;
    char out[160], path[160], cmd[512], older[96], text[512];
    int newest = store_schema_version();
    snprintf(out, sizeof out, "%s/out.sqlite", f->dir);
    snprintf(older, sizeof older, "schema version 6, and this dmbench merges version %d",
             newest);
    assert_int_equal(dmbench(f, "merge %s %s/s2.sqlite", out, f->dir), 0);
    /* another schema version, older and newer */
    for (int v = 6; v <= newest + 1; v += newest + 1 - 6) {
        sqlite3 *db;
        snprintf(path, sizeof path, "%s/v%d.sqlite", f->dir, v);
        snprintf(cmd, sizeof cmd, "cp %s/s3.sqlite %s", f->dir, path);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        snprintf(cmd, sizeof cmd, "PRAGMA user_version = %d", v);
        assert_int_equal(sqlite3_exec(db, cmd, NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        refused(f, out, 1, path, v == 6 ? older : "newer than this dmbench");
    }
    /* another application's database, a file that is not one, none at all, OUT itself */
    sqlite3 *db;
    snprintf(path, sizeof path, "%s/foreign.sqlite", f->dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA application_id = 42; CREATE TABLE runs (id);",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    refused(f, out, 1, path, "not a dmbench results database (application id 0x2a,");
    snprintf(path, sizeof path, "%s/shards.yaml", f->dir);
    refused(f, out, 1, path, "not an SQLite database");
    snprintf(path, sizeof path, "%s/missing.sqlite", f->dir);
    refused(f, out, 1, path, "no such database to merge");
    refused(f, out, 1, out, "is the output database");
    /* every input that is not there is named, in one line */
    assert_int_equal(dmbench(f, "merge %s %s/s1.sqlite %s/gone2.sqlite %s/gone3.sqlite", out,
                             f->dir, f->dir, f->dir), 2);
    snprintf(text, sizeof text, "%s/gone2.sqlite, %s/gone3.sqlite: no such databases to merge "
             "(2 of the 3 inputs)", f->dir, f->dir);
    assert_non_null(strstr(slurp(f->errf), text));
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs"), 1);
    /* an output made for a refused merge does not stay */
    snprintf(path, sizeof path, "%s/new.sqlite", f->dir);
    assert_int_equal(dmbench(f, "merge %s %s/missing.sqlite", path, f->dir), 2);
    assert_false(exists(path));
    assert_int_equal(dmbench(f, "merge %s", path), 2);
    assert_non_null(strstr(slurp(f->errf), "no input database given"));
}

static void combine_folds_the_shards_into_one_run(void **state)
{
    fixture *f = *state;
    static char combined[8192], whole[8192];
    char in[1024], out[160], path[160], text[512];
    snprintf(out, sizeof out, "%s/combined.sqlite", f->dir);
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    inputs(f, in, sizeof in);
    /* every shard must be there and finished; all that are not are named; the inputs
     * are kept byte for byte */
    char s1[160], s3[160];
    kept ks = { 0 };
    snprintf(s1, sizeof s1, "%s/s1.sqlite", f->dir);
    snprintf(s3, sizeof s3, "%s/s3.sqlite", f->dir);
    keep(&ks, 3, (const char *[]){ out, s1, s3 });
    refused_keeping(f, &ks, "lacks shards: 2/3 missing;", "merge %s %s %s --combine", out, s1,
                    s3);
    refused_keeping(f, &ks, "lacks shards: 2/3 missing, 3/3 missing;", "merge %s %s --combine",
                    out, s1);
    kept_free(&ks);
    /* a shard still running (its task killed, say) until it is resumed */
    sqlite3 *db;
    char running[160];
    snprintf(text, sizeof text, "cp %s/s2.sqlite %s/s2run.sqlite", f->dir, f->dir);
    assert_int_equal(system(text), 0);
    snprintf(running, sizeof running, "%s/s2run.sqlite", f->dir);
    assert_int_equal(sqlite3_open(running, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE runs SET status = 'running', ended_at = NULL",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    snprintf(text, sizeof text, "lacks shards: 2/3 still running (run 1 of %s/s2run.sqlite),"
             " 3/3 missing; 'dmbench run --resume --shard I/N' runs or ends one", f->dir);
    keep(&ks, 3, (const char *[]){ out, s1, running });
    refused_keeping(f, &ks, text, "merge %s %s %s --combine", out, s1, running);
    kept_free(&ks);
    assert_int_equal(dmbench(f, "merge %s%s --combine", out, in), 0);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs WHERE shard_count IS NULL AND"
                                 " status = 'complete' AND points_planned = 6"), 1);
    assert_int_equal(db_int(out, "SELECT count(*) FROM run_notes WHERE key LIKE 'shard.%'"),
                     SHARDS);
    points_of(out, "SELECT max(id) FROM runs", combined, sizeof combined);
    points_of(path, "SELECT max(id) FROM runs", whole, sizeof whole);
    assert_string_equal(combined, whole);
    /* export's columns as the whole run's: parameters in the order the points have them */
    char header[2][1024];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(dmbench(f, "export --db %s --format csv", i ? out : path), 0);
        snprintf(header[i], sizeof header[i], "%s", slurp(f->out));
        *strchr(header[i], '\n') = '\0';
    }
    assert_string_equal(header[1], header[0]);
    /* speedups are against the baseline wherever its point was measured */
    assert_int_equal(db_int(out, "SELECT count(*) FROM v_speedup WHERE speedup IS NULL"), 0);
    /* in any order, again: the same run, not written twice */
    db_text(out, "SELECT uid FROM runs", text, sizeof text);
    assert_int_equal(dmbench(f, "merge %s %s/s3.sqlite %s/s1.sqlite %s/s2.sqlite --combine",
                             out, f->dir, f->dir, f->dir), 0);
    assert_int_equal(db_int(out, "SELECT count(*) FROM runs"), 1);
    char again[256];
    assert_string_equal(db_text(out, "SELECT uid FROM runs", again, sizeof again), text);
    assert_int_equal(dmbench(f, "show --db %s", out), 0);
    assert_non_null(strstr(slurp(f->out), "shards"));
}

/* Each input's per-card store is merged: of one tuned key the newest choice, its runs
 * renumbered to the output's; a key the output has newer stays; each crossover fit once,
 * with its groups; the newest fit of a key is the newest by time, not by row. */
static void the_per_card_store_is_merged(void **state)
{
    fixture *f = *state;
    char s1[160], s2[160], out[160], text[256];
    static const char choice[] =
        "INSERT INTO tuned_choices (created_at, workload, card, cc, variant, axis, bucket,"
        " value, runs) VALUES ('%s', 'membw', 'Card A', '9.0', 'cpu', 'block', 'n=%d', %d, '1')";
    static const char fit[] =
        "INSERT INTO crossover_fits (created_at, card, workload, variant_a, variant_b, axis,"
        " grp, form, a, b, n, better) VALUES ('%s', 'Card A', 'membw', 'cpu', 'kernel', 'n',"
        " 'op', 'a*N + b', %g, 0, 2, 1);"
        " INSERT INTO crossover_groups (fit_id, grp_value, x, axis_lo, axis_hi, faster)"
        " VALUES (last_insert_rowid(), 1, %g, 1, 100, 'cpu')";
    char sql[1024];
    snprintf(s1, sizeof s1, "%s/s1.sqlite", f->dir);
    snprintf(s2, sizeof s2, "%s/s2.sqlite", f->dir);
    snprintf(out, sizeof out, "%s/out.sqlite", f->dir);
    /* n=256: s2's is newer; n=512: s1's only; the same fit in both, and a newer one in s1
     * stored before the older one of s2 */
    snprintf(sql, sizeof sql, choice, "2026-01-01T00:00:00Z", 256, 64);
    db_exec(s1, sql);
    snprintf(sql, sizeof sql, choice, "2026-01-01T00:00:00Z", 512, 32);
    db_exec(s1, sql);
    snprintf(sql, sizeof sql, choice, "2026-02-01T00:00:00Z", 256, 128);
    db_exec(s2, sql);
    snprintf(sql, sizeof sql, fit, "2026-03-01T00:00:00.000Z", 3.0, 30.0);
    db_exec(s1, sql);
    snprintf(sql, sizeof sql, fit, "2026-01-01T00:00:00.000Z", 1.0, 10.0);
    db_exec(s2, sql);
    db_exec(s1, sql);
    /* a run already in the output keeps its id there: s2's run 1 becomes run 1 */
    assert_int_equal(dmbench(f, "merge %s %s", out, s2), 0);
    assert_int_equal(dmbench(f, "merge %s %s %s", out, s1, s2), 0);
    assert_non_null(strstr(slurp(f->errf), "per-card store: 1 tuned choice and 1 crossover fit"
                           " copied, 2 and 2 already there or older"));
    assert_int_equal(db_int(out, "SELECT count(*) FROM tuned_choices"), 2);
    assert_int_equal(db_int(out, "SELECT value FROM tuned_choices WHERE bucket = 'n=256'"), 128);
    assert_int_equal(db_int(out, "SELECT value FROM tuned_choices WHERE bucket = 'n=512'"), 32);
    /* s1's run 1 is the output's run 2 (s1's run came second) */
    assert_string_equal(db_text(out, "SELECT runs FROM tuned_choices WHERE bucket = 'n=512'",
                                text, sizeof text),
                        db_text(out, "SELECT id FROM runs WHERE uid = (SELECT uid FROM runs"
                                     " ORDER BY id LIMIT 1 OFFSET 1)", sql, sizeof sql));
    assert_string_equal(text, "2");
    assert_int_equal(db_int(out, "SELECT count(*) FROM crossover_fits"), 2);
    assert_int_equal(db_int(out, "SELECT count(*) FROM crossover_groups g JOIN crossover_fits f"
                                 " ON f.id = g.fit_id WHERE g.x = f.a * 10"), 2);
    /* the header's newest is the March fit, though stored first */
    char dir[160], header[200];
    snprintf(dir, sizeof dir, "%s/membw", f->dir);
    snprintf(header, sizeof header, "%s/fits.h", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    write_file(header, "");
    assert_int_equal(setenv("DMBENCH_VARIANTS", f->dir, 1), 0);
    assert_int_equal(dmbench(f, "crossover --header --db %s", out), 0);
    unsetenv("DMBENCH_VARIANTS");
    const char *h = slurp(header);
    assert_non_null(strstr(h, "{ 1, 30, 1, 100, \"cpu\" }"));
    assert_null(strstr(h, "{ 1, 10, 1, 100, \"cpu\" }"));
    /* merging again copies nothing */
    assert_int_equal(dmbench(f, "merge %s %s %s", out, s1, s2), 0);
    assert_non_null(strstr(slurp(f->errf), "0 tuned choices and 0 crossover fits copied"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(shards_partition_the_sweep_by_position, setup_shards,
                                        teardown),
        cmocka_unit_test_setup_teardown(merged_shards_equal_the_unsharded_run, setup_shards,
                                        teardown),
        cmocka_unit_test_setup_teardown(merging_twice_writes_nothing, setup_shards, teardown),
        cmocka_unit_test_setup_teardown(every_table_under_a_run_is_copied, setup_shards,
                                        teardown),
        cmocka_unit_test_setup_teardown(skipped_and_unsupported_points_fall_in_one_shard_each,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(bad_inputs_are_refused_and_change_nothing, setup_shards,
                                        teardown),
        cmocka_unit_test_setup_teardown(combine_folds_the_shards_into_one_run, setup_shards,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_per_card_store_is_merged, setup_shards, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
