/* cupti_profile.c - hardware metrics per kernel launch with the Range Profiler: the counter
 * check made once per run, and the profiling pass of a point (auto range: one range per
 * launch; kernel replay: CUPTI re-runs each kernel once per pass, serialised, which is why
 * nothing here is ever a timing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "cupti_int.h"

typedef int (*cupti_run_fn)(void *state, dm_err *err);

int cupti_chip_name(int device, char *buf, size_t n, dm_err *err)
{
    CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, deinit);
    CUPTI_PARAMS(CUpti_Device_GetChipName_Params, chip);
    chip.deviceIndex = (size_t)device;
    if (DM_CUPTI(err, cuptiProfilerInitialize(&init)))
        return DM_ERUNTIME;
    int rc = DM_CUPTI(err, cuptiDeviceGetChipName(&chip));
    if (rc == 0)
        snprintf(buf, n, "%s", chip.pChipName);
    cuptiProfilerDeInitialize(&deinit);
    return rc;
}

/* The current CUDA context, from the driver through the runtime (dmbench does not link
 * libcuda, so that it starts where there is no driver). Returns 0 or -1 with err set. */
static int cupti_current_ctx(void **ctx, dm_err *err)
{
    CUresult (*get)(CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult found;
    CUcontext cu = NULL;
    if (DM_CUDA(err, cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get, 12000,
                                                      cudaEnableDefault, &found)))
        return -1;
    if (found != cudaDriverEntryPointSuccess || !get)
        return dm_err_set(err, DM_ERUNTIME, "the driver has no cuCtxGetCurrent");
    if (get(&cu) != CUDA_SUCCESS || !cu)
        return dm_err_set(err, DM_ERUNTIME, "no current CUDA context to profile");
    *ctx = cu;
    return 0;
}

/* Runs run(state) under the range profiler with room for max_ranges ranges. On success
 * *data (malloc'd; the caller frees it) holds the decoded counter data image of *size
 * bytes with *nranges ranges. The launch log, when begun, covers the first submission
 * only. Returns 0, or -1 with CUPTI's or the runtime's error (the run's own failure
 * included). */
static int cupti_ranges(dm_cupti *c, cupti_run_fn run, void *state, size_t max_ranges,
                        uint8_t **data, size_t *size, size_t *nranges, dm_err *err)
{
    CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, en);
    CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, ds);
    const char *names[CUPTI_MAX_METRICS];
    uint8_t *image = NULL;
    int rc = -1;
    *data = NULL;
    for (int i = 0; i < c->metrics.n; i++)
        names[i] = c->metrics.m[i].name;
    en.ctx = (CUcontext)c->ctx;
    if (DM_CUPTI(err, cuptiRangeProfilerEnable(&en)))
        return -1;
    ds.pRangeProfilerObject = en.pRangeProfilerObject;
    ds.pMetricNames = names;
    ds.numMetrics = (size_t)c->metrics.n;
    ds.maxNumOfRanges = max_ranges;
    ds.maxNumRangeTreeNodes = (uint32_t)max_ranges;
    if (DM_CUPTI(err, cuptiRangeProfilerGetCounterDataSize(&ds)))
        goto out;
    if (!(image = calloc(1, ds.counterDataSize))) {
        dm_err_set(err, DM_ERUNTIME, "out of memory for a counter data image of %zu bytes",
                   ds.counterDataSize);
        goto out;
    }
    CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, ci);
    ci.pRangeProfilerObject = en.pRangeProfilerObject;
    ci.counterDataSize = ds.counterDataSize;
    ci.pCounterData = image;
    CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, sc);
    sc.pRangeProfilerObject = en.pRangeProfilerObject;
    sc.pConfig = cupti_host_config(c->host, &sc.configSize);
    sc.counterDataImageSize = ds.counterDataSize;
    sc.pCounterDataImage = image;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = max_ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.targetNestingLevel = 1;
    if (DM_CUPTI(err, cuptiRangeProfilerCounterDataImageInitialize(&ci)) ||
        DM_CUPTI(err, cuptiRangeProfilerSetConfig(&sc)))
        goto out;
    /* Kernel replay submits every pass within one start/stop; the loop covers a CUPTI
     * that asks for more, up to one submission per pass. */
    CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, sp);
    sp.pRangeProfilerObject = en.pRangeProfilerObject;
    for (int submission = 0; !sp.isAllPassSubmitted; submission++) {
        CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, st);
        st.pRangeProfilerObject = en.pRangeProfilerObject;
        if (submission > c->passes) {
            dm_err_set(err, DM_ERUNTIME, "the range profiler wanted more than %d "
                       "submissions for %d passes", submission, c->passes);
            goto out;
        }
        if (DM_CUPTI(err, cuptiRangeProfilerStart(&st)))
            goto out;
        int ran = run(state, err) == 0 && DM_CUDA(err, cudaDeviceSynchronize()) == 0;
        c->logging = 0;
        if (DM_CUPTI(ran ? err : NULL, cuptiRangeProfilerStop(&sp)) || !ran)
            goto out;
    }
    CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, dd);
    dd.pRangeProfilerObject = en.pRangeProfilerObject;
    CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, di);
    di.pCounterDataImage = image;
    di.counterDataImageSize = ds.counterDataSize;
    if (DM_CUPTI(err, cuptiRangeProfilerDecodeData(&dd)) ||
        DM_CUPTI(err, cuptiRangeProfilerGetCounterDataInfo(&di)))
        goto out;
    *data = image;
    *size = ds.counterDataSize;
    *nranges = di.numTotalRanges;
    image = NULL;
    rc = 0;
