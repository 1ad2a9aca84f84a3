/* cmd_show.c - `dmbench show` (the runs in the results database, one run's fingerprint
 * and its table of points) and `dmbench export` (a run as CSV or JSON on stdout). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "store.h"

static void show_usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench show [--db PATH] [RUN]\n\n"
            "Without RUN, lists the runs in the results database and shows the newest;\n"
            "with RUN (a run id or 'latest'), shows that run: its fingerprint (GPU, clocks,\n"
            "versions, commit, command line, measurement options, notes) and a table of\n"
            "its points with statistics, throughput, speedup and verification.\n\n"
            "options:\n"
            "  --db PATH    the results database (default: $DMBENCH_DB, else %s)\n"
            "  -h, --help   this help\n",
            STORE_DEFAULT_PATH);
}

static void export_usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench export [--db PATH] [--format csv|json] [RUN]\n\n"
            "Writes a run (a run id or 'latest'; the newest when RUN is left out) to stdout:\n"
            "csv: a header and one row per point (parameters, status, statistics,\n"
            "throughput, verification, speedup); json: {\"run\": fingerprint, \"points\": [...]}\n"
            "with typed parameters and every sample's seconds.\n\n"
            "options:\n"
            "  --db PATH             the results database (default: $DMBENCH_DB, else %s)\n"
            "  -f, --format FORMAT   csv (default) or json\n"
            "  -h, --help            this help\n",
            STORE_DEFAULT_PATH);
}

/* The options both commands take. */
typedef struct show_opts {
    const char *db;
    const char *run; /* NULL when not given */
    dm_export_format format;
    int help;
} show_opts;

/* Parses argv into o. Returns 0, or the usage error's exit status (2). */
static int parse_opts(int argc, char **argv, int with_format, show_opts *o)
{
    static const struct option longopts[] = {
        { "db", required_argument, NULL, 'd' },
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { 0 },
    };
    const char *cmd = argv[0];
    int c;
    memset(o, 0, sizeof *o);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, with_format ? ":f:h" : ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            o->db = optarg;
            break;
        case 'f':
            if (!with_format)
                return cli_usage_error(cmd, "unknown option '--format'");
            if (strcmp(optarg, "csv") == 0)
                o->format = DM_EXPORT_CSV;
            else if (strcmp(optarg, "json") == 0)
                o->format = DM_EXPORT_JSON;
            else
                return cli_usage_error(cmd, "--format %s: expected csv or json", optarg);
            break;
        case 'h':
            o->help = 1;
            return 0;
        case ':':
            return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
    o->run = optind < argc ? argv[optind] : NULL;
    return 0;
}

int cmd_show(int argc, char **argv)
{
    show_opts o;
    dm_err err = { 0 };
    dm_store *st = NULL;
    int64_t run_id = 0;
    int rc = parse_opts(argc, argv, 0, &o);
    if (rc != 0 || o.help) {
        if (o.help)
            show_usage(stdout);
        return rc;
    }
    if ((o.run && cli_parse_run_id(o.run, &run_id, &err) != 0) ||
        cli_open_existing(o.db, &st, &err) != 0)
        return cli_fail(&err);
    if (!o.run && (rc = store_show_runs(st, stdout, &err)) == 0)
        fputc('\n', stdout);
    if (rc == 0)
        rc = store_show_run(st, run_id, stdout, &err);
    store_close(st);
    return rc != 0 ? cli_fail(&err) : DM_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    show_opts o;
    dm_err err = { 0 };
    dm_store *st = NULL;
    int64_t run_id = 0;
    int rc = parse_opts(argc, argv, 1, &o);
    if (rc != 0 || o.help) {
        if (o.help)
            export_usage(stdout);
        return rc;
    }
    if ((o.run && cli_parse_run_id(o.run, &run_id, &err) != 0) ||
        cli_open_existing(o.db, &st, &err) != 0)
        return cli_fail(&err);
    rc = store_export(st, run_id, o.format, stdout, &err);
    store_close(st);
    return rc != 0 ? cli_fail(&err) : DM_EXIT_OK;
}
