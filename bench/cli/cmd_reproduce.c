/* cmd_reproduce.c - `dmbench reproduce NAME`: runs the sweep that reproduces one of the
 * papers' tables or figures (cli_run.c), then writes it beside the published numbers
 * with the paper's claims about it judged (reproduce.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "registry.h"
#include "reproduce.h"
#include "srcdir.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench reproduce NAME [--db PATH]... [--card NAME] [--no-run]\n"
            "                          [--out FILE.md] [--html FILE.html] [-- RUN OPTIONS]\n"
            "       dmbench reproduce --main [--db PATH] [--out DIR] [-- RUN OPTIONS]\n"
            "       dmbench reproduce --list\n\n"
            "--main is the main job: one headline table or figure of each paper, at sizes\n"
            "of a few minutes on one GPU (the targets --list marks 'main', each sweep with\n"
            "the -a overrides it shows), every point verified; then the report of those\n"
            "runs (DIR/report.html and report.md, plots included; default %s), and\n"
            "last one screen: per paper, the published figures beside the measured and\n"
            "the verdict of each claim. Without a GPU the CPU points run and the GPU\n"
            "points are skipped, with the reason.\n\n"
            "Runs sweeps/SWEEP.yaml, the sweep that reproduces the paper's table or figure NAME,\n"
            "into the first database (as 'dmbench run SWEEP.yaml --db PATH RUN OPTIONS' does),\n"
            "then writes it as markdown: the published values (their card) beside this card's\n"
            "(and the ratio), or for a figure the grid of measured medians, and each claim the\n"
            "paper makes about it judged holds / partly holds / does not hold / not measurable\n"
            "here, with the numbers. Claims that compare cards read the other databases too\n"
            "(--db up to %d times). Targets whose workload this build lacks list their\n"
            "published values.\n\n"
            "options:\n"
            "  --db PATH      results database (default $DMBENCH_DB or %s); repeatable\n"
            "  --card NAME    the card to write (part of its name; default: the newest run's)\n"
            "  --no-run       write from the databases only\n"
            "  --out FILE     write the markdown to FILE (default stdout)\n"
            "  --html FILE    also write it as an HTML fragment\n"
            "  --list         the targets, with their papers and sweeps\n"
            "  --main         the main job (above)\n"
            "Sweeps are read from $DMBENCH_SWEEPS, else the source tree's sweeps/; the\n"
            "published tables from $DMBENCH_PUBLISHED, else results/published/.\n",
            REPORT_DEFAULT_OUT, CHZ_MAX_DB, STORE_DEFAULT_PATH);
}

static void list_targets(const dm_pub_table *pub)
{
    repro_target t[REPRO_MAX_TARGETS];
    size_t n = repro_targets(pub, t, REPRO_MAX_TARGETS);
    printf("%-24s %-32s %-18s %-16s %s\n", "NAME", "PAPER", "ITEM", "SWEEP", "WORKLOAD");
    for (size_t i = 0; i < n; i++) {
        int built = registry_workload(t[i].workload, &(dm_err){ 0 }) != NULL;
        printf("%-24s %-32s %-18s %-16s %s%s\n", t[i].t->name, t[i].t->paper, t[i].t->item,
               t[i].t->sweep ? t[i].t->sweep : "-", t[i].workload,
               built ? "" : " (not in this build)");
        if (t[i].t->small) {
            printf("%24s main:", "");
            for (const char *const *a = t[i].t->small; *a; a++)
                printf(" -a '%s'", *a);
            puts(t[i].t->small[0] ? "" : " the sweep as it is");
        }
    }
}

/* The target called name into *t; 0, or DM_EXIT_USAGE after printing the close matches. */
static int find_target(const dm_pub_table *pub, const char *name, repro_target *t)
{
    if (repro_find(pub, name, t))
        return 0;
    repro_target all[REPRO_MAX_TARGETS];
    const char *names[REPRO_MAX_TARGETS];
    size_t n = repro_targets(pub, all, REPRO_MAX_TARGETS);
    for (size_t i = 0; i < n; i++)
        names[i] = all[i].t->name;
    char list[1024];
    int close;
    registry_suggest(name, names, n, list, sizeof list, &close);
    return cli_usage_error("reproduce", "unknown target '%s'; %s: %s", name,
                           close ? "did you mean" : "the targets are", list);
}

