/* test_mine.c - `dmbench mine`: the engine (mine_point) on a workload made here, whose
 * wrong variant shows that nothing is written when verification fails; and the command
 * end to end on tdm's and membw's CPU variants, against counts computed here from the
 * definition, and every input error with its exit status, its message and no --out file. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cli_fixture.h"
#include "device.h"
#include "membw/membw.h"
#include "mine.h"
#include "tdm/tdm.h"

/* ---- a workload made here: out[i] = 2 * data[i] ---------------------------------------- */

static int opened, closed, set_up, torn_down, refs, refs_freed;

typedef struct twice_state {
    const int *data;
    int n, bad; /* bad: the element the wrong variant gets wrong, or -1 */
    int out[16];
} twice_state;

static int twice_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                      dm_err *err)
{
    (void)src, (void)err;
    int n = (int)dm_point_int(pt, "n");
    int *d = calloc((size_t)n, sizeof *d);
    for (int i = 0; i < n; i++)
        d[i] = i * i;
    memset(ds, 0, sizeof *ds);
    ds->data = d;
    opened++;
    return 0;
}

static void twice_close(dm_dataset *ds)
{
    free(ds->data);
    closed++;
}

static int twice_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    (void)err;
    int n = (int)dm_point_int(pt, "n"), *r = calloc((size_t)n, sizeof *r);
    for (int i = 0; i < n; i++)
        r[i] = 2 * ((const int *)ds->data)[i];
    *ref = r;
    refs++;
    return 0;
}

static void twice_reference_free(void *ref)
{
    free(ref);
    refs_freed++;
}

static int twice_compare(const void *ref, const void *out, const dm_point *pt, char *why,
                         size_t n)
{
    const int *r = ref, *o = out;
    for (int i = 0; i < (int)dm_point_int(pt, "n"); i++)
        if (r[i] != o[i]) {
            snprintf(why, n, "element %d: expected %d, got %d", i, r[i], o[i]);
            return 1;
        }
    return 0;
}

static int twice_write(const void *out, const dm_point *pt, FILE *f, dm_err *err)
{
    (void)err;
    fputs("index,value\n", f);
    for (int i = 0; i < (int)dm_point_int(pt, "n"); i++)
        fprintf(f, "%d,%d\n", i, ((const int *)out)[i]);
    return 0;
}

static int twice_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                       void **state, dm_err *err)
{
    (void)ex, (void)err;
    twice_state *s = calloc(1, sizeof *s);
    s->data = ds->data;
    s->n = (int)dm_point_int(pt, "n");
    const dm_value *bad = dm_point_get(pt, "bad");
    s->bad = bad ? (int)bad->i : -1;
    *state = s;
    set_up++;
    return 0;
}

static int twice_run(void *state, dm_err *err)
{
    (void)err;
    twice_state *s = state;
    for (int i = 0; i < s->n; i++)
        s->out[i] = 2 * s->data[i] + (i == s->bad);
    return 0;
}

static int twice_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    *out = ((twice_state *)state)->out;
    return 0;
}

static void twice_teardown(void *state)
{
    free(state);
    torn_down++;
}

static const dm_param_spec twice_dataset_params[] = {
    {.name = "n", .type = DM_P_INT, .def = "4", .allowed = "1..16"},
    {0},
};
static const dm_param_spec twice_wrong_params[] = {
    {.name = "bad", .type = DM_P_INT, .def = "2", .allowed = "0.."},
    {0},
};
#define TWICE_VARIANT                                                                        \
    .setup = twice_setup, .run = twice_run, .output = twice_output, .teardown = twice_teardown
static const dm_variant twice_variants[] = {
    {.name = "right", TWICE_VARIANT},
    {.name = "wrong", .params = twice_wrong_params, TWICE_VARIANT},
    {.name = "gpu", .needs_gpu = 1, TWICE_VARIANT},
    {0},
};
static const dm_workload twice = {
    .name = "twice",
    .dataset_params = twice_dataset_params,
    .dataset_open = twice_open,
    .dataset_close = twice_close,
    .reference = twice_reference,
    .reference_free = twice_reference_free,
    .compare = twice_compare,
    .write_result = twice_write,
    .variants = twice_variants,
};

/* Mines variant v (an index of twice_variants) into a memory stream; returns
 * mine_point's status, with the text written in text (of size n) and err. */
