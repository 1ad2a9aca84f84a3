/* version.h - what this binary is: version, git commit and build flags (generated at
 * build time by cmake/GenVersion.cmake). */
#ifndef DM_VERSION_H
#define DM_VERSION_H

extern const char *const dm_version;
extern const char *const dm_git_commit;
extern const int dm_git_dirty;
extern const char *const dm_build_flags;

#endif
