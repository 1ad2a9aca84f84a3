/* plotdata.c - the table of plots and their exports: the run and axis a plot is about,
 * the SQL behind time-vs-block, speedup-vs-size and throughput-vs-size over the views
 * of results/schema.sql, the labels and scales the scripts get, and the .dat header. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "plotdata_int.h"
#include "registry.h"

/* ---- the run, its parameters and the axis ---------------------------------------- */

static int read_run(pd_ctx *c, dm_err *err)
{
    static const char sql[] =
        "SELECT id, coalesce(gpu_name, ''), coalesce(gpu_cc, ''), coalesce(workload, ''),"
        " coalesce(sweep_name, ''), started_at, coalesce(baseline, '') FROM runs"
        " WHERE id = ?1 OR (?1 = 0 AND id = (SELECT max(id) FROM runs))";
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "looking up the run: %s", sqlite3_errmsg(db));
    sqlite3_bind_int64(q, 1, c->o->run_id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        pd_run *r = &c->run;
        r->id = sqlite3_column_int64(q, 0);
        snprintf(r->card, sizeof r->card, "%s", (const char *)sqlite3_column_text(q, 1));
        snprintf(r->cc, sizeof r->cc, "%s", (const char *)sqlite3_column_text(q, 2));
        snprintf(r->workload, sizeof r->workload, "%s", (const char *)sqlite3_column_text(q, 3));
        snprintf(r->sweep, sizeof r->sweep, "%s", (const char *)sqlite3_column_text(q, 4));
        snprintf(r->started, sizeof r->started, "%s", (const char *)sqlite3_column_text(q, 5));
        snprintf(r->baseline, sizeof r->baseline, "%s", (const char *)sqlite3_column_text(q, 6));
        rc = 0;
    } else if (rc == SQLITE_DONE && c->o->run_id) {
        rc = dm_err_set(err, DM_EINPUT, "no run %lld in %s", (long long)c->o->run_id,
                        store_path(c->st));
    } else if (rc == SQLITE_DONE) {
        rc = dm_err_set(err, DM_EINPUT, "no runs in %s", store_path(c->st));
    } else {
        rc = dm_err_set(err, DM_ERUNTIME, "looking up the run: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(q);
    return rc;
}

/* The parameters of the run's ok points, dataset and problem parameters first. */
typedef struct pd_param {
    char name[64];
    int numeric;    /* has numeric values */
    int varies;     /* takes more than one value */
    int in_problem; /* a dataset or problem parameter */
} pd_param;

static int read_params(pd_ctx *c, pd_param *ps, int max, int *n, dm_err *err)
{
    static const char sql[] =
        "SELECT pp.name, count(pp.value_num) > 0, count(DISTINCT pp.value_text) > 1,"
        " max(instr(',' || p.problem_key || ',', ',' || pp.name || '=') > 0) AS in_problem"
        " FROM points p JOIN point_params pp ON pp.point_id = p.id"
        " WHERE p.run_id = ?1 AND p.status = 'ok' GROUP BY pp.name"
        " ORDER BY in_problem DESC, min(instr(',' || p.params, ',' || pp.name || '='))";
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    int rc;
    *n = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(q, 1, c->run.id);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
        pd_param *p = &ps[(*n)++];
        snprintf(p->name, sizeof p->name, "%s", (const char *)sqlite3_column_text(q, 0));
        p->numeric = sqlite3_column_int(q, 1);
        p->varies = sqlite3_column_int(q, 2);
        p->in_problem = sqlite3_column_int(q, 3);
    }
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        goto fail;
    sqlite3_finalize(q);
    return 0;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "reading the run's parameters: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return rc;
}

/* "a, b, c": the names of ps (numeric ones only when numeric), or "none". */
static void list_names(const pd_param *ps, int n, int numeric, char *out, size_t len)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        if (!numeric || ps[i].numeric) {
            size_t used = strlen(out);
            if (used + 3 < len) {
                out[used] = '\0';
                strncat(out, used ? ", " : "", len - used - 1);
                strncat(out, ps[i].name, len - strlen(out) - 1);
            }
        }
    if (!out[0])
        snprintf(out, len, "none");
}

