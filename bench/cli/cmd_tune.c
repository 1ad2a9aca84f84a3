/* cmd_tune.c - `dmbench tune WORKLOAD`: the best block size per card, variant and
 * problem bucket from the results database, with ties never decided on noise. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "registry.h"
#include "tune.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench tune WORKLOAD[,WORKLOAD...] [--variant V] [--axis NAME] [--alpha P]\n"
            "                    [--tolerance F] [--explain] [--json FILE] [--header FILE]\n"
            "                    [--db PATH]\n\n"
            "For each workload, card, variant and problem bucket (the other parameters) in\n"
            "the database, picks the value of the block-size axis (default 'block') with the\n"
            "lowest median time. Values whose raw samples a Mann-Whitney U test cannot tell\n"
            "from the best (p >= alpha, default 0.05) or whose median is within the\n"
            "tolerance of the best (default 0.01) are ties, and the smallest tie wins.\n"
            "--explain shows every candidate; --json and --header write the choices (the\n"
            "header is the compiled-in table variants/tuned_blocks.h that sweeps use when\n"
            "they leave the axis open: tune every workload it should hold in one call).\n");
}

static int parse_unit(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0 && v <= 1))
        return cli_usage_error("tune", "%s %s: expected a number in [0, 1]", opt, s);
    *out = v;
    return 0;
}

/* Writes with fn to path ("-" is stdout). Returns 0 or sets err. */
static int write_to(const char *path, const dm_tune_result *r, const dm_tune_opts *o,
                    const char *db, int header, dm_err *err)
{
    int to_stdout = path[0] == '-' && path[1] == '\0';
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f)
        return dm_err_set(err, DM_EINPUT, "%s: cannot write", path);
    if (header)
        tune_write_header(r, o, db, f);
    else
        tune_write_json(r, o, f);
    if ((to_stdout ? fflush(f) : fclose(f)) != 0)
        return dm_err_set(err, DM_ERUNTIME, "%s: write failed", path);
    return 0;
}

int cmd_tune(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },        { "variant", required_argument, NULL, 'v' },
        { "axis", required_argument, NULL, 'x' },      { "alpha", required_argument, NULL, 'a' },
        { "tolerance", required_argument, NULL, 't' }, { "explain", no_argument, NULL, 'e' },
        { "json", required_argument, NULL, 'j' },      { "header", required_argument, NULL, 'H' },
        { "help", no_argument, NULL, 'h' },            { 0 },
    };
    dm_tune_opts o = { .axis = "block", .alpha = 0.05, .tolerance = 0.01 };
    const char *db = NULL, *json = NULL, *header = NULL;
    int explain = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'v': o.variant = optarg; break;
        case 'x': o.axis = optarg; break;
        case 'a':
            if (parse_unit("--alpha", optarg, &o.alpha))
                return DM_EXIT_USAGE;
            break;
        case 't':
            if (parse_unit("--tolerance", optarg, &o.tolerance))
                return DM_EXIT_USAGE;
            break;
        case 'e': explain = 1; break;
        case 'j': json = optarg; break;
        case 'H': header = optarg; break;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':': return cli_usage_error("tune", "option %s needs a value", argv[optind - 1]);
        default: return cli_usage_error("tune", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("tune", "expected one workload");
    dm_err err = { 0 };
    char names[256];
    snprintf(names, sizeof names, "%s", argv[optind]);
    o.workload = argv[optind];
    for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        const dm_workload *w = registry_workload(tok, &err);
        if (!w)
            return cli_fail(&err);
        if (o.variant && !registry_variant(w, o.variant, &err))
            return cli_fail(&err);
    }

    dm_store *st = NULL;
    dm_tune_result r = { 0 };
    int status = DM_EXIT_OK;
    if (cli_open_existing(db, &st, &err) || tune_compute(st, &o, &r, &err) ||
        (json && write_to(json, &r, &o, cli_db_path(db), 0, &err)) ||
        (header && write_to(header, &r, &o, cli_db_path(db), 1, &err)))
        status = cli_fail(&err);
    else if (!json || json[0] != '-')
        tune_print(&r, &o, explain, stdout);
    tune_free(&r);
    store_close(st);
    return status;
}
