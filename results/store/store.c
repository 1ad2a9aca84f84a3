/* store.c - the results database's writers: runs, datasets and points, each point in
 * one transaction so an interrupted point never appears half-written. Opening, checking
 * and migrating the database is store_open.c; reading back is store_read.c (show) and
 * store_export.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store_int.h"


static const char *const store_sql[SQL_COUNT] = {
    [SQL_RUN_BEGIN] =
        "INSERT INTO runs (started_at, status, host, gpu_name, gpu_uuid, gpu_cc, gpu_sms,"
        " gpu_l2_bytes, gpu_mem_bytes, gpu_pci_bus_id, driver_version, runtime_version,"
        " sm_clock_mhz_start, mem_clock_mhz_start, clock_source, no_gpu_reason,"
        " dmbench_version, git_commit, git_dirty, build_flags, argv, sweep_name, sweep_path,"
        " sweep_text, workload, baseline, measure_mode, min_samples, max_noise, max_time,"
        " max_samples, criterion, outlier_k, points_total, points_planned, pid, uid,"
        " shard_index, shard_count)"
        " VALUES (:started_at, 'running', :host, :gpu_name, :gpu_uuid, :gpu_cc, :gpu_sms,"
        " :gpu_l2_bytes, :gpu_mem_bytes, :gpu_pci_bus_id, :driver_version, :runtime_version,"
        " :sm_clock_mhz_start, :mem_clock_mhz_start, :clock_source, :no_gpu_reason,"
        " :dmbench_version, :git_commit, :git_dirty, :build_flags, :argv, :sweep_name,"
        " :sweep_path, :sweep_text, :workload, :baseline, :measure_mode, :min_samples,"
        " :max_noise, :max_time, :max_samples, :criterion, :outlier_k, :points_total,"
        " :points_planned, :pid, lower(hex(randomblob(16))), :shard_index, :shard_count)",
    [SQL_RUN_END] = "UPDATE runs SET status = :status, ended_at = :ended_at WHERE id = :id",
    [SQL_RUN_DISCARD] = "DELETE FROM runs WHERE id = :id",
    [SQL_RUN_NOTE] = "INSERT INTO run_notes (run_id, key, value) VALUES (:id, :key, :value)"
                     " ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value",
    [SQL_RUN_REOPEN] = "UPDATE runs SET status = 'running', ended_at = NULL, pid = :pid"
                       " WHERE id = :id",
    [SQL_FIND_RESUMABLE] = "SELECT id, coalesce(gpu_uuid, ''), coalesce(git_commit, ''),"
                           " coalesce(git_dirty, 0), coalesce(build_flags, '') FROM runs"
                           " WHERE sweep_name IS :name"
                           " AND sweep_text IS :text AND shard_index IS :shard_index"
                           " AND shard_count IS :shard_count"
                           " AND status IN ('interrupted', 'failed')"
                           " ORDER BY id DESC LIMIT 1",
    [SQL_POINT_DONE] = "SELECT 1 FROM points WHERE run_id = :id AND idx = :idx",
    [SQL_DATASET_INSERT] =
        "INSERT OR IGNORE INTO datasets (name, params, path, content_hash, size_bytes)"
        " VALUES (:name, :params, :path, :hash, :size)",
    [SQL_DATASET_FIND] = "SELECT id FROM datasets WHERE name = :name AND params = :params"
                         " AND path = :path AND content_hash = :hash",
    [SQL_POINT] =
        "INSERT INTO points (run_id, idx, variant, dataset_id, problem_key, params, status,"
        " reason, started_at, ended_at, bytes_per_run, ops_per_run, ops_unit, device, chosen)"
        " VALUES (:run_id, :idx, :variant, :dataset_id, :problem_key, :params, :status,"
        " :reason, :started_at, :ended_at, :bytes, :ops, :ops_unit, :device, :chosen)",
    [SQL_PARAM] = "INSERT INTO point_params (point_id, name, type, value_text, value_num)"
                  " VALUES (:point_id, :name, :type, :text, :num)",
    [SQL_SAMPLE] = "INSERT INTO samples (point_id, idx, seconds, batch, throttled, sm_mhz,"
                   " outlier)"
                   " VALUES (:point_id, :idx, :seconds, :batch, :throttled, :sm_mhz, :outlier)",
    [SQL_STATS] =
        "INSERT INTO point_stats (point_id, n, min, q1, median, mean, q3, max, stdev, noise,"
        " stop_reason, mode, batch, warmup_seconds, elapsed, clock_source, sm_mhz_before,"
        " sm_mhz_after, n_throttled, throttle_reasons, criterion, criterion_value, median_lo,"
        " median_hi, mad, outlier_k, n_outliers, host_mhz_before, host_mhz_after)"
        " VALUES (:point_id, :n, :min, :q1, :median, :mean, :q3, :max, :stdev, :noise,"
        " :stop_reason, :mode, :batch, :warmup, :elapsed, :clock_source, :before, :after,"
        " :n_throttled, :throttle_reasons, :criterion, :criterion_value, :median_lo,"
        " :median_hi, :mad, :outlier_k, :n_outliers, :host_before, :host_after)",
    [SQL_VERIFY] = "INSERT INTO verifications (point_id, outcome, detail)"
                   " VALUES (:point_id, :outcome, :detail)",
    [SQL_LAUNCH] =
        "INSERT INTO launches (point_id, launch_index, kernel, grid_x, grid_y, grid_z,"
        " block_x, block_y, block_z, dynamic_smem)"
        " VALUES (:point_id, :idx, :kernel, :gx, :gy, :gz, :bx, :by, :bz, :smem)",
    [SQL_METRIC] = "INSERT INTO metrics (point_id, kernel, launch_index, metric, value,"
                   " reason, unit)"
                   " VALUES (:point_id, :kernel, :idx, :metric, :value, :reason, :unit)",
    [SQL_KERNEL_ATTRS] =
        "INSERT INTO kernel_attrs (point_id, kernel, block_threads, dynamic_smem,"
        " regs_per_thread, static_smem, local_bytes_per_thread, max_threads_per_block,"
        " predicted_blocks_per_sm, predicted_occupancy)"
        " VALUES (:point_id, :kernel, :threads, :smem, :regs, :static_smem, :local,"
        " :max_threads, :blocks, :occupancy)",
    [SQL_ACTIVITY] =
        "INSERT INTO activities (point_id, idx, kind, name, stream, start_ns, end_ns, bytes,"
        " grid_x, grid_y, grid_z, block_x, block_y, block_z)"
        " VALUES (:point_id, :idx, :kind, :name, :stream, :start, :end, :bytes, :gx, :gy,"
        " :gz, :bx, :by, :bz)",
    [SQL_TIMELINE] =
        "INSERT INTO timelines (point_id, activities, streams, span_ns, overlap_ns, overlap,"
        " reason) VALUES (:point_id, :n, :streams, :span, :overlap_ns, :overlap, :reason)",
    [SQL_FACT] = "INSERT INTO point_facts (point_id, idx, grp, name, value, unit)"
                 " VALUES (:point_id, :idx, :grp, :name, :value, :unit)",
};

/* ---- errors, statements, bindings ---- */

