/* report_tune.c - the report's tuning section: for each workload of the reported runs,
 * tune_compute over the whole database (results/tune.h) and a table of the chosen block
 * size per card, variant and problem bucket, with the best and the ties. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "report_int.h"
#include "samples.h"
#include "tune.h"

/* Writes one workload's choices. Returns 0 or tune_compute's error. */
static int tune_workload(const dm_report_ctx *c, const char *workload, dm_err *err)
{
    dm_tune_opts o = { .workload = workload, .axis = "block", .alpha = 0.05, .tolerance = 0.01 };
    dm_tune_result r = { 0 };
    int rc = tune_compute(c->st, &o, &r, err);
    if (rc)
        return rc;
    report_heading(c->doc, 3, NULL, workload);
    if (r.n == 0) {
        report_para(c->doc, "No ok GPU points with parameter '%s': nothing to tune.", o.axis);
        goto done;
    }
    size_t single = 0; /* buckets measured at one block size: nothing to choose between */
    for (size_t i = 0; i < r.n; i++)
        single += !tune_is_choice(&r.c[i]);
    if (single == r.n) {
        report_para(c->doc, "Each of the %zu buckets was measured at one %s only: nothing to "
                    "choose between.", r.n, o.axis);
        goto done;
    }
    if (single)
        report_para(c->doc, "%zu bucket%s measured at one %s only %s left out.", single,
                    single == 1 ? "" : "s", o.axis, single == 1 ? "is" : "are");
    report_table_begin(c->doc, 8, (const char *[]){ "card", "cc", "variant", "bucket", "chosen block",
                                                    "its median", "fastest (median)", "ties (block)" });
    for (size_t i = 0; i < r.n; i++) {
        const dm_tune_choice *ch = &r.c[i];
        if (!tune_is_choice(ch))
            continue;
        const dm_tune_cand *chosen = &ch->cand[ch->chosen], *best = &ch->cand[ch->best];
        char blk[24], med[24], bmed[24], fastest[64], ties[512] = "";
        snprintf(blk, sizeof blk, "%lld", (long long)chosen->block);
        samples_fmt_seconds(chosen->median, med, sizeof med);
        samples_fmt_seconds(best->median, bmed, sizeof bmed);
        snprintf(fastest, sizeof fastest, "%lld (%s)", (long long)best->block, bmed);
        for (size_t k = 0; k < ch->ncand; k++) {
            size_t used = strlen(ties);
            if (ch->cand[k].tie && used < sizeof ties)
                snprintf(ties + used, sizeof ties - used, "%s%lld", used ? ", " : "",
                         (long long)ch->cand[k].block);
        }
        report_table_row(c->doc, (const char *[]){ ch->card, ch->cc, ch->variant,
                                                   ch->bucket[0] ? ch->bucket : "(all)", blk, med,
                                                   fastest, ties });
    }
    report_table_end(c->doc);
done:
    tune_free(&r);
    return 0;
}

int report_tuning(const dm_report_ctx *c, dm_err *err)
{
    sqlite3_stmt *s = NULL;
    char **names = NULL;
    size_t n = 0;
    int rc = 0, step;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT workload FROM runs WHERE id = ?1"
                           " AND workload IS NOT NULL", -1, &s, NULL) != SQLITE_OK)
        return dm_err_set(err, DM_ERUNTIME, "%s: reading the workloads: %s", store_path(c->st),
                          sqlite3_errmsg(store_db(c->st)));
    report_para(c->doc, "The block size with the lowest median per card, variant and problem "
                "bucket, over every run of the workload in the database; block sizes whose "
                "samples a Mann-Whitney U test cannot tell from the fastest (p >= 0.05), or "
                "whose median is within 1%% of it, are ties, and the smallest tie is chosen.");
    for (size_t i = 0; i < c->nruns && rc == 0; i++) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, c->runs[i]);
        if ((step = sqlite3_step(s)) != SQLITE_ROW) {
            if (step != SQLITE_DONE)
                rc = dm_err_set(err, DM_ERUNTIME, "%s: reading the workloads: %s",
                                store_path(c->st), sqlite3_errmsg(store_db(c->st)));
            continue;
        }
        const char *w = (const char *)sqlite3_column_text(s, 0);
        size_t j = 0;
        while (j < n && strcmp(names[j], w) != 0)
            j++;
        if (j < n)
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *grown);
        if (!grown || !(grown[n] = strdup(w))) {
            names = grown ? grown : names;
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory listing the workloads");
            break;
        }
        names = grown;
        rc = tune_workload(c, names[n++], err);
    }
    sqlite3_finalize(s);
    for (size_t j = 0; j < n; j++)
        free(names[j]);
    free(names);
    return rc;
}
