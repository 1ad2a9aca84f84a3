/* cmd_characterize.c - `dmbench characterize WORKLOAD`: the claims of the workload's study
 * judged on the medians in one or more results databases, written as a markdown
 * section (report_characterize_write). */
#include <stdio.h>
#include <string.h>

#include "characterize.h"
#include "cli.h"
#include "registry.h"
#include "report.h"

/* The registered workloads whose study has claims, with their papers and sweeps, into
 * buf ("" when none has). */
static void with_claims(char *buf, size_t n)
{
    buf[0] = '\0';
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        const dm_study *s = (*w)->study;
        if (!s || !s->claims)
            continue;
        dm_append(buf, n, "%s%s (", buf[0] ? "; " : "", (*w)->name);
        for (const dm_paper *p = s->papers; p && p->file; p++)
            dm_append(buf, n, "%s%s", p == s->papers ? "" : ", ", p->cite);
        dm_append(buf, n, "; sweeps");
        for (int k = 0; s->claim_sweeps[k]; k++)
            dm_append(buf, n, "%s %s", k ? "," : "", s->claim_sweeps[k]);
        dm_append(buf, n, ")");
    }
}

static void usage(FILE *out)
{
    char list[1024];
    with_claims(list, sizeof list);
    fprintf(out,
            "usage: dmbench characterize WORKLOAD [--db PATH]... [--card NAME] [--sweep NAME]\n"
            "                                    [--out FILE.md]\n\n"
            "Takes the claims the papers of WORKLOAD's study make one by one and says, from\n"
            "the medians of the latest complete runs of the study's first sweep (or --sweep:\n"
            "its others measure the same points and more) on the card (a part of its name;\n"
            "default: the card of the latest such run), whether each holds, partly holds, does\n"
            "not hold, or is not measurable here, with the numbers. The claims that compare\n"
            "cards use another card's runs from the same databases (--db may be given up to %d\n"
            "times). Under each claim, the CUPTI counters that would back it, from the newest\n"
            "run made with --metrics of the sweeps its rule read. Writes markdown to FILE.md\n"
            "(default stdout) and the verdict counts to stderr.\n\n"
            "Workloads with claims: %s.\n", CHZ_MAX_DB, list[0] ? list : "none");
}

/* The preamble after the command line in buf: the databases and the card's run. */
static void preamble(char *buf, size_t n, const chz_ctx *c, const char *const *dbs,
                     const chz_run *run, const dm_study *s)
{
    dm_append(buf, n, "\n\nCard: %s (compute capability %s, %d SMs), run of %s started %s.\n"
                       "Databases:", run->gpu, run->cc, run->sms, c->sweep, run->started);
    for (int i = 0; i < c->nst; i++)
        dm_append(buf, n, " %s", dbs[i]);
    dm_append(buf, n, ". %s\n", s->times_note ? s->times_note : "");
}

int cmd_characterize(int argc, char **argv)
{
    const char *dbs[CHZ_MAX_DB], *out_path = NULL;
    int ndb = 0;
    chz_ctx ctx = { 0 };
    char pre[3072] = "Written by\n\n    dmbench";
    for (int i = 0; i < argc; i++) /* before cli_parse reorders argv */
        dm_append(pre, sizeof pre, " %s", argv[i]);
    const cli_opt opts[] = {
        CLI_OPT_LIST("db", dbs, &ndb, CHZ_MAX_DB),
        CLI_OPT_STR("card", &ctx.card),
        CLI_OPT_STR("out", &out_path),
        CLI_OPT_STR("sweep", &ctx.sweep),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (argc - first != 1)
        return cli_usage_error("characterize", "expected one workload");
    dm_err err = { 0 };
    const dm_workload *w = registry_workload(argv[first], &err);
    if (!w)
        return cli_fail(&err);
    const dm_study *s = w->study;
    if (!s || !s->claims) {
        char list[1024];
        with_claims(list, sizeof list);
        return cli_usage_error("characterize", "workload %s has no published claims to judge "
                               "(workloads with claims: %s)", w->name, list[0] ? list : "none");
    }
    if (!ctx.sweep)
        ctx.sweep = s->claim_sweeps[0];
    if (!ndb)
        dbs[ndb++] = NULL;

    int status = DM_EXIT_OK, counts[DM_NVERDICTS];
    char card[128], counted[128], title[256];
    FILE *f = NULL;
    chz_run run;
    for (; ctx.nst < ndb; ctx.nst++)
        if (cli_open_existing(dbs[ctx.nst], 0, &ctx.st[ctx.nst], &err))
            goto fail;
    for (int i = 0; i < ndb; i++)
        dbs[i] = cli_db_path(dbs[i]);
    if (!ctx.card) {
        if (chz_card(&ctx, ctx.sweep, NULL, card, sizeof card, &err))
            goto fail;
        ctx.card = card;
    }
    if (!ctx.card[0] || chz_latest_run(&ctx, ctx.sweep, ctx.card, &run, &err) || !run.gpu[0]) {
        if (err.code == 0)
            dm_err_set(&err, DM_EINPUT, "no complete GPU run of %s%s%s%s in the databases",
                       ctx.sweep, ctx.card[0] ? " on a card named like \"" : "", ctx.card,
                       ctx.card[0] ? "\"" : "");
        goto fail;
    }
    preamble(pre, sizeof pre, &ctx, dbs, &run, s);
    f = stdout;
    if (out_path && dm_open_output(out_path, "w", &f, &err))
        goto fail;
    snprintf(title, sizeof title, "%s: %s on the %s", w->name, s->claims_title, run.gpu);
    if (report_characterize_write(f, &ctx, s, title, pre, counts, &err))
        goto fail;
    if ((out_path ? fclose(f) : fflush(f)) != 0) {
        f = NULL;
        dm_err_set(&err, DM_ERUNTIME, "%s: write failed", out_path ? out_path : "stdout");
        goto fail;
    }
    f = NULL;
    study_counts_text(counts, counted, sizeof counted);
    fprintf(stderr, "characterize: %s\n", counted);
    goto done;
fail:
    status = cli_fail(&err);
done:
    if (f && out_path)
        fclose(f);
    for (int i = 0; i < ctx.nst; i++)
        store_close(ctx.st[i]);
    return status;
}
