/* test_cli.c - the dmbench command end to end: exit codes, one-line errors, nothing
 * written to the database on bad input, and a small CPU sweep run, shown and exported. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <cuda_runtime_api.h>

#include "cli_fixture.h"
#include "kept.h"

static const char tiny_sweep[] = "name: tiny\n"
                                 "workload: membw\n"
                                 "dataset: { generator: random }\n"
                                 "variants: [cpu]\n"
                                 "baseline: cpu\n"
                                 "axes:\n"
                                 "  n: [256, 512]\n"
                                 "  op: [copy, triad]\n"
                                 "measure: { min_samples: 3, max_time: 0.05 }\n";

static void version_names_the_commit(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "--version"), 0);
    assert_non_null(strstr(slurp(f->out), "dmbench 0.1.0 (commit "));
}

static void unknown_command_is_a_one_line_usage_error(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "frobnicate"), 2);
    const char *err = slurp(f->errf);
    assert_int_equal(count_lines(err), 1);
    assert_non_null(strstr(err, "unknown command 'frobnicate'"));
}

/* Every command has --help, and `dmbench help COMMAND` prints the same; `dmbench` alone
 * lists the commands, a line each, and exits 2. */
static void every_command_has_help(void **state)
{
    fixture *f = *state;
    static char help[65536];
    const char *cmds[] = { "devices", "list", "run", "mine", "show", "export", "merge", "tune",
                           "crossover", "plot", "report", "compare", "calibrate", "reproduce",
                           "characterize" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        assert_int_equal(dmbench(f, "%s --help", cmds[i]), 0);
        assert_non_null(strstr(slurp(f->out), "usage: dmbench"));
        snprintf(help, sizeof help, "%s", slurp(f->out));
        assert_int_equal(dmbench(f, "help %s", cmds[i]), 0);
        assert_string_equal(slurp(f->out), help);
    }
    assert_int_equal(dmbench(f, "help nosuch"), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_int_equal(dmbench(f, ""), 2);
    const char *list = slurp(f->errf);
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %-13s ", cmds[i]);
        assert_non_null(strstr(list, line));
    }
}

static void bad_flags_exit_2_with_one_line(void **state)
{
    fixture *f = *state;
    kept ks = { 0 };
    keep(&ks, 1, (const char *[]){ f->db }); /* none: none is made */
    refused_keeping(f, &ks, "--bogus", "run --bogus x.yaml");
    refused_keeping(f, &ks, "no sweep file", "run");
    refused_keeping(f, &ks, "--max-noise -1: expected a number in [0, 1]",
                    "run x.yaml --max-noise -1");
    refused_keeping(f, &ks, "--mode lukewarm: expected one of cold|hot",
                    "run x.yaml --mode lukewarm");
    refused_keeping(f, &ks, "--device 1.5: expected an integer in 0..1023",
                    "run x.yaml --device 1.5");
    refused_keeping(f, &ks, "xml", "export --format xml --db %s", f->db);
    refused_keeping(f, &ks, "nonsense", "show nonsense --db %s", f->db);
    kept_free(&ks);
}

static void bad_shard_is_a_one_line_error_naming_the_flag(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/tiny.yaml", f->dir);
    write_file(path, tiny_sweep);
    const char *bad[] = { "0/2", "3/2", "1/0", "junk", "1/2x", "-1/2", "1/", "/2", "" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(dmbench(f, "run %s --db %s --shard '%s'", path, f->db, bad[i]), 2);
        const char *err = slurp(f->errf);
        assert_int_equal(count_lines(err), 1);
        assert_non_null(strstr(err, "--shard"));
        assert_non_null(strstr(err, "expected I/N"));
    }
    assert_false(exists(f->db));
    assert_int_equal(dmbench(f, "reproduce tdm-table2 --no-run -- --shard 1/2"), 2);
    assert_non_null(strstr(slurp(f->errf), "--shard: reproduce compares a whole run"));
}