int pd_check_numeric(pd_ctx *c, const char *what, const char *name, dm_err *err)
{
    pd_param ps[DM_MAX_PARAMS * 2];
    int n, rc;
    char names[1024];
    if ((rc = read_params(c, ps, DM_MAX_PARAMS * 2, &n, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if (!strcmp(ps[i].name, name) && ps[i].numeric)
            return 0;
    list_names(ps, n, 1, names, sizeof names);
    return dm_err_set(err, DM_EINPUT, "%s %s: run %lld has no numeric parameter '%s' "
                      "(numeric parameters of its ok points: %s)", what, name,
                      (long long)c->run.id, name, names);
}

/* Sets c->axis: the given one (checked), else the kind's default, else the first
 * numeric dataset or problem parameter that varies; checks the --where names. */
static int resolve_axis(pd_ctx *c, dm_err *err)
{
    pd_param ps[DM_MAX_PARAMS * 2];
    int n, rc;
    char names[1024];
    if ((rc = read_params(c, ps, DM_MAX_PARAMS * 2, &n, err)))
        return rc;
    if (n == 0)
        return dm_err_set(err, DM_EINPUT, "run %lld has no ok points to plot", (long long)c->run.id);
    for (int w = 0; w < c->o->nwhere; w++) {
        const char *eq = strchr(c->o->where[w], '=');
        int i = 0;
        while (i < n && (strncmp(ps[i].name, c->o->where[w], (size_t)(eq - c->o->where[w])) ||
                         ps[i].name[eq - c->o->where[w]]))
            i++;
        if (i == n) {
            list_names(ps, n, 0, names, sizeof names);
            return dm_err_set(err, DM_EINPUT, "--where %s: no ok point of run %lld has that "
                              "parameter (it has: %s)", c->o->where[w], (long long)c->run.id,
                              names);
        }
    }
    if (c->kind->no_axis)
        return 0;
    c->axis = c->o->axis ? c->o->axis : c->kind->axis;
    if (c->axis) {
        if ((rc = pd_check_numeric(c, "--axis", c->axis, err)))
            return rc;
        for (int i = 0; i < n; i++)
            if (!strcmp(ps[i].name, c->axis) && !ps[i].varies)
                return dm_err_set(err, DM_EINPUT, "--axis %s: every ok point of run %lld has "
                                  "the same %s, so there is nothing to draw against it",
                                  c->axis, (long long)c->run.id, c->axis);
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (ps[i].in_problem && ps[i].numeric && ps[i].varies) {
            snprintf(c->run.axis, sizeof c->run.axis, "%s", ps[i].name);
            c->axis = c->run.axis;
            return 0;
        }
    list_names(ps, n, 1, names, sizeof names);
    return dm_err_set(err, DM_EINPUT, "run %lld has no numeric dataset or problem parameter "
                      "that varies; --axis names one (numeric parameters: %s)",
                      (long long)c->run.id, names);
}

/* Checks --by: the plot takes it, it is not the x axis, and the run's ok points have
 * the parameter. */
static int check_by(pd_ctx *c, dm_err *err)
{
    pd_param ps[DM_MAX_PARAMS * 2];
    int n, rc;
    char names[1024] = "";
    if (!c->o->by)
        return 0;
    if (!c->kind->by) {
        for (const dm_plot_kind *k = plotdata_kinds; k->name; k++)
            if (k->by) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", k->name);
            }
        return dm_err_set(err, DM_EINPUT, "--by %s: plot %s does not take --by (plots that "
                          "do: %s)", c->o->by, c->kind->name, names);
    }
    if (c->axis && !strcmp(c->o->by, c->axis))
        return dm_err_set(err, DM_EINPUT, "--by %s: that is the x axis", c->o->by);
    if ((rc = read_params(c, ps, DM_MAX_PARAMS * 2, &n, err)))
        return rc;
    for (int i = 0; i < n; i++)
        if (!strcmp(ps[i].name, c->o->by))
            return 0;
    list_names(ps, n, 0, names, sizeof names);
    return dm_err_set(err, DM_EINPUT, "--by %s: no ok point of run %lld has that parameter "
                      "(it has: %s)", c->o->by, (long long)c->run.id, names);
}

/* ---- labels, scales and the header ----------------------------------------------- */

void pd_set_title(const pd_ctx *c, dm_plot_meta *m, const char *what)
{
    snprintf(m->title, sizeof m->title, "%s - %s run %lld of %s on %s, %.10s", what,
             c->run.workload, (long long)c->run.id, c->run.sweep,
             c->run.card[0] ? c->run.card : "no GPU", c->run.started);
}

void pd_scale(double lo, double hi, int pow2, int *log, char *format, size_t n)
{
    *log = 0;
    format[0] = '\0';
    if (lo > 0 && hi / lo >= 8) {
        *log = pow2 ? 2 : 10;
        if (pow2)
            snprintf(format, n, "%s", hi >= 16384 ? "%.0b%B" : "%.0f");
        else
            snprintf(format, n, "%s", hi >= 10000 ? "%.0s%c" : "%g");
    }
}

void pd_param_label(const pd_ctx *c, const char *name, char *out, size_t n)
{
    const dm_workload *w = registry_workload(c->run.workload, NULL);
    const dm_param_spec *spec = w ? registry_param(w, NULL, name) : NULL;
    for (const dm_variant *v = w ? w->variants : NULL; v && v->name && !spec; v++)
        spec = registry_param(w, v, name);
    if (spec && spec->help)
        snprintf(out, n, "%s (%s)", name, spec->help);
    else
        snprintf(out, n, "%s", name);
}

void pd_header(const pd_ctx *c, const dm_plot_meta *m, const char *columns, FILE *out)
{
    fprintf(out, "# dmbench plot %s: %s\n", c->kind->name, m->title);
    if (c->o->command)
        fprintf(out, "# command: %s\n", c->o->command);
    fprintf(out, "# run %lld: sweep %s, workload %s, started %s\n", (long long)c->run.id,
            c->run.sweep, c->run.workload, c->run.started);
    if (c->run.card[0])
        fprintf(out, "# card: %s (cc %s)\n", c->run.card, c->run.cc);
    else
        fprintf(out, "# card: none (run without a GPU)\n");
    if (m->subtitle[0])
        fprintf(out, "# %s\n", m->subtitle);
    fprintf(out, "# x: %s\n# y: %s\n# columns: %s\n", m->xlabel, m->ylabel, columns);
    fprintf(out, "# gnuplot settings: series=%d; fits=%d; logx=%d; logy=%d; xformat='%s'; "
            "yformat='%s'\n", m->series, m->fits, m->logx, m->logy, m->xformat, m->yformat);
    fprintf(out, "# %d series of points", m->series);
    if (m->fits)
        fprintf(out, ", then %d fitted curves", m->fits);
    fprintf(out, "; one gnuplot index each, opening with its title\n");
}

/* The range of x and whether every x is a power of two (for the x scale). */
static void x_range(const pd_rows *rows, double *lo, double *hi, int *pow2)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *pow2 = 1;
    for (size_t i = 0; i < rows->n; i++) {
        double x = rows->r[i].x;
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
        int e;
        *pow2 &= x > 0 && frexp(x, &e) == 0.5;
    }
}

/* The range of value column j over rows. */
static void v_range(const pd_rows *rows, int j, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < rows->n; i++)
        if (isfinite(rows->r[i].v[j])) {
            *lo = fmin(*lo, rows->r[i].v[j]);
            *hi = fmax(*hi, rows->r[i].v[j]);
        }
}

/* Chooses the scales of rows and writes them as series. The y tics take ylog_format on
 * a log scale and ylin_format on a linear one (NULL: gnuplot's or pd_scale's). */
static int write_series(pd_ctx *c, pd_rows *rows, int nv, const char *columns,
                        const char *ylog_format, const char *ylin_format, FILE *out,
                        dm_plot_meta *m, dm_err *err)
{
    if (rows->n) {
        double lo, hi;
        int pow2;
        x_range(rows, &lo, &hi, &pow2);
        pd_scale(lo, hi, pow2, &m->logx, m->xformat, sizeof m->xformat);
        v_range(rows, 0, &lo, &hi);
        pd_scale(lo, hi, 0, &m->logy, m->yformat, sizeof m->yformat);
        const char *yf = m->logy ? ylog_format : ylin_format;
        if (yf)
            snprintf(m->yformat, sizeof m->yformat, "%s", yf);
    }
    return pd_series_write(c, rows, nv, columns, out, m, err);
}

/* Reads rows with sql and writes them as series (see write_series). */
static int export_series(pd_ctx *c, const char *sql, int nv, const char *columns,
                         const char *ylog_format, const char *ylin_format, FILE *out,
                         dm_plot_meta *m, dm_err *err)
{
    pd_rows rows = { 0 };
    int rc = pd_rows_read(c, sql, nv, &rows, err);
    if (rc == 0)
        rc = write_series(c, &rows, nv, columns, ylog_format, ylin_format, out, m, err);
    pd_rows_free(&rows);
    return rc;
}

/* The subtitle of plots whose series keep each variant's fastest configuration. */
static void fastest_subtitle(const pd_ctx *c, dm_plot_meta *m)
{
    if (c->o->by)
        snprintf(m->subtitle, sizeof m->subtitle, "each variant at its fastest configuration "
                 "for each %s", c->o->by);
    else
        snprintf(m->subtitle, sizeof m->subtitle, "each variant at its fastest configuration");
}

/* ---- the plots ------------------------------------------------------------------- */

/* Columns of every point query: variant, params, key, x, order, values; the axis's
 * value joined as x (v_speedup holds ok points only; the summary needs the filter). */
#define PD_AXIS_JOIN                                                                    \
    " JOIN point_params x ON x.point_id = s.point_id AND x.name = ?2"                    \
    " WHERE s.run_id = ?1 AND x.value_num IS NOT NULL"

static int export_time(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    static const char sql[] =
        "SELECT s.variant, s.params, s.params, x.value_num, s.median, s.median, s.q1, s.q3"
        " FROM v_point_summary s" PD_AXIS_JOIN " AND s.status = 'ok' AND s.median > 0";
    char what[160], columns[160];
    snprintf(what, sizeof what, "Median time per execution vs %s", c->axis);
    pd_set_title(c, m, what);
    pd_param_label(c, c->axis, m->xlabel, sizeof m->xlabel);
    snprintf(m->ylabel, sizeof m->ylabel, "time per execution, median (bars: Q1 to Q3)");
    snprintf(columns, sizeof columns, "%s median_s q1_s q3_s", c->axis);
    return export_series(c, sql, 3, columns, "%.0s %cs", "%.2s %cs", out, m, err);
}

static int export_speedup(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    static const char sql[] =
        "SELECT s.variant, p.params, s.problem_key, x.value_num, s.median, s.speedup,"
        " s.median, s.baseline_median"
        " FROM v_speedup s JOIN points p ON p.id = s.point_id" PD_AXIS_JOIN
        " AND s.speedup IS NOT NULL AND s.median > 0 AND s.variant <> s.baseline";
    if (!c->run.baseline[0])
        return dm_err_set(err, DM_EINPUT, "run %lld has no baseline variant (the sweep's "
                          "'baseline:'), so no speedups", (long long)c->run.id);
    char what[160], columns[160];
    snprintf(what, sizeof what, "Speedup over %s vs %s", c->run.baseline, c->axis);
    pd_set_title(c, m, what);
    pd_param_label(c, c->axis, m->xlabel, sizeof m->xlabel);
    snprintf(m->ylabel, sizeof m->ylabel, "speedup over %s (x, its median time / the "
             "variant's)", c->run.baseline);
    snprintf(m->baseline, sizeof m->baseline, "%s", c->run.baseline);
    fastest_subtitle(c, m);
    snprintf(columns, sizeof columns, "%s speedup median_s baseline_median_s", c->axis);
    return export_series(c, sql, 3, columns, NULL, NULL, out, m, err);
}

/* Divides value 0 of rows by the power of 1000 that brings their largest below 1000
 * (up to 10^12); returns its SI prefix ("" for none). */
static const char *si_scale(pd_rows *rows)
{
    static const char *const prefixes[] = { "", "k", "M", "G", "T" };
    double hi = 0, div = 1;
    int k = 0;
    for (size_t i = 0; i < rows->n; i++)
        hi = isfinite(rows->r[i].v[0]) ? fmax(hi, rows->r[i].v[0]) : hi;
    while (hi / div >= 1000 && k < 4)
        div *= 1000, k++;
    for (size_t i = 0; i < rows->n; i++)
        rows->r[i].v[0] /= div;
    return prefixes[k];
}

static int export_throughput(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    static const char gb_sql[] =
        "SELECT s.variant, s.params, s.problem_key, x.value_num, s.median, s.gb_per_s, s.median"
        " FROM v_point_summary s" PD_AXIS_JOIN " AND s.status = 'ok' AND s.gb_per_s IS NOT NULL";
    static const char ops_sql[] =
        "SELECT s.variant, s.params, s.problem_key, x.value_num, s.median, s.ops_per_s, s.median"
        " FROM v_point_summary s" PD_AXIS_JOIN " AND s.status = 'ok' AND s.ops_per_s IS NOT NULL";
    sqlite3 *db = store_db(c->st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db, "SELECT count(gb_per_s), count(ops_per_s), max(ops_unit)"
                               " FROM v_point_summary WHERE run_id = ?1 AND status = 'ok'",
                           -1, &q, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(q, 1, c->run.id) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW) {
        int rc = dm_err_set(err, DM_ERUNTIME, "reading throughputs: %s", sqlite3_errmsg(db));
        sqlite3_finalize(q);
        return rc;
    }
    int gb = sqlite3_column_int(q, 0) > 0, ops = sqlite3_column_int(q, 1) > 0;
    char unit[64];
    snprintf(unit, sizeof unit, "%s", ops ? (const char *)sqlite3_column_text(q, 2) : "");
    sqlite3_finalize(q);
    if (!gb && !ops)
        return dm_err_set(err, DM_EINPUT, "run %lld records no work per execution (bytes or "
                          "ops), so no throughput", (long long)c->run.id);
    char what[160], columns[160];
    snprintf(what, sizeof what, "Throughput vs %s", c->axis);
    pd_set_title(c, m, what);
    pd_param_label(c, c->axis, m->xlabel, sizeof m->xlabel);
    fastest_subtitle(c, m);
    pd_rows rows = { 0 };
    int rc = pd_rows_read(c, ops ? ops_sql : gb_sql, 2, &rows, err);
    if (rc == 0 && ops) { /* the workload's own work: "Gsteps/s", in those units */
        const char *prefix = si_scale(&rows);
        snprintf(m->ylabel, sizeof m->ylabel, "throughput, %s%s/s (%s per median time)", prefix,
                 unit, unit);
        snprintf(columns, sizeof columns, "%s %s%s_per_s median_s", c->axis, prefix, unit);
    } else {
        snprintf(m->ylabel, sizeof m->ylabel, "throughput, GB/s (ideal bytes moved / median time)");
        snprintf(columns, sizeof columns, "%s gb_per_s median_s", c->axis);
    }
    if (rc == 0)
        rc = write_series(c, &rows, 2, columns, NULL, NULL, out, m, err);
    pd_rows_free(&rows);
    return rc;
}

static int export_occupancy(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    /* one series per variant, kernel and other parameters; launches of one point at one
     * block size keep the first (order: launch index) */
    static const char sql[] =
        "SELECT s.variant, p.params, p.params || ',kernel=' || s.kernel, x.value_num,"
        " s.launch_index, s.achieved_occupancy, s.predicted_occupancy"
        " FROM v_occupancy s JOIN points p ON p.id = s.point_id" PD_AXIS_JOIN
        " AND s.achieved_occupancy IS NOT NULL";
    char what[160], columns[160];
    snprintf(what, sizeof what, "Achieved (points) vs predicted (dashed) occupancy vs %s", c->axis);
    pd_set_title(c, m, what);
    pd_param_label(c, c->axis, m->xlabel, sizeof m->xlabel);
    snprintf(m->ylabel, sizeof m->ylabel, "occupancy (%% of the SM's warp slots)");
    snprintf(columns, sizeof columns, "%s achieved_pct predicted_pct", c->axis);
    int rc = export_series(c, sql, 2, columns, NULL, NULL, out, m, err);
    if (rc == DM_EINPUT)
        dm_err_prefix(err, "run %lld has no achieved occupancy (run with --metrics occupancy)",
                      (long long)c->run.id);
    m->logy = 0;
    m->yformat[0] = '\0';
    return rc;
}

/* The metrics of the run's launches ("a, b"), for error messages. */
static void metric_names(pd_ctx *c, char *out, size_t n)
{
    sqlite3_stmt *q = NULL;
    out[0] = '\0';
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT DISTINCT metric FROM v_launch_metrics"
                           " WHERE run_id = ?1 AND value IS NOT NULL ORDER BY metric", -1, &q,
                           NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(q, 1, c->run.id);
    while (sqlite3_step(q) == SQLITE_ROW) {
        size_t used = strlen(out);
        snprintf(out + used, n - used, "%s%s", used ? ", " : "", sqlite3_column_text(q, 0));
    }
    sqlite3_finalize(q);
}

static int export_metric(pd_ctx *c, FILE *out, dm_plot_meta *m, dm_err *err)
{
    char names[1024], unit[32] = "";
    metric_names(c, names, sizeof names);
    if (!c->o->metric)
        return dm_err_set(err, DM_EINPUT, "metric-vs-axis needs --metric NAME (run %lld has: %s)",
                          (long long)c->run.id, names[0] ? names : "no metric values");
    /* every launch's value; a point's launches of one kernel keep the first */
    char *sql = sqlite3_mprintf(
        "SELECT s.variant, s.params, s.params || ',kernel=' || s.kernel, x.value_num,"
        " s.launch_index, s.value, coalesce(s.unit, '')"
        " FROM v_launch_metrics s" PD_AXIS_JOIN " AND s.metric = %Q AND s.value IS NOT NULL",
        c->o->metric);
    if (!sql)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT unit FROM v_launch_metrics WHERE run_id = ?1"
                           " AND metric = ?2 AND unit IS NOT NULL LIMIT 1", -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(q, 1, c->run.id);
        sqlite3_bind_text(q, 2, c->o->metric, -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW)
            snprintf(unit, sizeof unit, "%s", (const char *)sqlite3_column_text(q, 0));
    }
    sqlite3_finalize(q);
    char what[160], columns[160];
    snprintf(what, sizeof what, "%s vs %s", c->o->metric, c->axis);
    pd_set_title(c, m, what);
    pd_param_label(c, c->axis, m->xlabel, sizeof m->xlabel);
    snprintf(m->ylabel, sizeof m->ylabel, unit[0] ? "%s (%s, per launch)" : "%s%s (per launch)",
             c->o->metric, unit);
    snprintf(columns, sizeof columns, "%s %s", c->axis, c->o->metric);
    int rc = export_series(c, sql, 1, columns, NULL, NULL, out, m, err);
    sqlite3_free(sql);
    if (rc == DM_EINPUT)
        dm_err_set(err, DM_EINPUT, "run %lld has no values of metric '%s' with %s (it has: %s)",
                   (long long)c->run.id, c->o->metric, c->axis, names[0] ? names : "none");
    return rc;
}