static int mine_twice(int v, int verify, const char *const *params, int nparams, char *text,
                      size_t n, dm_err *err)
{
    dm_data_source src = {.generator = "squares"};
    dm_mine_opts o = {.workload = &twice, .variant = &twice_variants[v], .params = params,
                      .nparams = nparams, .source = &src, .verify = verify};
    dm_mined ran;
    memset(text, 0, n);
    FILE *f = fmemopen(text, n, "w");
    assert_non_null(f);
    int rc = mine_point(&o, f, &ran, err);
    fclose(f);
    /* everything made is unmade, whatever happened */
    assert_int_equal(opened, closed);
    assert_int_equal(set_up, torn_down);
    assert_int_equal(refs, refs_freed);
    return rc;
}

static int has_gpu(void)
{
    char why[256];
    int n = 0;
    device_count(&n, why, sizeof why);
    return n > 0;
}

static void engine_writes_a_verified_result(void **state)
{
    (void)state;
    char text[256];
    dm_err err = {0};
    const char *const n3[] = {"n=3"};
    assert_int_equal(mine_twice(0, 1, n3, 1, text, sizeof text, &err), 0);
    assert_string_equal(text, "index,value\n0,0\n1,2\n2,8\n");
    assert_int_equal(refs, 1);
}

static void engine_writes_nothing_when_verification_fails(void **state)
{
    (void)state;
    char text[256];
    dm_err err = {0};
    const char *const bad1[] = {"n=5", "bad=1"};
    assert_int_equal(mine_twice(1, 1, NULL, 0, text, sizeof text, &err), DM_ERUNTIME);
    assert_string_equal(err.msg, "the output of variant 'wrong' differs from the CPU "
                                 "reference: element 2: expected 8, got 9");
    assert_string_equal(text, "");
    assert_int_equal(mine_twice(1, 1, bad1, 2, text, sizeof text, &err), DM_ERUNTIME);
    assert_non_null(strstr(err.msg, "element 1: expected 2, got 3"));
    assert_string_equal(text, "");
}

static void engine_without_verify_makes_no_reference(void **state)
{
    (void)state;
    char text[256];
    dm_err err = {0};
    int before = refs;
    assert_int_equal(mine_twice(1, 0, NULL, 0, text, sizeof text, &err), 0);
    assert_int_equal(refs, before);
    assert_string_equal(text, "index,value\n0,0\n1,2\n2,9\n3,18\n");
}

static void engine_refuses_bad_parameters_before_any_data(void **state)
{
    (void)state;
    char text[256];
    dm_err err = {0};
    int before = opened;
    const char *const big[] = {"n=17"}, *const typo[] = {"m=3"};
    assert_int_equal(mine_twice(0, 1, big, 1, text, sizeof text, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "n=17 is out of range"));
    assert_int_equal(mine_twice(0, 1, typo, 1, text, sizeof text, &err), DM_EINPUT);
    assert_non_null(strstr(err.msg, "unknown parameter 'm' of variant 'right'"));
    assert_int_equal(opened, before);
    assert_string_equal(text, "");
}

static void engine_gpu_variant_without_a_gpu_says_so(void **state)
{
    (void)state;
    char text[256];
    dm_err err = {0};
    if (has_gpu())
        skip();
    assert_int_equal(mine_twice(2, 1, NULL, 0, text, sizeof text, &err), DM_ENOGPU);
    assert_non_null(strstr(err.msg, "variant 'gpu' of workload 'twice' runs on a GPU, and "
                                    "there is none here"));
    assert_string_equal(text, "");
}

/* ---- the command ------------------------------------------------------------------- */

/* The number of entries of dir whose names start with prefix. */
static int entries_starting(const char *dir, const char *prefix)
{
    int n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* The CSV tdm's counts should give for the first count episodes of level (0: all) in
 * sym[0..n), counted here by the definition (tdm_brute_count). */
static char *expected_counts(const uint8_t *sym, int64_t n, int level, int64_t count)
{
    tdm_episodes eps;
    dm_err err = {0};
    char name[TDM_MAX_LEVEL + 1];
    assert_int_equal(tdm_episodes_enumerate(level, count, &eps, &err), 0);
    size_t cap = 32 + (size_t)eps.n * 48, used = 0;
    char *csv = malloc(cap);
    used += (size_t)snprintf(csv, cap, "episode,count\n");
    for (int64_t i = 0; i < eps.n; i++) {
        tdm_episode_format(&eps, i, name, sizeof name);
        used += (size_t)snprintf(csv + used, cap - used, "%s,%u\n", name,
                                 tdm_brute_count(sym, n, eps.letters + i * level, level));
    }
    tdm_episodes_free(&eps);
    return csv;
}

static void tdm_cpu_variants_write_the_counts_of_the_definition(void **state)
{
    fixture *f = *state;
    enum { N = 150 };
    uint8_t sym[N];
    char out[192];
    tdm_generate_uniform(7, N, sym);
    char *want = expected_counts(sym, N, 2, 0);
    snprintf(out, sizeof out, "%s/counts.csv", f->dir);
    const char *variants[] = {"cpu", "cpu-mt"};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(dmbench(f, "mine tdm --variant %s --param length=%d -p level=2 "
                                    "-p seed=7 --out %s", variants[k], N, out), 0);
        assert_string_equal(slurp(out), want);
        assert_string_equal(slurp(f->out), "");
        assert_non_null(strstr(slurp(f->errf), "verified against the CPU reference"));
        /* without --out: the same on stdout */
        assert_int_equal(dmbench(f, "mine tdm -v %s -p length=%d -p level=2 -p seed=7",
                                 variants[k], N), 0);
        assert_string_equal(slurp(f->out), want);
    }
    assert_int_equal(entries_starting(f->dir, "counts.csv"), 1);
    struct stat sb;
    assert_int_equal(stat(out, &sb), 0);
    assert_true((sb.st_mode & 0444) != 0); /* a file others may read, as made by fopen */
    free(want);
}

