/* report_characterize.c - judged claims written out, in one writer (report_claims) that
 * the report's characterization section, `dmbench characterize` and reproduce's figures
 * share; the section itself: for every registered workload whose study has claims, each
 * card with a complete run of a sweep they read, its verdicts and evidence; and a run's
 * verdicts alone for its headline (report_run_verdicts). */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "registry.h"
#include "report_int.h"

#define MAX_CARDS 16

typedef struct card_sweep {
    char card[128];
    int sweep; /* index into the study's claim_sweeps */
} card_sweep;

/* The index of sweep in s->claim_sweeps, or -1. */
static int sweep_index(const dm_study *s, const char *sweep)
{
    for (int k = 0; s->claim_sweeps[k]; k++)
        if (strcmp(s->claim_sweeps[k], sweep) == 0)
            return k;
    return -1;
}

/* The cards of the report's complete GPU runs of w's claim sweeps, each with its
 * preferred sweep, in the order of their first run, into cards (at most MAX_CARDS; *more
 * counts the runs of cards past those); *has: whether any of the report's runs is of w.
 * Returns 0 or DM_ERUNTIME. */
static int find_cards(const dm_report_ctx *c, const dm_workload *w, card_sweep *cards, int *n,
                      int *more, int *has, dm_err *err)
{
    const dm_study *s = w->study;
    sqlite3_stmt *q = NULL;
    int rc = SQLITE_DONE;
    *n = *more = *has = 0;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT gpu_name, sweep_name, status = 'complete'"
                           " AND gpu_name IS NOT NULL, workload = ?2 FROM runs WHERE id = ?1",
                           -1, &q, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_text(q, 2, w->name, -1, SQLITE_STATIC);
    for (size_t i = 0; i < c->nruns; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, c->runs[i]);
        if ((rc = sqlite3_step(q)) != SQLITE_ROW) {
            if (rc != SQLITE_DONE)
                goto fail;
            continue;
        }
        *has |= sqlite3_column_int(q, 3);
        if (!sqlite3_column_int(q, 2))
            continue;
        const char *card = (const char *)sqlite3_column_text(q, 0);
        const char *sweep = (const char *)sqlite3_column_text(q, 1);
        int k = sweep ? sweep_index(s, sweep) : -1, j = 0;
        if (k < 0)
            continue;
        while (j < *n && strcmp(cards[j].card, card))
            j++;
        if (j < *n) {
            cards[j].sweep = k < cards[j].sweep ? k : cards[j].sweep;
        } else if (*n < MAX_CARDS) {
            snprintf(cards[j].card, sizeof cards[j].card, "%s", card);
            cards[(*n)++].sweep = k;
        } else {
            ++*more; /* a card past MAX_CARDS counts once per run */
        }
    }
    sqlite3_finalize(q);
    return 0;
fail:
    sqlite3_finalize(q);
    return dm_err_set(err, DM_ERUNTIME, "%s: finding the runs the claims read: %s",
                      store_path(c->st), sqlite3_errmsg(store_db(c->st)));
}

/* The table of claims cls[0..n) with their verdicts res. */
static void verdict_table(dm_report_doc *d, const dm_claim *const *cls,
                          const dm_claim_result *res, int n)
{
    report_table_begin(d, 3, (const char *[]){ "claim", "paper", "verdict" });
    for (int k = 0; k < n; k++) {
        char claim[256], line[32];
        snprintf(claim, sizeof claim, "%s: %s", cls[k]->id, cls[k]->title);
        snprintf(line, sizeof line, "line %d", cls[k]->line);
        report_table_row(d, (const char *[]){ claim, line, study_verdict_name(res[k].verdict) });
    }
    report_table_end(d);
}

