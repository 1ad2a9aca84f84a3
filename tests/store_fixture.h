/* store_fixture.h - a results database for a test: a fresh folder holding it (afx), runs
 * on a named card, points of the toy workload with the raw samples the test chooses, and
 * one-value queries over it. Static functions, included by one test file each, after
 * cmocka.h. */
#ifndef DM_TEST_STORE_FIXTURE_H
#define DM_TEST_STORE_FIXTURE_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "measure.h"
#include "registry.h"
#include "store.h"
#include "tmpdir.h"
#include "toy_workload.h"

typedef struct afx {
    char dir[40];   /* /tmp/dmbench-store-XXXXXX */
    char path[64];  /* the database: dir/results.sqlite unless the test names another */
    dm_store *st;   /* NULL until afx_open_store */
} afx;

/* Makes a fresh folder for f and the database's path in it, with no database yet.
 * Returns 0, or -1. */
static inline int afx_make(afx *f)
{
    memset(f, 0, sizeof *f);
    if (tmpdir_make(f->dir, sizeof f->dir, "store") != 0)
        return -1;
    snprintf(f->path, sizeof f->path, "%s/results.sqlite", f->dir);
    return 0;
}

/* Opens (making it when new) f's database. Returns 0, or store_open's status with its
 * message on stderr. */
static inline int afx_open_store(afx *f)
{
    dm_err err = { 0 };
    int rc = store_open(f->path, &f->st, &err);
    if (rc != 0)
        fprintf(stderr, "afx_open_store: %s\n", err.msg);
    return rc;
}

/* A fresh folder with an open, empty database. Returns 0, or nonzero. */
static inline int afx_open(afx *f)
{
    return afx_make(f) != 0 ? -1 : afx_open_store(f);
}

/* Closes the database and removes the folder with everything in it. Returns 0, or -1. */
static inline int afx_close(afx *f)
{
    store_close(f->st);
    f->st = NULL;
    return tmpdir_remove(f->dir);
}

/* cmocka setup and teardown giving each test an afx in *state: afx_setup with the
 * database open, afx_setup_empty with none yet (the test opens or plants it). */
static inline int afx_setup(void **state)
{
    afx *f = calloc(1, sizeof *f);
    *state = f;
    return f ? afx_open(f) : -1;
}

static inline int afx_setup_empty(void **state)
{
    afx *f = calloc(1, sizeof *f);
    *state = f;
    return f ? afx_make(f) : -1;
}

static inline int afx_teardown(void **state)
{
    int rc = afx_close(*state);
    free(*state);
    return rc;
}

/* A run of workload on card (cc "major.minor"); returns its id. */
static inline int64_t afx_run_of(afx *f, const char *workload, const char *card, int cc_major,
                                 int cc_minor)
{
    dm_device dev = { .cc_major = cc_major, .cc_minor = cc_minor, .sms = 132 };
    snprintf(dev.name, sizeof dev.name, "%s", card);
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = workload, .sweep_name = "fixture",
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = NAN,
                         .mem_clock_mhz_start = NAN };
    int64_t id = 0;
    dm_err err = { 0 };
    if (store_run_begin(f->st, &info, &id, &err) != 0 ||
        store_run_end(f->st, id, "complete", &err) != 0)
        fprintf(stderr, "afx_run: %s\n", err.msg);
    return id;
}

/* A run of the toy workload on card (cc "major.minor"); returns its id. */
static inline int64_t afx_run(afx *f, const char *card, int cc_major, int cc_minor)
{
    return afx_run_of(f, "toy", card, cc_major, cc_minor);
}

/* A point of toy: variant 0 (cpu: n, op) or 1 (kernel: n, op, block, scale). */
static inline void afx_toy_point(dm_point *pt, int variant, int64_t n, const char *op,
                                 int64_t block, double scale)
{
    memset(pt, 0, sizeof *pt);
    pt->workload = &toy;
    pt->variant = &toy_variants[variant];
    pt->specs[0] = &toy_dataset_params[0];
    pt->values[0] = (dm_value){ .type = DM_P_INT, .i = n };
    pt->specs[1] = &toy_problem_params[0];
    pt->values[1] = (dm_value){ .type = DM_P_ENUM, .s = dm_intern(op, strlen(op)) };
    pt->nparams = 2;
    if (variant == 1) {
        pt->specs[2] = &toy_kernel_params[0];
        pt->values[2] = (dm_value){ .type = DM_P_INT, .i = block };
        pt->specs[3] = &toy_kernel_params[1];
        pt->values[3] = (dm_value){ .type = DM_P_REAL, .r = scale };
        pt->nparams = 4;
    }
}

/* Stores pt as point idx of run, ok with the nx raw samples x, verified as verify says;
 * returns its id. */
static inline int64_t afx_store_verified(afx *f, int64_t run, int64_t idx, const dm_point *pt,
                                         const double *x, size_t nx, const char *verify)
{
    dm_sample *s = calloc(nx, sizeof *s);
    for (size_t i = 0; i < nx; i++)
        s[i] = (dm_sample){ .seconds = x[i], .batch = 1, .sm_mhz = NAN };
    dm_measurement m = { .samples = s, .n = nx, .stop_reason = "noise", .batch = 1,
                         .clock_source = "nvml", .sm_mhz_before = NAN, .sm_mhz_after = NAN };
    stats_compute(x, nx, &m.stats);
    dm_point_result r = { .run_id = run, .index = idx, .point = pt, .status = "ok",
                          .verify = verify, .m = &m, .started = 1.7e9, .ended = 1.7e9 + 1 };
    int64_t id = 0;
    dm_err err = { 0 };
    if (store_point(f->st, &r, &id, &err) != 0)
        fprintf(stderr, "afx_store_point: %s\n", err.msg);
    free(s);
    return id;
}