static void tdm_planted_episode_counts_as_planted(void **state)
{
    fixture *f = *state;
    tdm_data d = {.n = 5000};
    dm_err err = {0};
    char want[64];
    assert_int_equal(tdm_plant_parse("ABC", &d, &err), 0);
    d.sym = malloc((size_t)d.n);
    tdm_generate_planted(3, 0.01, &d);
    snprintf(want, sizeof want, "episode,count\nABC,%lld\n", (long long)d.planted[0]);
    free(d.sym);
    assert_true(d.planted[0] > 0);
    assert_int_equal(dmbench(f, "mine tdm -v cpu --generator planted -p plant=ABC "
                                "-p plant_rate=0.01 -p seed=3 -p length=5000 -p level=3 "
                                "-p count=1"), 0);
    assert_string_equal(slurp(f->out), want);
}

static void tdm_counts_a_data_file(void **state)
{
    fixture *f = *state;
    char data[192];
    snprintf(data, sizeof data, "%s/db.txt", f->dir);
    write_file(data, "ABAB\nCA\n");
    assert_int_equal(dmbench(f, "mine tdm -v cpu --data %s -p length=6 -p level=1 -p count=4",
                             data), 0);
    assert_string_equal(slurp(f->out), "episode,count\nA,3\nB,2\nC,1\nD,0\n");
}

static void membw_cpu_writes_its_triad(void **state)
{
    fixture *f = *state;
    float a[5], b[5], c[5];
    char want[256], row[64];
    membw_generate(3, 5, a, b, c);
    snprintf(want, sizeof want, "index,value\n");
    for (int i = 0; i < 5; i++) {
        snprintf(row, sizeof row, "%d,%.9g\n", i, fmaf(3.0f, c[i], b[i]));
        strcat(want, row);
    }
    assert_int_equal(dmbench(f, "mine membw -v cpu -p n=5 -p seed=3 -p op=triad"), 0);
    assert_string_equal(slurp(f->out), want);
}

static void no_verify_says_the_result_is_unverified(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "mine tdm -v cpu -p length=100 -p level=1 -p count=2 "
                                "--no-verify"), 0);
    assert_int_equal(count_lines(slurp(f->out)), 3);
    assert_non_null(strstr(slurp(f->errf), "not verified (--no-verify)"));
}

static void help_describes_the_command(void **state)
{
    fixture *f = *state;
    assert_int_equal(dmbench(f, "mine --help"), 0);
    assert_non_null(strstr(slurp(f->out), "usage: dmbench mine WORKLOAD --variant V"));
    assert_non_null(strstr(slurp(f->out), "workloads: membw tdm"));
}

/* "dmbench mine ARGS --out FILE" exits with status, prints one line on stderr containing
 * phrase, and leaves no FILE nor a temporary beside it. */
static void mine_fails(fixture *f, int status, const char *args, const char *phrase)
{
    char out[192];
    snprintf(out, sizeof out, "%s/fail.csv", f->dir);
    int rc = dmbench(f, "mine %s --out %s", args, out);
    const char *err = slurp(f->errf);
    if (rc != status || !strstr(err, phrase) || count_lines(err) != 1)
        fail_msg("dmbench mine %s: exit %d, stderr '%s'; want exit %d and '%s'", args, rc,
                 err, status, phrase);
    assert_string_equal(slurp(f->out), "");
    assert_int_equal(entries_starting(f->dir, "fail.csv"), 0);
}

