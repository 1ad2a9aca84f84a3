/* reproduce_summary.c - a target in a few lines, for the main job's closing screen
 * (`dmbench reproduce --main`): where it was measured, its headlines published against
 * measured, and its claims' verdicts. The full tables are in the report it points to. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reproduce.h"

/* The published row of t with this row key and column, or NULL. */
static const dm_pub_row *pub_cell(const dm_pub_table *pub, const dm_target *t,
                                  const char *row, const char *column)
{
    for (size_t i = 0; i < pub->n; i++) {
        const dm_pub_row *r = &pub->rows[i];
        if (!strcmp(r->paper, t->paper) && !strcmp(r->table, t->table) &&
            !strcmp(r->row_key, row) && !strcmp(r->column, column))
            return r;
    }
    return NULL;
}

/* Headline h as "published P (CARD), measured M" into buf: a speedup (base over column)
 * or the value itself. Returns 0 or DM_ERUNTIME. */
static int headline_text(const dm_pub_table *pub, const dm_target *t, const dm_headline *h,
                         const dm_study_data *sd, char *buf, size_t n, dm_err *err)
{
    const dm_pub_row *top = pub_cell(pub, t, h->row, h->column);
    const dm_pub_row *bottom = h->base ? pub_cell(pub, t, h->row, h->base) : NULL;
    double was = NAN, here, v, b = 1;
    char how[256], unit[32];
    if (top) {
        was = repro_pub_number(top->value);
        if (bottom)
            was = repro_pub_number(bottom->value) / was;
    }
    if (t->measured(sd, h->row, h->column, &v, how, sizeof how, err) ||
        (h->base && t->measured(sd, h->row, h->base, &b, how, sizeof how, err)))
        return err->code;
    here = h->base ? b / v : v;
    snprintf(unit, sizeof unit, "%s", h->base ? "x" : top ? top->unit : "");
    buf[0] = '\0';
    if (isnan(was))
        dm_append(buf, n, "published -");
    else if (bottom)
        dm_append(buf, n, "published %.3g%s (%s against %s)", was, unit, top->card,
                  bottom->card);
    else
        dm_append(buf, n, "published %.3g %s (%s)", was, unit, top->card);
    if (isnan(here))
        dm_append(buf, n, ", not measured here");
    else
        dm_append(buf, n, ", measured %.3g%s%s", here, h->base ? "" : " ", unit);
    if (!isnan(here) && !isnan(was) && was != 0)
        dm_append(buf, n, ": %.3g times the paper's", here / was);
    return 0;
}

int repro_summary(const chz_ctx *c, const dm_pub_table *pub, const repro_target *rt,
                  const chz_run *run, FILE *out, dm_err *err)
{
    const dm_target *t = rt->t;
    fprintf(out, "%s, %s (%s, papers/%s.txt)\n", rt->workload, t->item, t->name, t->paper);
    if (!run || !run->id) {
        fprintf(out, "  not measured: no complete run of sweeps/%s.yaml\n", t->sweep);
        return 0;
    }
    if (run->gpu[0])
        fprintf(out, "  run %lld on %s, started %s\n", (long long)run->id, run->gpu,
                run->started);
    else
        fprintf(out, "  run %lld without a GPU, started %s: its GPU points were skipped\n",
                (long long)run->id, run->started);
    chz_ctx cc = *c;
    cc.card = run->gpu;
    cc.sweep = t->sweep;
    if (t->measured && t->headlines) {
        dm_study_data sd;
        chz_data(&cc, &sd);
        for (const dm_headline *h = t->headlines; h->label; h++) {
            char text[512];
            if (headline_text(pub, t, h, &sd, text, sizeof text, err))
                return err->code;
            fprintf(out, "  %s, %s: %s\n", h->label, h->row, text);
        }
    }
    char line[1024] = "";
    for (const char *const *id = t->claims; id && *id; id++) {
        const dm_claim *cl = rt->study ? study_claim(rt->study, *id) : NULL;
        dm_claim_result r;
        if (!cl)
            return dm_err_set(err, DM_ERUNTIME, "reproduce %s: no claim %s", t->name, *id);
        if (chz_judge(&cc, cl, &r, err))
            return err->code;
        dm_append(line, sizeof line, "%s%s %s", line[0] ? ", " : "", *id,
                  study_verdict_name(r.verdict));
    }
    if (line[0])
        fprintf(out, "  claims: %s\n", line);
    return 0;
}
