/* cli.h - the `dmbench` subcommands and what they share: exit codes, error printing,
 * the database option, and one option parser (a table of options per command). Each
 * command returns the process's exit status; only main() exits. */
#ifndef DM_CLI_H
#define DM_CLI_H

#include <stdio.h>

#include "dm.h"
#include "path.h"
#include "sink.h"

enum {
    DM_EXIT_OK = 0,
    DM_EXIT_FAIL = 1,  /* a run failed or a point failed verification */
    DM_EXIT_USAGE = 2, /* bad input: flag, sweep file, dataset */
};

/* Each takes argv[0] = the command's name. */
int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_mine(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_merge(int argc, char **argv);
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
/* Removes the database file at path and its WAL and shared-memory files (a database
 * made for a command that then failed on bad input). */
void cli_remove_db(const char *path);
/* The database path: opt when given, else $DMBENCH_DB, else STORE_DEFAULT_PATH. */
const char *cli_db_path(const char *opt);
/* Opens the database named by opt (see cli_db_path): read-only (store_open_readonly)
 * unless writes. Returns 0, DM_EINPUT when there is no such file (reading never creates
 * one), or store_open's error. */
struct dm_store;
int cli_open_existing(const char *opt, int writes, struct dm_store **st, dm_err *err);
/* ---- the per-card store (cli_cards.c) ---- */

/* Reads the tuned choices and crossover fits of the database named by opt (see
 * cli_db_path; none when there is no such file, which is not made) for the lookups of
 * the points about to be made; with dev, says once on stderr when nothing stored or
 * shipped was measured on its card, naming the command that tunes it. Returns 0, or
 * the store's error (DM_EINPUT: a damaged or foreign entry, named). */
int cli_load_card_choices(const char *opt, const dm_device *dev, dm_err *err);
/* A stand-in device for planning without the card (`run --dry-run --card NAME --cc
 * X.Y`): its name and compute capability, and the limits every architecture from 7.5 on
 * has at least (1024 threads and 48 KiB of shared memory a block); SMs and clocks 0.
 * Returns 0, or DM_EINPUT naming the bad option. */
int cli_standin_device(const char *card, const char *cc, dm_device *dev, dm_err *err);

/* `dmbench tune --card` (cmd_tune_card.c): runs the tuning sweeps of the workloads named
 * (comma-separated; NULL: every one that has them) on GPU device into the database named
 * by db_opt, then stores this card's chosen block sizes and crossover fits there. Returns
 * the exit status. */
int cli_tune_card(const char *workloads, const char *db_opt, int device);

/* ---- running a sweep (cli_run.c): `dmbench run`, and `dmbench reproduce` ---------- */

#define CLI_RUN_MAX_OVERRIDES 64
#define CLI_RUN_MAX_DEVICES DM_MAX_GPUS

/* `dmbench run`'s options. */
typedef struct cli_run_args {
    const char *sweep; /* the sweep file */
    const char *db;    /* NULL: cli_db_path's default */
    const char *overrides[CLI_RUN_MAX_OVERRIDES]; /* -a AXIS=VALUES, in order */
    int noverrides;
    const char *variants; /* --variants LIST: the sweep's variants to run; NULL: all */
    int dry_run, resume, force_new_run, quiet, timeline;
    long device_index;       /* --device: the GPU to run on; < 0: not given (GPU 0) */
    int devices[CLI_RUN_MAX_DEVICES]; /* --devices 0,1,...: a worker on each */
    int ndevices;
    int all_devices;         /* --devices all */
    const char *mode;        /* "cold", "hot", or NULL: the sweep's */
    const char *criterion;   /* "median", "stdrel", or NULL: the sweep's */
    long min_samples;        /* < 0: the sweep's, as are the two below */
    double max_noise, max_time;
    double point_timeout; /* 0: none */
    const char *metrics_csv; /* --metrics, or NULL: the sweep's */
    const char *chip;        /* --chip, or NULL */
    const char *card, *cc;   /* --card NAME --cc X.Y: a stand-in GPU (with --dry-run) */
    dm_shard shard;          /* --shard I/N; count 0 without it */
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

/* Writes the report of o's runs in the database db (cli_db_path's) as o->outdir/report.md
 * and report.html, saying so on stdout; nothing half-written stays. Returns 0 or a dm_err
 * code (cmd_report.c). */
#define REPORT_DEFAULT_OUT "plots/out/report" /* where `dmbench report` writes */
struct dm_report_opts;
int cli_write_report(const char *db, const struct dm_report_opts *o, dm_err *err);

/* Parses a run id argument ("12" or "latest"); returns 0 with *id (0 for latest), or
 * DM_EINPUT. */
int cli_parse_run_id(const char *s, int64_t *id, dm_err *err);
/* Writes text (len bytes) over the generated table variants/<workload>/<file> (tuned.h,
 * fits.h) in the variants/ folder $DMBENCH_VARIANTS names, else beside dmbench's folder,
 * else in the source tree the build was configured from (srcdir.h); the file must be
 * there already (every workload's folder has both). The path written goes into path
 * (of size n). Returns 0, or DM_ERUNTIME (not found, or the write failed) with err set. */
int cli_write_variant_file(const char *workload, const char *file, const char *text,
                           size_t len, char *path, size_t n, dm_err *err);

/* ---- options ---- */

typedef enum cli_opt_kind {
    CLI_FLAG,   /* no value: *(int *)dest = value */
    CLI_STR,    /* *(const char **)dest = the text */
    CLI_LIST,   /* the text appended to (const char **)dest; *count of at most max */
    CLI_INT,    /* *(long *)dest = an integer in [lo, hi] */
    CLI_U64,    /* *(uint64_t *)dest = an integer in [0, UINT64_MAX] (a seed) */
    CLI_REAL,   /* *(double *)dest = a number in [lo, hi], or (lo, hi) when open */
    CLI_CHOICE, /* *(const char **)dest = one of choices ("cold|hot") */
} cli_opt_kind;

/* One option, --name VALUE (or -s VALUE when short_name is set). Tables end with a
 * zeroed entry; --help (-h) is always there. */
typedef struct cli_opt {
    const char *name;
    char short_name;
    cli_opt_kind kind;
    void *dest;
    double lo, hi;       /* CLI_INT, CLI_REAL */
    int open;            /* CLI_REAL: lo and hi themselves refused */
    int value;           /* CLI_FLAG */
    int max, *count;     /* CLI_LIST */
    const char *choices; /* CLI_CHOICE */
} cli_opt;

#define CLI_OPT_FLAG(n, d) { .name = (n), .kind = CLI_FLAG, .dest = (d), .value = 1 }
#define CLI_OPT_STR(n, d) { .name = (n), .kind = CLI_STR, .dest = (d) }
#define CLI_OPT_LIST(n, d, cnt, mx)                                                          \
    { .name = (n), .kind = CLI_LIST, .dest = (d), .count = (cnt), .max = (mx) }
#define CLI_OPT_INT(n, d, l, h) { .name = (n), .kind = CLI_INT, .dest = (d), .lo = (l), .hi = (h) }
#define CLI_OPT_U64(n, d) { .name = (n), .kind = CLI_U64, .dest = (d) }
#define CLI_OPT_REAL(n, d, l, h)                                                             \
    { .name = (n), .kind = CLI_REAL, .dest = (d), .lo = (l), .hi = (h) }
#define CLI_OPT_REAL_OPEN(n, d, l, h)                                                        \
    { .name = (n), .kind = CLI_REAL, .dest = (d), .lo = (l), .hi = (h), .open = 1 }
#define CLI_OPT_CHOICE(n, d, ch) { .name = (n), .kind = CLI_CHOICE, .dest = (d), .choices = (ch) }

/* Parses the options of command argv[0] against opts. Returns -1 when the command goes on,
 * its positional arguments being argv[*first] to argv[argc - 1] (options and arguments may
 * mix); else the exit status to return: DM_EXIT_OK after usage(stdout) for --help, or
 * DM_EXIT_USAGE after a one-line error naming the option and what it expected. */
int cli_parse(int argc, char **argv, const cli_opt *opts, void (*usage)(FILE *), int *first);

#endif
