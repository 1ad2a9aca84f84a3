/* cmd_plot.c - `dmbench plot`: writes a plot's data from the results database to a .dat
 * file (results/plotdata.c) and runs gnuplot on plots/NAME.gp to draw it as PNG
 * (pngcairo) and SVG. The scripts are found through $DMBENCH_PLOTS, else
 * <directory of the dmbench binary>/../plots, else the source tree the build was
 * configured from (CMAKE_HOME_DIRECTORY in the build directory's CMakeCache.txt). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plotdata.h"
#include "plotdraw.h"

#define PLOT_DEFAULT_OUT "plots/out"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench plot NAME [RUN] [--db PATH] [--axis NAME] [--where NAME=VALUE ...]\n"
            "                    [--by NAME] [--variants A[,B]] [--group NAME] [--metric NAME]\n"
            "                    [--out DIR] [--format png|svg|both]\n"
            "       dmbench plot --list\n\n"
            "Draws plot NAME of a run (a run id or 'latest', the default) from the results\n"
            "database: writes the plot's data to DIR/NAME-runID.dat (a header naming the run,\n"
            "card and columns, then one block per series) and runs gnuplot on plots/NAME.gp to\n"
            "draw DIR/NAME-runID.png and .svg. The scripts are found in $DMBENCH_PLOTS, else in\n"
            "plots/ beside the build directory of this binary, else in the source tree the\n"
            "build was configured from.\n\n"
            "options:\n"
            "  --db PATH            the results database (default: $DMBENCH_DB, else %s)\n"
            "  --axis NAME          the x axis (default: block for time-vs-block; else the run's\n"
            "                       first numeric dataset or problem parameter that varies)\n"
            "  --where NAME=VALUE   only points whose NAME is VALUE (points without NAME stay);\n"
            "                       repeatable, and named in the output files\n"
            "  --by NAME            throughput-vs-size, speedup-vs-size: a series per value of\n"
            "                       NAME too (other parameters still at their fastest)\n"
            "  --variants A,B       crossover: the two variants (default: the run's two);\n"
            "                       timeline: one variant (A) whose point to draw;\n"
            "                       stage-times: only the points of these variants\n"
            "  --metric NAME        metric-vs-axis: the CUPTI metric, by its short name\n"
            "  --group NAME         crossover: the axis grouping the crossovers (required)\n"
            "  --out DIR            where the files go (default: %s)\n"
            "  --format FORMAT      png, svg or both (default)\n"
            "  --list               the plots and what each shows\n"
            "  -h, --help           this help\n",
            STORE_DEFAULT_PATH, PLOT_DEFAULT_OUT);
}

static void list_plots(FILE *out)
{
    for (const dm_plot_kind *k = plotdata_kinds; k->name; k++)
        fprintf(out, "%-20s %s\n", k->name, k->summary);
}

/* Appends prefix and text to out, with what is not a letter, digit, '.' or '_' in text
 * turned into '-'. */
