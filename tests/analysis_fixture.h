/* analysis_fixture.h - fixture databases for the analysis tests (compare, tune): runs
 * on a named card and points of the toy workload whose raw samples the test chooses.
 * Static functions, included by one test file each. */
#ifndef DM_TEST_ANALYSIS_FIXTURE_H
#define DM_TEST_ANALYSIS_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "store.h"
#include "toy_workload.h"

typedef struct afx {
    char path[64];
    dm_store *st;
} afx;

static inline int afx_open(afx *f)
{
    strcpy(f->path, "/tmp/dmbench-analysis-XXXXXX");
    int fd = mkstemp(f->path);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(f->path);
    dm_err err = { 0 };
    return store_open(f->path, &f->st, &err);
}

static inline void afx_close(afx *f)
{
    char side[80];
    store_close(f->st);
    unlink(f->path);
    snprintf(side, sizeof side, "%s-wal", f->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", f->path);
    unlink(side);
}

/* cmocka setup and teardown giving each test a fresh afx in *state. */
static inline int afx_setup(void **state)
{
    afx *f = calloc(1, sizeof *f);
    *state = f;
    return f ? afx_open(f) : -1;
}

static inline int afx_teardown(void **state)
{
    afx_close(*state);
    free(*state);
    return 0;
}

/* A run of the toy workload on card (cc "major.minor"); returns its id. */
static inline int64_t afx_run(afx *f, const char *card, int cc_major, int cc_minor)
{
    dm_device dev = { .cc_major = cc_major, .cc_minor = cc_minor, .sms = 132 };
    snprintf(dev.name, sizeof dev.name, "%s", card);
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = "toy", .sweep_name = "fixture",
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN };
    int64_t id = 0;
    dm_err err = { 0 };
    if (store_run_begin(f->st, &info, &id, &err) != 0 ||
        store_run_end(f->st, id, "complete", &err) != 0)
        fprintf(stderr, "afx_run: %s\n", err.msg);
    return id;
}

/* Stores an ok point of toy's variant (0 cpu, 1 kernel) with the given parameters and
 * raw samples; returns its id. */
static inline int64_t afx_point_params(afx *f, int64_t run, int64_t idx, int variant,
                                const dm_param_spec *const *specs, const dm_value *vals,
                                int nparams, const double *x, size_t nx)
{
    dm_point pt = { .workload = &toy, .variant = &toy_variants[variant], .nparams = nparams };
    for (int i = 0; i < nparams; i++) {
        pt.specs[i] = specs[i];
        pt.values[i] = vals[i];
    }
    dm_sample *s = calloc(nx, sizeof *s);
    for (size_t i = 0; i < nx; i++)
        s[i] = (dm_sample){ .seconds = x[i], .batch = 1, .sm_mhz = NAN };
    dm_measurement m = { .samples = s, .n = nx, .stop_reason = "noise", .batch = 1,
                         .clock_source = "nvml", .sm_mhz_before = NAN, .sm_mhz_after = NAN };
    stats_compute(x, nx, &m.stats);
    dm_point_result r = { .run_id = run, .index = idx, .point = &pt, .status = "ok",
                          .verify = "match", .m = &m, .started = 1.7e9, .ended = 1.7e9 + 1 };
    int64_t id = 0;
    dm_err err = { 0 };
    if (store_point(f->st, &r, &id, &err) != 0)
        fprintf(stderr, "afx_point: %s\n", err.msg);
    free(s);
    return id;
}

/* Stores an ok kernel point (n, op, block, scale 0.5) with the given raw samples. */
static inline int64_t afx_point(afx *f, int64_t run, int64_t idx, int64_t n, const char *op,
                         int64_t block, const double *x, size_t nx)
{
    const dm_param_spec *specs[] = { &toy_dataset_params[0], &toy_problem_params[0],
                                     &toy_kernel_params[0], &toy_kernel_params[1] };
    dm_value vals[4] = { { .type = DM_P_INT, .i = n }, { .type = DM_P_ENUM },
                         { .type = DM_P_INT, .i = block }, { .type = DM_P_REAL, .r = 0.5 } };
    snprintf(vals[1].s, sizeof vals[1].s, "%s", op);
    return afx_point_params(f, run, idx, 1, specs, vals, 4, x, nx);
}

/* nx samples around center: center * (1 + spread * u), u spread evenly over [-1, 1]. */
static inline void afx_samples(double *x, size_t nx, double center, double spread)
{
    for (size_t i = 0; i < nx; i++)
        x[i] = center * (1 + spread * (2.0 * (double)((i * 7) % nx) / (double)(nx - 1) - 1));
}

#endif
