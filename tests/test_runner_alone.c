/* test_runner_alone.c - the runner over a stand-in registry, so it runs without a GPU:
 * with several workers (run --devices) a point of a multi-GPU variant (dm_variant.
 * multi_gpu) on more than one GPU runs while no other point does, while the others still
 * run side by side; an expansion prunes the points asking more GPUs than the run has,
 * saying why; and a point whose device memory runs out (DM_ENOMEM) is skipped with the
 * reason, not failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "runner.h"
#include "store_fixture.h"
#include "sweep.h"

/* ---- the stand-in workload: every variant sleeps 2 ms a run and answers 0 ---- */

static int al_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                   dm_err *err)
{
    (void)src, (void)pt, (void)err;
    snprintf(ds->name, sizeof ds->name, "none");
    return DM_OK;
}
static void al_close(dm_dataset *ds)
{
    (void)ds;
}
static const int al_answer = 0;
static int al_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err)
{
    (void)ds, (void)pt, (void)err;
    *ref = (void *)&al_answer;
    return DM_OK;
}
static void al_reference_free(void *ref)
{
    (void)ref;
}
static int al_compare(const void *ref, const void *out, const dm_point *pt, char *why,
                      size_t n)
{
    (void)pt, (void)why, (void)n;
    return *(const int *)ref != *(const int *)out;
}
static int al_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                    void **state, dm_err *err)
{
    (void)ex, (void)ds, (void)pt, (void)err;
    *state = NULL;
    return DM_OK;
}
static int al_run(void *state, dm_err *err)
{
    (void)state, (void)err;
    nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
    return DM_OK;
}
/* setup as a GPU variant's whose dm_gpu_alloc found the card too small */
static int al_setup_too_big(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                            void **state, dm_err *err)
{
    (void)ex, (void)ds, (void)pt, (void)state;
    dm_err_set(err, DM_ENOMEM, "out of device memory: 81920.0 MiB asked, 79000.0 MiB free "
               "of 81559.0 MiB (cudaMallocAsync: cudaErrorMemoryAllocation)");
    return DM_ERUNTIME; /* as a variant passing on a failed allocation does */
}
static int al_output(void *state, const void **out, dm_err *err)
{
    (void)state, (void)err;
    *out = &al_answer;
    return DM_OK;
}
static void al_teardown(void *state)
{
    (void)state;
}

static const char *const al_generators[] = { "none", NULL };
static const dm_param_spec al_dataset_params[] = {
    { .name = "n", .type = DM_P_INT, .def = "1", .allowed = "1..100" },
    { 0 },
};
static const dm_param_spec al_gpus_params[] = {
    { .name = "gpus", .type = DM_P_INT, .def = "1", .allowed = "1..16" },
    { 0 },
};
#define AL_VARIANT(name_, multi_, params_)                                                 \
    { .name = name_, .multi_gpu = multi_, .params = params_, .setup = al_setup,           \
      .run = al_run, .output = al_output, .teardown = al_teardown }
static const dm_variant al_variants[] = {
    AL_VARIANT("one", 0, NULL),
    AL_VARIANT("many", 1, al_gpus_params),
    { .name = "big", .setup = al_setup_too_big, .run = al_run, .output = al_output,
      .teardown = al_teardown },
    { 0 },
};
static const dm_workload al_workload = {
    .name = "alone", .generators = al_generators, .dataset_params = al_dataset_params,
    .dataset_open = al_open, .dataset_close = al_close, .reference = al_reference,
    .reference_free = al_reference_free, .compare = al_compare, .variants = al_variants,
};
const dm_workload *const dm_registered_workloads[] = { &al_workload, NULL };

/* one's points and many's at one and at two GPUs, interleaved in the queue */
static const char alone_sweep[] = "name: alone\n"
                                  "workload: alone\n"
                                  "dataset: { generator: none }\n"
                                  "variants: [one, many]\n"
                                  "axes:\n"
                                  "  n: [1, 2, 3, 4, 5, 6, 7, 8]\n"
                                  "  gpus: [1, 2]\n"
                                  "measure: { min_samples: 3, max_noise: 0, max_time: 0.02 }\n";

static void expand(const char *text, dm_sweep **s, dm_expansion *e)
{
    dm_err err = { 0 };
    if (sweep_parse_string(text, "alone.yaml", s, &err) || sweep_expand(*s, NULL, e, &err))
        fail_msg("sweep: %s", err.msg);
}

