/* version.h - what this binary is: version, git commit, build flags and the GPU
 * architectures it holds code for (generated at build time by cmake/GenVersion.cmake). */
#ifndef DM_VERSION_H
#define DM_VERSION_H

extern const char *const dm_version;
extern const char *const dm_git_commit;
extern const int dm_git_dirty;
extern const char *const dm_build_flags;
/* CMAKE_CUDA_ARCHITECTURES, comma-separated: "75-real,80-real,90" (arch.h reads it). */
extern const char *const dm_cuda_archs;

#endif
