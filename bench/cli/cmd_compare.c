/* cmd_compare.c - `dmbench compare A B`: run B against run A, point by point, with an
 * exit status that can gate CI on a GPU runner (1 when any point is slower). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "compare.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench compare A B [--db PATH] [--alpha P] [--threshold FRACTION]\n\n"
                 "Compares run B with run A (ids, or 'latest') over the points they share (same\n"
                 "variant and parameters): a Mann-Whitney U test on the raw samples and the ratio\n"
                 "of medians give each point's verdict, faster / slower / same. A point is slower\n"
                 "when p < alpha (default 0.05) and B's median exceeds A's by more than the\n"
                 "threshold (default 0.02). Exit status 1 when any point is slower.\n");
}

/* Parses a number in [lo, hi] for option opt; returns 0 or prints the usage error. */
static int parse_fraction(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return cli_usage_error("compare", "%s %s: expected a number in [%g, %g]", opt, s, lo, hi);
    *out = v;
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },        { "alpha", required_argument, NULL, 'a' },
        { "threshold", required_argument, NULL, 't' }, { "help", no_argument, NULL, 'h' },
        { 0 },
    };
    const char *db = NULL;
    dm_compare_opts o = { .alpha = 0.05, .threshold = 0.02 };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'a':
            if (parse_fraction("--alpha", optarg, 1e-12, 1, &o.alpha))
                return DM_EXIT_USAGE;
            break;
        case 't':
            if (parse_fraction("--threshold", optarg, 0, 10, &o.threshold))
                return DM_EXIT_USAGE;
            break;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':': return cli_usage_error("compare", "option %s needs a value", argv[optind - 1]);
        default: return cli_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_usage_error("compare", "expected two runs, A and B");
    dm_err err = { 0 };
    int64_t a, b;
    if (cli_parse_run_id(argv[optind], &a, &err) || cli_parse_run_id(argv[optind + 1], &b, &err))
        return cli_fail(&err);
    dm_store *st = NULL;
    dm_compare_summary sum;
    int status;
    if (cli_open_existing(db, &st, &err) != 0 || compare_runs(st, a, b, &o, stdout, &sum, &err) != 0)
        status = cli_fail(&err);
    else
        status = sum.slower ? DM_EXIT_FAIL : DM_EXIT_OK;
    store_close(st);
    return status;
}