static void append_safe(char *out, size_t n, const char *prefix, const char *text)
{
    size_t used = strlen(out), start = used + strlen(prefix);
    snprintf(out + used, n - used, "%s%s", prefix, text);
    for (char *p = out + (start < n ? start : n - 1); *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_'))
            *p = '-';
}

/* The plot's files' base name: NAME-runID, then each --where as -name-value, then --by
 * as -by-name. */
static void base_name(const char *name, int64_t run, const dm_plot_opts *o, char *out, size_t n)
{
    snprintf(out, n, "%s-run%lld", name, (long long)run);
    for (int i = 0; i < o->nwhere; i++)
        append_safe(out, n, "-", o->where[i]);
    if (o->by)
        append_safe(out, n, "-by-", o->by);
}

/* Writes the data, then draws each format. Returns 0 or a dm_err code. */
static int plot(const dm_plot_kind *k, const char *db, const dm_plot_opts *o, const char *outdir,
                int png, int svg, dm_err *err)
{
    char scripts[PATH_MAX + 128], base[256], dat[PATH_MAX + 300], path[PATH_MAX + 300];
    dm_store *st = NULL;
    dm_plot_meta m;
    char *text = NULL;
    size_t len = 0;
    FILE *fp;
    int rc;
    if ((rc = plotdraw_find_scripts(k->name, scripts, sizeof scripts, err)) ||
        (rc = cli_open_existing(db, 0, &st, err)))
        goto done;
    if (!(fp = open_memstream(&text, &len))) {
        rc = dm_err_set(err, DM_ERUNTIME, "open_memstream: %s", strerror(errno));
        goto done;
    }
    rc = plotdata_export(st, k, o, fp, &m, err);
    fclose(fp);
    if (rc || (rc = dm_make_dirs(outdir, err)))
        goto done;
    base_name(k->name, m.run_id, o, base, sizeof base);
    snprintf(dat, sizeof dat, "%s/%s.dat", outdir, base);
    if ((rc = dm_write_file(dat, text, len, err)))
        goto done;
    printf("%s: %d series, %d rows in %s\n", k->name, m.series + m.fits, m.rows, dat);
    for (int f = 0; f < 2 && rc == 0; f++) {
        if (!(f == 0 ? png : svg))
            continue;
        const char *ext = f == 0 ? "png" : "svg";
        snprintf(path, sizeof path, "%s/%s.%s", outdir, base, ext);
        if ((rc = plotdraw_render(&m, scripts, k->name, dat, path, ext, err)) == 0)
            printf("%s: wrote %s\n", k->name, path);
    }
done:
    free(text);
    store_close(st);
    return rc;
}

/* The command line as one string, for the data file's header. */
static void join_args(int argc, char **argv, char *out, size_t n)
{
    snprintf(out, n, "dmbench");
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(out);
        int quote = strpbrk(argv[i], " \t'\"") != NULL;
        snprintf(out + used, n - used, quote ? " '%s'" : " %s", argv[i]);
    }
}

int cmd_plot(int argc, char **argv)
{
    dm_plot_opts o = { 0 };
    const char *db = NULL, *outdir = PLOT_DEFAULT_OUT, *pair = NULL, *format = "both";
    char variants[128], command[2048];
    int list = 0;
    join_args(argc, argv, command, sizeof command); /* before cli_parse reorders argv */
    o.command = command;
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_STR("axis", &o.axis),
        CLI_OPT_LIST("where", o.where, &o.nwhere, PLOTDATA_MAX_WHERE),
        CLI_OPT_STR("variants", &pair),
        CLI_OPT_STR("group", &o.group),
        CLI_OPT_STR("out", &outdir),
        CLI_OPT_CHOICE("format", &format, "png|svg|both"),
        CLI_OPT_FLAG("list", &list),
        CLI_OPT_STR("metric", &o.metric),
        CLI_OPT_STR("by", &o.by),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (list) {
        list_plots(stdout);
        return DM_EXIT_OK;
    }
    if (pair) {
        snprintf(variants, sizeof variants, "%s", pair);
        char *comma = strchr(variants, ',');
        if (!variants[0] || comma == variants || (comma && (!comma[1] || strchr(comma + 1, ','))))
            return cli_usage_error("plot", "--variants %s: expected A or A,B", pair);
        o.variant_a = variants;
        if (comma) {
            *comma = '\0';
            o.variant_b = comma + 1;
        }
    }
    if (argc - first < 1 || argc - first > 2)
        return cli_usage_error("plot", "expected a plot name and at most one run");
    const dm_plot_kind *k = plotdata_find(argv[first]);
    if (!k) {
        char names[512] = "";
        for (const dm_plot_kind *p = plotdata_kinds; p->name; p++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", p->name);
        }
        return cli_usage_error("plot", "unknown plot '%s'; plots: %s", argv[first], names);
    }
    dm_err err = { 0 };
    if (argc - first == 2 && cli_parse_run_id(argv[first + 1], &o.run_id, &err))
        return cli_fail(&err);
    int png = strcmp(format, "svg") != 0, svg = strcmp(format, "png") != 0;
    if (plot(k, db, &o, outdir, png, svg, &err))
        return cli_fail(&err);
    return DM_EXIT_OK;
}
