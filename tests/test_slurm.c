/* test_slurm.c - scripts/slurm/ without Slurm: the scripts parse (bash -n), the shard job
 * asks for one GPU, and `submit` is run as a user would with a stand-in for sbatch that
 * runs each job here (an array's tasks as parallel processes, then the dependent merge),
 * so the command lines tested are the scripts' own. On CPU variants: the merged database
 * holds one run with the unsharded run's points. */
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

/* sbatch as far as submit uses it: --parsable, --array=LO-HI (the tasks run at once,
 * each with Slurm's array variables), --dependency (met: jobs run in submission order).
 * Each call is logged; a task that fails is logged as such. */
static const char fake_sbatch[] =
    "#!/usr/bin/env bash\n"
    "set -eu\n"
    "echo \"sbatch $*\" >>\"$SBATCH_LOG\"\n"
    "array=\n"
    "while [[ $1 == --* ]]; do case $1 in --array=*) array=${1#--array=};; esac; shift; done\n"
    "script=$1; shift\n"
    "if [ -z \"$array\" ]; then bash \"$script\" \"$@\" >>\"$SBATCH_LOG\" 2>&1 || echo \"job failed\" >>\"$SBATCH_LOG\"; echo 43; exit 0; fi\n"
    "lo=${array%-*} hi=${array#*-} pids=\n"
    "for i in $(seq \"$lo\" \"$hi\"); do\n"
    "  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \\\n"
    "    bash \"$script\" \"$@\" >>\"$SBATCH_LOG\" 2>&1 & pids=\"$pids $!\"\n"
    "done\n"
    "for p in $pids; do wait \"$p\" || echo \"task failed\" >>\"$SBATCH_LOG\"; done\n"
    "echo '42;cluster'\n";

static void scripts_parse_and_the_shard_job_asks_for_one_gpu(void **state)
{
    (void)state;
    const char *scripts[] = { "shard.sbatch", "merge.sbatch", "submit" };
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
    static char merged[4096], whole[4096];
    char path[256], out[160], log[160], cmd[1024];
    static const char points_sql[] =
        "SELECT group_concat(x, char(10)) FROM (SELECT idx || ' ' || variant || ' ' ||"
        " params || ' ' || status AS x FROM points ORDER BY idx)";
    snprintf(path, sizeof path, "%s/sbatch", f->dir);
    write_file(path, fake_sbatch);
    assert_int_equal(chmod(path, 0700), 0);
    snprintf(path, sizeof path, "%s/slurm.yaml", f->dir);
    write_file(path, sweep);
    snprintf(out, sizeof out, "%s/out", f->dir);
    snprintf(log, sizeof log, "%s/sbatch.log", f->dir);
    snprintf(cmd, sizeof cmd,
             "cd %s && PATH=%s:$PATH SBATCH_LOG=%s DMBENCH=%s CUDA_VISIBLE_DEVICES="
             " %s/submit slurm.yaml 3 %s >%s 2>%s",
             f->dir, f->dir, log, DMBENCH, SLURM_DIR, out, f->out, f->errf);
    assert_int_equal(system(cmd), 0);
    assert_non_null(strstr(slurp(f->out), "shards: job array 42 (3 tasks); merge: job 43"));
    const char *l = slurp(log);
    assert_null(strstr(l, "failed"));
    assert_non_null(strstr(l, "sbatch --parsable --array=1-3 " SLURM_DIR "/shard.sbatch"
                              " slurm.yaml "));
    assert_non_null(strstr(l, "sbatch --parsable --dependency=afterany:42 " SLURM_DIR
                              "/merge.sbatch "));
    /* one database per task, then the merged one with the shards as one run */
    for (int i = 1; i <= 3; i++) {
        snprintf(path, sizeof path, "%s/shard-%d-of-3.sqlite", out, i);
        assert_int_equal(db_int(path, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
    }
    snprintf(path, sizeof path, "%s/merged.sqlite", out);
    assert_int_equal(db_int(path, "SELECT count(*) FROM runs WHERE shard_count IS NULL"), 1);
    db_text(path, points_sql, merged, sizeof merged);
    snprintf(path, sizeof path, "%s/whole.sqlite", f->dir);
    assert_int_equal(dmbench(f, "run %s/slurm.yaml --db %s --quiet", f->dir, path), 0);
    db_text(path, points_sql, whole, sizeof whole);
    assert_true(whole[0] != '\0');
    assert_string_equal(merged, whole);
}

static void submit_refuses_a_bad_count(void **state)
{
    fixture *f = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/submit x.yaml 0 %s/out 2>%s", SLURM_DIR, f->dir, f->errf);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    assert_non_null(strstr(slurp(f->errf), "usage: scripts/slurm/submit"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scripts_parse_and_the_shard_job_asks_for_one_gpu),
        cmocka_unit_test_setup_teardown(submit_runs_the_shards_and_merges_them_into_one_run,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(submit_refuses_a_bad_count, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