int store_fail(dm_store *st, dm_err *err, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dm_err_set(err, DM_ERUNTIME, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int store_exec(dm_store *st, const char *sql, dm_err *err, const char *what)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(st, err, "%s", what);
    return 0;
}

void store_rollback(dm_store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* The cached statement `which`, ready for binding; NULL when it cannot be prepared
 * (the message stays on the connection for store_fail). */
static sqlite3_stmt *store_stmt(dm_store *st, int which)
{
    sqlite3_stmt **s = &st->stmt[which];
    if (!*s && sqlite3_prepare_v3(st->db, store_sql[which], -1, SQLITE_PREPARE_PERSISTENT, s,
                                  NULL) != SQLITE_OK)
        return NULL;
    sqlite3_reset(*s);
    sqlite3_clear_bindings(*s);
    return *s;
}

/* Binders by parameter name; each returns SQLITE_OK or an SQLite error code. */
static int bind_text(sqlite3_stmt *s, const char *name, const char *v)
{
    int i = sqlite3_bind_parameter_index(s, name);
    if (!v || !v[0])
        return sqlite3_bind_null(s, i);
    return sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* As bind_text, but "" stays "" (for columns where NULL would break uniqueness). */
static int bind_text_exact(sqlite3_stmt *s, const char *name, const char *v)
{
    return sqlite3_bind_text(s, sqlite3_bind_parameter_index(s, name), v ? v : "", -1,
                             SQLITE_TRANSIENT);
}

static int bind_int(sqlite3_stmt *s, const char *name, int64_t v)
{
    return sqlite3_bind_int64(s, sqlite3_bind_parameter_index(s, name), v);
}

/* Binds an id, or NULL for 0 (none). */
static int bind_id(sqlite3_stmt *s, const char *name, int64_t v)
{
    int i = sqlite3_bind_parameter_index(s, name);
    return v ? sqlite3_bind_int64(s, i, v) : sqlite3_bind_null(s, i);
}

/* Binds a real, or NULL for NaN (unknown). */
static int bind_real(sqlite3_stmt *s, const char *name, double v)
{
    int i = sqlite3_bind_parameter_index(s, name);
    return isnan(v) ? sqlite3_bind_null(s, i) : sqlite3_bind_double(s, i, v);
}

/* Binds Unix time t as ISO-8601 UTC text with milliseconds, or NULL when t is 0 or NaN. */
static int bind_time(sqlite3_stmt *s, const char *name, double t)
{
    char buf[40];
    if (isnan(t) || t <= 0)
        return sqlite3_bind_null(s, sqlite3_bind_parameter_index(s, name));
    time_t sec = (time_t)floor(t);
    int ms = (int)((t - floor(t)) * 1000.0);
    struct tm tm;
    gmtime_r(&sec, &tm);
    size_t n = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, sizeof buf - n, ".%03dZ", ms > 999 ? 999 : ms);
    return bind_text(s, name, buf);
}

static double unix_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Steps s to completion and resets it. Returns the final SQLite code (SQLITE_DONE on
 * success); the connection's message is kept for store_fail. */
static int step_done(sqlite3_stmt *s)
{
    int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE) {
        sqlite3_reset(s);
        return rc;
    }
    return sqlite3_reset(s) == SQLITE_OK ? SQLITE_DONE : SQLITE_ERROR;
}


/* ---- runs ---- */

/* Binds shard to :shard_index and :shard_count, NULL for the whole sweep. Returns an
 * SQLite code. */
static int bind_shard(sqlite3_stmt *s, dm_shard shard)
{
    return bind_id(s, ":shard_index", shard.count ? shard.index : 0) ||
                   bind_id(s, ":shard_count", shard.count)
               ? SQLITE_ERROR
               : SQLITE_OK;
}

/* Binds the run's fingerprint to SQL_RUN_BEGIN's parameters. Returns an SQLite code. */
static int bind_run(sqlite3_stmt *s, const dm_run_info *info)
{
    const dm_device *d = info->device;
    const dm_measure_opts *m = info->measure;
    char cc[16] = "";
    if (d)
        snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    int rc = bind_time(s, ":started_at", unix_now()) || bind_text(s, ":host", info->host) ||
             bind_text(s, ":gpu_name", d ? d->name : NULL) ||
             bind_text(s, ":gpu_uuid", d ? d->uuid : NULL) || bind_text(s, ":gpu_cc", cc) ||
             bind_text(s, ":gpu_pci_bus_id", d ? d->pci_bus_id : NULL) ||
             bind_real(s, ":sm_clock_mhz_start", info->sm_clock_mhz_start) ||
             bind_real(s, ":mem_clock_mhz_start", info->mem_clock_mhz_start) ||
             bind_text(s, ":clock_source", info->clock_source) ||
             bind_text(s, ":no_gpu_reason", info->no_gpu_reason) ||
             bind_text(s, ":dmbench_version", info->dmbench_version) ||
             bind_text(s, ":git_commit", info->git_commit) ||
             bind_int(s, ":git_dirty", info->git_dirty) ||
             bind_text(s, ":build_flags", info->build_flags) ||
             bind_text(s, ":argv", info->argv) || bind_text(s, ":sweep_name", info->sweep_name) ||
             bind_text(s, ":sweep_path", info->sweep_path) ||
             bind_text(s, ":sweep_text", info->sweep_text) ||
             bind_text(s, ":workload", info->workload) ||
             bind_text(s, ":baseline", info->baseline) ||
             bind_int(s, ":points_total", info->points_total) ||
             bind_int(s, ":points_planned", info->points_planned) ||
             bind_int(s, ":pid", getpid()) || bind_shard(s, info->shard);
    if (rc == 0 && d)
        rc = bind_int(s, ":gpu_sms", d->sms) || bind_int(s, ":gpu_l2_bytes", d->l2_bytes) ||
             bind_int(s, ":gpu_mem_bytes", d->mem_bytes) ||
             bind_int(s, ":driver_version", d->driver_version) ||
             bind_int(s, ":runtime_version", d->runtime_version);
    if (rc == 0 && m)
        rc = bind_text(s, ":measure_mode", m->mode == DM_MODE_HOT ? "hot" : "cold") ||
             bind_int(s, ":min_samples", m->min_samples) ||
             bind_real(s, ":max_noise", m->max_noise) ||
             bind_real(s, ":max_time", m->max_time) ||
             bind_int(s, ":max_samples", m->max_samples) ||
             bind_text(s, ":criterion", criterion_name(m->criterion)) ||
             bind_real(s, ":outlier_k", m->outlier_k > 0 ? m->outlier_k : DM_OUTLIER_K_DEFAULT);
    return rc ? SQLITE_ERROR : SQLITE_OK;
}

int store_run_begin(dm_store *st, const dm_run_info *info, int64_t *run_id, dm_err *err)
{
    sqlite3_stmt *s = store_stmt(st, SQL_RUN_BEGIN);
    if (!s || bind_run(s, info) != SQLITE_OK || step_done(s) != SQLITE_DONE)
        return store_fail(st, err, "recording the start of a run");
    *run_id = sqlite3_last_insert_rowid(st->db);
    return 0;
}

/* Runs an UPDATE or DELETE of one run, bound to run_id (and to status with the time now
 * when status is not NULL). Returns 0, DM_EINPUT when there is no such run, or
 * DM_ERUNTIME. */
static int store_run_change(dm_store *st, int which, int64_t run_id, const char *status,
                            const char *what, dm_err *err)
{
    sqlite3_stmt *s = store_stmt(st, which);
    if (!s || bind_int(s, ":id", run_id) != SQLITE_OK ||
        (sqlite3_bind_parameter_index(s, ":pid") && bind_int(s, ":pid", getpid()) != SQLITE_OK) ||
        (status && (bind_text(s, ":status", status) != SQLITE_OK ||
                    bind_time(s, ":ended_at", unix_now()) != SQLITE_OK)) ||
        step_done(s) != SQLITE_DONE)
        return store_fail(st, err, "%s run %lld", what, (long long)run_id);
    if (sqlite3_changes(st->db) == 0)
        return dm_err_set(err, DM_EINPUT, "no run %lld in %s", (long long)run_id, st->path);
    return 0;
}

int store_run_end(dm_store *st, int64_t run_id, const char *status, dm_err *err)
{
    return store_run_change(st, SQL_RUN_END, run_id, status, "recording the end of", err);
}

int store_run_discard(dm_store *st, int64_t run_id, dm_err *err)
{
    return store_run_change(st, SQL_RUN_DISCARD, run_id, NULL, "removing", err);
}

int store_run_reopen(dm_store *st, int64_t run_id, dm_err *err)
{
    return store_run_change(st, SQL_RUN_REOPEN, run_id, NULL, "reopening", err);
}

int store_run_note(dm_store *st, int64_t run_id, const char *key, const char *value,
                   dm_err *err)
{
    sqlite3_stmt *s = store_stmt(st, SQL_RUN_NOTE);
    if (!s || bind_int(s, ":id", run_id) != SQLITE_OK ||
        bind_text_exact(s, ":key", key) != SQLITE_OK ||
        bind_text(s, ":value", value) != SQLITE_OK || step_done(s) != SQLITE_DONE)
        return store_fail(st, err, "storing note '%s' of run %lld", key, (long long)run_id);
    return 0;
}

/* Steps a bound lookup s once: *found and *id (column 0) from its first row, then
 * resets it. Returns SQLITE_DONE on success, else the SQLite code. */
static int lookup_id(sqlite3_stmt *s, int *found, int64_t *id)
{
    int rc = sqlite3_step(s);
    *found = rc == SQLITE_ROW;
    if (*found) {
        *id = sqlite3_column_int64(s, 0);
        rc = SQLITE_DONE;
    }
    sqlite3_reset(s);
    return rc;
}

int store_find_resumable(dm_store *st, const char *sweep_name, const char *sweep_text,
                         dm_shard shard, int64_t *run_id, dm_run_origin *origin,
                         dm_err *err)
{
    sqlite3_stmt *s = store_stmt(st, SQL_FIND_RESUMABLE);
    *run_id = 0;
    memset(origin, 0, sizeof *origin);
    int rc = !s || bind_text(s, ":name", sweep_name) != SQLITE_OK ||
                     bind_text(s, ":text", sweep_text) != SQLITE_OK ||
                     bind_shard(s, shard) != SQLITE_OK
                 ? SQLITE_ERROR
                 : sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *run_id = sqlite3_column_int64(s, 0);
        snprintf(origin->gpu_uuid, sizeof origin->gpu_uuid, "%s", sqlite3_column_text(s, 1));
        snprintf(origin->git_commit, sizeof origin->git_commit, "%s",
                 sqlite3_column_text(s, 2));
        origin->git_dirty = sqlite3_column_int(s, 3);
        snprintf(origin->build_flags, sizeof origin->build_flags, "%s",
                 sqlite3_column_text(s, 4));
        rc = SQLITE_DONE;
    }
    if (s)
        sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return store_fail(st, err, "looking for an unfinished run of sweep '%s'",
                          sweep_name ? sweep_name : "");
    return 0;
}

