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

#endif
