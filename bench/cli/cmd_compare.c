/* cmd_compare.c - `dmbench compare A B`: run B against run A, point by point, with an
 * exit status that can gate CI on a GPU runner (1 when any point is slower). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "compare.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench compare A B [--db PATH] [--alpha P] [--threshold FRACTION]\n"
                 "                         [--allow-capped]\n\n"
                 "Compares run B with run A (ids, or 'latest') over the points they share (same\n"
                 "variant and parameters): a Mann-Whitney U test on the raw samples and the ratio\n"
                 "of medians give each point's verdict, faster / slower / same. A point is slower\n"
                 "when p < alpha (default 0.05) and B's median exceeds A's by more than the\n"
                 "threshold (default 0.02). A change where either side stopped sampling on its\n"
                 "time or sample limit before its noise target is not called (verdict capped)\n"
                 "unless --allow-capped. Exit status 1 when any point is slower.\n");
}

int cmd_compare(int argc, char **argv)
{
    const char *db = NULL;
    dm_compare_opts o = { .alpha = 0.05, .threshold = 0.02 };
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_REAL("alpha", &o.alpha, 1e-12, 1),
        CLI_OPT_REAL("threshold", &o.threshold, 0, 10),
        CLI_OPT_FLAG("allow-capped", &o.allow_capped),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (argc - first != 2)
        return cli_usage_error("compare", "expected two runs, A and B");
    dm_err err = { 0 };
    int64_t a, b;
    if (cli_parse_run_id(argv[first], &a, &err) || cli_parse_run_id(argv[first + 1], &b, &err))
        return cli_fail(&err);
    dm_store *st = NULL;
    dm_compare_summary sum;
    int status;
    if (cli_open_existing(db, 0, &st, &err) != 0 || compare_runs(st, a, b, &o, stdout, &sum, &err) != 0)
        status = cli_fail(&err);
    else
        status = sum.slower ? DM_EXIT_FAIL : DM_EXIT_OK;
    store_close(st);
    return status;
}