int store_point_done(dm_store *st, int64_t run_id, int64_t idx, int *done, dm_err *err)
{
    int64_t one;
    sqlite3_stmt *s = store_stmt(st, SQL_POINT_DONE);
    if (!s || bind_int(s, ":id", run_id) != SQLITE_OK || bind_int(s, ":idx", idx) != SQLITE_OK ||
        lookup_id(s, done, &one) != SQLITE_DONE)
        return store_fail(st, err, "looking up point %lld of run %lld", (long long)idx,
                          (long long)run_id);
    return 0;
}

/* ---- datasets ---- */

/* Binds ds's identifying columns (name, params, path, hash). Returns an SQLite code. */
static int bind_dataset(sqlite3_stmt *s, const dm_dataset *ds)
{
    return bind_text_exact(s, ":name", ds->name) || bind_text_exact(s, ":params", ds->params) ||
                   bind_text_exact(s, ":path", ds->path) || bind_text_exact(s, ":hash", ds->hash)
               ? SQLITE_ERROR
               : SQLITE_OK;
}

int store_dataset(dm_store *st, const dm_dataset *ds, int64_t *dataset_id, dm_err *err)
{
    int found = 0;
    sqlite3_stmt *s = store_stmt(st, SQL_DATASET_INSERT);
    if (!s || bind_dataset(s, ds) != SQLITE_OK ||
        bind_int(s, ":size", ds->size_bytes) != SQLITE_OK || step_done(s) != SQLITE_DONE ||
        !(s = store_stmt(st, SQL_DATASET_FIND)) || bind_dataset(s, ds) != SQLITE_OK ||
        lookup_id(s, &found, dataset_id) != SQLITE_DONE || !found)
        return store_fail(st, err, "storing dataset %s (%s)", ds->name, ds->params);
    return 0;
}