/* Stores pt as point idx of run, ok with the nx raw samples x; returns its id. */
static inline int64_t afx_store_point(afx *f, int64_t run, int64_t idx, const dm_point *pt,
                                      const double *x, size_t nx)
{
    return afx_store_verified(f, run, idx, pt, x, nx, "match");
}

/* Stores point idx of run: a registered workload's variant at its defaults, but
 * instances n (when the workload has them) and the int parameter name (NULL: none) at
 * value; three samples around median, verified as verify says. */
static inline void afx_registered_point(afx *f, int64_t run, int64_t idx, const char *workload,
                                        const char *variant, int64_t n, const char *name,
                                        int64_t value, double median, const char *verify)
{
    dm_err err = { 0 };
    const dm_workload *w = registry_workload(workload, &err);
    const dm_variant *v = w ? registry_variant(w, variant, &err) : NULL;
    dm_point pt;
    if (!v || registry_point_defaults(w, v, &pt, &err) != 0)
        fprintf(stderr, "afx_registered_point: %s\n", err.msg);
    dm_point_set_int(&pt, "instances", n);
    if (name)
        dm_point_set_int(&pt, name, value);
    const double x[3] = { median * 0.99, median, median * 1.01 };
    afx_store_verified(f, run, idx, &pt, x, 3, verify);
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
    return afx_store_point(f, run, idx, &pt, x, nx);
}

/* Stores an ok kernel point (n, op, block, scale 0.5) with the given raw samples. */
static inline int64_t afx_point(afx *f, int64_t run, int64_t idx, int64_t n, const char *op,
                                int64_t block, const double *x, size_t nx)
{
    dm_point pt;
    afx_toy_point(&pt, 1, n, op, block, 0.5);
    return afx_store_point(f, run, idx, &pt, x, nx);
}

/* Plants, for the multi-GPU scaling (scaling.h), run (of rules) and other: cpu-mt, concurrent and bitmap on one problem, a faster
 * bitmap point that failed verification, multigpu on 1, 2 and 4 GPUs; multigpu on 2 on
 * a problem with no one-GPU point; bitmap alone on a third; a faster bitmap in other. */
static inline void afx_plant_scaling(afx *f, int64_t run, int64_t other)
{
    afx_registered_point(f, run, 0, "rules", "cpu-mt", 1000, NULL, 0, 0.5e-3, "match");
    afx_registered_point(f, run, 1, "rules", "concurrent", 1000, "per_thread", 32, 2.0e-3,
                         "match");
    afx_registered_point(f, run, 2, "rules", "bitmap", 1000, NULL, 0, 1.0e-3, "match");
    afx_registered_point(f, run, 3, "rules", "bitmap", 1000, "chunk", 8192, 0.1e-3,
                         "mismatch");
    afx_registered_point(f, run, 4, "rules", "multigpu", 1000, "gpus", 1, 1.2e-3, "match");
    afx_registered_point(f, run, 5, "rules", "multigpu", 1000, "gpus", 2, 0.6e-3, "match");
    afx_registered_point(f, run, 6, "rules", "multigpu", 1000, "gpus", 4, 0.4e-3, "match");
    afx_registered_point(f, run, 7, "rules", "multigpu", 2000, "gpus", 2, 0.8e-3, "match");
    afx_registered_point(f, run, 8, "rules", "bitmap", 3000, NULL, 0, 0.05e-3, "match");
    afx_registered_point(f, other, 0, "rules", "bitmap", 1000, NULL, 0, 0.2e-3, "match");
}

/* nx samples around center: center * (1 + spread * u), u spread evenly over [-1, 1]. */
static inline void afx_samples(double *x, size_t nx, double center, double spread)
{
    for (size_t i = 0; i < nx; i++)
        x[i] = center * (1 + spread * (2.0 * (double)((i * 7) % nx) / (double)(nx - 1) - 1));
}

/* ---- one-value queries (they fail the test when sql does not compile) ---- */

/* The first statement of sql, prepared on st's database. Needs cmocka. */
static inline sqlite3_stmt *afx_prepare(dm_store *st, const char *sql)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(store_db(st), sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(store_db(st)));
    return s;
}

/* The first column of the first row of sql, as an integer (-1 when no row). */
static inline int64_t afx_int(dm_store *st, const char *sql)
{
    sqlite3_stmt *s = afx_prepare(st, sql);
    int64_t v = -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* The same as a double, for sql in printf format (NAN for NULL or no row). */
static inline double afx_num(dm_store *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline double afx_num(dm_store *st, const char *fmt, ...)
{
    char sql[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    sqlite3_stmt *s = afx_prepare(st, sql);
    double v = NAN;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        v = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);
    return v;
}

/* The same as text, in buf ("<null>" for NULL, "<none>" when no row). */
static inline const char *afx_text(dm_store *st, const char *sql, char *buf, size_t n)
{
    sqlite3_stmt *s = afx_prepare(st, sql);
    snprintf(buf, n, "<none>");
    if (sqlite3_step(s) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(s, 0);
        snprintf(buf, n, "%s", t ? (const char *)t : "<null>");
    }
    sqlite3_finalize(s);
    return buf;
}

#endif
