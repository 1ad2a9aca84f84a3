/* cupti_err.c - the CUPTI status check behind DM_CUPTI: CUPTI's name and message for a
 * failed call, with where it was made. */
#include <cupti_result.h>

#include "cupti_dm.h"

int dm_cupti_check(dm_err *err, int status, const char *call, const char *file, int line)
{
    if (status == CUPTI_SUCCESS)
        return 0;
    const char *name = NULL, *msg = NULL;
    if (cuptiGetResultString((CUptiResult)status, &name) != CUPTI_SUCCESS || !name)
        name = "CUPTI_ERROR_UNKNOWN";
    if (cuptiGetErrorMessage((CUptiResult)status, &msg) != CUPTI_SUCCESS || !msg)
        msg = "no message";
    dm_err_set(err, DM_ERUNTIME, "%s:%d: %s: %s (%d): %s", file, line, call, name, status, msg);
    return -1;
}
