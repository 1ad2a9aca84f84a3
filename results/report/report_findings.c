/* report_findings.c - the report's first section: for each run, a headline block (its
 * card, what its points came to, the fastest variant per problem, the points not
 * measured and why, the verdicts of the claims its sweep feeds) with the run's plots
 * beside it in HTML (below it in markdown), and a link to its fingerprint and every
 * point in the runs section. */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"

enum {
    F_SWEEP, F_WORKLOAD, F_GPU, F_CC, F_SMS, F_NOGPU, F_STATUS, F_STARTED, F_BASELINE, F_OK,
    F_FAILED, F_SKIPPED, F_PRUNED,
};

static const char *col(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NULL : (const char *)sqlite3_column_text(s, i);
}

/* The card and what the run's points came to, from run row r. */
static void headline_run(const dm_report_ctx *c, sqlite3_stmt *r)
{
    long long ok = sqlite3_column_int64(r, F_OK), failed = sqlite3_column_int64(r, F_FAILED),
              skipped = sqlite3_column_int64(r, F_SKIPPED),
              pruned = sqlite3_column_int64(r, F_PRUNED);
    char card[512], pr[96] = "";
    if (col(r, F_GPU))
        snprintf(card, sizeof card, "Card: %s, cc %s, %lld SMs.", col(r, F_GPU),
                 col(r, F_CC) ? col(r, F_CC) : "?", (long long)sqlite3_column_int64(r, F_SMS));
    else
        snprintf(card, sizeof card, "No GPU: %s.", col(r, F_NOGPU) ? col(r, F_NOGPU) : "not recorded");
    report_para(c->doc, "%s Run %s, started %s.", card, col(r, F_STATUS), col(r, F_STARTED));
    if (pruned)
        snprintf(pr, sizeof pr, "; %lld more pruned by the sweep's constraints", pruned);
    report_para(c->doc, "%lld point%s: %lld ok, %lld failed, %lld skipped%s.",
                ok + failed + skipped, ok + failed + skipped == 1 ? "" : "s", ok, failed, skipped,
                pr);
}

/* Run id's findings: the heading, the headline, the plots. Returns 0 or a dm_err code. */
static int finding(const dm_report_ctx *c, report_plotter *ps, sqlite3_stmt *r, int64_t id,
                   dm_err *err)
{
    char title[512], anchor[48], link[48];
    int rc;
    snprintf(title, sizeof title, "Run %lld: %s (%s)", (long long)id,
             col(r, F_SWEEP) ? col(r, F_SWEEP) : "-", col(r, F_WORKLOAD) ? col(r, F_WORKLOAD) : "-");
    snprintf(anchor, sizeof anchor, "finding-run-%lld", (long long)id);
    snprintf(link, sizeof link, "run-%lld", (long long)id);
    report_heading(c->doc, 3, anchor, title);
    report_div_begin(c->doc, "finding");
    report_div_begin(c->doc, "headline");
    headline_run(c, r);
    if ((rc = report_fastest(c, id, col(r, F_BASELINE), err)) ||
        (rc = report_scaling(c, id, err)) || (rc = report_unmeasured(c, id, err)) || (rc = report_run_verdicts(c, id, err)))
        return rc;
    report_para_link(c->doc, "Its fingerprint and every point:", link, "the run's details");
    report_div_end(c->doc);
    report_div_begin(c->doc, "figs");
    rc = report_run_plots(c, ps, id, err);
    report_div_end(c->doc);
    report_div_end(c->doc);
    return rc;
}

int report_findings(const dm_report_ctx *c, dm_err *err)
{
    report_plotter ps;
    sqlite3_stmt *r = NULL;
    int rc = report_plots_open(c, &ps, err);
    if (rc)
        return rc;
    if (sqlite3_prepare_v2(store_db(c->st),
            "SELECT sweep_name, workload, gpu_name, gpu_cc, gpu_sms, no_gpu_reason, status,"
            " started_at, baseline,"
            " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'ok'),"
            " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'failed'),"
            " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'skipped'),"
            " (SELECT count(*) FROM points p WHERE p.run_id = r.id AND p.status = 'pruned')"
            " FROM runs r WHERE r.id = ?1", -1, &r, NULL) != SQLITE_OK)
        goto fail;
    for (size_t i = 0; i < c->nruns && rc == 0; i++) {
        sqlite3_reset(r);
        if (sqlite3_bind_int64(r, 1, c->runs[i]) != SQLITE_OK || sqlite3_step(r) != SQLITE_ROW)
            goto fail;
        rc = finding(c, &ps, r, c->runs[i], err);
    }
    sqlite3_finalize(r);
    return rc;
fail:
    rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the runs' findings: %s", store_path(c->st),
                    sqlite3_errmsg(store_db(c->st)));
    sqlite3_finalize(r);
    return rc;
}
