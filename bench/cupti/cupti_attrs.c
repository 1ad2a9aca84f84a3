/* cupti_attrs.c - the launch log: a CUPTI runtime-API callback notes each kernel launch
 * (kernel, grid, block, dynamic shared memory) while a pass runs; and, for the kernels of
 * a point's verification run, their static attributes from the runtime with the occupancy
 * its calculator predicts, for every GPU point whether profiled or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cupti_callbacks.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>

#include "cupti_int.h"

/* The runtime calls that launch a kernel. CUDA 13's <<<>>> goes through __cudaLaunchKernel,
 * whose parameters (a cudaKernel_t, then grid, block, args, shared memory, stream) are
 * laid out as cudaLaunchKernel's; the runtime takes a cudaKernel_t wherever it takes a
 * kernel's address. */
static const CUpti_CallbackId cupti_launch_cbids[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
};
#define CUPTI_NLAUNCH_CBIDS (sizeof cupti_launch_cbids / sizeof cupti_launch_cbids[0])

/* Notes one launch at the API's entry. Runs inside the runtime's call: no CUDA calls, and
 * a failed allocation is only flagged. */
static void CUPTIAPI cupti_on_launch(void *user, CUpti_CallbackDomain domain,
                                     CUpti_CallbackId cbid, const void *data)
{
    dm_cupti *c = user;
    const CUpti_CallbackData *cb = data;
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || cb->callbackSite != CUPTI_API_ENTER ||
        !c->logging)
        return;
    dm_launch l = {.kernel = ""};
    dim3 grid, block;
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060 ||
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060) {
        const cudaLaunchKernelExC_v11060_params *p = cb->functionParams;
        l.func = p->func;
        grid = p->config->gridDim;
        block = p->config->blockDim;
        l.dynamic_smem = (int64_t)p->config->dynamicSmemBytes;
    } else {
        const cudaLaunchKernel_v7000_params *p = cb->functionParams;
        l.func = p->func;
        grid = p->gridDim;
        block = p->blockDim;
        l.dynamic_smem = (int64_t)p->sharedMem;
    }
    l.grid[0] = grid.x, l.grid[1] = grid.y, l.grid[2] = grid.z;
    l.block[0] = block.x, l.block[1] = block.y, l.block[2] = block.z;
    if (cb->symbolName)
        cupti_kernel_name(cb->symbolName, l.kernel, sizeof l.kernel);
    if (c->nlog == c->caplog) {
        size_t cap = c->caplog ? 2 * c->caplog : 64;
        dm_launch *grown = realloc(c->log, cap * sizeof *grown);
        if (!grown) {
            c->log_oom = 1;
            return;
        }
        c->log = grown;
        c->caplog = cap;
    }
    c->log[c->nlog++] = l;
}

/* Turns the launch callbacks on or off (off, they cost the runtime nothing while points
 * are timed). Returns 0, or -1 with CUPTI's error. */
static int cupti_log_enable(dm_cupti *c, int on, dm_err *err)
{
    CUpti_SubscriberHandle sub = c->subscriber;
    for (size_t i = 0; i < CUPTI_NLAUNCH_CBIDS; i++)
        if (DM_CUPTI(err, cuptiEnableCallback((uint32_t)on, sub, CUPTI_CB_DOMAIN_RUNTIME_API,
                                              cupti_launch_cbids[i])))
            return -1;
    return 0;
}

void cupti_log_subscribe(dm_cupti *c)
{
    dm_err err = {0};
    CUpti_SubscriberHandle sub = NULL;
    if (DM_CUPTI(&err, cuptiSubscribe(&sub, cupti_on_launch, c))) {
        snprintf(c->attrs_problem, sizeof c->attrs_problem, "%s", err.msg);
        return;
    }
    c->subscriber = sub;
}

void cupti_log_unsubscribe(dm_cupti *c)
{
    if (c->subscriber)
        cuptiUnsubscribe((CUpti_SubscriberHandle)c->subscriber);
    c->subscriber = NULL;
}

