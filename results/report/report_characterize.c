/* report_characterize.c - the report's characterization section: for each card with a
 * complete run of a sweep the tdm claims read, the eight claims of chz_tdm_claims checked
 * (chz_check) on this database, a verdict table, and each claim's words and evidence. */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "characterize.h"
#include "report_int.h"

/* The sweeps the tdm claims read, in order of preference when a card has several. */
static const char *const tdm_sweeps[] = { CHZ_TDM_SWEEP, "tdm-fig6", "tdm-fig9" };
#define NSWEEPS ((int)(sizeof tdm_sweeps / sizeof tdm_sweeps[0]))
#define MAX_CARDS 16

typedef struct card_sweep {
    char card[128];
    int sweep; /* index into tdm_sweeps */
} card_sweep;

/* The cards of the report's complete runs of tdm_sweeps, each with its preferred sweep,
 * in the order of their first run, into cards (at most MAX_CARDS; *more counts the cards
 * past those). Returns 0 or DM_ERUNTIME. */
static int find_cards(const dm_report_ctx *c, card_sweep *cards, int *n, int *more, dm_err *err)
{
    sqlite3_stmt *q = NULL;
    int rc = SQLITE_DONE;
    *n = *more = 0;
    if (sqlite3_prepare_v2(store_db(c->st), "SELECT gpu_name, sweep_name FROM runs WHERE id = ?1"
                           " AND status = 'complete' AND gpu_name IS NOT NULL"
                           " AND sweep_name IN (?2, ?3, ?4)", -1, &q, NULL) != SQLITE_OK)
        goto fail;
    for (int k = 0; k < NSWEEPS; k++)
        sqlite3_bind_text(q, k + 2, tdm_sweeps[k], -1, SQLITE_STATIC);
    for (size_t i = 0; i < c->nruns; i++) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, c->runs[i]);
        if ((rc = sqlite3_step(q)) != SQLITE_ROW) {
            if (rc != SQLITE_DONE)
                goto fail;
            continue;
        }
        const char *card = (const char *)sqlite3_column_text(q, 0);
        const char *sweep = (const char *)sqlite3_column_text(q, 1);
        int s = 0, j = 0;
        while (strcmp(tdm_sweeps[s], sweep))
            s++;
        while (j < *n && strcmp(cards[j].card, card))
            j++;
        if (j < *n) {
            cards[j].sweep = s < cards[j].sweep ? s : cards[j].sweep;
        } else if (*n < MAX_CARDS) {
            snprintf(cards[j].card, sizeof cards[j].card, "%s", card);
            cards[(*n)++].sweep = s;
        } else {
            ++*more; /* a card past MAX_CARDS counts once per run */
        }
    }
    sqlite3_finalize(q);
    return 0;
fail:
    sqlite3_finalize(q);
    return dm_err_set(err, DM_ERUNTIME, "%s: finding the tdm runs: %s", store_path(c->st),
                      sqlite3_errmsg(store_db(c->st)));
}

int report_claims(dm_report_doc *d, const chz_ctx *x, const chz_claim *const *cls,
                  const chz_result *res, int n, dm_err *err)
{
    char lines[CHZ_METRIC_TEXT];
    report_table_begin(d, 3, (const char *[]){ "claim", "paper", "verdict" });
    for (int k = 0; k < n; k++) {
        char claim[256], line[32];
        snprintf(claim, sizeof claim, "%s: %s", cls[k]->id, cls[k]->title);
        snprintf(line, sizeof line, "line %d", cls[k]->line);
        report_table_row(d, (const char *[]){ claim, line, chz_verdict_name(res[k].verdict) });
    }
    report_table_end(d);
    for (int k = 0; k < n; k++) {
        const chz_claim *cl = cls[k];
        char heading[256];
        snprintf(heading, sizeof heading, "%s: %s - %s", cl->id, cl->title,
                 chz_verdict_name(res[k].verdict));
        report_heading(d, 4, NULL, heading);
        report_para(d, "Paper (heading line %d), line %d: \"%s\"", cl->line, cl->quote_line,
                    cl->wording);
        report_para(d, "Measured: %s", res[k].evidence);
        if (res[k].hardware[0])
            report_para(d, "What changed in the hardware: %s", res[k].hardware);
        if (chz_metric_lines(x, cl, lines, sizeof lines, err))
            return err->code;
        for (const char *l = lines; *l;) {
            size_t len = strcspn(l, "\n");
            report_para(d, "%.*s", (int)len, l);
            l += len + (l[len] == '\n');
        }
    }
    return 0;
}

/* Checks every claim on one card and writes its verdicts and evidence. Returns 0 or the
 * first failing check's status. */
static int characterize_card(const dm_report_ctx *c, const card_sweep *cs, dm_err *err)
{
    chz_ctx x = { .st = { c->st }, .nst = 1, .card = cs->card, .sweep = tdm_sweeps[cs->sweep] };
    chz_result res[CHZ_MAX_CLAIMS];
    chz_point first;
    char title[256];
    int counts[3], k = 0;
    if (chz_check(&x, chz_tdm_claims, res, counts, err) ||
        chz_median(&x, x.card, x.sweep, "block-tex", 1, -1, &first, err))
        return err->code;
    snprintf(title, sizeof title, "tdm on the %s", x.card);
    report_heading(c->doc, 3, NULL, title);
    if (first.found)
        report_para(c->doc, "Judged on the latest complete run of %s on this card in the "
                    "database (started %s; compute capability %s, %d SMs): %d hold, %d do not "
                    "hold, %d not measurable here.", x.sweep, first.started, first.cc, first.sms,
                    counts[CHZ_HOLDS], counts[CHZ_BREAKS], counts[CHZ_UNMEASURED]);
    else
        report_para(c->doc, "Judged on the latest complete run of %s on this card in the "
                    "database: %d hold, %d do not hold, %d not measurable here.", x.sweep,
                    counts[CHZ_HOLDS], counts[CHZ_BREAKS], counts[CHZ_UNMEASURED]);
    const chz_claim *cls[CHZ_MAX_CLAIMS];
    for (const chz_claim *cl = chz_tdm_claims; cl->id && k < CHZ_MAX_CLAIMS; cl++)
        cls[k++] = cl;
    return report_claims(c->doc, &x, cls, res, k, err);
}

int report_characterize(const dm_report_ctx *c, dm_err *err)
{
    card_sweep cards[MAX_CARDS];
    int n, more, rc = find_cards(c, cards, &n, &more, err);
    if (rc)
        return rc;
    if (n == 0) {
        report_para(c->doc, "None of the report's runs is a complete GPU run of %s, %s or %s, "
                    "the sweeps whose medians the paper's eight tdm characterizations are "
                    "judged on (dmbench characterize tdm).", tdm_sweeps[0], tdm_sweeps[1],
                    tdm_sweeps[2]);
        return 0;
    }
    report_para(c->doc, "The eight characterizations of tdm by Archuleta et al. (IPDPS 2009) "
                "judged, as dmbench characterize tdm does, for each card with a complete run "
                "of %s (preferred), %s or %s among the report's runs. The claims that compare "
                "cards (C7, C8) read the other cards of this database only, and are not "
                "measurable here when it has none.", tdm_sweeps[0], tdm_sweeps[1],
                tdm_sweeps[2]);
    if (more)
        report_para(c->doc, "The runs of cards after the first %d (%d run%s) are left out.",
                    MAX_CARDS, more, more == 1 ? "" : "s");
    for (int i = 0; i < n && rc == 0; i++)
        rc = characterize_card(c, &cards[i], err);
    return rc;
}
