/* arch.h - which of this binary's GPU code a GPU runs: SASS built for its architecture
 * or an earlier minor of its major, else PTX that the driver JIT-compiles for a GPU at or
 * after the PTX's architecture, else none. Pure: the architecture list (dm_cuda_archs,
 * from CMAKE_CUDA_ARCHITECTURES) and the compute capability are arguments, so every
 * card's answer is tested without one (test_arch.c). */
#ifndef DM_ARCH_H
#define DM_ARCH_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dm_arch_code { DM_ARCH_NONE = 0, DM_ARCH_SASS, DM_ARCH_PTX } dm_arch_code;

/* The code a GPU runs. arch and suffix name the entry of the list it comes from. */
typedef struct dm_arch_choice {
    dm_arch_code code;
    int arch;    /* major * 10 + minor the code was built for (90); 0 with none */
    char suffix; /* 'a' (that compute capability only), 'f' (its family) or 0 */
    int exact;   /* SASS built for the GPU's own compute capability */
} dm_arch_choice;

/* The code a GPU of compute capability major.minor runs of a binary built for archs:
 * CMake's architectures comma-separated, each a number with an optional 'a' or 'f', and
 * "-real" (SASS only), "-virtual" (PTX only) or nothing (both): "80-real,90a-real,120".
 * Returns 0 with *c set (code DM_ARCH_NONE when nothing runs), or DM_EINPUT with err
 * naming the entry it cannot read (a list such as "native" or "all"). */
int arch_choose(const char *archs, int major, int minor, dm_arch_choice *c, dm_err *err);

/* c's code as "sm_90", "sm_90a" or "compute_120"; "" for none. Into buf (n bytes). */
void arch_name(const dm_arch_choice *c, char *buf, size_t n);

/* c as `dmbench devices` says it, into buf (n bytes): "SASS sm_90 (exact)", "SASS sm_80
 * (runs on 8.6)", "PTX compute_120, JIT-compiled at first launch" or "none: built for
 * sm_90, compute_90; rebuild with -DCMAKE_CUDA_ARCHITECTURES=80". archs and the compute
 * capability as given to arch_choose. */
void arch_describe(const dm_arch_choice *c, const char *archs, int major, int minor,
                   char *buf, size_t n);

/* "sass", "ptx" or "none". */
const char *arch_code_name(dm_arch_code code);

#ifdef __cplusplus
}
#endif

#endif
