/* cli.h - the `dmbench` subcommands and what they share: exit codes, error printing,
 * the database option. Each command parses its own options (getopt_long) and returns
 * the process's exit status; only main() exits. */
#ifndef DM_CLI_H
#define DM_CLI_H

#include "dm.h"

enum {
    DM_EXIT_OK = 0,
    DM_EXIT_FAIL = 1,  /* a run failed or a point failed verification */
    DM_EXIT_USAGE = 2, /* bad input: flag, sweep file, dataset */
};

/* Each takes argv[0] = the command's name. */
int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_crossover(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_characterize(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);

/* Prints "dmbench: error: MESSAGE" (one line) on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints err's message as above and returns the exit status for its code
 * (DM_EINPUT -> 2, others -> 1). */
int cli_fail(const dm_err *err);
/* Prints "dmbench CMD: unknown option ..." style usage errors and returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The database path: opt when given, else $DMBENCH_DB, else STORE_DEFAULT_PATH. */
const char *cli_db_path(const char *opt);
/* Opens the database named by opt (see cli_db_path) for reading. Returns 0, DM_EINPUT
 * when there is no such file (reading never creates one), or store_open's error. */
struct dm_store;
int cli_open_existing(const char *opt, struct dm_store **st, dm_err *err);
/* ---- running a sweep (cli_run.c): `dmbench run`, and `dmbench reproduce` ---------- */

#define CLI_RUN_MAX_OVERRIDES 64

/* `dmbench run`'s options. */
typedef struct cli_run_args {
    const char *sweep; /* the sweep file */
    const char *db;    /* NULL: cli_db_path's default */
    const char *overrides[CLI_RUN_MAX_OVERRIDES]; /* -a AXIS=VALUES, in order */
    int noverrides;
    int dry_run, resume, quiet, device_index, timeline;
    const char *mode;        /* "cold", "hot", or NULL: the sweep's */
    double min_samples, max_noise, max_time; /* < 0: the sweep's */
    const char *metrics_csv; /* --metrics, or NULL: the sweep's */
    const char *chip;        /* --chip, or NULL */
    int help;                /* --help was given (and its text printed) */
    int argc;                /* the command line, stored with the run */
    char **argv;
} cli_run_args;

/* dmbench run's help text. */
void cli_run_usage(FILE *out);
/* Parses dmbench run's options in argv (argv[0] the command's name) into *a; with
 * want_sweep the one operand is the sweep file, without it there may be none. Returns
 * DM_EXIT_OK (a->help set when --help was answered), or DM_EXIT_USAGE after the error. */
int cli_run_parse(int argc, char **argv, int want_sweep, cli_run_args *a);
/* Loads a->sweep, applies the overrides and options, expands it, then shows the points
 * (dry_run) or runs them into the database and prints the run's summary. Returns the
 * exit status: DM_EXIT_OK, DM_EXIT_FAIL (a point failed), DM_EXIT_USAGE (bad input),
 * 130 (interrupted). */
int cli_run_sweep(const cli_run_args *a);

/* Parses a run id argument ("12" or "latest"); returns 0 with *id (0 for latest), or
 * DM_EINPUT. */
int cli_parse_run_id(const char *s, int64_t *id, dm_err *err);

#endif
