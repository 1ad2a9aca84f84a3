/* cmd_tune.c - `dmbench tune WORKLOAD`: the best block size per card, variant and
 * problem bucket from the results database, with ties never decided on noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_store.h"
#include "cli.h"
#include "registry.h"
#include "tune.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench tune WORKLOAD[,WORKLOAD...] [--variant V] [--axis NAME] [--alpha P]\n"
            "                    [--tolerance F] [--explain] [--json FILE] [--store]\n"
            "                    [--header] [--db PATH]\n"
            "       dmbench tune --card [WORKLOAD[,WORKLOAD...]] [--device N] [--db PATH]\n\n"
            "--card tunes the GPU at hand (GPU N, default 0) for every workload that has\n"
            "tuning sweeps, or those named: runs them into the database, then stores this\n"
            "card's block sizes and its hybrids' crossover fits in its per-card store, which\n"
            "the next run uses (minutes; each step's time is printed).\n\n"
            "For each workload, card, variant and problem bucket (the other parameters) in\n"
            "the database, picks the value of the block-size axis (default 'block') with the\n"
            "lowest median time. Values whose raw samples a Mann-Whitney U test cannot tell\n"
            "from the best (p >= alpha, default 0.05) or whose median is within the\n"
            "tolerance of the best (default 0.01) are ties, and the smallest tie wins.\n"
            "--explain shows every candidate; --json FILE writes the choices (\"-\": standard\n"
            "output). --store keeps the choices in the database's per-card store (table\n"
            "tuned_choices), which every later `run` and `mine` on that database reads: a\n"
            "sweep that leaves the axis open takes them at once, with no rebuild (a later\n"
            "choice of the same card and bucket replaces the earlier). --header writes each\n"
            "workload's choices as its compiled-in table, the shipped defaults,\n"
            "variants/<workload>/tuned.h, which its sweeps use once rebuilt when they leave\n"
            "the axis open (a workload without choices keeps its file; $DMBENCH_VARIANTS\n"
            "names another variants/ folder to write into).\n");
}

/* Writes the JSON of the choices to path ("-" is stdout). Returns 0 or sets err. */
static int write_json(const char *path, const dm_tune_result *r, const dm_tune_opts *o,
                      dm_err *err)
{
    int to_stdout = path[0] == '-' && path[1] == '\0';
    FILE *f = stdout;
    int rc;
    if (!to_stdout && (rc = dm_open_output(path, "w", &f, err)))
        return rc;
    tune_write_json(r, o, f);
    if ((to_stdout ? fflush(f) : fclose(f)) != 0)
        return dm_err_set(err, DM_ERUNTIME, "%s: write failed", path);
    return 0;
}

/* Writes variants/<w>/tuned.h for each workload w of o->workload that has choices in r,
 * saying on say what it wrote or kept. Returns 0 or sets err. */
static int write_headers(const dm_tune_result *r, const dm_tune_opts *o, const char *db,
                         FILE *say, dm_err *err)
{
    char names[256], path[4352];
    snprintf(names, sizeof names, "%s", o->workload);
    for (char *save = NULL, *w = strtok_r(names, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            return dm_err_set(err, DM_ERUNTIME, "out of memory writing the header of %s", w);
        int rows = tune_write_header(r, o, w, db, mem), rc = 0;
        if (fclose(mem) != 0)
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory writing the header of %s", w);
        else if (rows)
            rc = cli_write_variant_file(w, "tuned.h", text, len, path, sizeof path, err);
        free(text);
        if (rc)
            return rc;
        if (rows)
            fprintf(say, "wrote %d tuned %s of %s to %s\n", rows, rows == 1 ? "value" : "values",
                    w, path);
        else
            fprintf(say, "%s has no choices in %s: its tuned.h is left as it was\n", w, db);
    }
    return 0;
}

int cmd_tune(int argc, char **argv)
{
    dm_tune_opts o = { .axis = "block", .alpha = 0.05, .tolerance = 0.01 };
    const char *db = NULL, *json = NULL;
    int explain = 0, header = 0, store = 0, stored = 0, card = 0;
    long device = 0;
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_STR("variant", &o.variant),
        CLI_OPT_STR("axis", &o.axis),
        CLI_OPT_REAL("alpha", &o.alpha, 0, 1),
        CLI_OPT_REAL("tolerance", &o.tolerance, 0, 1),
        CLI_OPT_FLAG("explain", &explain),
        CLI_OPT_STR("json", &json),
        CLI_OPT_FLAG("header", &header),
        CLI_OPT_FLAG("store", &store),
        CLI_OPT_FLAG("card", &card),
        CLI_OPT_INT("device", &device, 0, 1023),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (card && (argc - first > 1 || header || store || json || explain || o.variant))
        return cli_usage_error("tune", "--card takes at most a workload list, --device and "
                               "--db");
    if (card)
        return cli_tune_card(argc > first ? argv[first] : NULL, db, (int)device);
    if (argc - first != 1)
        return cli_usage_error("tune", "expected one workload");
    dm_err err = { 0 };
    char names[256];
    snprintf(names, sizeof names, "%s", argv[first]);
    o.workload = argv[first];
    for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        const dm_workload *w = registry_workload(tok, &err);
        if (!w)
            return cli_fail(&err);
        if (o.variant && !registry_variant(w, o.variant, &err))
            return cli_fail(&err);
    }

    dm_store *st = NULL;
    dm_tune_result r = { 0 };
    int status = DM_EXIT_OK;
    int json_stdout = json && strcmp(json, "-") == 0;
    if (cli_open_existing(db, store, &st, &err) || tune_compute(st, &o, &r, &err) ||
        (store && card_store_put_tuned(st, &r, &o, NULL, &stored, &err)) ||
        (json && write_json(json, &r, &o, &err)) ||
        (header && write_headers(&r, &o, cli_db_path(db), json_stdout ? stderr : stdout, &err)))
        status = cli_fail(&err);
    else if (!json_stdout)
        tune_print(&r, &o, explain, stdout);
    if (status == DM_EXIT_OK && store && stored)
        fprintf(json_stdout ? stderr : stdout, "stored %d tuned %s in %s: the next run on it "
                "uses them\n", stored, stored == 1 ? "choice" : "choices", cli_db_path(db));
    else if (status == DM_EXIT_OK && store)
        fprintf(json_stdout ? stderr : stdout, "stored nothing in %s: no bucket was measured "
                "at two or more values of %s\n", cli_db_path(db), o.axis);
    tune_free(&r);
    store_close(st);
    return status;
}
