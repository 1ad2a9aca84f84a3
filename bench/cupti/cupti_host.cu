/* cupti_host.cu - the Profiler Host API half of the metrics pass: metric names to a config
 * image and a pass count by chip name (no GPU needed, so names are checked up front and in
 * CI), and counter data to values. C++ only because cupti_profiler_host.h includes <string>;
 * the entry points are extern "C" and the code is C style. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_host.h>
#include <cupti_result.h>

#include "cupti_int.h"

struct cupti_host {
    CUpti_Profiler_Host_Object *obj;
    uint8_t *config;
    size_t config_size;
    int passes;
    int nmetrics;
    const char *names[CUPTI_MAX_METRICS];
};

/* Starts a host object for chip. Returns 0, DM_EINPUT for an unknown chip (naming the
 * chips CUPTI knows), or -1 with CUPTI's error. */
static int cupti_host_start(const char *chip, const uint8_t *avail,
                            CUpti_Profiler_Host_Object **obj, dm_err *err)
{
    CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, hi);
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    hi.pCounterAvailabilityImage = avail;
    CUptiResult r = cuptiProfilerHostInitialize(&hi);
    if (r == CUPTI_ERROR_INVALID_CHIP_NAME) {
        char known[512] = "";
        CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params, sc);
        if (cuptiProfilerHostGetSupportedChips(&sc) == CUPTI_SUCCESS)
            for (size_t i = 0; i < sc.numChips; i++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         i ? ", " : "", sc.ppChipNames[i]);
        return dm_err_set(err, DM_EINPUT, "unknown chip '%s'; expected one of: %s", chip,
                          known);
    }
    if (DM_CUPTI(err, r))
        return -1;
    *obj = hi.pHostObject;
    return 0;
}

static void cupti_host_stop(CUpti_Profiler_Host_Object *obj)
{
    CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, hd);
    hd.pHostObject = obj;
    cuptiProfilerHostDeinitialize(&hd);
}

/* CUPTI's dimension units, shortened to those of the traits table. */
static const char *cupti_host_unit(const char *dim)
{
    static const struct { const char *dim, *unit; } map[] = {
        {"percent", "%"}, {"nanosecond", "ns"}, {"byte", "bytes"}, {"l2_sector", "sectors"},
        {"sector", "sectors"}, {"cycle", "cycles"}, {"warp", "warps"}, {"thread", "threads"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(dim, map[i].dim) == 0)
            return map[i].unit;
    return dim;
}

/* Checks each metric of l on obj's chip, filling units of raw names. Returns 0, DM_EINPUT
 * at the first name that is not a metric of chip, or -1 with CUPTI's error. */
static int cupti_host_names(CUpti_Profiler_Host_Object *obj, const char *chip,
                            cupti_metric_list *l, dm_err *err)
{
    for (int i = 0; i < l->n; i++) {
        CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, mp);
        mp.pHostObject = obj;
        mp.pMetricName = l->m[i].name;
        CUptiResult r = cuptiProfilerHostGetMetricProperties(&mp);
        if (r == CUPTI_ERROR_INVALID_METRIC_NAME)
            return dm_err_set(err, DM_EINPUT, "'%s' is not a metric of chip %s; expected a "
                              "perfworks metric name such as dram__bytes_read.sum",
                              l->m[i].name, chip);
        if (DM_CUPTI(err, r))
            return -1;
        if (!l->m[i].unit[0] && mp.pDimUnit)
            snprintf(l->m[i].unit, sizeof l->m[i].unit, "%s", cupti_host_unit(mp.pDimUnit));
    }
    return 0;
}

extern "C" int cupti_host_open(const char *chip, const uint8_t *avail,
                               const cupti_metric_list *l, cupti_host **out, dm_err *err)
{
    cupti_host *h = (cupti_host *)calloc(1, sizeof *h);
    int rc;
    *out = NULL;
    if (!h)
        return dm_err_set(err, DM_ERUNTIME, "out of memory starting the CUPTI host API");
    h->nmetrics = l->n;
    for (int i = 0; i < l->n; i++)
        h->names[i] = l->m[i].name;
    if ((rc = cupti_host_start(chip, avail, &h->obj, err)))
        goto fail;
    {
        CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, am);
        am.pHostObject = h->obj;
        am.ppMetricNames = h->names;
        am.numMetrics = (size_t)l->n;
        CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, cs);
        cs.pHostObject = h->obj;
        if ((rc = DM_CUPTI(err, cuptiProfilerHostConfigAddMetrics(&am))) ||
            (rc = DM_CUPTI(err, cuptiProfilerHostGetConfigImageSize(&cs))))
            goto fail;
        h->config_size = cs.configImageSize;
        if (!(h->config = (uint8_t *)malloc(h->config_size))) {
            rc = dm_err_set(err, DM_ERUNTIME, "out of memory for a CUPTI config image");
            goto fail;
        }
        CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, ci);
        ci.pHostObject = h->obj;
        ci.configImageSize = h->config_size;
        ci.pConfigImage = h->config;
        CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, np);
        np.configImageSize = h->config_size;
        np.pConfigImage = h->config;
        if ((rc = DM_CUPTI(err, cuptiProfilerHostGetConfigImage(&ci))) ||
            (rc = DM_CUPTI(err, cuptiProfilerHostGetNumOfPasses(&np))))
            goto fail;
        h->passes = (int)np.numOfPasses;
    }
    *out = h;
    return 0;
fail:
    cupti_host_close(h);
    return rc;
}

extern "C" void cupti_host_close(cupti_host *h)
{
    if (!h)
        return;
    if (h->obj)
        cupti_host_stop(h->obj);
    free(h->config);
    free(h);
}

extern "C" int cupti_host_passes(const cupti_host *h)
{
    return h->passes;
}

extern "C" const uint8_t *cupti_host_config(const cupti_host *h, size_t *size)
{
    *size = h->config_size;
    return h->config;
}

extern "C" int cupti_host_evaluate(cupti_host *h, const uint8_t *data, size_t size,
                                   size_t range, double *values, dm_err *err)
{
    CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ev);
    ev.pHostObject = h->obj;
    ev.pCounterDataImage = data;
    ev.counterDataImageSize = size;
    ev.rangeIndex = range;
    ev.ppMetricNames = h->names;
    ev.numMetrics = (size_t)h->nmetrics;
    ev.pMetricValues = values;
    return DM_CUPTI(err, cuptiProfilerHostEvaluateToGpuValues(&ev));
}

extern "C" int cupti_metrics_check(const char *chip, cupti_metric_list *l, int *passes,
                                   dm_err *err)
{
    CUpti_Profiler_Host_Object *obj = NULL;
    cupti_host *h = NULL;
    int rc = cupti_host_start(chip, NULL, &obj, err);
    if (rc == 0)
        rc = cupti_host_names(obj, chip, l, err);
    if (obj)
        cupti_host_stop(obj);
    if (rc == 0 && (rc = cupti_host_open(chip, NULL, l, &h, err)) == 0)
        *passes = h->passes;
    cupti_host_close(h);
    return rc == 0 || rc == DM_EINPUT ? rc : DM_ERUNTIME;
}
