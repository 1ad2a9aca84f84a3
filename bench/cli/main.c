/* main.c - the `dmbench` command: git-style subcommands, --version, and the helpers the
 * subcommands share for errors and options. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "store.h"
#include "version.h"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    { .name = "devices", .fn = cmd_devices, .summary = "list the GPUs and their properties" },
    { .name = "list", .fn = cmd_list, .summary = "list workloads, variants and parameters" },
    { .name = "run", .fn = cmd_run, .summary = "run a sweep matrix and store the results" },
    { .name = "mine", .fn = cmd_mine,
      .summary = "run one variant once and write its mining result as CSV" },
    { .name = "show", .fn = cmd_show, .summary = "show runs, points and statistics" },
    { .name = "export", .fn = cmd_export, .summary = "export a run as CSV or JSON" },
    { .name = "merge", .fn = cmd_merge,
      .summary = "copy the runs of other databases (shards of a sweep) into one" },
    { .name = "tune", .fn = cmd_tune,
      .summary = "best block size per card, variant and problem size; --card tunes this GPU" },
    { .name = "crossover", .fn = cmd_crossover,
      .summary = "where two variants' times cross, and its fit against a group axis" },
    { .name = "plot", .fn = cmd_plot, .summary = "draw a plot of a run with gnuplot (PNG, SVG)" },
    { .name = "report", .fn = cmd_report, .summary = "write a markdown and HTML report of a database" },
    { .name = "compare", .fn = cmd_compare,
      .summary = "compare two runs point by point (exit 1 when any is slower)" },
    { .name = "calibrate", .fn = cmd_calibrate,
      .summary = "check the engine's copy bandwidth against a plain cudaMemcpy loop" },
    { .name = "reproduce", .fn = cmd_reproduce,
      .summary = "run a paper's table or figure and set it beside the published one" },
    { .name = "characterize", .fn = cmd_characterize,
      .summary = "judge a workload's published claims on measured medians" },
    { 0 },
};

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("dmbench: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(const dm_err *err)
{
    cli_error("%s", err->msg[0] ? err->msg : "unknown error");
    return err->code == DM_EINPUT ? DM_EXIT_USAGE : DM_EXIT_FAIL;
}

const char *cli_db_path(const char *opt)
{
    if (opt && opt[0])
        return opt;
    const char *env = getenv("DMBENCH_DB");
    return env && env[0] ? env : STORE_DEFAULT_PATH;
}

int cli_open_existing(const char *opt, int writes, dm_store **st, dm_err *err)
{
    const char *path = cli_db_path(opt);
    if (access(path, F_OK) != 0)
        return dm_err_set(err, DM_EINPUT, "%s: no results database here ('dmbench run' makes "
                                          "one; --db or $DMBENCH_DB name another)", path);
    return writes ? store_open(path, st, err) : store_open_readonly(path, st, err);
}

void cli_remove_db(const char *path)
{
    char side[4096];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

int cli_parse_run_id(const char *s, int64_t *id, dm_err *err)
{
    if (strcmp(s, "latest") == 0) {
        *id = 0;
        return 0;
    }
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || v <= 0)
        return dm_err_set(err, DM_EINPUT, "run '%s': expected a run id (a positive integer) or 'latest'", s);
    *id = v;
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench [--version] [--help] COMMAND [ARGS]\n\n"
                 "Benchmark and characterise GPU data-mining kernels.\n\ncommands:\n");
    for (const command *c = commands; c->name; c++)
        fprintf(out, "  %-13s %s\n", c->name, c->summary);
    fprintf(out, "\n'dmbench help COMMAND' (or 'dmbench COMMAND --help') describes a command.\n"
                 "Results go to %s\n"
                 "unless --db or $DMBENCH_DB says otherwise.\n", STORE_DEFAULT_PATH);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return DM_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("dmbench %s (commit %s%s)\n", dm_version, dm_git_commit, dm_git_dirty ? ", dirty" : "");
        return DM_EXIT_OK;
    }
    int help = strcmp(name, "help") == 0;
    if (help && argc > 3) {
        cli_error("help takes one command; 'dmbench help' lists them");
        return DM_EXIT_USAGE;
    }
    if (help && argc == 3) /* `dmbench help COMMAND`: COMMAND's --help */
        name = argv[2];
    else if (help || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        usage(stdout);
        return DM_EXIT_OK;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return help ? c->fn(2, (char *[]){ argv[2], "--help", NULL })
                        : c->fn(argc - 1, argv + 1);
    char known[256] = "";
    for (const command *c = commands; c->name; c++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", c == commands ? "" : ", ", c->name);
    cli_error("unknown command '%s'; commands: %s", name, known);
    return DM_EXIT_USAGE;
}