/* Runs the sweep text into f's database with n workers without a GPU (1: the plain run). */
static void run_sweep(afx *f, const char *text, int n, dm_run_result *res)
{
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    dm_err err = { 0 };
    dm_sink sink;
    const dm_device *none[3] = { NULL, NULL, NULL };
    expand(text, &s, &e);
    if (store_sink_make(f->path, &sink, &err))
        fail_msg("sink: %s", err.msg);
    dm_run_opts o = { .sink = &sink, .progress = DM_PROGRESS_QUIET, .argv_text = "test",
                      .sweep_key = text, .devices = none, .ndevices = n };
    if (runner_run(s, &e, &o, res, &err))
        fail_msg("run: %s", err.msg);
    sweep_expansion_free(&e);
    sweep_free(s);
}

static void points_on_more_gpus_than_the_run_has_are_pruned(void **state)
{
    (void)state;
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    expand(alone_sweep, &s, &e);
    assert_int_equal(e.n, 24); /* one: 8, many: 8 x 2 */
    sweep_limit_gpus(&e, 0);   /* no GPU: left to be skipped, not pruned */
    assert_int_equal(e.n_pruned, 0);
    sweep_limit_gpus(&e, 2);
    assert_int_equal(e.n_pruned, 0);
    sweep_limit_gpus(&e, 1);
    assert_int_equal(e.n_pruned, 8);
    for (size_t i = 0; i < e.n; i++) {
        const dm_sweep_point *sp = &e.points[i];
        int two = sp->point.variant->multi_gpu && dm_point_int(&sp->point, "gpus") == 2;
        assert_int_equal(sp->pruned, two ? 2 : 0);
        if (two)
            assert_string_equal(sp->reason, "gpus 2 exceeds the 1 GPU this run has "
                                            "(run --devices)");
    }
    sweep_expansion_free(&e);
    sweep_free(s);
}

static void a_point_on_two_gpus_runs_alone(void **state)
{
    afx *f = *state;
    dm_run_result res;
    run_sweep(f, alone_sweep, 3, &res);
    assert_int_equal(res.ok, 24);
    assert_int_equal(afx_open_store(f), 0);
    /* no point overlaps a point of many at two GPUs in time ... */
    const char *overlap = "SELECT count(*) FROM points a JOIN points b ON a.id <> b.id"
                          " AND a.started_at < b.ended_at AND b.started_at < a.ended_at"
                          " WHERE a.variant = 'many' AND a.params LIKE '%gpus=2%'";
    assert_int_equal(afx_int(f->st, overlap), 0);
    /* ... while the other points do overlap one another (the workers ran at once) */
    const char *others = "SELECT count(*) FROM points a JOIN points b ON a.id < b.id"
                         " AND a.started_at < b.ended_at AND b.started_at < a.ended_at"
                         " WHERE a.params NOT LIKE '%gpus=2%' AND b.params NOT LIKE '%gpus=2%'";
    assert_true(afx_int(f->st, others) > 0);
}

static void a_point_out_of_device_memory_is_skipped_with_why(void **state)
{
    afx *f = *state;
    static const char sweep[] = "name: big\n"
                                "workload: alone\n"
                                "dataset: { generator: none }\n"
                                "variants: [one, big]\n"
                                "measure: { min_samples: 3, max_noise: 0, max_time: 0.01 }\n";
    dm_run_result res;
    run_sweep(f, sweep, 1, &res);
    assert_int_equal(res.ok, 1);
    assert_int_equal(res.skipped, 1);
    assert_int_equal(res.failed, 0);
    assert_int_equal(afx_open_store(f), 0);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM points WHERE variant = 'big' AND"
                                    " status = 'skipped' AND reason LIKE 'setup: out of device"
                                    " memory: 81920.0 MiB asked, 79000.0 MiB free%'"), 1);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_on_more_gpus_than_the_run_has_are_pruned),
        cmocka_unit_test_setup_teardown(a_point_on_two_gpus_runs_alone, afx_setup_empty,
                                        afx_teardown),
        cmocka_unit_test_setup_teardown(a_point_out_of_device_memory_is_skipped_with_why,
                                        afx_setup_empty, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