static void bad_devices_are_one_line_errors_naming_the_flag(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/tiny.yaml", f->dir);
    write_file(path, tiny_sweep);
    const char *bad[] = { "", "some", "0,", ",1", "0,,1", "1,1", "-1", "0;1", "1024" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(dmbench(f, "run %s --db %s --devices '%s'", path, f->db, bad[i]), 2);
        assert_int_equal(count_lines(slurp(f->errf)), 1);
        assert_non_null(strstr(slurp(f->errf), "--devices"));
    }
    assert_int_equal(dmbench(f, "run %s --db %s --device 0 --devices 0,1", path, f->db), 2);
    assert_non_null(strstr(slurp(f->errf), "--device and --devices both given"));
    /* with no GPU there is nothing to spread a run over (with GPUs, none past the last) */
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess)
        gpus = 0;
    assert_int_equal(dmbench(f, "run %s --db %s --devices %d", path, f->db, gpus), 2);
    assert_non_null(strstr(slurp(f->errf), gpus ? "--devices: there is no GPU"
                                                 : "--devices: no GPU here"));
    assert_false(exists(f->db));
}

static void bad_sweep_names_file_line_column_and_writes_nothing(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/bad.yaml", f->dir);
    write_file(path, "workload: membw\ndataset: { generator: random }\nvariants: [cpu, kernal]\n");
    kept ks = { 0 };
    keep(&ks, 2, (const char *[]){ f->db, path });
    refused_keeping(f, &ks, "bad.yaml:3:", "run %s --db %s", path, f->db);
    assert_non_null(strstr(slurp(f->errf), "kernel"));
    refused_keeping(f, &ks, "missing.yaml", "run %s/missing.yaml --db %s", f->dir, f->db);
    kept_free(&ks);
}

static void bad_axis_override_is_rejected(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/tiny.yaml", f->dir);
    write_file(path, tiny_sweep);
    kept ks = { 0 };
    keep(&ks, 2, (const char *[]){ f->db, path });
    refused_keeping(f, &ks, "-a n=[0]", "run %s --db %s -a 'n=[0]'", path, f->db);
    kept_free(&ks);
}

static void dry_run_counts_points_and_runs_nothing(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/tiny.yaml", f->dir);
    write_file(path, tiny_sweep);
    assert_int_equal(dmbench(f, "run %s --db %s --dry-run -a 'n=[16,32,64]'", path, f->db), 0);
    const char *out = slurp(f->out);
    assert_non_null(strstr(out, "points: 6 before pruning, 6 after"));
    assert_non_null(strstr(out, "first points:"));
    assert_false(exists(f->db));
}

static void variants_option_runs_some_of_the_sweeps_variants(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/two.yaml", f->dir);
    write_file(path, "name: two\nworkload: membw\ndataset: { generator: random }\n"
                     "variants: [cpu, kernel]\nbaseline: cpu\naxes: { n: [256, 512] }\n"
                     "measure: { min_samples: 3, max_time: 0.05 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s --dry-run --variants kernel", path, f->db), 0);
    assert_non_null(strstr(slurp(f->out), "workload membw, 1 variant, baseline none"));
    assert_non_null(strstr(slurp(f->out), "points: 2 before pruning"));
    assert_int_equal(dmbench(f, "run %s --db %s --variants cpu,gpu", path, f->db), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_non_null(strstr(slurp(f->errf), "--variants cpu,gpu: the sweep lists no variant "
                                           "'gpu'; expected some of: cpu, kernel"));
    assert_false(exists(f->db));
    assert_int_equal(dmbench(f, "run %s --db %s --variants cpu", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "2 ok, 0 failed, 0 skipped"));
}

static void cpu_sweep_runs_shows_and_exports(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/tiny.yaml", f->dir);
    write_file(path, tiny_sweep);
    assert_int_equal(dmbench(f, "run %s --db %s", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "4 ok, 0 failed"));
    assert_non_null(strstr(slurp(f->out), "cpu"));

    assert_int_equal(dmbench(f, "export latest --format csv --db %s", f->db), 0);
    assert_int_equal(count_lines(slurp(f->out)), 5); /* header + 4 points */
    assert_int_equal(dmbench(f, "export --format json --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "\"points\""));
    assert_int_equal(dmbench(f, "show --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "tiny"));
    assert_int_equal(dmbench(f, "show 99 --db %s", f->db), 2);
    assert_non_null(strstr(slurp(f->errf), "no run 99"));
}

static void gpu_variants_without_gpu_are_skipped_with_the_reason(void **state)
{
    fixture *f = *state;
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0)
        skip(); /* this machine has a GPU: the points run instead */
    char path[160];
    snprintf(path, sizeof path, "%s/gpu.yaml", f->dir);
    write_file(path, "workload: membw\ndataset: { generator: random }\n"
                     "variants: [cpu, kernel]\naxes: { n: 64, block: [32, 64] }\n"
                     "measure: { min_samples: 2, max_time: 0.02 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s", path, f->db), 0);
    const char *err = slurp(f->errf);
    assert_non_null(strstr(err, "no GPU"));
    assert_null(strstr(strstr(err, "no GPU") + 1, "no GPU (")); /* said once */
    assert_non_null(strstr(err, "1 ok, 0 failed, 2 skipped"));
}