/* ---- points ---- */

static const char *param_type(dm_ptype t)
{
    switch (t) {
    case DM_P_INT: return "int";
    case DM_P_REAL: return "real";
    case DM_P_ENUM: return "enum";
    }
    return "?";
}

/* Inserts the points row. Returns SQLITE_DONE or an SQLite error code. */
static int insert_point_row(dm_store *st, const dm_point_result *r)
{
    char params[DM_KEY_MAX], key[DM_KEY_MAX];
    sqlite3_stmt *s = store_stmt(st, SQL_POINT);
    if (!s)
        return SQLITE_ERROR;
    dm_point_format(r->point, params, sizeof params);
    dm_point_problem_key(r->point, key, sizeof key);
    const dm_work *w = r->work;
    int bad = bind_int(s, ":run_id", r->run_id) || bind_int(s, ":idx", r->index) ||
              bind_text(s, ":variant", r->point->variant->name) ||
              bind_id(s, ":dataset_id", r->dataset_id) ||
              bind_text_exact(s, ":problem_key", key) || bind_text_exact(s, ":params", params) ||
              bind_text(s, ":status", r->status) || bind_text(s, ":reason", r->reason) ||
              bind_time(s, ":started_at", r->started) || bind_time(s, ":ended_at", r->ended) ||
              bind_real(s, ":bytes", w && w->bytes > 0 ? w->bytes : NAN) ||
              bind_real(s, ":ops", w && w->ops > 0 ? w->ops : NAN) ||
              bind_text(s, ":ops_unit", w && w->ops > 0 ? w->ops_unit : NULL) ||
              (r->device && bind_int(s, ":device", r->device->index)) ||
              bind_text(s, ":chosen", r->point->chosen[0] ? r->point->chosen : NULL);
    return bad ? SQLITE_ERROR : step_done(s);
}