/* Runs t's sweep into db with the run options a, parsed from extra[0..nextra) (what
 * followed --). Returns the run's exit status. */
static int run_sweep(const dm_target *t, const char *db, cli_run_args *a, int nextra,
                     char **extra)
{
    char dir[PATH_MAX], file[128], path[PATH_MAX + 160];
    dm_err err = { 0 };
    snprintf(file, sizeof file, "%s.yaml", t->sweep);
    if (dm_find_source_dir("DMBENCH_SWEEPS", "sweeps", file, dir, sizeof dir, &err))
        return cli_fail(&err);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    a->sweep = path;
    a->db = cli_db_path(db);
    fprintf(stderr, "reproduce: dmbench run %s --db %s", path, a->db);
    for (int i = 0; i < nextra; i++)
        fprintf(stderr, " %s", extra[i]);
    fputc('\n', stderr);
    return cli_run_sweep(a);
}

/* The main job: every target with a small form run with its overrides into db (after
 * the run options a), then the report of those runs into outdir, then each target's
 * summary. Returns the worst run's exit status, or the first error's. */
static int reproduce_main(const dm_pub_table *pub, const char *db, const char *outdir,
                          const cli_run_args *a, int nextra, char **extra)
{
    repro_target all[REPRO_MAX_TARGETS], main_t[REPRO_MAX_TARGETS];
    size_t n = repro_targets(pub, all, REPRO_MAX_TARGETS), nmain = 0;
    int status = DM_EXIT_OK;
    for (size_t i = 0; i < n; i++)
        if (all[i].t->small && all[i].t->sweep)
            main_t[nmain++] = all[i];
    for (size_t i = 0; i < nmain; i++) {
        cli_run_args r = *a;
        char *args[CLI_RUN_MAX_OVERRIDES * 2 + 1];
        int nargs = 0;
        for (const char *const *o = main_t[i].t->small; *o; o++) {
            if (r.noverrides == CLI_RUN_MAX_OVERRIDES)
                return cli_usage_error("reproduce", "--main: more than %d -a overrides for %s",
                                       CLI_RUN_MAX_OVERRIDES, main_t[i].t->name);
            r.overrides[r.noverrides++] = *o;
            args[nargs++] = "-a";
            args[nargs++] = (char *)*o;
        }
        for (int k = 0; k < nextra && nargs < (int)(sizeof args / sizeof *args); k++)
            args[nargs++] = extra[k];
        int rc = run_sweep(main_t[i].t, db, &r, nargs, args);
        if (rc == DM_EXIT_USAGE || rc == 130)
            return rc;
        if (rc > status)
            status = rc;
    }
    if (a->dry_run)
        return status;
    dm_err err = { 0 };
    chz_ctx ctx = { .nst = 1 };
    chz_run runs[REPRO_MAX_TARGETS] = { { 0 } };
    int64_t ids[REPRO_MAX_TARGETS];
    size_t nids = 0;
    if (cli_open_existing(db, 0, &ctx.st[0], &err))
        return cli_fail(&err);
    for (size_t i = 0; i < nmain; i++) {
        if (chz_latest_run(&ctx, main_t[i].t->sweep, NULL, &runs[i], &err)) {
            store_close(ctx.st[0]);
            return cli_fail(&err);
        }
        if (runs[i].id)
            ids[nids++] = runs[i].id;
    }
    dm_report_opts o = { .runs = ids, .nruns = nids, .plots = 1, .outdir = outdir };
    int rc = nids ? cli_write_report(db, &o, &err) : 0;
    printf("\ndmbench: the main job, one table or figure of each paper, small "
           "(docs/reproduce.md)\n\n");
    for (size_t i = 0; i < nmain; i++)
        if (runs[i].id && !runs[i].gpu[0]) {
            printf("No GPU here (%s): the GPU points were skipped, and what needs them is not "
                   "measured.\n\n", runs[i].no_gpu[0] ? runs[i].no_gpu : "no reason recorded");
            break;
        }
    for (size_t i = 0; i < nmain && rc == 0; i++)
        rc = repro_summary(&ctx, pub, &main_t[i], &runs[i], stdout, &err);
    store_close(ctx.st[0]);
    if (rc)
        return cli_fail(&err);
    if (nids)
        printf("\nthe whole report, every table beside the published one and the plots: "
               "%s/report.html\n", outdir);
    return status;
}

