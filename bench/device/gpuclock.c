/* gpuclock.c - reads the SM clock and its throttle reasons through NVML, loaded with
 * dlopen and declared here by hand (no nvml.h is needed to build), falling back to the
 * clock64/globaltimer probe kernel of gpu_probe.cu when NVML is absent. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gpu_probe.h"
#include "gpuclock.h"

/* The few NVML entry points used, as the driver's libnvidia-ml.so.1 exports them. */
typedef struct nvml_device_st *nvml_device;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_bus_id_fn)(const char *bus_id, nvml_device *dev);
typedef int (*nvml_clock_info_fn)(nvml_device dev, int type, unsigned int *mhz);
typedef int (*nvml_reasons_fn)(nvml_device dev, unsigned long long *reasons);
#define NVML_SUCCESS 0
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2

/* How long the probe kernel spins: long enough that globaltimer's granularity (up to
 * 1 us on some GPUs) stays under 1% of the reading. */
#define GPUCLOCK_PROBE_NS 200000LL

struct dm_gpuclock {
    void *lib; /* the NVML library; NULL when the probe is used */
    nvml_shutdown_fn shutdown;
    nvml_clock_info_fn clock_info;
    nvml_reasons_fn reasons;
    nvml_device dev;
    void *stream;       /* the probe's stream */
    long long *d_probe; /* the probe's two results, device memory */
};

static const struct {
    unsigned long long bit;
    const char *name;
} gpuclock_reason_table[] = {
    {GPUCLOCK_SW_POWER_CAP, "sw_power_cap"},
    {GPUCLOCK_HW_SLOWDOWN, "hw_slowdown"},
    {GPUCLOCK_SW_THERMAL, "sw_thermal"},
    {GPUCLOCK_HW_THERMAL, "hw_thermal"},
    {GPUCLOCK_HW_POWER_BRAKE, "hw_power_brake"},
    {0, NULL},
};

/* Loads NVML into g and finds dev in it. Returns 0, or -1 (g untouched) when NVML is
 * missing, lacks an entry point, or does not know the device. */
static int gpuclock_open_nvml(dm_gpuclock *g, const dm_device *dev)
{
    char bus_id[32];
    nvml_device handle;
    if (cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, dev->index) != cudaSuccess)
        return -1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
    nvml_shutdown_fn shutdown = (nvml_shutdown_fn)dlsym(lib, "nvmlShutdown");
    nvml_by_bus_id_fn by_bus_id =
        (nvml_by_bus_id_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml_clock_info_fn clock_info = (nvml_clock_info_fn)dlsym(lib, "nvmlDeviceGetClockInfo");
    /* Drivers since r535 call throttle reasons "clocks event reasons". */
    nvml_reasons_fn reasons =
        (nvml_reasons_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons)
        reasons = (nvml_reasons_fn)dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !shutdown || !by_bus_id || !clock_info || !reasons)
        goto fail;
    if (init() != NVML_SUCCESS)
        goto fail;
    if (by_bus_id(bus_id, &handle) != NVML_SUCCESS) {
        shutdown();
        goto fail;
    }
    g->lib = lib;
    g->shutdown = shutdown;
    g->clock_info = clock_info;
    g->reasons = reasons;
    g->dev = handle;
    return 0;
fail:
    dlclose(lib);
    return -1;
}

int gpuclock_open(const dm_device *dev, void *stream, int try_nvml, dm_gpuclock **out,
                  dm_err *err)
{
    dm_gpuclock *g = calloc(1, sizeof *g);
    if (!g)
        return dm_err_set(err, DM_ERUNTIME, "out of memory");
    g->stream = stream;
    if (try_nvml && gpuclock_open_nvml(g, dev) == 0) {
        *out = g;
        return DM_OK;
    }
    if (DM_CUDA(err, cudaMalloc((void **)&g->d_probe, 2 * sizeof *g->d_probe)))
        goto fail;
    *out = g;
    return DM_OK;
fail:
    free(g);
    return DM_ERUNTIME;
}

void gpuclock_close(dm_gpuclock *g)
{
    if (!g)
        return;
    if (g->lib) {
        g->shutdown();
        dlclose(g->lib);
    }
    if (g->d_probe)
        DM_CUDA_WARN(cudaFree(g->d_probe));
    free(g);
}

const char *gpuclock_source(const dm_gpuclock *g)
{
    return g->lib ? "nvml" : "clock64";
}

int gpuclock_read(dm_gpuclock *g, double *mhz, dm_err *err)
{
    if (g->lib) {
        unsigned int clock;
        *mhz = g->clock_info(g->dev, NVML_CLOCK_SM, &clock) == NVML_SUCCESS ? clock : NAN;
        return DM_OK;
    }
    long long h[2];
    if (gpu_probe_clock_launch(g->stream, g->d_probe, GPUCLOCK_PROBE_NS, err) ||
        DM_CUDA(err, cudaMemcpyAsync(h, g->d_probe, sizeof h, cudaMemcpyDeviceToHost,
                                     (cudaStream_t)g->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize((cudaStream_t)g->stream)))
        return DM_ERUNTIME;
    *mhz = h[1] > 0 ? (double)h[0] / (double)h[1] * 1000.0 : NAN;
    return DM_OK;
}

double gpuclock_read_mem(dm_gpuclock *g)
{
    unsigned int clock;
    if (!g->lib || g->clock_info(g->dev, NVML_CLOCK_MEM, &clock) != NVML_SUCCESS)
        return NAN;
    return clock;
}

int gpuclock_reasons(dm_gpuclock *g, unsigned long long *mask)
{
    unsigned long long r;
    if (!g->lib || g->reasons(g->dev, &r) != NVML_SUCCESS)
        return -1;
    *mask = r & GPUCLOCK_THROTTLE_MASK;
    return 0;
}

void gpuclock_reason_names(unsigned long long mask, char *buf, size_t n)
{
    size_t len = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; gpuclock_reason_table[i].name; i++) {
        if (!(mask & gpuclock_reason_table[i].bit))
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? "," : "",
                         gpuclock_reason_table[i].name);
        if (w < 0 || (size_t)w >= n - len)
            return;
        len += (size_t)w;
    }
}