out:
    {
        CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, dp);
        dp.pRangeProfilerObject = en.pRangeProfilerObject;
        cuptiRangeProfilerDisable(&dp);
    }
    free(image);
    return rc;
}

/* The launch a range was taken at: its auto-range name ("0", "1", ...), else its index. */
static size_t cupti_range_launch(const uint8_t *data, size_t size, size_t range)
{
    CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params, ri);
    ri.pCounterDataImage = data;
    ri.counterDataImageSize = size;
    ri.rangeIndex = range;
    ri.rangeDelimiter = "/";
    char *end = NULL;
    if (cuptiRangeProfilerCounterDataGetRangeInfo(&ri) != CUPTI_SUCCESS ||
        !ri.rangeName)
        return range;
    unsigned long k = strtoul(ri.rangeName, &end, 10);
    return end != ri.rangeName && *end == '\0' ? (size_t)k : range;
}

/* Why range profiling is not supported on device, from CUPTI's support flags. */
static void cupti_unsupported(const CUpti_Profiler_DeviceSupported_Params *sup, char *buf,
                              size_t n)
{
    static const char *const level[] = {"unknown", "unsupported", "disabled", "supported"};
    const struct { const char *what; CUpti_Profiler_Support_Level l; } f[] = {
        {"architecture", sup->architecture}, {"SLI", sup->sli}, {"vGPU", sup->vGpu},
        {"confidential compute", sup->confidentialCompute}, {"CMP", sup->cmp},
        {"WSL", sup->wsl},
    };
    snprintf(buf, n, "range profiling is not supported on this device:");
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i].l != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
            snprintf(buf + strlen(buf), n - strlen(buf), " %s %s", f[i].what,
                     (unsigned)f[i].l < 4 ? level[f[i].l] : "?");
}

void cupti_counters_probe(dm_cupti *c)
{
    dm_err err = {0};
    uint8_t *avail = NULL, *data = NULL;
    size_t size = 0, nranges = 0;
    const char *off = getenv("DMBENCH_CUPTI_DISABLE");
    if (off && off[0] && strcmp(off, "0") != 0) {
        snprintf(c->counters_problem, sizeof c->counters_problem,
                 "disabled by DMBENCH_CUPTI_DISABLE");
        return;
    }
    CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, init);
    CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params, sup);
    CUPTI_PARAMS(CUpti_Device_GetChipName_Params, chip);
    CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params, ca);
    sup.cuDevice = c->dev.index;
    sup.api = CUPTI_PROFILER_RANGE_PROFILING;
    chip.deviceIndex = (size_t)c->dev.index;
    if (DM_CUPTI(&err, cuptiProfilerInitialize(&init)))
        goto fail;
    c->profiler_up = 1;
    if (DM_CUPTI(&err, cuptiProfilerDeviceSupported(&sup)))
        goto fail;
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        cupti_unsupported(&sup, err.msg, sizeof err.msg);
        goto fail;
    }
    if (DM_CUPTI(&err, cuptiDeviceGetChipName(&chip)) || cupti_current_ctx(&c->ctx, &err))
        goto fail;
    snprintf(c->chip, sizeof c->chip, "%s", chip.pChipName);
    /* The availability image lets the host API leave out counters another tool holds;
     * where it cannot be had, the config is built without it. */
    ca.ctx = (CUcontext)c->ctx;
    if (cuptiProfilerGetCounterAvailability(&ca) == CUPTI_SUCCESS &&
        (avail = malloc(ca.counterAvailabilityImageSize))) {
        ca.pCounterAvailabilityImage = avail;
        if (cuptiProfilerGetCounterAvailability(&ca) != CUPTI_SUCCESS) {
            free(avail);
            avail = NULL;
        }
    }
    if (cupti_host_open(c->chip, avail, &c->metrics, &c->host, &err))
        goto fail;
    c->passes = cupti_host_passes(c->host);
    /* One profiled launch: privileges, MPS, vGPU and counters held elsewhere show here. */
    if (cupti_ranges(c, cupti_probe_kernel_run, NULL, 1, &data, &size, &nranges, &err))
        goto fail;
    if (nranges != 1) {
        dm_err_set(&err, DM_ERUNTIME, "the counter check collected %zu ranges for one launch",
                   nranges);
        goto fail;
    }
    free(avail);
    free(data);
    return;
