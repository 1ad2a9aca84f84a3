/* cmd_show.c - `dmbench show` (the runs in the results database, one run's fingerprint
 * and its table of points, then its multi-GPU points against the fastest one GPU:
 * scaling.h) and `dmbench export` (a run as CSV or JSON on stdout). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "scaling.h"
#include "store.h"

static void show_usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench show [--db PATH] [RUN]\n\n"
            "Without RUN, lists the runs in the results database and shows the newest;\n"
            "with RUN (a run id or 'latest'), shows that run: its fingerprint (GPU, clocks,\n"
            "versions, commit, command line, measurement options, notes) and a table of\n"
            "its points with statistics, throughput, speedup and verification, and under\n"
            "a point its facts (what its workload reported, per mining level say); then\n"
            "each point on several GPUs against the fastest verified one-GPU point of its\n"
            "problem in the run, and against its own variant on one GPU.\n\n"
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
            "throughput, verification, speedup; then facts, one field); json: {\"run\":\n"
            "fingerprint, \"points\": [...]} with typed parameters, every sample's seconds\n"
            "and the facts as objects.\n\n"
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
} show_opts;

/* Parses argv into o, with --format when with_format (export). Returns -1 when the
 * command goes on, else its exit status: 0 after usage for --help, 2 after an error. */
static int parse_opts(int argc, char **argv, int with_format, void (*usage)(FILE *),
                      show_opts *o)
{
    const char *format = "csv";
    memset(o, 0, sizeof *o);
    const cli_opt opts[] = { /* show's are these without the first */
        { .name = "format", .short_name = 'f', .kind = CLI_CHOICE, .dest = &format,
          .choices = "csv|json" },
        CLI_OPT_STR("db", &o->db),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, with_format ? opts : opts + 1, usage, &first);
    if (rc >= 0)
        return rc;
    if (argc - first > 1)
        return cli_usage_error(argv[0], "unexpected argument '%s'", argv[first + 1]);
    o->run = first < argc ? argv[first] : NULL;
    o->format = strcmp(format, "json") == 0 ? DM_EXPORT_JSON : DM_EXPORT_CSV;
    return -1;
}

/* Parses argv as parse_opts does, then reads the run's id (0 when none is named) and opens
 * the database. Returns -1 with *st open when the command goes on, else its exit status. */
static int open_run(int argc, char **argv, int with_format, void (*usage)(FILE *),
                    show_opts *o, dm_store **st, int64_t *run_id)
{
    dm_err err = { 0 };
    int rc = parse_opts(argc, argv, with_format, usage, o);
    *st = NULL;
    *run_id = 0;
    if (rc >= 0)
        return rc;
    if ((o->run && cli_parse_run_id(o->run, run_id, &err) != 0) ||
        cli_open_existing(o->db, 0, st, &err) != 0)
        return cli_fail(&err);
    return -1;
}

int cmd_show(int argc, char **argv)
{
    show_opts o;
    dm_err err = { 0 };
    dm_store *st;
    int64_t run_id;
    int rc = open_run(argc, argv, 0, show_usage, &o, &st, &run_id);
    if (rc >= 0)
        return rc;
    rc = o.run ? 0 : store_show_runs(st, stdout, &err);
    if (rc == 0 && !o.run)
        fputc('\n', stdout);
    if (rc == 0)
        rc = store_show_run(st, run_id, stdout, &err);
    scaling_row *rows = NULL;
    size_t nrows = 0;
    if (rc == 0 && (rc = scaling_rows(st, run_id, &rows, &nrows, &err)) == 0)
        scaling_print(rows, nrows, stdout);
    free(rows);
    store_close(st);
    return rc != 0 ? cli_fail(&err) : DM_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    show_opts o;
    dm_err err = { 0 };
    dm_store *st;
    int64_t run_id;
    int rc = open_run(argc, argv, 1, export_usage, &o, &st, &run_id);
    if (rc >= 0)
        return rc;
    rc = store_export(st, run_id, o.format, stdout, &err);
    store_close(st);
    return rc != 0 ? cli_fail(&err) : DM_EXIT_OK;
}