/* Inserts the long-form parameters of point_id. Returns SQLITE_DONE or an error code. */
static int insert_params(dm_store *st, int64_t point_id, const dm_point *pt)
{
    for (int i = 0; i < pt->nparams; i++) {
        const dm_value *v = &pt->values[i];
        char num[64];
        sqlite3_stmt *s = store_stmt(st, SQL_PARAM);
        if (!s)
            return SQLITE_ERROR;
        if (v->type != DM_P_ENUM)
            dm_value_format(v, num, sizeof num);
        int bad = bind_int(s, ":point_id", point_id) ||
                  bind_text(s, ":name", pt->specs[i]->name) ||
                  bind_text(s, ":type", param_type(pt->values[i].type)) ||
                  bind_text_exact(s, ":text", v->type == DM_P_ENUM ? v->s : num) ||
                  bind_real(s, ":num", dm_value_num(&pt->values[i]));
        int rc = bad ? SQLITE_ERROR : step_done(s);
        if (rc != SQLITE_DONE)
            return rc;
    }
    return SQLITE_DONE;
}

/* Inserts the samples and statistics of point_id. Returns SQLITE_DONE or an error. */
static int insert_measurement(dm_store *st, int64_t point_id, const dm_measurement *m)
{
    for (size_t i = 0; i < m->n; i++) {
        const dm_sample *x = &m->samples[i];
        sqlite3_stmt *s = store_stmt(st, SQL_SAMPLE);
        if (!s)
            return SQLITE_ERROR;
        int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":idx", (int64_t)i) ||
                  bind_real(s, ":seconds", x->seconds) || bind_int(s, ":batch", x->batch) ||
                  bind_int(s, ":throttled", x->throttled) || bind_real(s, ":sm_mhz", x->sm_mhz) ||
                  bind_int(s, ":outlier", x->outlier);
        int rc = bad ? SQLITE_ERROR : step_done(s);
        if (rc != SQLITE_DONE)
            return rc;
    }
    sqlite3_stmt *s = store_stmt(st, SQL_STATS);
    if (!s)
        return SQLITE_ERROR;
    const dm_stats *t = &m->stats;
    int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":n", (int64_t)t->n) ||
              bind_real(s, ":min", t->min) || bind_real(s, ":q1", t->q1) ||
              bind_real(s, ":median", t->median) || bind_real(s, ":mean", t->mean) ||
              bind_real(s, ":q3", t->q3) || bind_real(s, ":max", t->max) ||
              bind_real(s, ":stdev", t->stdev) || bind_real(s, ":noise", t->noise) ||
              bind_text(s, ":stop_reason", m->stop_reason) ||
              bind_text(s, ":mode", m->mode == DM_MODE_HOT ? "hot" : "cold") ||
              bind_int(s, ":batch", m->batch) || bind_real(s, ":warmup", m->warmup_seconds) ||
              bind_real(s, ":elapsed", m->elapsed) ||
              bind_text(s, ":clock_source", m->clock_source) ||
              bind_real(s, ":before", m->sm_mhz_before) ||
              bind_real(s, ":after", m->sm_mhz_after) ||
              bind_int(s, ":n_throttled", m->n_throttled) ||
              bind_text(s, ":throttle_reasons", m->throttle_reasons) ||
              bind_text(s, ":criterion", m->criterion) ||
              bind_real(s, ":criterion_value", m->criterion ? m->criterion_value : NAN) ||
              bind_real(s, ":median_lo", t->median_lo) || bind_real(s, ":median_hi", t->median_hi) ||
              bind_real(s, ":mad", t->mad) ||
              bind_real(s, ":outlier_k", m->criterion ? m->outlier_k : NAN) ||
              bind_int(s, ":n_outliers", (int64_t)m->n_outliers) ||
              bind_real(s, ":host_before", m->host_mhz_before) ||
              bind_real(s, ":host_after", m->host_mhz_after);
    return bad ? SQLITE_ERROR : step_done(s);
}