static void input_errors_exit_2_with_one_line(void **state)
{
    fixture *f = *state;
    char bad[192], args[256];
    mine_fails(f, 2, "tdmm --variant cpu", "unknown workload 'tdmm'; did you mean: tdm");
    mine_fails(f, 2, "tdm --variant cpux",
               "unknown variant 'cpux' of workload 'tdm'; did you mean: cpu, cpu-mt");
    mine_fails(f, 2, "tdm -v cpu -p levle=2",
               "unknown parameter 'levle' of variant 'cpu' of workload 'tdm'; did you mean: "
               "level");
    mine_fails(f, 2, "tdm -v cpu -p level=x", "level=x: expected an integer");
    mine_fails(f, 2, "tdm -v cpu -p level", "'level': expected NAME=VALUE");
    mine_fails(f, 2, "tdm -v cpu -p length=100 -p level=2 -p count=700",
               "does not run this point: count 700 exceeds the 650 episodes of level 2");
    mine_fails(f, 2, "tdm", "no --variant given");
    mine_fails(f, 2, "--variant cpu", "no workload given");
    mine_fails(f, 2, "tdm membw -v cpu", "more than one workload given");
    mine_fails(f, 2, "tdm -v cpu --data x --generator planted", "both --data and --generator");
    mine_fails(f, 2, "tdm -v cpu --generator uniformm", "tdm has no generator 'uniformm'");
    mine_fails(f, 2, "tdm -v cpu --frobnicate", "unknown option '--frobnicate'");
    mine_fails(f, 2, "tdm -v cpu --device x", "--device x: expected an integer");
    snprintf(bad, sizeof bad, "%s/bad.txt", f->dir);
    write_file(bad, "ABC\nAB1C\n");
    snprintf(args, sizeof args, "tdm -v cpu -p length=5 --data %s", bad);
    mine_fails(f, 2, args, "bad.txt: byte 0x31 at offset 6 is not a letter A-Z or whitespace");
    snprintf(args, sizeof args, "tdm -v cpu -p length=50 --data %s/none.txt", f->dir);
    mine_fails(f, 2, args, "none.txt: cannot open: No such file or directory");
    /* a directory given for the data file, or for --out */
    snprintf(args, sizeof args, "tdm -v cpu -p length=50 --data %s", f->dir);
    mine_fails(f, 2, args, ": is a directory, expected a file");
    assert_int_equal(dmbench(f, "mine tdm -v cpu -p length=10 -p level=1 --out %s", f->dir), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_non_null(strstr(slurp(f->errf), ": Is a directory"));
    /* --out in a folder that is a file */
    snprintf(args, sizeof args, "tdm -v cpu -p length=10 -p level=1 --out %s/bad.txt/x.csv",
             f->dir);
    assert_int_equal(dmbench(f, "mine %s", args), 2);
    assert_int_equal(count_lines(slurp(f->errf)), 1);
    assert_non_null(strstr(slurp(f->errf), "bad.txt is a file, not a directory"));
}

/* --out in folders that do not exist makes them, as --db and report --out do. */
static void out_makes_missing_folders(void **state)
{
    fixture *f = *state;
    char path[192];
    snprintf(path, sizeof path, "%s/no/such/x.csv", f->dir);
    assert_int_equal(dmbench(f, "mine tdm -v cpu -p length=10 -p level=1 --out %s", path), 0);
    assert_true(exists(path));
}

static void gpu_variant_without_a_gpu_exits_1(void **state)
{
    fixture *f = *state;
    if (has_gpu())
        skip();
    mine_fails(f, 1, "tdm -v thread-tex -p length=100 -p level=2",
               "variant 'thread-tex' of workload 'tdm' runs on a GPU, and there is none here");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_writes_a_verified_result),
        cmocka_unit_test(engine_writes_nothing_when_verification_fails),
        cmocka_unit_test(engine_without_verify_makes_no_reference),
        cmocka_unit_test(engine_refuses_bad_parameters_before_any_data),
        cmocka_unit_test(engine_gpu_variant_without_a_gpu_says_so),
        cmocka_unit_test_setup_teardown(tdm_cpu_variants_write_the_counts_of_the_definition,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(tdm_planted_episode_counts_as_planted, setup, teardown),
        cmocka_unit_test_setup_teardown(tdm_counts_a_data_file, setup, teardown),
        cmocka_unit_test_setup_teardown(membw_cpu_writes_its_triad, setup, teardown),
        cmocka_unit_test_setup_teardown(no_verify_says_the_result_is_unverified, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(help_describes_the_command, setup, teardown),
        cmocka_unit_test_setup_teardown(input_errors_exit_2_with_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(out_makes_missing_folders, setup, teardown),
        cmocka_unit_test_setup_teardown(gpu_variant_without_a_gpu_exits_1, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
