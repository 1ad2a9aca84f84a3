/* cupti_int.h - private to the CUPTI module: the session a run holds, the launch log its
 * callbacks fill, and the host-API half (cupti_host.cu, C++ because CUPTI's host header
 * includes <string>) that the target-side C files call. */
#ifndef DM_CUPTI_INT_H
#define DM_CUPTI_INT_H

#include "cupti_dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Declares v, a CUPTI parameter struct of type T, zeroed with its size set (C++ has no
 * designated initialisers). */
#ifdef __cplusplus
#define CUPTI_PARAMS(T, v) \
    T v = {};              \
    v.structSize = T##_STRUCT_SIZE
#else
#define CUPTI_PARAMS(T, v) T v = {.structSize = T##_STRUCT_SIZE}
#endif

/* Ranges (launches) one profiling pass collects at most; later launches of a point get
 * NULL metrics with the reason. */
#define CUPTI_MAX_RANGES 1024

/* ---- the host API (cupti_host.cu) ---- */

typedef struct cupti_host cupti_host;

/* A host object for chip (avail: the counter availability image, or NULL) holding the
 * config image of l's metrics. Returns 0, DM_EINPUT for an unknown chip or metric, or
 * DM_ERUNTIME with CUPTI's error. */
int cupti_host_open(const char *chip, const uint8_t *avail, const cupti_metric_list *l,
                    cupti_host **out, dm_err *err);
void cupti_host_close(cupti_host *h);
int cupti_host_passes(const cupti_host *h);
const uint8_t *cupti_host_config(const cupti_host *h, size_t *size);
/* Evaluates the metrics of h at range of a decoded counter data image into values
 * (l->n of them, in list order). Returns 0, or -1 with CUPTI's error in err. */
int cupti_host_evaluate(cupti_host *h, const uint8_t *data, size_t size, size_t range,
                        double *values, dm_err *err);

/* ---- the session ---- */

struct dm_cupti {
    dm_device dev;
    cupti_metric_list metrics;
    char chip[64];
    int passes;
    char counters_problem[DM_ERR_MAX];
    char attrs_problem[DM_ERR_MAX];
    int profiler_up;  /* cuptiProfilerInitialize succeeded */
    cupti_host *host; /* the run's config image; NULL without usable counters */
    void *ctx;        /* the CUcontext profiled */

    /* the launch log (cupti_attrs.c) */
    void *subscriber; /* CUpti_SubscriberHandle; NULL when subscribing failed */
    int logging;
    int log_oom;
    dm_launch *log;
    size_t nlog, caplog;
    dm_launch *verified; /* the last verification run's launches */
    size_t nverified;
};

/* Subscribes to the runtime's kernel launches (attrs_problem says why not). */
void cupti_log_subscribe(dm_cupti *c);
void cupti_log_unsubscribe(dm_cupti *c);
/* Starts an empty log; launches are logged until cupti_log_end, which names any launch
 * the callback could not name. cupti_log_end returns 0, or DM_ERUNTIME when the log ran
 * out of memory. */
void cupti_log_begin(dm_cupti *c);
int cupti_log_end(dm_cupti *c, dm_err *err);

/* Checks once that the counters of c's device can be read for c's metrics, setting up
 * c->host; fills counters_problem when they cannot (cupti_profile.c). */
void cupti_counters_probe(dm_cupti *c);
void cupti_counters_release(dm_cupti *c);

/* Launches the probe's empty kernel on the legacy stream (cupti_probe_kernel.cu). Returns
 * 0, or -1 with the runtime's error; the signature is a variant's run(). */
int cupti_probe_kernel_run(void *unused, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