/* Inserts the verification outcome of point_id. Returns SQLITE_DONE or an error. */
static int insert_verification(dm_store *st, int64_t point_id, const dm_point_result *r)
{
    sqlite3_stmt *s = store_stmt(st, SQL_VERIFY);
    if (!s)
        return SQLITE_ERROR;
    int bad = bind_int(s, ":point_id", point_id) || bind_text(s, ":outcome", r->verify) ||
              bind_text(s, ":detail", r->verify_detail);
    return bad ? SQLITE_ERROR : step_done(s);
}

/* Binds grid and block dimensions to :gx.. and :bx.. Returns an SQLite code. */
static int bind_dims(sqlite3_stmt *s, const unsigned grid[3], const unsigned block[3])
{
    return bind_int(s, ":gx", grid[0]) || bind_int(s, ":gy", grid[1]) ||
                   bind_int(s, ":gz", grid[2]) || bind_int(s, ":bx", block[0]) ||
                   bind_int(s, ":by", block[1]) || bind_int(s, ":bz", block[2])
               ? SQLITE_ERROR
               : SQLITE_OK;
}

/* Inserts the kernel attributes of point_id. Returns SQLITE_DONE or an error code. */
static int insert_kernel_attrs(dm_store *st, int64_t point_id, const dm_cupti_point *c)
{
    for (size_t i = 0; i < c->nattrs; i++) {
        const dm_kernel_attrs *a = &c->attrs[i];
        sqlite3_stmt *s = store_stmt(st, SQL_KERNEL_ATTRS);
        if (!s)
            return SQLITE_ERROR;
        int bad = bind_int(s, ":point_id", point_id) || bind_text(s, ":kernel", a->kernel) ||
                  bind_int(s, ":threads", a->block_threads) ||
                  bind_int(s, ":smem", a->dynamic_smem) ||
                  bind_int(s, ":regs", a->regs_per_thread) ||
                  bind_int(s, ":static_smem", a->static_smem) ||
                  bind_int(s, ":local", a->local_bytes_per_thread) ||
                  bind_int(s, ":max_threads", a->max_threads_per_block) ||
                  bind_int(s, ":blocks", a->blocks_per_sm) ||
                  bind_real(s, ":occupancy", a->predicted_occupancy);
        int rc = bad ? SQLITE_ERROR : step_done(s);
        if (rc != SQLITE_DONE)
            return rc;
    }
    return SQLITE_DONE;
}

