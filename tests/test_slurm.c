/* test_slurm.c - scripts/slurm/ without Slurm: the scripts parse (bash -n), the shard job
 * asks for one GPU, and `submit` is run as a user would with a stand-in for sbatch that
 * runs each job here (an array's tasks as parallel processes, then the dependent merge),
 * so the command lines tested are the scripts' own. On CPU variants: the merged database
 * holds one run with the unsharded run's points, also when the shards were submitted
 * in parts (--shards), the merge job between naming the missing ones. scripts/slurm/
 * selftest runs the scripts on a real one-node Slurm. */
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

#define SLURM_DIR DM_SOURCE_DIR "/scripts/slurm"

static const char sweep[] = "name: slurm\n"
                            "workload: membw\n"
                            "dataset: { generator: random }\n"
                            "variants: [cpu]\n"
                            "baseline: cpu\n"
                            "axes:\n"
                            "  n: [256, 512, 1024]\n"
                            "  op: [copy, triad]\n"
                            "measure: { min_samples: 3, max_time: 0.02 }\n";

/* sbatch as far as submit uses it: --parsable, --array=LIST (ranges and indices; the
 * tasks run at once, each with its SLURM_ARRAY_TASK_ID), --dependency (met: jobs run in
 * submission order). Each call is logged; a task or job that fails is logged as such. */
static const char fake_sbatch[] =
    "#!/usr/bin/env bash\n"
    "set -eu\n"
    "echo \"sbatch $*\" >>\"$SBATCH_LOG\"\n"
    "array=\n"
    "while [[ $1 == --* ]]; do case $1 in --array=*) array=${1#--array=};; esac; shift; done\n"
    "script=$1; shift\n"
    "if [ -z \"$array\" ]; then bash \"$script\" \"$@\" >>\"$SBATCH_LOG\" 2>&1 || echo \"job failed\" >>\"$SBATCH_LOG\"; echo 43; exit 0; fi\n"
    "pids=\n"
    "for r in ${array//,/ }; do\n"
    "  for i in $(seq \"${r%-*}\" \"${r#*-}\"); do\n"
    "    SLURM_ARRAY_TASK_ID=$i bash \"$script\" \"$@\" >>\"$SBATCH_LOG\" 2>&1 & pids=\"$pids $!\"\n"
    "  done\n"
    "done\n"
    "for p in $pids; do wait \"$p\" || echo \"task failed\" >>\"$SBATCH_LOG\"; done\n"
    "echo '42;cluster'\n";

static const char points_sql[] =
    "SELECT group_concat(x, char(10)) FROM (SELECT idx || ' ' || variant || ' ' ||"
    " params || ' ' || status AS x FROM points ORDER BY idx)";

/* Writes the stand-in sbatch and the sweep into f->dir. */
static void write_inputs(fixture *f)
{
    char path[256];
    snprintf(path, sizeof path, "%s/sbatch", f->dir);
    write_file(path, fake_sbatch);
    assert_int_equal(chmod(path, 0700), 0);
    snprintf(path, sizeof path, "%s/slurm.yaml", f->dir);
    write_file(path, sweep);
}

/* Runs `submit ARGS` in f->dir with the stand-in sbatch logging into f->dir/sbatch.log,
 * stdout and stderr captured. Returns the exit status. */
static int submit(fixture *f, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd %s && PATH=%s:$PATH SBATCH_LOG=%s/sbatch.log DMBENCH=%s CUDA_VISIBLE_DEVICES="
             " %s/submit %s >%s 2>%s",
             f->dir, f->dir, f->dir, DMBENCH, SLURM_DIR, args, f->out, f->errf);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Checks that f->dir/out/merged.sqlite holds one run with the unsharded run's points. */
static void merged_is_the_whole_sweep(fixture *f)
{
    static char merged[4096], whole[4096];
    char path[256];
    snprintf(path, sizeof path, "%s/out/merged.sqlite", f->dir);
    assert_int_equal(db_int(path, "SELECT count(*) FROM runs WHERE shard_count IS NULL"), 1);
    db_text(path, points_sql, merged, sizeof merged);
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    assert_int_equal(dmbench(f, "run %s/slurm.yaml --db %s --quiet", f->dir, path), 0);
    db_text(path, points_sql, whole, sizeof whole);
    assert_true(whole[0] != '\0');
    assert_string_equal(merged, whole);
}

static void scripts_parse_and_the_shard_job_asks_for_one_gpu(void **state)
{
    (void)state;
    const char *scripts[] = { "shard.sbatch", "merge.sbatch", "submit", "selftest" };
    char cmd[512];
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        snprintf(cmd, sizeof cmd, "bash -n %s/%s", SLURM_DIR, scripts[i]);
        assert_int_equal(system(cmd), 0);
    }
    snprintf(cmd, sizeof cmd, "grep -qx '#SBATCH --gres=gpu:1' %s/shard.sbatch", SLURM_DIR);
    assert_int_equal(system(cmd), 0);
}

