/* cmd_crossover.c - `dmbench crossover`: where two variants' median curves cross over an
 * axis, per group, with bootstrap intervals and the a/N + b vs a*N + b fits; and the
 * stored fits written as the header hybrid variants compile in. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "crossover.h"
#include "registry.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench crossover WORKLOAD VARIANT_A VARIANT_B --axis NAME [--group NAME]\n"
            "                         [--card NAME] [--resamples N] [--level P] [--seed S] [--store]\n"
            "                         [--header] [--db PATH]\n"
            "       dmbench crossover --header [--db PATH]\n\n"
            "For each value of the group axis (e.g. the episode level N), the value of --axis\n"
            "(e.g. the number of episodes) where the two variants' median times cross, by linear\n"
            "interpolation between measured points (each variant at its fastest configuration),\n"
            "with a bootstrap interval from the raw samples (default 1000 replicates, 95%%), or\n"
            "'no crossover in range', and the variant faster at the smallest axis value. With\n"
            "--group, the crossovers are fitted to a/N + b and a*N + b by least squares:\n"
            "coefficients, standard errors, R^2 and the better form. The card defaults to that\n"
            "of the workload's newest run. --store keeps both fits for the card in the database\n"
            "(table crossover_fits). --header writes the better form of the newest stored fit per\n"
            "card, pair, axis and group of the workload (alone: of each workload with stored\n"
            "fits) as its C header variants/<workload>/fits.h, which its hybrid variants switch\n"
            "kernels by once rebuilt ($DMBENCH_VARIANTS names another variants/ folder).\n");
}

/* Writes w's stored fits in st as variants/<w>/fits.h when there are any, and says so.
 * Returns 0 with *rows the fits written (0: the file was left as it was), or sets err. */
static int write_header(dm_store *st, const dm_workload *w, int *rows, dm_err *err)
{
    char *text = NULL, path[4352];
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return dm_err_set(err, DM_ERUNTIME, "out of memory writing the fits of %s", w->name);
    int rc = crossover_write_header(st, w->name, store_path(st), mem, rows, err);
    if (fclose(mem) != 0 && rc == 0)
        rc = dm_err_set(err, DM_ERUNTIME, "out of memory writing the fits of %s", w->name);
    if (rc == 0 && *rows)
        rc = cli_write_variant_file(w->name, "fits.h", text, len, path, sizeof path, err);
    free(text);
    if (rc == 0 && *rows)
        printf("wrote the %d stored crossover %s of %s in %s to %s\n", *rows,
               *rows == 1 ? "fit" : "fits", w->name, store_path(st), path);
    return rc;
}

int cmd_crossover(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },        { "axis", required_argument, NULL, 'x' },
        { "group", required_argument, NULL, 'g' },     { "card", required_argument, NULL, 'c' },
        { "resamples", required_argument, NULL, 'r' }, { "level", required_argument, NULL, 'l' },
        { "seed", required_argument, NULL, 's' },      { "help", no_argument, NULL, 'h' },
        { "store", no_argument, NULL, 'S' },           { "header", no_argument, NULL, 'H' },
        { 0 },
    };
    dm_crossover_opts o = { .resamples = 1000, .level = 0.95, .seed = 1 };
    const char *db = NULL;
    char *end;
    int c, store = 0, header = 0, rows = 0, all = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'x': o.axis = optarg; break;
        case 'g': o.group = optarg; break;
        case 'c': o.card = optarg; break;
        case 'r':
            o.resamples = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end || o.resamples < 10 || o.resamples > 1000000)
                return cli_usage_error("crossover", "--resamples %s: expected 10..1000000", optarg);
            break;
        case 'l':
            o.level = strtod(optarg, &end);
            if (end == optarg || *end || !(o.level > 0 && o.level < 1))
                return cli_usage_error("crossover", "--level %s: expected a number in (0, 1)", optarg);
            break;
        case 's':
            o.seed = strtoul(optarg, &end, 10);
            if (end == optarg || *end)
                return cli_usage_error("crossover", "--seed %s: expected an integer", optarg);
            break;
        case 'S': store = 1; break;
        case 'H': header = 1; break;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':': return cli_usage_error("crossover", "option %s needs a value", argv[optind - 1]);
        default: return cli_usage_error("crossover", "unknown option '%s'", argv[optind - 1]);
        }
    }
    dm_err err = { 0 };
    dm_store *st = NULL;
    int status = DM_EXIT_OK;
    if (header && argc == optind) { /* the stored fits only, of every workload */
        if (cli_open_existing(db, &st, &err))
            return cli_fail(&err);
        for (const dm_workload *const *w = registry_workloads(); *w; w++) {
            if (write_header(st, *w, &rows, &err)) {
                status = cli_fail(&err);
                break;
            }
            all += rows;
        }
        if (status == DM_EXIT_OK && all == 0)
            printf("%s holds no crossover fits of a GPU run: no fits.h written\n",
                   store_path(st));
        store_close(st);
        return status;
    }
    if (argc - optind != 3)
        return cli_usage_error("crossover", "expected a workload and two variants");
    if (!o.axis)
        return cli_usage_error("crossover", "--axis is required");
    const dm_workload *w = registry_workload(argv[optind], &err);
    if (!w || !registry_variant(w, argv[optind + 1], &err) || !registry_variant(w, argv[optind + 2], &err))
        return cli_fail(&err);
    o.workload = w->name;
    o.variant_a = argv[optind + 1];
    o.variant_b = argv[optind + 2];

    dm_crossover_result r = { 0 };
    if (cli_open_existing(db, &st, &err) || crossover_compute(st, &o, &r, &err))
        status = cli_fail(&err);
    else {
        crossover_print(&r, &o, stdout);
        if (store && crossover_store(st, &o, &r, &err) != 0)
            status = cli_fail(&err);
        else if (store)
            printf("stored both fits for %s in %s\n", r.card[0] ? r.card : "no GPU",
                   store_path(st));
        if (status == DM_EXIT_OK && header && write_header(st, w, &rows, &err))
            status = cli_fail(&err);
        else if (status == DM_EXIT_OK && header && rows == 0)
            printf("%s holds no crossover fits of %s from a GPU run: its fits.h is left as "
                   "it was\n", store_path(st), w->name);
    }
    crossover_free(&r);
    store_close(st);
    return status;
}
