/* mine.c - `dmbench mine`'s engine: picks the device, makes the point (sweep_point) and
 * its dataset, runs the variant once on a stream of its own, compares the output with
 * the CPU reference, and only then hands it to the workload's result writer. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device.h"
#include "mine.h"
#include "sweep.h"
#include "verify.h"

/* Picks GPU index into *dev (*devp NULL when there is none). Returns 0; DM_ENOGPU when v
 * needs a GPU and there is none; else as device_pick. */
static int mine_device(const dm_workload *w, const dm_variant *v, int index, dm_device *dev,
                       const dm_device **devp, dm_err *err)
{
    char why[512] = "";
    int rc = device_pick(index, dev, devp, why, sizeof why, err);
    if (rc == 0 && !*devp && v->needs_gpu)
        rc = dm_err_set(err, DM_ENOGPU, "variant '%s' of workload '%s' runs on a GPU, and "
                        "there is none here (%s)", v->name, w->name, why);
    return rc;
}

/* Writes facts[0..n) to f, a line per run of facts of one group: "# level 3:
 * candidates 1234, count_s 0.0123 s". */
static void print_facts(FILE *f, const dm_fact *facts, int n)
{
    for (int i = 0; i < n; i++) {
        int first = i == 0 || strcmp(facts[i].group, facts[i - 1].group) != 0;
        if (first)
            fprintf(f, "%s# %s:", i ? "\n" : "", facts[i].group);
        fprintf(f, "%s %s %.6g%s%s", first ? "" : ",", facts[i].name, facts[i].value,
                facts[i].unit ? " " : "", facts[i].unit ? facts[i].unit : "");
    }
    if (n)
        fputc('\n', f);
}

/* Mining runs on one GPU: a multi-GPU variant's point asking more is refused. */
static int mine_one_gpu(const dm_variant *v, const dm_point *pt, dm_err *err)
{
    int64_t gpus = v->multi_gpu ? dm_point_int(pt, "gpus") : 1;
    if (gpus > 1)
        return dm_err_set(err, DM_EINPUT, "-p gpus=%lld: dmbench mine runs on one GPU (its "
                          "--device); `dmbench run --devices` runs points on several",
                          (long long)gpus);
    return DM_OK;
}

/* Writes out, the output of pt, to f as CSV, with the line that says when it is a bound;
 * then its facts. Returns 0, or DM_ERUNTIME with err set (a write failed). */
static int mine_write(const dm_mine_opts *o, const dm_point *pt, const void *out, FILE *f,
                      dm_err *err)
{
    const dm_workload *w = o->workload;
    const char *bound = dm_point_bound(pt);
    if (bound && fprintf(f, "# %s\n", bound) < 0)
        return dm_err_set(err, DM_ERUNTIME, "writing the result failed");
    int rc = w->write_result(out, pt, f, err);
    if (rc == 0 && o->facts && w->facts) {
        dm_fact facts[DM_MAX_FACTS];
        print_facts(o->facts, facts, w->facts(out, pt, facts, DM_MAX_FACTS));
    }
    return rc;
}

int mine_point(const dm_mine_opts *o, FILE *f, dm_mined *ran, dm_err *err)
{
    dm_point *pt = &ran->pt;
    const dm_workload *w = o->workload;
    const dm_variant *v = o->variant;
    dm_device dev;
    dm_exec ex = {0};
    dm_dataset ds = {0};
    int rc;
    void *ref = NULL, *state = NULL;
    const void *out = NULL;
    char why[512] = "";

    if ((rc = mine_device(w, v, o->device, &dev, &ex.device, err)) != 0 ||
        (rc = sweep_point(w, v, o->params, o->nparams, o->source, ex.device, pt, err)) != 0 ||
        (rc = mine_one_gpu(v, pt, err)) != 0 ||
        (rc = w->dataset_open(o->source, pt, &ds, err)) != 0)
        return rc;
    snprintf(ran->data, sizeof ran->data, "%s", ds.name);
    snprintf(ran->shape, sizeof ran->shape, "%s", ds.shape);
    ex.gpus = &ex.device;
    ex.ngpus = ex.device != NULL;
    if (o->verify && (rc = w->reference(&ds, pt, &ref, err)) != 0) {
        dm_err_prefix(err, "CPU reference");
        goto done;
    }
    if (v->needs_gpu) {
        cudaStream_t stream;
        if ((rc = DM_CUDA(err, cudaSetDevice(ex.device->index))) != 0 ||
            (rc = DM_CUDA(err, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking))) != 0)
            goto done;
        ex.stream = stream;
    }
    switch (verify_point(&ex, &ds, pt, ref, NULL, &state, &out, why, sizeof why, err)) {
    case DM_VERIFY_SETUP:
        rc = dm_err_prefix(err, "setup of variant '%s'", v->name);
        goto done;
    case DM_VERIFY_RUN:
        rc = dm_err_prefix(err, "variant '%s'", v->name);
        goto done;
    case DM_VERIFY_MISMATCH:
        rc = dm_err_set(err, DM_ERUNTIME, "the output of variant '%s' differs from the CPU "
                        "reference: %s", v->name, why);
        goto done;
    case DM_VERIFY_MATCH:
        break;
    }
    rc = mine_write(o, pt, out, f, err);
done:
    if (state)
        v->teardown(state);
    if (ex.stream)
        DM_CUDA_WARN(cudaStreamDestroy((cudaStream_t)ex.stream));
    if (ref)
        w->reference_free(ref);
    w->dataset_close(&ds);
    return rc;
}
