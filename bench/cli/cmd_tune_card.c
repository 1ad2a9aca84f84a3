/* cmd_tune_card.c - `dmbench tune --card`: tunes the card at hand for every workload (or
 * those named) in one call: runs each workload's tuning sweeps (its card_tuning), then
 * stores the block sizes chosen from them and the crossovers fitted for its hybrids in
 * the database's per-card store, which the next run reads; prints what it stored and how
 * long each step took. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "card_choices.h"
#include "card_store.h"
#include "cli.h"
#include "crossover.h"
#include "device.h"
#include "measure.h"
#include "registry.h"
#include "srcdir.h"
#include "tune.h"

/* Runs sweep (a name under sweeps/) on GPU device into db, quietly. Returns the exit
 * status of the run. */
static int tc_run(const char *sweep, const char *db, int device)
{
    char dir[PATH_MAX], file[160], path[PATH_MAX + 170];
    dm_err err = { 0 };
    snprintf(file, sizeof file, "%s.yaml", sweep);
    if (dm_find_source_dir("DMBENCH_SWEEPS", "sweeps", file, dir, sizeof dir, &err))
        return cli_fail(&err);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *argv[] = { "tune", NULL };
    cli_run_args a = { .sweep = path, .db = db, .quiet = 1, .device_index = device,
                       .min_samples = -1, .max_noise = -1, .max_time = -1, .argc = 1,
                       .argv = argv };
    return cli_run_sweep(&a);
}

/* Stores w's block sizes chosen on card from the database. */
static int tc_tune(dm_store *st, const dm_workload *w, const char *card, int *stored,
                   dm_err *err)
{
    dm_tune_opts o = { .workload = w->name, .axis = "block", .alpha = 0.05,
                       .tolerance = 0.01 };
    dm_tune_result r = { 0 };
    int rc = tune_compute(st, &o, &r, err);
    if (rc == 0)
        rc = card_store_put_tuned(st, &r, &o, card, stored, err);
    tune_free(&r);
    return rc;
}

/* Fits and stores crossover x of w on card; says what it found on out. A crossover the
 * runs do not show (fewer than two groups cross) is said, not an error. */
static int tc_crossover(dm_store *st, const dm_workload *w, const dm_card_crossover *x,
                        const char *card, FILE *out, dm_err *err)
{
    dm_crossover_opts o = { .workload = w->name, .variant_a = x->variant_a,
                            .variant_b = x->variant_b, .axis = x->axis, .group = x->group,
                            .card = card, .resamples = 1000, .level = 0.95, .seed = 1 };
    dm_crossover_result r = { 0 };
    int rc = crossover_compute(st, &o, &r, err);
    if (rc == 0 && r.better >= 0)
        rc = crossover_store(st, &o, &r, err);
    if (rc == 0 && r.better >= 0)
        fprintf(out, "  %s: %s/%s over %s by %s: %s, a %.4g, b %.4g, R^2 %.3f (stored)\n",
                w->name, x->variant_a, x->variant_b, x->axis, x->group, r.fit[r.better].form,
                r.fit[r.better].a, r.fit[r.better].b, r.fit[r.better].r2);
    else if (rc == 0 || rc == DM_EINPUT) {
        fprintf(out, "  %s: %s/%s over %s by %s: no fit (%s); its hybrid keeps what it had\n",
                w->name, x->variant_a, x->variant_b, x->axis, x->group,
                rc ? err->msg : "fewer than two groups cross");
        rc = 0;
    }
    crossover_free(&r);
    return rc;
}

/* Tunes workload w on card: its sweeps, then its choices and fits. */
static int tc_workload(const dm_workload *w, const char *db, int device, const char *card,
                       FILE *out)
{
    dm_err err = { 0 };
    dm_store *st = NULL;
    int stored = 0, rc;
    double t0 = dm_now();
    for (const char *const *s = w->card_tuning->sweeps; *s; s++) {
        double t = dm_now();
        if ((rc = tc_run(*s, db, device)) != DM_EXIT_OK)
            return rc;
        fprintf(out, "  %s: ran %s in %.0f s\n", w->name, *s, dm_now() - t);
    }
    if (store_open(db, &st, &err) != 0 || tc_tune(st, w, card, &stored, &err) != 0) {
        store_close(st);
        return cli_fail(&err);
    }
    fprintf(out, "  %s: stored %d block %s for %s\n", w->name, stored,
            stored == 1 ? "size" : "sizes", card);
    for (const dm_card_crossover *x = w->card_tuning->crossovers; x && x->variant_a; x++)
        if (tc_crossover(st, w, x, card, out, &err) != 0) {
            store_close(st);
            return cli_fail(&err);
        }
    store_close(st);
    fprintf(out, "  %s: tuned in %.0f s\n", w->name, dm_now() - t0);
    return DM_EXIT_OK;
}

int cli_tune_card(const char *workloads, const char *db_opt, int device)
{
    dm_err err = { 0 };
    dm_device dev;
    const dm_device *devp = NULL;
    char why[512] = "", names[256];
    const char *db = cli_db_path(db_opt);
    if (device_pick(device, &dev, &devp, why, sizeof why, &err) != 0)
        return cli_fail(&err);
    if (!devp) {
        dm_err_set(&err, DM_EINPUT, "tune --card tunes the GPU at hand, and there is none (%s)",
                   why);
        return cli_fail(&err);
    }
    const dm_workload *todo[64];
    int n = 0;
    if (workloads) {
        snprintf(names, sizeof names, "%s", workloads);
        for (char *save = NULL, *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            const dm_workload *w = registry_workload(t, &err);
            if (!w)
                return cli_fail(&err);
            if (!w->card_tuning) {
                dm_err_set(&err, DM_EINPUT, "tune --card: workload %s has nothing to tune per "
                           "card", w->name);
                return cli_fail(&err);
            }
            if (n < 64)
                todo[n++] = w;
        }
    } else {
        for (const dm_workload *const *w = registry_workloads(); *w && n < 64; w++)
            if ((*w)->card_tuning)
                todo[n++] = *w;
    }
    double t0 = dm_now();
    printf("tune --card: %s (compute capability %d.%d, GPU %d) into %s\n", devp->name,
           devp->cc_major, devp->cc_minor, devp->index, db);
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        int rc = tc_workload(todo[i], db, device, devp->name, stdout);
        fflush(stdout);
        if (rc != DM_EXIT_OK)
            return rc;
    }
    printf("tune --card: %s tuned in %.0f s; the next run on %s uses it\n", devp->name,
           dm_now() - t0, db);
    return DM_EXIT_OK;
}
