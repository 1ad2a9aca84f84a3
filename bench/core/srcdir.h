/* srcdir.h - finding the folders of the source tree dmbench reads at run time (plots/,
 * sweeps/, results/published/), wherever the binary was built or copied to. */
#ifndef DM_SRCDIR_H
#define DM_SRCDIR_H

#include <stddef.h>

#include "dm.h"

/* The folder holding file, in dir: $env when set (the file must be there), else
 * <dmbench's folder>/../sub, else sub in the source tree the build directory holding
 * dmbench was configured from. Returns 0, or DM_ERUNTIME naming the places looked in
 * and the variable that overrides them. */
int dm_find_source_dir(const char *env, const char *sub, const char *file, char *dir,
                       size_t n, dm_err *err);

#endif
