/* cmd_characterize.c - `dmbench characterize tdm`: the paper's characterizations judged
 * on the medians in one or more results databases, written as a markdown section. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "characterize.h"
#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench characterize tdm [--db PATH]... [--card NAME] [--sweep NAME]\n"
            "                               [--out FILE.md]\n\n"
            "Takes the eight characterizations of Archuleta et al. (IPDPS 2009) one by one and\n"
            "says, from the medians of the latest complete runs of sweeps/%s.yaml (or of\n"
            "--sweep: tdm-fig6 and tdm-fig9 measure the same points and more) on the\n"
            "card (a part of its name; default: the card of the latest such run), whether each\n"
            "holds, does not hold, or is not measurable here, with the numbers. The claims\n"
            "that compare cards use another card's runs from the same databases (--db may be\n"
            "given up to %d times). Writes markdown to FILE.md (default stdout) and the verdict\n"
            "counts to stderr.\n", CHZ_TDM_SWEEP, CHZ_MAX_DB);
}

/* The preamble after the command line in buf: the databases and the card's runs. */
static void preamble(char *buf, size_t n, const chz_ctx *c, const char *const *dbs,
                     const chz_point *p)
{
    dm_append(buf, n, "\n\nCard: %s (compute capability %s, %d SMs), run of %s started %s.\n"
                       "Databases:", p->gpu, p->cc, p->sms, chz_sweep(c), p->started);
    for (int i = 0; i < c->nst; i++)
        dm_append(buf, n, " %s", dbs[i]);
    dm_append(buf, n, ". Every time is the median of at least 10 cold samples of a point "
                       "verified against the CPU reference; \"best\" is the fastest block of "
                       "those measured (16 to 1024 threads per block).\n");
}

int cmd_characterize(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },  { "card", required_argument, NULL, 'c' },
        { "out", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
        { "sweep", required_argument, NULL, 's' },
        { 0 },
    };
    const char *dbs[CHZ_MAX_DB], *out_path = NULL;
    int ndb = 0, c;
    chz_ctx ctx = { 0 };
    char pre[3072] = "Written by\n\n    dmbench";
    for (int i = 0; i < argc; i++) /* before getopt_long reorders argv */
        dm_append(pre, sizeof pre, " %s", argv[i]);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (ndb == CHZ_MAX_DB)
                return cli_usage_error("characterize", "at most %d --db", CHZ_MAX_DB);
            dbs[ndb++] = optarg;
            break;
        case 'c': ctx.card = optarg; break;
        case 'o': out_path = optarg; break;
        case 's': ctx.sweep = optarg; break;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':':
            return cli_usage_error("characterize", "option %s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("characterize", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1 || strcmp(argv[optind], "tdm") != 0)
        return cli_usage_error("characterize", "expected the workload tdm (the only one with "
                                               "published characterizations)");
    if (!ndb)
        dbs[ndb++] = NULL;

    dm_err err = { 0 };
    int status = DM_EXIT_OK, counts[3];
    char card[128];
    FILE *f = NULL;
    chz_point first;
    for (; ctx.nst < ndb; ctx.nst++)
        if (cli_open_existing(dbs[ctx.nst], &ctx.st[ctx.nst], &err))
            goto fail;
    for (int i = 0; i < ndb; i++)
        dbs[i] = cli_db_path(dbs[i]);
    if (!ctx.card) {
        if (chz_card(&ctx, chz_sweep(&ctx), NULL, card, sizeof card, &err))
            goto fail;
        ctx.card = card;
    }
    if (chz_median(&ctx, ctx.card, chz_sweep(&ctx), "block-tex", 1, -1, &first, &err))
        goto fail;
    if (!first.found) {
        dm_err_set(&err, DM_EINPUT, "no complete run of %s%s%s%s in the databases",
                   chz_sweep(&ctx), ctx.card[0] ? " on a card named like \"" : "", ctx.card,
                   ctx.card[0] ? "\"" : "");
        goto fail;
    }
    preamble(pre, sizeof pre, &ctx, dbs, &first);
    f = out_path ? fopen(out_path, "w") : stdout;
    if (!f) {
        dm_err_set(&err, DM_EINPUT, "%s: cannot write", out_path);
        goto fail;
    }
    char title[256];
    snprintf(title, sizeof title, "tdm: the paper's eight characterizations on the %s", first.gpu);
    if (chz_write(&ctx, chz_tdm_claims, title, pre, f, counts, &err))
        goto fail;
    if ((out_path ? fclose(f) : fflush(f)) != 0) {
        f = NULL;
        dm_err_set(&err, DM_ERUNTIME, "%s: write failed", out_path ? out_path : "stdout");
        goto fail;
    }
    f = NULL;
    fprintf(stderr, "characterize: %d hold, %d do not hold, %d not measurable here\n",
            counts[CHZ_HOLDS], counts[CHZ_BREAKS], counts[CHZ_UNMEASURED]);
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
