/* cmd_merge.c - `dmbench merge OUT IN...`: the runs of other databases (the shards of a
 * sweep run on many nodes, say) copied into one, in one transaction (store_merge.c). */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "store.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench merge OUT.sqlite IN.sqlite... [--combine]\n\n"
            "Copies every run of the IN databases, with everything stored under it, into\n"
            "OUT (made when missing), each keeping its fingerprint. A run already in OUT\n"
            "(the same run, known by its uid) is not copied again, so merging twice changes\n"
            "nothing. Each input's per-card store comes too: its tuned choices (of each\n"
            "card, variant and bucket the newest is kept) and its crossover fits, so one\n"
            "database can hold the choices of every card tuned ('dmbench tune --card').\n"
            "Inputs must be dmbench databases of this dmbench's schema version.\n"
            "All in one transaction: on any error OUT is left as it was.\n\n"
            "options:\n"
            "  --combine   fold the shard runs of one sweep ('dmbench run --shard I/N' with\n"
            "              the same sweep, N, card model and build) into one run, so that\n"
            "              show, export, plot and speedups see the whole sweep; every shard\n"
            "              1..N must be there, once, and finished (docs/scale-out.md)\n"
            "  -h, --help  this text\n");
}

int cmd_merge(int argc, char **argv)
{
    int combine = 0;
    const cli_opt opts[] = {
        CLI_OPT_FLAG("combine", &combine),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (argc - first < 2)
        return cli_usage_error("merge", argc == first ? "no output database given"
                                                      : "no input database given");
    const char *out = argv[first];
    int out_was_there = access(out, F_OK) == 0;
    dm_err err = { 0 };
    dm_store *st = NULL;
    store_merge_counts c;
    /* every input checked before OUT is opened (and maybe made or migrated) */
    for (int i = first + 1; i < argc; i++)
        if (store_check(argv[i], &err) != 0)
            return cli_fail(&err);
    if (store_open(out, &st, &err) != 0 ||
        store_merge(st, (const char *const *)argv + first + 1, argc - first - 1, combine, &c,
                    &err) != 0) {
        store_close(st);
        if (!out_was_there && st) /* a database made for nothing goes */
            cli_remove_db(out);
        return cli_fail(&err);
    }
    store_close(st);
    fprintf(stderr, "dmbench merge: %d run%s copied into %s (%lld points)", c.runs_copied,
            c.runs_copied == 1 ? "" : "s", out, (long long)c.points);
    if (c.runs_combined)
        fprintf(stderr, ", %d shard runs combined", c.runs_combined);
    fprintf(stderr, "; %d already there", c.runs_present);
    if (c.tuned_copied + c.tuned_present + c.fits_copied + c.fits_present)
        fprintf(stderr, "; per-card store: %d tuned choice%s and %d crossover fit%s copied, "
                "%d and %d already there or older", c.tuned_copied,
                c.tuned_copied == 1 ? "" : "s", c.fits_copied, c.fits_copied == 1 ? "" : "s",
                c.tuned_present, c.fits_present);
    fputc('\n', stderr);
    return DM_EXIT_OK;
}