int cmd_reproduce(int argc, char **argv)
{
    const char *dbs[CHZ_MAX_DB], *card = NULL, *out_path = NULL, *html_path = NULL;
    int ndb = 0, no_run = 0, list = 0, main_job = 0, nargs = argc;
    char *run_argv[argc + 1];
    cli_run_args run_args;
    run_argv[0] = "run"; /* what follows "--" is dmbench run's */
    int nrun = 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            for (int k = i + 1; k < argc; k++)
                run_argv[nrun++] = argv[k];
            nargs = i;
            break;
        }
    run_argv[nrun] = NULL;
    const cli_opt opts[] = {
        CLI_OPT_LIST("db", dbs, &ndb, CHZ_MAX_DB),
        CLI_OPT_STR("card", &card),
        CLI_OPT_FLAG("no-run", &no_run),
        CLI_OPT_STR("out", &out_path),
        CLI_OPT_STR("html", &html_path),
        CLI_OPT_FLAG("list", &list),
        CLI_OPT_FLAG("main", &main_job),
        { 0 },
    };
    int first, status = cli_parse(nargs, argv, opts, usage, &first);
    if (status >= 0)
        return status;
    if (!list && !main_job && nargs - first != 1)
        return cli_usage_error("reproduce", "expected one target (dmbench reproduce --list)");
    if (main_job && (list || no_run || card || html_path || ndb > 1 || nargs != first))
        return cli_usage_error("reproduce", "--main takes --db PATH, --out DIR and run options "
                               "after --, and no target");
    const char *name = argv[first];
    status = cli_run_parse(nrun, run_argv, 0, &run_args);
    if (status || run_args.help)
        return status;
    if (run_args.shard.count) /* a shard's run is part of the table: compared, it would mislead */
        return cli_usage_error("reproduce", "--shard: reproduce compares a whole run; run the "
                               "shards with 'dmbench run', 'dmbench merge --combine' them, then "
                               "'dmbench reproduce NAME --no-run --db OUT'");
    run_args.argc = argc; /* the run records the reproduce command that made it */
    run_args.argv = argv;
    if (!ndb)
        dbs[ndb++] = NULL;

    dm_err err = { 0 };
    dm_pub_table pub = { 0 };
    chz_ctx ctx = { 0 };
    FILE *md = NULL, *html = NULL;
    chz_run run = { 0 };
    repro_target t;
    char dir[PATH_MAX];
    if (dm_find_source_dir("DMBENCH_PUBLISHED", "results/published", "README.md", dir,
                           sizeof dir, &err) ||
        published_load_dir(dir, &pub, &err))
        goto fail;
    if (list) {
        list_targets(&pub);
        goto done;
    }
    if (main_job) {
        status = reproduce_main(&pub, dbs[0], out_path ? out_path : REPORT_DEFAULT_OUT,
                                &run_args, nrun - 1, run_argv + 1);
        goto done;
    }
    if ((status = find_target(&pub, name, &t)))
        goto done;
    if (t.t->sweep && !no_run &&
        (status = run_sweep(t.t, dbs[0], &run_args, nrun - 1, run_argv + 1)) == DM_EXIT_USAGE)
        goto done;
    for (; t.t->sweep && ctx.nst < ndb; ctx.nst++)
        if (cli_open_existing(dbs[ctx.nst], 0, &ctx.st[ctx.nst], &err))
            goto fail;
    if (t.t->sweep && chz_latest_run(&ctx, t.t->sweep, card, &run, &err))
        goto fail;
    md = stdout;
    if ((out_path && dm_open_output(out_path, "w", &md, &err)) ||
        (html_path && dm_open_output(html_path, "w", &html, &err)))
        goto fail;
    dm_report_doc doc = { .md = md, .html = html };
    if (repro_write(&ctx, &pub, &t, &run, &doc, &err))
        goto fail;
    if (ferror(md) || (html && ferror(html))) {
        dm_err_set(&err, DM_ERUNTIME, "writing %s failed", out_path ? out_path : "stdout");
        goto fail;
    }
    goto done;
fail:
    status = cli_fail(&err);
done:
    if (md && md != stdout)
        fclose(md);
    if (html)
        fclose(html);
    for (int i = 0; i < ctx.nst; i++)
        store_close(ctx.st[i]);
    published_free(&pub);
    return status;
}