int report_claims(dm_report_doc *d, int level, const chz_ctx *x, const dm_study *s,
                  const dm_claim *const *cls, const dm_claim_result *res, int n, dm_err *err)
{
    char lines[CHZ_METRIC_TEXT];
    verdict_table(d, cls, res, n);
    for (int k = 0; k < n; k++) {
        const dm_claim *cl = cls[k];
        char heading[256];
        snprintf(heading, sizeof heading, "%s: %s - %s", cl->id, cl->title,
                 study_verdict_name(res[k].verdict));
        report_heading(d, level, NULL, heading);
        report_para(d, "Paper (heading line %d), line %d: \"%s\"", cl->line, cl->quote_line,
                    cl->wording);
        report_para(d, "Measured: %s", res[k].evidence);
        if (res[k].hardware[0])
            report_para(d, "What changed in the hardware: %s", res[k].hardware);
        if (chz_metric_lines(x, s, cl, &res[k], lines, sizeof lines, err))
            return err->code;
        for (const char *l = lines; *l;) {
            size_t len = strcspn(l, "\n");
            report_para(d, "%.*s", (int)len, l);
            l += len + (l[len] == '\n');
        }
    }
    return 0;
}

/* Judges every claim of s on x's stores into res and cls (n of them) and counts. Returns
 * 0 or the first failing rule's status. */
static int judge_all(const chz_ctx *x, const dm_study *s, dm_claim_result *res,
                     const dm_claim **cls, int *n, int counts[DM_NVERDICTS], dm_err *err)
{
    *n = 0;
    if (chz_check(x, s, res, counts, err))
        return err->code;
    for (const dm_claim *cl = s->claims; cl->id && *n < CHZ_MAX_CLAIMS; cl++)
        cls[(*n)++] = cl;
    return 0;
}

int report_characterize_write(FILE *out, const chz_ctx *x, const dm_study *s,
                              const char *title, const char *preamble,
                              int counts[DM_NVERDICTS], dm_err *err)
{
    dm_claim_result res[CHZ_MAX_CLAIMS];
    const dm_claim *cls[CHZ_MAX_CLAIMS];
    dm_report_doc d = { .md = out };
    int n;
    if (judge_all(x, s, res, cls, &n, counts, err))
        return err->code;
    fprintf(out, "## %s\n\n%s\n", title, preamble);
    return report_claims(&d, 3, x, s, cls, res, n, err);
}

/* Judges every claim of workload w on one card and writes its verdicts and evidence.
 * Returns 0 or the first failing rule's status. */
static int characterize_card(const dm_report_ctx *c, const dm_workload *w,
                             const card_sweep *cs, dm_err *err)
{
    const dm_study *s = w->study;
    chz_ctx x = { .st = { c->st }, .nst = 1, .card = cs->card,
                  .sweep = s->claim_sweeps[cs->sweep] };
    dm_claim_result res[CHZ_MAX_CLAIMS];
    const dm_claim *cls[CHZ_MAX_CLAIMS];
    chz_run run;
    char title[256], counted[128];
    int counts[DM_NVERDICTS], n;
    if (judge_all(&x, s, res, cls, &n, counts, err) ||
        chz_latest_run(&x, x.sweep, x.card, &run, err))
        return err->code;
    study_counts_text(counts, counted, sizeof counted);
    snprintf(title, sizeof title, "%s on the %s", w->name, x.card);
    report_heading(c->doc, 3, NULL, title);
    report_para(c->doc, "Judged on the latest complete run of %s on this card in the "
                "database (started %s; compute capability %s, %d SMs): %s.", x.sweep,
                run.started, run.cc, run.sms, counted);
    return report_claims(c->doc, 4, &x, s, cls, res, n, err);
}

/* "a, b or c" of the study's claim sweeps into buf. */
static void sweeps_text(const dm_study *s, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int k = 0; s->claim_sweeps[k]; k++)
        dm_append(buf, n, "%s%s", k == 0 ? "" : s->claim_sweeps[k + 1] ? ", " : " or ",
                  s->claim_sweeps[k]);
}

/* The section's part for workload w: its cards' verdicts, or why there are none; nothing
 * when none of the report's runs is of w (*wrote 0). */
