/* device.c - what the GPUs are: how many, their properties from the CUDA runtime, and
 * the property names sweep constraints use after "device.". */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "device.h"

int device_count(int *n, char *why, size_t why_len)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    *n = 0;
    if (e != cudaSuccess) {
        const char *what = e == cudaErrorInsufficientDriver
                               ? "CUDA driver not found or older than the runtime"
                           : e == cudaErrorNoDevice ? "no CUDA-capable device"
                                                    : "CUDA cannot be initialised";
        snprintf(why, why_len, "%s (cudaGetDeviceCount: %s: %s)", what, cudaGetErrorName(e),
                 cudaGetErrorString(e));
        cudaGetLastError(); /* clear it, so later checks do not see it */
        return 0;
    }
    if (count == 0)
        snprintf(why, why_len, "no CUDA-capable device (cudaGetDeviceCount found 0)");
    *n = count;
    return 0;
}

int device_context_lost(char *why, size_t why_len)
{
    if (cudaDeviceSynchronize() == cudaSuccess)
        return 0;
    cudaGetLastError(); /* an error that is not sticky is gone after this */
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        return 0;
    snprintf(why, why_len, "%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
    return 1;
}

int device_pick(int index, dm_device *dev, const dm_device **devp, char *why, size_t why_len,
                dm_err *err)
{
    int n = 0;
    *devp = NULL;
    device_count(&n, why, why_len);
    if (n == 0)
        return 0;
    if (index < 0 || index >= n)
        return dm_err_set(err, DM_EINPUT, "device %d: there %s %d GPU%s (0..%d)", index,
                          n == 1 ? "is" : "are", n, n == 1 ? "" : "s", n - 1);
    if (device_query(index, dev, err) != 0)
        return err->code;
    *devp = dev;
    return 0;
}

/* Formats a UUID as nvidia-smi does: GPU-8-4-4-4-12 lower-case hex digits. */
static void device_format_uuid(const unsigned char *b, char *buf, size_t n)
{
    snprintf(buf, n,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

int device_query(int index, dm_device *d, dm_err *err)
{
    struct cudaDeviceProp p;
    memset(d, 0, sizeof *d);
    if (DM_CUDA(err, cudaGetDeviceProperties(&p, index)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&d->sm_clock_khz, cudaDevAttrClockRate, index)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&d->mem_clock_khz, cudaDevAttrMemoryClockRate,
                                            index)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&d->mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth,
                                            index)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&d->regs_per_sm,
                                            cudaDevAttrMaxRegistersPerMultiprocessor, index)) ||
        DM_CUDA(err, cudaDeviceGetAttribute(&d->max_blocks_per_sm,
                                            cudaDevAttrMaxBlocksPerMultiprocessor, index)) ||
        DM_CUDA(err, cudaDeviceGetPCIBusId(d->pci_bus_id, (int)sizeof d->pci_bus_id, index)) ||
        DM_CUDA(err, cudaDriverGetVersion(&d->driver_version)) ||
        DM_CUDA(err, cudaRuntimeGetVersion(&d->runtime_version)))
        return dm_err_prefix(err, "GPU %d", index);
    d->index = index;
    snprintf(d->name, sizeof d->name, "%s", p.name);
    device_format_uuid((const unsigned char *)p.uuid.bytes, d->uuid, sizeof d->uuid);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->mem_bytes = (int64_t)p.totalGlobalMem;
    d->l2_bytes = p.l2CacheSize;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->warp_size = p.warpSize;
    d->regs_per_block = p.regsPerBlock;
    d->smem_per_block = (int)p.sharedMemPerBlock;
    d->smem_per_block_optin = (int)p.sharedMemPerBlockOptin;
    d->smem_per_sm = (int)p.sharedMemPerMultiprocessor;
    return 0;
}

/* How a property is read from a dm_device. */
typedef enum device_kind {
    DEVICE_INT,    /* an int field */
    DEVICE_INT64,  /* an int64_t field */
    DEVICE_KHZ,    /* an int field in kHz, given in MHz */
    DEVICE_CC,     /* major * 10 + minor */
} device_kind;

typedef struct device_prop_entry {
    const char *name;
    device_kind kind;
    size_t offset;
} device_prop_entry;

#define DEVICE_FIELD(name, kind, field) {name, kind, offsetof(dm_device, field)}

static const device_prop_entry device_props[] = {
    DEVICE_FIELD("max_threads", DEVICE_INT, max_threads_per_block),
    DEVICE_FIELD("sms", DEVICE_INT, sms),
    DEVICE_FIELD("l2_bytes", DEVICE_INT, l2_bytes),
    DEVICE_FIELD("mem_bytes", DEVICE_INT64, mem_bytes),
    DEVICE_FIELD("smem_per_block", DEVICE_INT, smem_per_block),
    DEVICE_FIELD("smem_per_block_optin", DEVICE_INT, smem_per_block_optin),
    DEVICE_FIELD("smem_per_sm", DEVICE_INT, smem_per_sm),
    DEVICE_FIELD("max_threads_per_sm", DEVICE_INT, max_threads_per_sm),
    DEVICE_FIELD("warp_size", DEVICE_INT, warp_size),
    DEVICE_FIELD("regs_per_block", DEVICE_INT, regs_per_block),
    DEVICE_FIELD("regs_per_sm", DEVICE_INT, regs_per_sm),
    DEVICE_FIELD("max_blocks_per_sm", DEVICE_INT, max_blocks_per_sm),
    DEVICE_FIELD("mem_bus_bits", DEVICE_INT, mem_bus_bits),
    DEVICE_FIELD("cc", DEVICE_CC, cc_major),
    DEVICE_FIELD("cc_major", DEVICE_INT, cc_major),
    DEVICE_FIELD("cc_minor", DEVICE_INT, cc_minor),
    DEVICE_FIELD("sm_clock_mhz", DEVICE_KHZ, sm_clock_khz),
    DEVICE_FIELD("mem_clock_mhz", DEVICE_KHZ, mem_clock_khz),
    {NULL, DEVICE_INT, 0},
};

int device_prop(const dm_device *d, const char *name, double *out)
{
    for (const device_prop_entry *e = device_props; e->name; e++) {
        if (strcmp(e->name, name) != 0)
            continue;
        const char *field = (const char *)d + e->offset;
        switch (e->kind) {
        case DEVICE_INT:
            *out = *(const int *)field;
            break;
        case DEVICE_INT64:
            *out = (double)*(const int64_t *)field;
            break;
        case DEVICE_KHZ:
            *out = *(const int *)field / 1000.0;
            break;
        case DEVICE_CC:
            *out = d->cc_major * 10 + d->cc_minor;
            break;
        }
        return 0;
    }
    return -1;
}

const char *const *device_prop_names(void)
{
    static const char *names[sizeof device_props / sizeof device_props[0]];
    if (!names[0])
        for (size_t i = 0; device_props[i].name; i++)
            names[i] = device_props[i].name;
    return names;
}
