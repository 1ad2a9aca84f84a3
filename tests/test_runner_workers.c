/* test_runner_workers.c - the runner with several workers (run --devices), on CPU
 * variants since the development machine has no GPU: two workers without a GPU take the
 * points of one queue at once, every write goes through the one thread that owns the
 * sink, and the run stores the same points as one worker does. (On a 2-GPU machine
 * `dmbench run --devices 0,1` is the same code with a device per worker.) */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "runner.h"
#include "store_fixture.h"
#include "sweep.h"

/* Each point samples for its whole max_time (no noise is low enough), so two workers'
 * points overlap in time. */
static const char workers_sweep[] = "name: workers\n"
                                 "workload: membw\n"
                                 "dataset: { generator: random }\n"
                                 "variants: [cpu]\n"
                                 "baseline: cpu\n"
                                 "axes:\n"
                                 "  n: [256, 512, 1024, 2048, 4096, 8192]\n"
                                 "  op: [copy, triad]\n"
                                 "measure: { min_samples: 3, max_noise: 0, max_time: 0.03 }\n";

/* A sink that hands every call on to the store's and counts the calls made from a
 * thread other than the one that made it. */
typedef struct watched_sink {
    dm_sink inner;
    pthread_t owner;
    int calls, foreign;
} watched_sink;

static void watch(watched_sink *w)
{
    __atomic_add_fetch(&w->calls, 1, __ATOMIC_SEQ_CST);
    if (!pthread_equal(pthread_self(), w->owner))
        __atomic_add_fetch(&w->foreign, 1, __ATOMIC_SEQ_CST);
}

#define INNER(w, m, ...) ((w)->inner.ops->m((w)->inner.ctx, __VA_ARGS__))

static int w_open(void *ctx, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, open, err);
}
static int w_find_resumable(void *ctx, const char *name, const char *text, dm_shard shard,
                            int64_t *run_id, dm_run_origin *origin, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, find_resumable, name, text, shard, run_id, origin, err);
}
static int w_run_reopen(void *ctx, int64_t run_id, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, run_reopen, run_id, err);
}
static int w_point_done(void *ctx, int64_t run_id, int64_t idx, int *done, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, point_done, run_id, idx, done, err);
}
static int w_run_begin(void *ctx, const dm_run_info *info, int64_t *run_id, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, run_begin, info, run_id, err);
}
static int w_run_note(void *ctx, int64_t run_id, const char *key, const char *value,
                      dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, run_note, run_id, key, value, err);
}
static int w_dataset(void *ctx, const dm_dataset *ds, int64_t *id, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, dataset, ds, id, err);
}
static int w_point(void *ctx, const dm_point_result *r, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, point, r, err);
}
static int w_run_end(void *ctx, int64_t run_id, const char *status, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, run_end, run_id, status, err);
}
static int w_run_discard(void *ctx, int64_t run_id, dm_err *err)
{
    watch(ctx);
    return INNER((watched_sink *)ctx, run_discard, run_id, err);
}
static void w_close(void *ctx)
{
    watched_sink *w = ctx;
    w->inner.ops->close(w->inner.ctx);
}

static const dm_sink_ops watched_ops = {
    .open = w_open, .find_resumable = w_find_resumable, .run_reopen = w_run_reopen,
    .point_done = w_point_done, .run_begin = w_run_begin, .run_note = w_run_note,
    .dataset = w_dataset, .point = w_point, .run_end = w_run_end,
    .run_discard = w_run_discard, .close = w_close,
};

/* Runs the sweep with nworkers workers without a GPU (1: the plain run) into the
 * fixture's database, through a watched sink w. */
static void run_workers(afx *f, int nworkers, watched_sink *w, dm_run_result *res)
{
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    dm_err err = { 0 };
    const dm_device *none[2] = { NULL, NULL };
    if (sweep_parse_string(workers_sweep, "workers.yaml", &s, &err) ||
        sweep_expand(s, NULL, &e, &err))
        fail_msg("sweep: %s", err.msg);
    memset(w, 0, sizeof *w);
    w->owner = pthread_self();
    if (store_sink_make(f->path, &w->inner, &err))
        fail_msg("sink: %s", err.msg);
    dm_sink sink = { .ops = &watched_ops, .ctx = w };
    dm_run_opts o = { .sink = &sink, .progress = DM_PROGRESS_QUIET, .argv_text = "test",
                      .sweep_key = workers_sweep, .devices = none, .ndevices = nworkers };
    if (runner_run(s, &e, &o, res, &err))
        fail_msg("run: %s", err.msg);
    sweep_expansion_free(&e);
    sweep_free(s);
}

/* The points of run as "idx variant params status" lines, into buf. */
static const char *points_of(afx *f, int64_t run, char *buf, size_t n)
{
    sqlite3_stmt *q = NULL;
    buf[0] = '\0';
    assert_int_equal(sqlite3_prepare_v2(store_db(f->st),
                                        "SELECT group_concat(x, char(10)) FROM (SELECT idx ||"
                                        " ' ' || variant || ' ' || params || ' ' || status AS x"
                                        " FROM points WHERE run_id = ?1 ORDER BY idx)",
                                        -1, &q, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(q, 1, run);
    if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    return buf;
}

static void two_workers_share_one_queue_and_one_writer(void **state)
{
    afx *f = *state;
    static char one[8192], two[8192];
    watched_sink w;
    dm_run_result r1, r2;
    run_workers(f, 1, &w, &r1);
    run_workers(f, 2, &w, &r2);
    /* every write of the two-worker run came from the thread that began it */
    assert_true(w.calls > 12);
    assert_int_equal(w.foreign, 0);
    assert_int_equal(r2.ok, 12);
    assert_int_equal(r2.failed + r2.skipped + r2.pruned, 0);
    assert_int_equal(afx_open_store(f), 0);
    assert_int_equal(afx_int(f->st, "SELECT count(*) FROM runs WHERE status = 'complete'"), 2);
    /* each point once, the same points as one worker's run, each with its samples */
    assert_string_equal(points_of(f, r2.run_id, two, sizeof two),
                        points_of(f, r1.run_id, one, sizeof one));
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM points p JOIN point_stats s ON"
             " s.point_id = p.id WHERE p.run_id = %lld AND s.n >= 1", (long long)r2.run_id);
    assert_int_equal(afx_int(f->st, sql), 12);
    /* the workers measured at once: some of the run's points overlap in time */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM points a JOIN points b ON a.id < b.id"
             " AND a.started_at < b.ended_at AND b.started_at < a.ended_at"
             " WHERE a.run_id = %lld AND b.run_id = a.run_id", (long long)r2.run_id);
    assert_true(afx_int(f->st, sql) > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM run_notes WHERE run_id = %lld AND"
             " key = 'devices' AND value = 'no GPU; no GPU'", (long long)r2.run_id);
    assert_int_equal(afx_int(f->st, sql), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(two_workers_share_one_queue_and_one_writer,
                                        afx_setup_empty, afx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