static int characterize_workload(const dm_report_ctx *c, const dm_workload *w, int *wrote,
                                 dm_err *err)
{
    const dm_study *s = w->study;
    card_sweep cards[MAX_CARDS];
    char sweeps[512], crossing[128] = "";
    int n, more, has, rc = find_cards(c, w, cards, &n, &more, &has, err);
    if (rc)
        return rc;
    *wrote = n > 0 || has;
    if (!*wrote)
        return 0;
    sweeps_text(s, sweeps, sizeof sweeps);
    if (n == 0) {
        report_para(c->doc, "None of the report's runs is a complete GPU run of %s, the "
                    "sweeps whose medians %s's claims are judged on (dmbench characterize "
                    "%s).", sweeps, w->name, w->name);
        return 0;
    }
    for (const dm_claim *cl = s->claims; cl->id; cl++)
        if (cl->cross_card)
            dm_append(crossing, sizeof crossing, "%s%s", crossing[0] ? ", " : "", cl->id);
    report_para(c->doc, "%s: %s (%s), judged as dmbench characterize %s does, for each card "
                "with a complete run of %s (the first preferred) among the report's runs.%s%s%s",
                w->name, s->claims_title, s->papers[0].cite, w->name, sweeps,
                crossing[0] ? " The claims that compare cards (" : "", crossing,
                crossing[0] ? ") read the other cards of this database only, and are not "
                              "measurable here when it has none." : "");
    if (more)
        report_para(c->doc, "The runs of cards after the first %d (%d run%s) are left out.",
                    MAX_CARDS, more, more == 1 ? "" : "s");
    for (int i = 0; i < n && rc == 0; i++)
        rc = characterize_card(c, w, &cards[i], err);
    return rc;
}

int report_run_verdicts(const dm_report_ctx *c, int64_t run, dm_err *err)
{
    chz_ctx x = { .st = { c->st }, .nst = 1 };
    chz_run r, latest;
    dm_claim_result res[CHZ_MAX_CLAIMS];
    const dm_claim *cls[CHZ_MAX_CLAIMS];
    char sweep[128], counted[128];
    int counts[DM_NVERDICTS], n, k = -1;
    if (chz_read_run(&x, 0, run, &r, sweep, sizeof sweep, err))
        return err->code;
    if (!r.id || !r.gpu[0])
        return 0;
    const dm_workload *const *w = registry_workloads();
    for (; *w && k < 0; w++)
        k = (*w)->study && (*w)->study->claims ? sweep_index((*w)->study, sweep) : -1;
    if (k < 0)
        return 0;
    const dm_study *s = w[-1]->study;
    x.card = r.gpu;
    x.sweep = s->claim_sweeps[k];
    if (judge_all(&x, s, res, cls, &n, counts, err) ||
        chz_latest_run(&x, x.sweep, x.card, &latest, err))
        return err->code;
    study_counts_text(counts, counted, sizeof counted);
    report_para(c->doc, "The claims of %s (%s) that %s feeds, judged on the latest complete "
                "run of it on this card (run %lld): %s.", s->claims_title, s->papers[0].cite,
                x.sweep, (long long)latest.id, counted);
    verdict_table(c->doc, cls, res, n);
    report_para_link(c->doc, "Each claim's words and evidence:", "characterization",
                     "Characterization");
    return 0;
}

int report_characterize(const dm_report_ctx *c, dm_err *err)
{
    int rc = 0, any = 0, written = 0, wrote;
    char names[256] = "";
    for (const dm_workload *const *w = registry_workloads(); *w && rc == 0; w++)
        if ((*w)->study && (*w)->study->claims) {
            any = 1;
            dm_append(names, sizeof names, "%s%s", names[0] ? ", " : "", (*w)->name);
            rc = characterize_workload(c, *w, &wrote, err);
            written += wrote;
        }
    if (!any)
        report_para(c->doc, "No workload of this build has published claims to judge.");
    else if (rc == 0 && !written)
        report_para(c->doc, "None of the report's runs is of a workload whose papers' claims "
                    "are judged (%s).", names);
    return rc;
}
