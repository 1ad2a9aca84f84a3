/* calibrate.c - a workload's calibration carried out: the sweep run through the engine,
 * the plain measurement, and each engine variant's best bandwidth set against it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "query.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"

/* Notes a figure on the run. Returns 0 or DM_ERUNTIME. */
static int note(dm_store *st, int64_t run, const char *key, double v, dm_err *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.2f", v);
    return store_run_note(st, run, key, buf, err);
}

/* Runs the calibration sweep; fills r->run_id and r->failed. */
static int run_sweep(const calibrate_opts *o, calibrate_result *r, dm_err *err)
{
    const dm_calibration *c = o->w->calibration;
    size_t len = strlen(c->sweep) + 32;
    char *text = malloc(len);
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    dm_sink sink;
    int rc;
    if (!text)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    snprintf(text, len, c->sweep, (long long)(o->bytes / c->item_bytes));
    char origin[96];
    snprintf(origin, sizeof origin, "%s calibration (built in)", o->w->name);
    if ((rc = sweep_parse_string(text, origin, &s, err)) == 0 &&
        (rc = sweep_expand(s, o->device, &e, err)) == 0 &&
        (rc = store_sink_make(o->db_path, &sink, err)) == 0) {
        dm_run_opts ro = {
            .sink = &sink,
            .progress = o->progress,
            .argv_text = "dmbench calibrate",
            .sweep_key = text,
            .device = o->device,
        };
        dm_run_result res;
        rc = runner_run(s, &e, &ro, &res, err);
        r->run_id = res.run_id;
        r->failed = res.failed + (res.ok == 0);
    }
    sweep_expansion_free(&e);
    sweep_free(s);
    free(text);
    return rc;
}

int calibrate_run(const calibrate_opts *o, calibrate_result *r, dm_err *err)
{
    const dm_calibration *c = o->w->calibration;
    memset(r, 0, sizeof *r);
    if (!c)
        return dm_err_set(err, DM_EINPUT, "workload '%s' has no calibration", o->w->name);
    if (o->bytes < c->item_bytes)
        return dm_err_set(err, DM_EINPUT, "calibration size %lld bytes is below one item",
                          (long long)o->bytes);
    int rc = run_sweep(o, r, err);
    if (rc != 0 || r->failed)
        return rc;

    dm_store *st = NULL;
    if ((rc = c->plain(o->bytes, c->plain_iters, &r->plain, err)) != 0 ||
        (rc = store_open(o->db_path, &st, err)) != 0)
        goto out;
    r->ok = 1;
    for (int i = 0; c->variants[i] && r->n < CALIBRATE_MAX; i++) {
        calibrate_line *l = &r->lines[r->n++];
        int64_t samples;
        l->variant = c->variants[i];
        if ((rc = query_best_gbps(st, r->run_id, l->variant, c->key_part, &l->gbps, l->params,
                                  sizeof l->params, &samples, err)) != 0)
            goto out;
        l->ratio = l->gbps / r->plain;
        l->within = isfinite(l->ratio) && fabs(l->ratio - 1) <= c->tolerance;
        r->ok &= l->within;
        char key[96];
        snprintf(key, sizeof key, "engine_%s_gbps", l->variant);
        if ((rc = note(st, r->run_id, key, l->gbps, err)) != 0)
            goto out;
    }
    char verdict[64];
    snprintf(verdict, sizeof verdict, "%s %.0f%%", r->ok ? "within" : "outside",
             c->tolerance * 100);
    if ((rc = note(st, r->run_id, "plain_gbps", r->plain, err)) == 0)
        rc = store_run_note(st, r->run_id, "calibration", verdict, err);
out:
    store_close(st);
    return rc;
}