static void bad_dataset_is_rejected_before_anything_is_stored(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/file.yaml", f->dir);
    write_file(path, "workload: membw\ndataset: { path: no-such-file.bin }\nvariants: [cpu]\n");
    kept ks = { 0 };
    keep(&ks, 2, (const char *[]){ f->db, path });
    refused_keeping(f, &ks, "no-such-file.bin", "run %s --db %s", path, f->db);
    kept_free(&ks);
}

/* Starts `dmbench run path --db db --quiet` (with --resume when resume) in a child
 * process, its errors discarded; returns its pid. */
static pid_t start_run(const char *path, const char *db, int resume)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        execl(DMBENCH, DMBENCH, "run", path, "--db", db, "--quiet",
              resume ? "--resume" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* 300 membw points of 10 ms of sampling each: several seconds in all, to interrupt. */
#define LONG_SWEEP                                                                        \
    "name: long\nworkload: membw\ndataset: { generator: random }\nvariants: [cpu]\n"     \
    "axes: { n: { range: [1, 300, 1] } }\nmeasure: { min_samples: 100000, max_time: 0.01 }\n"

/* Waits (up to 60 s, however loaded the machine) until the database at path holds at
 * least n points. */
static void wait_for_points(const char *path, int n)
{
    for (int i = 0; i < 3000; i++, usleep(20000))
        if (db_int(path, "SELECT count(*) FROM points") >= n)
            return;
    fail_msg("%s: fewer than %d points after 60 s", path, n);
}

/* Counts the rows a query over the database returns through `dmbench export`. */
static int exported_points(fixture *f)
{
    assert_int_equal(dmbench(f, "export latest --format csv --db %s", f->db), 0);
    return count_lines(slurp(f->out)) - 1;
}

static void interrupted_run_resumes_where_it_stopped(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/long.yaml", f->dir);
    write_file(path, LONG_SWEEP);
    pid_t pid = start_run(path, f->db, 0);
    /* interrupt once some points are stored */
    wait_for_points(f->db, 5);
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    int first = exported_points(f);
    assert_true(first > 0 && first < 300);

    assert_int_equal(dmbench(f, "run %s --db %s --resume", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "resuming run 1"));
    assert_int_equal(exported_points(f), 300);
    assert_int_equal(dmbench(f, "show 1 --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "run 1: complete"));
    /* a second --resume finds nothing unfinished and starts run 2 */
    assert_int_equal(dmbench(f, "run %s --db %s --resume -a n=[1,2]", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "no unfinished run"));
}

/* A point that runs past --point-timeout (here tdm's level 3 on one core, seconds long)
 * ends the process: the point is stored failed with why, the run interrupted, one line
 * said; --resume finishes the run without it. */
static void a_point_past_its_time_limit_is_stored_failed_and_resume_goes_on(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/slow.yaml", f->dir);
    write_file(path, "name: slow\nworkload: tdm\ndataset: { generator: uniform }\n"
                     "variants: [cpu]\naxes: { length: 393019, level: [1, 3] }\n"
                     "measure: { mode: hot, min_samples: 1, max_time: 0.05 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s --quiet --point-timeout 0.5", path, f->db), 1);
    const char *err = slurp(f->errf);
    assert_non_null(strstr(err, "dmbench: error: point 1 (cpu length=393019,"));
    assert_non_null(strstr(err, "ran past the point time limit of 0.5 s; run 1 stopped there"));
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM points WHERE idx = 1 AND status = "
                                   "'failed' AND reason LIKE 'ran past the point time limit%'"),
                     1);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet --resume", path, f->db), 0);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM points WHERE idx = 0 AND status = 'ok'"),
                     1);
    assert_int_equal(db_int(f->db, "SELECT count(*) FROM points"), 2);
}