const dm_plot_kind plotdata_kinds[] = {
    { .name = "time-vs-block", .axis = "block", .export = export_time,
      .summary = "median time (Q1..Q3 bars) vs threads per block, a line per variant and "
                 "other parameters" },
    { .name = "speedup-vs-size", .export = export_speedup, .by = 1,
      .summary = "speedup over the run's baseline vs a problem-size axis, per variant" },
    { .name = "throughput-vs-size", .export = export_throughput, .by = 1,
      .summary = "the workload's ops/s (else GB/s) vs a problem-size axis, per variant "
                 "(and --by parameter)" },
    { .name = "occupancy-vs-block", .axis = "block", .export = export_occupancy,
      .summary = "achieved occupancy (CUPTI) and the runtime calculator's prediction vs "
                 "threads per block, per variant and kernel" },
    { .name = "metric-vs-axis", .export = export_metric,
      .summary = "a CUPTI metric (--metric) of every launch vs an axis, per variant and "
                 "kernel" },
    { .name = "timeline", .no_axis = 1, .export = pd_export_timeline,
      .summary = "the traced kernels and copies of one point (--where selects it) as a "
                 "Gantt chart, one row per stream" },
    { .name = "stage-times", .no_axis = 1, .export = pd_export_stages,
      .summary = "time per execution of each traced stage (kernel, copy direction), their "
                 "sum and the wall time, clustered per point" },
    { .name = "crossover", .export = pd_export_crossover,
      .summary = "crossover points of two variants per group (--group) with the a/N + b "
                 "and a*N + b fits" },
    { 0 },
};

const dm_plot_kind *plotdata_find(const char *name)
{
    for (const dm_plot_kind *k = plotdata_kinds; k->name; k++)
        if (!strcmp(k->name, name))
            return k;
    return NULL;
}

int plotdata_export(dm_store *st, const dm_plot_kind *k, const dm_plot_opts *o, FILE *out,
                    dm_plot_meta *m, dm_err *err)
{
    pd_ctx c = { .st = st, .kind = k, .o = o };
    int rc;
    memset(m, 0, sizeof *m);
    for (int i = 0; i < o->nwhere; i++)
        if (!strchr(o->where[i], '=') || o->where[i][0] == '=')
            return dm_err_set(err, DM_EINPUT, "--where %s: expected NAME=VALUE", o->where[i]);
    if ((rc = read_run(&c, err)) || (rc = resolve_axis(&c, err)) || (rc = check_by(&c, err)))
        return rc;
    m->run_id = c.run.id;
    snprintf(m->card, sizeof m->card, "%s", c.run.card);
    if ((rc = k->export(&c, out, m, err)))
        return rc;
    if (fflush(out) != 0 || ferror(out))
        return dm_err_set(err, DM_ERUNTIME, "writing the data of plot %s failed", k->name);
    return 0;
}
