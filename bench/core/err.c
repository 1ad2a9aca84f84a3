/* err.c - the error record every fallible function fills, and the CUDA status check
 * behind DM_CUDA. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "dm.h"

int dm_err_set(dm_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int dm_err_prefix(dm_err *err, const char *fmt, ...)
{
    if (!err)
        return DM_ERUNTIME;
    char prefix[DM_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof prefix - 2, fmt, ap);
    va_end(ap);
    if (n < 0)
        return err->code;
    size_t lp = strlen(prefix), lm = strlen(err->msg);
    strcpy(prefix + lp, ": ");
    lp += 2;
    if (lp + lm >= sizeof err->msg)
        lm = sizeof err->msg - 1 - lp;
    memmove(err->msg + lp, err->msg, lm);
    memcpy(err->msg, prefix, lp);
    err->msg[lp + lm] = '\0';
    return err->code;
}

void dm_err_clear(dm_err *err)
{
    if (err) {
        err->code = DM_OK;
        err->msg[0] = '\0';
    }
}

int dm_cuda_check(dm_err *err, int status, const char *call, const char *file, int line)
{
    if (status == cudaSuccess)
        return 0;
    cudaError_t e = (cudaError_t)status;
    dm_err_set(err, DM_ERUNTIME, "%s:%d: %s: %s: %s", file, line, call, cudaGetErrorName(e),
               cudaGetErrorString(e));
    return -1;
}

void dm_cuda_warn(int status, const char *call, const char *file, int line)
{
    dm_err err;
    if (dm_cuda_check(&err, status, call, file, line) != 0)
        fprintf(stderr, "dmbench: warning: %s\n", err.msg);
}