/* Inserts the launches of point_id and a metric row per launch and metric, NULL with
 * the point's reason where there is no value. Returns SQLITE_DONE or an error code. */
static int insert_launch_metrics(dm_store *st, int64_t point_id, const dm_cupti_point *c)
{
    const cupti_metric_list *l = c->metrics;
    const char *reason = c->metrics_reason[0] ? c->metrics_reason
                                              : "CUPTI gave no value for this launch";
    for (size_t i = 0; i < c->nlaunches; i++) {
        const dm_launch *la = &c->launches[i];
        sqlite3_stmt *s = store_stmt(st, SQL_LAUNCH);
        if (!s)
            return SQLITE_ERROR;
        int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":idx", (int64_t)i) ||
                  bind_text_exact(s, ":kernel", la->kernel) ||
                  bind_dims(s, la->grid, la->block) || bind_int(s, ":smem", la->dynamic_smem);
        int rc = bad ? SQLITE_ERROR : step_done(s);
        for (int m = 0; rc == SQLITE_DONE && l && m < l->n; m++) {
            double v = c->values[i * (size_t)l->n + (size_t)m];
            if (!(s = store_stmt(st, SQL_METRIC)))
                return SQLITE_ERROR;
            bad = bind_int(s, ":point_id", point_id) ||
                  bind_text_exact(s, ":kernel", la->kernel) ||
                  bind_int(s, ":idx", (int64_t)i) || bind_text(s, ":metric", l->m[m].short_name) ||
                  bind_real(s, ":value", v) || bind_text(s, ":reason", isnan(v) ? reason : NULL) ||
                  bind_text(s, ":unit", l->m[m].unit);
            rc = bad ? SQLITE_ERROR : step_done(s);
        }
        if (rc != SQLITE_DONE)
            return rc;
    }
    return SQLITE_DONE;
}

/* Inserts the activities and the timeline row of point_id. Returns SQLITE_DONE or an
 * error code. */
