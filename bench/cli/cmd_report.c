/* cmd_report.c - `dmbench report`: everything in a results database (or some of its
 * runs) as DIR/report.md and DIR/report.html (results/report.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plotdraw.h"
#include "report.h"

#define REPORT_MAX_RUNS 256

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench report [--db PATH] [--out DIR] [--runs N,M,...] [--no-plots]\n\n"
            "Writes a report of the results database as DIR/report.md and DIR/report.html\n"
            "(self-contained: inline style, plots inlined as SVG), findings first: each\n"
            "run's headline (its card, the fastest verified variant per problem with its\n"
            "speedup over the baseline and its noise, the points not measured and why,\n"
            "the verdicts of the claims its sweep feeds) beside its plots, drawn by gnuplot\n"
            "(their .dat and .svg files go to DIR/plots, which report.md links to); then\n"
            "the papers' tables and figures the runs reproduce, beside the published\n"
            "values (as 'dmbench reproduce'); the tuned block sizes of each workload; the\n"
            "stored crossover fits with the crossovers behind them; each workload's\n"
            "characterizations, judged per card with a run of a sweep its claims read;\n"
            "and last each run's fingerprint and every point, folded, a column per\n"
            "parameter that varies.\n\n"
            "options:\n"
            "  --db PATH      the results database (default: $DMBENCH_DB, else %s)\n"
            "  --out DIR      where the report goes (default: %s)\n"
            "  --runs LIST    only these runs, comma-separated ids, in this order\n"
            "  --no-plots     leave the plots out (no gnuplot)\n"
            "  -h, --help     this help\n",
            STORE_DEFAULT_PATH, REPORT_DEFAULT_OUT);
}

/* Parses "3,5,9" into ids. Returns 0 or DM_EINPUT. */
static int parse_runs(const char *s, int64_t *ids, size_t *n, dm_err *err)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        errno = 0;
        long long v = strtoll(tok, &end, 10);
        if (errno || *end || end == tok || v <= 0)
            return dm_err_set(err, DM_EINPUT, "--runs %s: '%s' is not a run id", s, tok);
        if (*n == REPORT_MAX_RUNS)
            return dm_err_set(err, DM_EINPUT, "--runs: at most %d runs", REPORT_MAX_RUNS);
        ids[(*n)++] = v;
    }
    return *n ? 0 : dm_err_set(err, DM_EINPUT, "--runs %s: no run ids", s);
}

int cli_write_report(const char *db, const dm_report_opts *o, dm_err *err)
{
    char md_path[PATH_MAX + 16] = "", html_path[PATH_MAX + 16] = "";
    dm_store *st = NULL;
    FILE *md = NULL, *html = NULL;
    int rc;
    if ((rc = cli_open_existing(db, 0, &st, err)) || (rc = dm_make_dirs(o->outdir, err)))
        goto done;
    snprintf(md_path, sizeof md_path, "%s/report.md", o->outdir);
    snprintf(html_path, sizeof html_path, "%s/report.html", o->outdir);
    if ((rc = dm_open_output(md_path, "w", &md, err)) ||
        (rc = dm_open_output(html_path, "w", &html, err)))
        goto done;
    rc = report_write(st, o, md, html, err);
    int bad_md = fclose(md) != 0, bad_html = fclose(html) != 0;
    md = html = NULL;
    if (rc == 0 && (bad_md || bad_html))
        rc = dm_err_set(err, DM_ERUNTIME, "writing %s: %s", bad_md ? md_path : html_path,
                        strerror(errno));
    if (rc == 0)
        printf("report: wrote %s and %s\n", md_path, html_path);
done:
    if (md)
        fclose(md);
    if (html)
        fclose(html);
    if (rc && md_path[0]) { /* no half-written report stays */
        unlink(md_path);
        unlink(html_path);
    }
    store_close(st);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static int64_t runs[REPORT_MAX_RUNS];
    dm_report_opts o = { .plots = 1, .outdir = REPORT_DEFAULT_OUT };
    const char *db = NULL, *run_list = NULL;
    dm_err err = { 0 };
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_STR("out", &o.outdir),
        CLI_OPT_STR("runs", &run_list),
        { .name = "no-plots", .kind = CLI_FLAG, .dest = &o.plots, .value = 0 },
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (first != argc)
        return cli_usage_error("report", "unexpected argument '%s'", argv[first]);
    if (run_list && parse_runs(run_list, runs, &o.nruns, &err))
        return cli_fail(&err);
    o.runs = run_list ? runs : NULL;
    if (cli_write_report(db, &o, &err))
        return cli_fail(&err);
    return DM_EXIT_OK;
}