/* A run killed outright (SIGKILL) cannot say it ended: show reads it as interrupted at
 * once, the next writing dmbench records it so, and --resume continues it. */
static void killed_run_is_interrupted_and_resumes(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/long.yaml", f->dir);
    write_file(path, LONG_SWEEP);
    pid_t pid = start_run(path, f->db, 0);
    wait_for_points(f->db, 5);
    /* while it runs, it is running, and --resume elsewhere does not take it */
    assert_int_equal(dmbench(f, "show 1 --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "run 1: running\n"));
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(dmbench(f, "show 1 --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "run 1: interrupted (its process is gone)"));
    assert_int_equal(dmbench(f, "run %s --db %s --resume", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "resuming run 1"));
    assert_int_equal(exported_points(f), 300);
    assert_int_equal(dmbench(f, "show 1 --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "run 1: complete\n"));
}

/* Run 1's ok points of the database at path, one "idx variant params" line each in index
 * order, with how many samples and statistics rows each has (malloc'd). */
static char *point_set(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    char *text = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                         "SELECT group_concat(line, char(10)) || char(10) FROM (SELECT p.idx"
                         " || ' ' || p.variant || ' ' || p.params || ' ' || (SELECT count(*)"
                         " > 0 FROM samples s WHERE s.point_id = p.id) || (SELECT count(*)"
                         " FROM point_stats t WHERE t.point_id = p.id) AS line FROM points p"
                         " WHERE p.run_id = 1 AND p.status = 'ok' ORDER BY p.idx)",
                         -1, &q, NULL), SQLITE_OK);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
        text = strdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    assert_non_null(text);
    return text;
}

/* A sweep killed (SIGKILL) 20 times at pseudo-random moments and resumed each time ends
 * with every point stored exactly once, the same points as a run never killed. */
static void twenty_kills_and_resumes_lose_and_repeat_nothing(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/killed.yaml", f->dir);
    write_file(path, "name: killed\nworkload: membw\ndataset: { generator: random }\n"
                     "variants: [cpu]\naxes: { n: { range: [1, 300, 1] }, op: [copy, triad] }\n"
                     "measure: { mode: hot, min_samples: 100000, max_time: 0.02 }\n");
    /* 600 points of 20 ms of sampling each (12 s), killed within 8 s in all */
    unsigned seed = 12345;
    for (int kill_no = 0; kill_no < 20; kill_no++) {
        pid_t pid = start_run(path, f->db, 1);
        /* the first kill after the run began: on a loaded machine (other tests running
         * shards beside this one) starting may take longer than all twenty delays */
        if (kill_no == 0)
            wait_for_points(f->db, 1);
        seed = seed * 1103515245u + 12345u;
        usleep(100000 + (seed >> 8) % 300000); /* 0.1 to 0.4 s in */
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
    }
    /* the kills came before the end */
    assert_int_equal(dmbench(f, "show 1 --db %s", f->db), 0);
    assert_non_null(strstr(slurp(f->out), "run 1: interrupted"));
    assert_int_equal(dmbench(f, "run %s --db %s --resume", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "resuming run 1"));
    assert_int_equal(dmbench(f, "show --db %s", f->db), 0);
    /* one run, resumed to the end: 600 points, each index once */
    assert_non_null(strstr(slurp(f->out), "run 1: complete\n"));
    assert_null(strstr(slurp(f->out), "run 2:"));
    char *killed = point_set(f->db);
    assert_int_equal(count_lines(killed), 600);
    /* the uninterrupted run's point set, in a database of its own */
    char whole_db[160];
    snprintf(whole_db, sizeof whole_db, "%s/whole.sqlite", f->dir);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", path, whole_db), 0);
    char *whole = point_set(whole_db);
    assert_string_equal(killed, whole);
    free(killed);
    free(whole);
}

/* --resume continues a run only on the card and build that measured it: another commit
 * is refused with the reason, and --force-new-run starts a new run instead. */
static void resume_refuses_another_build_unless_forced(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/short.yaml", f->dir);
    write_file(path, "name: short\nworkload: membw\ndataset: { generator: random }\n"
                     "variants: [cpu]\naxes: { n: [8, 16] }\nmeasure: { max_time: 0.01 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", path, f->db), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE runs SET status = 'interrupted', git_commit ="
                                      " '0123abcd', git_dirty = 0", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(dmbench(f, "run %s --db %s --quiet --resume", path, f->db), 2);
    const char *said = slurp(f->errf);
    assert_int_equal(count_lines(said), 1);
    assert_non_null(strstr(said, "run 1 of sweep 'short' cannot be resumed here: it was built "
                                 "from 0123abcd, this dmbench from "));
    assert_non_null(strstr(said, "; --force-new-run starts a new run"));
    assert_int_equal(dmbench(f, "run %s --db %s --resume --force-new-run", path, f->db), 0);
    assert_non_null(strstr(slurp(f->errf), "not resuming run 1 (it was built from 0123abcd"));
    assert_non_null(strstr(slurp(f->out), "run 2: complete\n"));
}

/* Four dmbench processes run 250 points each into one database at once: every run
 * completes and every point and sample is there (WAL, busy timeout and retries). */
static void four_writers_share_one_database(void **state)
{
    fixture *f = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/many.yaml", f->dir);
    write_file(path, "name: many\nworkload: membw\ndataset: { generator: random }\n"
                     "variants: [cpu]\naxes: { n: { range: [1, 250, 1] } }\n"
                     "measure: { mode: hot, min_samples: 6, max_time: 0.002 }\n");
    pid_t pids[4];
    for (int i = 0; i < 4; i++) {
        pids[i] = start_run(path, f->db, 0);
    }
    for (int i = 0; i < 4; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    for (int run = 1; run <= 4; run++) {
        char line[96];
        assert_int_equal(dmbench(f, "show %d --db %s", run, f->db), 0);
        snprintf(line, sizeof line, "run %d: complete\n", run);
        assert_non_null(strstr(slurp(f->out), line));
        assert_non_null(strstr(slurp(f->out), "stored: 250 ok"));
        assert_int_equal(dmbench(f, "export %d --format csv --db %s", run, f->db), 0);
        assert_int_equal(count_lines(slurp(f->out)), 1 + 250);
    }
}

static void list_shows_parameters_and_rejects_unknown_workloads(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "list"), 0);
    const char *out = slurp(f->out);
    assert_non_null(strstr(out, "membw"));
    assert_non_null(strstr(out, "block"));
    assert_non_null(strstr(out, "32..1024"));
    assert_int_equal(dmbench(f, "list membwz"), 2);
    assert_non_null(strstr(slurp(f->errf), "did you mean: membw"));
}

static void devices_never_fails(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "devices"), 0);
    assert_true(strlen(slurp(f->out)) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(version_names_the_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(unknown_command_is_a_one_line_usage_error, setup, teardown),
        cmocka_unit_test_setup_teardown(every_command_has_help, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_flags_exit_2_with_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_shard_is_a_one_line_error_naming_the_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_devices_are_one_line_errors_naming_the_flag, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_sweep_names_file_line_column_and_writes_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_axis_override_is_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(dry_run_counts_points_and_runs_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(killed_run_is_interrupted_and_resumes, setup, teardown),
        cmocka_unit_test_setup_teardown(four_writers_share_one_database, setup, teardown),
        cmocka_unit_test_setup_teardown(resume_refuses_another_build_unless_forced, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(twenty_kills_and_resumes_lose_and_repeat_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(variants_option_runs_some_of_the_sweeps_variants, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(cpu_sweep_runs_shows_and_exports, setup, teardown),
        cmocka_unit_test_setup_teardown(gpu_variants_without_gpu_are_skipped_with_the_reason, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_dataset_is_rejected_before_anything_is_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(interrupted_run_resumes_where_it_stopped, setup, teardown),
        cmocka_unit_test_setup_teardown(a_point_past_its_time_limit_is_stored_failed_and_resume_goes_on, setup, teardown),
        cmocka_unit_test_setup_teardown(list_shows_parameters_and_rejects_unknown_workloads, setup, teardown),
        cmocka_unit_test_setup_teardown(devices_never_fails, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