void cupti_log_begin(dm_cupti *c)
{
    dm_err err = {0};
    c->nlog = 0;
    c->log_oom = 0;
    c->logging = 0;
    if (!c->subscriber)
        return;
    if (cupti_log_enable(c, 1, &err)) {
        snprintf(c->attrs_problem, sizeof c->attrs_problem, "%s", err.msg);
        cupti_log_enable(c, 0, &err);
        cupti_log_unsubscribe(c);
        return;
    }
    c->logging = 1;
}

int cupti_log_end(dm_cupti *c, dm_err *err)
{
    dm_err ignored = {0};
    if (c->subscriber)
        cupti_log_enable(c, 0, &ignored);
    c->logging = 0;
    if (c->log_oom)
        return dm_err_set(err, DM_ERUNTIME, "out of memory logging kernel launches");
    for (size_t i = 0; i < c->nlog; i++) {
        const char *symbol = NULL;
        if (c->log[i].kernel[0])
            continue;
        if (cudaFuncGetName(&symbol, c->log[i].func) != cudaSuccess)
            symbol = NULL;
        cupti_kernel_name(symbol, c->log[i].kernel, sizeof c->log[i].kernel);
    }
    return 0;
}

void cupti_watch_begin(dm_cupti *c)
{
    cupti_log_begin(c);
}

/* Fills a with the attributes of launch l's kernel at l's shape on c's device. Returns 0,
 * or -1 with the runtime's error. */
static int cupti_attrs_of(const dm_cupti *c, const dm_launch *l, dm_kernel_attrs *a,
                          dm_err *err)
{
    struct cudaFuncAttributes fa;
    int blocks = 0;
    memset(a, 0, sizeof *a);
    snprintf(a->kernel, sizeof a->kernel, "%s", l->kernel);
    a->block_threads = (int)(l->block[0] * l->block[1] * l->block[2]);
    a->dynamic_smem = l->dynamic_smem;
    if (DM_CUDA(err, cudaFuncGetAttributes(&fa, l->func)) ||
        DM_CUDA(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &blocks, l->func, a->block_threads, (size_t)l->dynamic_smem)))
        return -1;
    a->regs_per_thread = fa.numRegs;
    a->static_smem = (int64_t)fa.sharedSizeBytes;
    a->local_bytes_per_thread = (int64_t)fa.localSizeBytes;
    a->max_threads_per_block = fa.maxThreadsPerBlock;
    a->blocks_per_sm = blocks;
    int warp = c->dev.warp_size > 0 ? c->dev.warp_size : 32;
    int warps = (a->block_threads + warp - 1) / warp;
    a->predicted_occupancy = c->dev.max_threads_per_sm > 0
                                 ? 100.0 * blocks * warps * warp / c->dev.max_threads_per_sm
                                 : 0;
    return 0;
}

int cupti_watch_end(dm_cupti *c, dm_cupti_point *p)
{
    dm_err err = {0};
    if (cupti_log_end(c, &err))
        return err.code;
    /* Kept for the NULL rows of a point whose counters cannot be read. */
    free(c->verified);
    c->verified = NULL;
    c->nverified = 0;
    if (c->nlog) {
        if (!(c->verified = malloc(c->nlog * sizeof *c->verified)))
            return DM_ERUNTIME;
        memcpy(c->verified, c->log, c->nlog * sizeof *c->verified);
        c->nverified = c->nlog;
        if (!(p->attrs = calloc(c->nlog, sizeof *p->attrs)))
            return DM_ERUNTIME;
    }
    for (size_t i = 0; i < c->nlog; i++) {
        const dm_launch *l = &c->log[i];
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = c->log[j].func == l->func &&
                   c->log[j].block[0] * c->log[j].block[1] * c->log[j].block[2] ==
                       l->block[0] * l->block[1] * l->block[2] &&
                   c->log[j].dynamic_smem == l->dynamic_smem;
        if (seen)
            continue;
        if (cupti_attrs_of(c, l, &p->attrs[p->nattrs], &err) == 0)
            p->nattrs++;
        else if (!c->attrs_problem[0])
            snprintf(c->attrs_problem, sizeof c->attrs_problem, "%s", err.msg);
    }
    return 0;
}
