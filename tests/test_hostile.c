/* test_hostile.c - the hostile-input corpus (tests/data/hostile, README there): every sweep
 * in it, and every dataset its sweeps point at, is refused by `dmbench run` with exit
 * status 2 and one line naming the problem, within 30 s, without crashing, without a
 * results database left behind, a database that was there kept byte for byte (no -wal
 * or -shm left beside it), and every file of the corpus as it was. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "cli_fixture.h"
#include "kept.h"

#define CORPUS DM_SOURCE_DIR "/tests/data/hostile"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs `dmbench run` on each of names[0..n) in the corpus, into f->db: each must exit 2
 * with one error line and leave the files of ks as they were; when had_db, the database
 * keeps its one run, else none is left. */
static void refuse_each(fixture *f, char **names, int n, int had_db, const kept *ks)
{
    for (int i = 0; i < n; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd %s && timeout 30 %s run %s --db %s --quiet >%s 2>%s "
                 "</dev/null", CORPUS, DMBENCH, names[i], f->db, f->out, f->errf);
        int rc = system(cmd);
        const char *said = slurp(f->errf);
        if (!WIFEXITED(rc) || WEXITSTATUS(rc) != 2)
            fail_msg("%s: exit status %d (124: a hang; above 128: a signal), expected 2: %s",
                     names[i], WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, said);
        if (count_lines(said) != 1 || strncmp(said, "dmbench: error: ", 16) != 0)
            fail_msg("%s: expected one error line, got:\n%s", names[i], said);
        if (!had_db && exists(f->db))
            fail_msg("%s: left a database behind", names[i]);
        kept_check(ks, names[i]);
        if (had_db && db_int(f->db, "SELECT count(*) FROM runs") != 1)
            fail_msg("%s: changed the runs of the database that was there", names[i]);
    }
}

static void every_hostile_sweep_is_refused_cleanly(void **state)
{
    fixture *f = *state;
    DIR *d = opendir(CORPUS);
    assert_non_null(d);
    char *names[256];
    static kept ks; /* every file of the corpus, and then the database */
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        char path[512];
        snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
        if (e->d_name[0] != '.')
            keep(&ks, 1, (const char *[]){ path });
        if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    assert_true(n >= 50);
    refuse_each(f, names, n, 0, &ks);
    char good[160];
    snprintf(good, sizeof good, "%s/good.yaml", f->dir);
    write_file(good, "workload: membw\ndataset: { generator: random }\nvariants: [cpu]\n"
                     "axes: { n: [16] }\nmeasure: { max_time: 0.05 }\n");
    assert_int_equal(dmbench(f, "run %s --db %s --quiet", good, f->db), 0);
    keep(&ks, 1, (const char *[]){ f->db });
    refuse_each(f, names, n, 1, &ks);
    kept_free(&ks);
    for (int i = 0; i < n; i++)
        free(names[i]);
    fprintf(stderr, "%d hostile sweeps refused with one line each\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(every_hostile_sweep_is_refused_cleanly, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
