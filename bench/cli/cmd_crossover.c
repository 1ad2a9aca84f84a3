/* cmd_crossover.c - `dmbench crossover`: where two variants' median curves cross over an
 * axis, per group, with bootstrap intervals and the a/N + b vs a*N + b fits; and the
 * stored fits written as the header hybrid variants compile in. */
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
            "'no crossover in range' with the variant faster over the whole range, and the\n"
            "variant faster below the crossings (when every group that crosses agrees; a\n"
            "group that does not is left out of that). With --group, the crossovers are\n"
            "fitted to a/N + b and a*N + b by least squares: coefficients, standard errors,\n"
            "R^2 and the better form (from two groups: the line through both, without errors\n"
            "or R^2; a/N + b is kept). The card defaults to that of the workload's newest run.\n"
            "--store keeps both fits for the card in the database (table crossover_fits), and\n"
            "under the better one what each group measured (table crossover_groups).\n"
            "--header writes the better form of the newest stored fit per card, pair, axis\n"
            "and group of the workload (alone: of each workload with stored fits), with its\n"
            "groups, as its C header variants/<workload>/fits.h, which its hybrid variants\n"
            "switch kernels by once rebuilt: at the crossover their group measured, else at\n"
            "the fit, never against a group measured without a crossing ($DMBENCH_VARIANTS\n"
            "names another variants/ folder).\n");
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
    dm_crossover_opts o = { .level = 0.95 };
    const char *db = NULL;
    long resamples = 1000;
    uint64_t seed = 1;
    int store = 0, header = 0, rows = 0, all = 0;
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_STR("axis", &o.axis),
        CLI_OPT_STR("group", &o.group),
        CLI_OPT_STR("card", &o.card),
        CLI_OPT_INT("resamples", &resamples, 10, 1000000),
        CLI_OPT_REAL_OPEN("level", &o.level, 0, 1),
        CLI_OPT_U64("seed", &seed),
        CLI_OPT_FLAG("store", &store),
        CLI_OPT_FLAG("header", &header),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    o.resamples = (int)resamples;
    o.seed = seed;
    dm_err err = { 0 };
    dm_store *st = NULL;
    int status = DM_EXIT_OK;
    if (header && argc == first) { /* the stored fits only, of every workload */
        if (cli_open_existing(db, 0, &st, &err))
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
    if (argc - first != 3)
        return cli_usage_error("crossover", "expected a workload and two variants");
    if (!o.axis)
        return cli_usage_error("crossover", "--axis is required");
    const dm_workload *w = registry_workload(argv[first], &err);
    if (!w || !registry_variant(w, argv[first + 1], &err) || !registry_variant(w, argv[first + 2], &err))
        return cli_fail(&err);
    o.workload = w->name;
    o.variant_a = argv[first + 1];
    o.variant_b = argv[first + 2];

    dm_crossover_result r = { 0 };
    if (cli_open_existing(db, store, &st, &err) || crossover_compute(st, &o, &r, &err))
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