static void submit_runs_the_shards_and_merges_them_into_one_run(void **state)
{
    fixture *f = *state;
    char path[256], log[160];
    write_inputs(f);
    snprintf(log, sizeof log, "%s/sbatch.log", f->dir);
    assert_int_equal(submit(f, "slurm.yaml 3 out"), 0);
    assert_non_null(strstr(slurp(f->out), "shards: job array 42 (shards 1-3 of 3); merge: job 43"));
    const char *l = slurp(log);
    assert_null(strstr(l, "failed"));
    assert_non_null(strstr(l, "sbatch --parsable --array=1-3 " SLURM_DIR "/shard.sbatch"
                              " slurm.yaml out 3\n"));
    assert_non_null(strstr(l, "sbatch --parsable --dependency=afterany:42 " SLURM_DIR
                              "/merge.sbatch out 3\n"));
    /* one database per task, then the merged one with the shards as one run */
    for (int i = 1; i <= 3; i++) {
        snprintf(path, sizeof path, "%s/out/shard-%d-of-3.sqlite", f->dir, i);
        assert_int_equal(db_int(path, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
    }
    merged_is_the_whole_sweep(f);
}

/* Shards submitted on their own (--shards) are those shards of N, not of an array of
 * their number; the merge job after them names the shard databases that are missing. */
static void shards_submitted_alone_complete_the_sweep(void **state)
{
    fixture *f = *state;
    char path[256], log[160];
    write_inputs(f);
    snprintf(log, sizeof log, "%s/sbatch.log", f->dir);
    assert_int_equal(submit(f, "--shards 1 slurm.yaml 4 out"), 0);
    assert_non_null(strstr(slurp(f->out), "(shards 1 of 4)"));
    const char *l = slurp(log);
    assert_non_null(strstr(l, "job failed"));
    assert_non_null(strstr(l, "out/shard-2-of-4.sqlite, out/shard-3-of-4.sqlite, "
                              "out/shard-4-of-4.sqlite: no such databases to merge"));
    snprintf(path, sizeof path, "%s/out/merged.sqlite", f->dir);
    assert_false(exists(path));
    assert_int_equal(remove(log), 0);
    assert_int_equal(submit(f, "--shards 2,3-4 slurm.yaml 4 out"), 0);
    assert_null(strstr(slurp(log), "failed"));
    assert_non_null(strstr(slurp(log), "--array=2,3-4 "));
    for (int i = 2; i <= 4; i++) {
        char sql[128];
        snprintf(path, sizeof path, "%s/out/shard-%d-of-4.sqlite", f->dir, i);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE shard_index = %d AND"
                 " shard_count = 4 AND status = 'complete'", i);
        assert_int_equal(db_int(path, sql), 1);
    }
    merged_is_the_whole_sweep(f);
}

static void submit_refuses_a_bad_count_or_shard_list(void **state)
{
    fixture *f = *state;
    static const char *const bad[][2] = {
        { "x.yaml 0 out", "usage: scripts/slurm/submit" },
        { "--shards", "usage: scripts/slurm/submit" },
        { "--shards 0 x.yaml 3 out", "--shards 0: expected shards of 1 to 3" },
        { "--shards 2,4 x.yaml 3 out", "--shards 2,4: expected shards of 1 to 3" },
        { "--shards 1- x.yaml 3 out", "--shards 1-: expected" },
        { "--shards '' x.yaml 3 out", "--shards : expected" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(submit(f, bad[i][0]), 2);
        assert_non_null(strstr(slurp(f->errf), bad[i][1]));
        assert_int_equal(count_lines(slurp(f->errf)), 1);
    }
    char path[256];
    snprintf(path, sizeof path, "%s/out", f->dir);
    assert_false(exists(path));
}

/* The shard job refuses an index outside 1..N, as when run outside an array. */
static void the_shard_job_refuses_an_index_outside_the_shards(void **state)
{
    fixture *f = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "SLURM_ARRAY_TASK_ID=4 bash %s/shard.sbatch x.yaml %s/out 3"
             " 2>%s", SLURM_DIR, f->dir, f->errf);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    assert_non_null(strstr(slurp(f->errf), "usage: sbatch --array=1-N shard.sbatch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scripts_parse_and_the_shard_job_asks_for_one_gpu),
        cmocka_unit_test_setup_teardown(submit_runs_the_shards_and_merges_them_into_one_run,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(shards_submitted_alone_complete_the_sweep, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(submit_refuses_a_bad_count_or_shard_list, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_shard_job_refuses_an_index_outside_the_shards,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
