/* cmd_run.c - `dmbench run SWEEP.yaml`: its options parsed, then the sweep shown
 * (--dry-run) or run and the run's summary printed (cli_run.c, shared with reproduce). */
#include "cli.h"

int cmd_run(int argc, char **argv)
{
    cli_run_args a;
    int status = cli_run_parse(argc, argv, 1, &a);
    return status || a.help ? status : cli_run_sweep(&a);
}