fail:
    snprintf(c->counters_problem, sizeof c->counters_problem, "%s", err.msg);
    cupti_host_close(c->host);
    c->host = NULL;
    free(avail);
    free(data);
}

void cupti_counters_release(dm_cupti *c)
{
    cupti_host_close(c->host);
    c->host = NULL;
    if (c->profiler_up) {
        CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, deinit);
        cuptiProfilerDeInitialize(&deinit);
        c->profiler_up = 0;
    }
}

/* Gives p the launches (copied) with every value NULL for reason. Returns 0, or
 * DM_ERUNTIME when out of memory. */
static int cupti_null_rows(dm_cupti *c, const dm_launch *launches, size_t n,
                           dm_cupti_point *p, const char *reason)
{
    size_t nm = (size_t)c->metrics.n;
    snprintf(p->metrics_reason, sizeof p->metrics_reason, "%s", reason);
    if (n == 0)
        return 0;
    if (!(p->launches = malloc(n * sizeof *p->launches)) ||
        !(p->values = malloc(n * nm * sizeof *p->values)))
        return DM_ERUNTIME;
    memcpy(p->launches, launches, n * sizeof *p->launches);
    p->nlaunches = n;
    for (size_t i = 0; i < n * nm; i++)
        p->values[i] = NAN;
    return 0;
}

int cupti_profile(dm_cupti *c, const dm_variant *v, void *state, dm_cupti_point *p)
{
    dm_err err = {0};
    uint8_t *data = NULL;
    size_t size = 0, nranges = 0, nm = (size_t)c->metrics.n;
    p->profiled = 1;
    p->metrics = &c->metrics;
    if (c->counters_problem[0])
        return cupti_null_rows(c, c->verified, c->nverified, p, c->counters_problem);
    if (c->nverified == 0) {
        if (c->subscriber)
            snprintf(p->metrics_reason, sizeof p->metrics_reason, "no kernel launches");
        else
            snprintf(p->metrics_reason, sizeof p->metrics_reason,
                     "kernel launches cannot be logged: %.960s", c->attrs_problem);
        return 0;
    }
    size_t max_ranges = c->nverified < CUPTI_MAX_RANGES ? c->nverified : CUPTI_MAX_RANGES;
    cupti_log_begin(c);
    int failed = cupti_ranges(c, v->run, state, max_ranges, &data, &size, &nranges, &err);
    dm_err log_err = {0};
    if (cupti_log_end(c, &log_err))
        return log_err.code;
    /* The pass's own launches; the verification run's if none were logged. */
    const dm_launch *launches = c->nlog ? c->log : c->verified;
    size_t nlaunches = c->nlog ? c->nlog : c->nverified;
    int rc = cupti_null_rows(c, launches, nlaunches, p, failed ? err.msg : "");
    if (failed) {
        free(data);
        return rc;
    }
    size_t evaluated = 0;
    for (size_t r = 0; rc == 0 && r < nranges; r++) {
        size_t k = cupti_range_launch(data, size, r);
        if (k >= p->nlaunches)
            continue;
        if (cupti_host_evaluate(c->host, data, size, r, &p->values[k * nm], &err)) {
            snprintf(p->metrics_reason, sizeof p->metrics_reason, "%s", err.msg);
            for (size_t m = 0; m < nm; m++)
                p->values[k * nm + m] = NAN;
            continue;
        }
        evaluated++;
    }
    if (rc == 0 && !p->metrics_reason[0] && evaluated < p->nlaunches)
        snprintf(p->metrics_reason, sizeof p->metrics_reason,
                 "no profiler range for %zu of %zu launches (at most %zu ranges, as many as "
                 "the verification run launched, up to %d)", p->nlaunches - evaluated,
                 p->nlaunches, max_ranges, CUPTI_MAX_RANGES);
    free(data);
    return rc;
}