static int insert_timeline(dm_store *st, int64_t point_id, const dm_cupti_point *c)
{
    for (size_t i = 0; i < c->nacts; i++) {
        const dm_activity *a = &c->acts[i];
        int kernel = a->kind == DM_ACT_KERNEL;
        sqlite3_stmt *s = store_stmt(st, SQL_ACTIVITY);
        if (!s)
            return SQLITE_ERROR;
        int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":idx", (int64_t)i) ||
                  bind_text(s, ":kind", kernel ? "kernel" : "memcpy") ||
                  bind_text_exact(s, ":name", a->name) || bind_int(s, ":stream", a->stream) ||
                  bind_int(s, ":start", a->start_ns) || bind_int(s, ":end", a->end_ns) ||
                  (!kernel && bind_int(s, ":bytes", a->bytes)) ||
                  (kernel && bind_dims(s, a->grid, a->block));
        int rc = bad ? SQLITE_ERROR : step_done(s);
        if (rc != SQLITE_DONE)
            return rc;
    }
    sqlite3_stmt *s = store_stmt(st, SQL_TIMELINE);
    if (!s)
        return SQLITE_ERROR;
    /* A failed trace has no activities; an empty one (a CPU-only run) has no span. */
    int known = c->nacts > 0 && c->span_ns > 0;
    const char *reason = c->trace_reason[0] ? c->trace_reason
                         : known            ? NULL
                                            : "no kernel or copy activity";
    int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":n", (int64_t)c->nacts) ||
              bind_int(s, ":streams", c->streams) ||
              (known && (bind_int(s, ":span", c->span_ns) ||
                         bind_int(s, ":overlap_ns", c->overlap_ns) ||
                         bind_real(s, ":overlap", (double)c->overlap_ns / (double)c->span_ns))) ||
              bind_text(s, ":reason", reason);
    return bad ? SQLITE_ERROR : step_done(s);
}

/* Inserts what CUPTI gave for point_id. Returns SQLITE_DONE or an error code. */
static int insert_cupti(dm_store *st, int64_t point_id, const dm_cupti_point *c)
{
    int rc = insert_kernel_attrs(st, point_id, c);
    if (rc == SQLITE_DONE && c->profiled)
        rc = insert_launch_metrics(st, point_id, c);
    if (rc == SQLITE_DONE && c->traced)
        rc = insert_timeline(st, point_id, c);
    return rc;
}

/* Inserts the facts of point_id. Returns SQLITE_DONE or an error code. */
static int insert_facts(dm_store *st, int64_t point_id, const dm_point_result *r)
{
    for (int i = 0; i < r->nfacts; i++) {
        const dm_fact *f = &r->facts[i];
        sqlite3_stmt *s = store_stmt(st, SQL_FACT);
        if (!s)
            return SQLITE_ERROR;
        int bad = bind_int(s, ":point_id", point_id) || bind_int(s, ":idx", i) ||
                  bind_text_exact(s, ":grp", f->group) ||
                  bind_text_exact(s, ":name", f->name) ||
                  bind_real(s, ":value", f->value) || bind_text(s, ":unit", f->unit);
        int rc = bad ? SQLITE_ERROR : step_done(s);
        if (rc != SQLITE_DONE)
            return rc;
    }
    return SQLITE_DONE;
}

int store_point(dm_store *st, const dm_point_result *r, int64_t *point_id, dm_err *err)
{
    int64_t id;
    int rc = store_exec(st, "BEGIN IMMEDIATE", err, "locking the database to store a point");
    if (rc != 0)
        return rc;
    if (insert_point_row(st, r) != SQLITE_DONE)
        goto fail;
    id = sqlite3_last_insert_rowid(st->db);
    if (insert_params(st, id, r->point) != SQLITE_DONE ||
        (r->m && insert_measurement(st, id, r->m) != SQLITE_DONE) ||
        (r->verify && insert_verification(st, id, r) != SQLITE_DONE) ||
        (r->cupti && insert_cupti(st, id, r->cupti) != SQLITE_DONE) ||
        insert_facts(st, id, r) != SQLITE_DONE ||
        sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    if (point_id)
        *point_id = id;
    return 0;
fail:
    store_fail(st, err, "storing point %lld of run %lld", (long long)r->index,
               (long long)r->run_id);
    store_rollback(st);
    return DM_ERUNTIME;
}
