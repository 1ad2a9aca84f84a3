/* registry.h - the workloads dmbench knows and their variants. Each workload defines one
 * dm_workload in variants/<w>/<w>_variants.c and is registered by its name in DM_WORKLOADS
 * (CMakeLists.txt); nothing else knows the list. */
#ifndef DM_REGISTRY_H
#define DM_REGISTRY_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The registered workloads, NULL-terminated: generated from DM_WORKLOADS in
 * CMakeLists.txt (cmake/registry_list.c.in), each defined by variants/<w>/<w>_variants.c. */
extern const dm_workload *const dm_registered_workloads[];

/* The workloads, in a NULL-terminated array. */
const dm_workload *const *registry_workloads(void);

/* The workload called name; NULL with err (DM_EINPUT) listing the known ones. */
const dm_workload *registry_workload(const char *name, dm_err *err);

/* The variant called name in workload w; NULL with err (DM_EINPUT) naming the closest
 * matches ("unknown variant 'kernal' of workload 'w'; did you mean: kernel?"). */
const dm_variant *registry_variant(const dm_workload *w, const char *name, dm_err *err);

/* The spec of parameter name for variant v of w (dataset, problem, then variant
 * parameters), or NULL. v may be NULL to look only at dataset and problem parameters. */
const dm_param_spec *registry_param(const dm_workload *w, const dm_variant *v,
                                    const char *name);

/* Fills pt with w's and v's parameters at their defaults, then the values v->fixed
 * gives. Returns 0, or DM_EINPUT if a table's default or a fixed value does not parse (a
 * programming error caught by the registry test). */
int registry_point_defaults(const dm_workload *w, const dm_variant *v, dm_point *pt,
                            dm_err *err);

/* The spec of w's dataset parameter name when it describes generated data only, or NULL. */
const dm_param_spec *registry_generated_param(const dm_workload *w, const char *name);
/* Drops from pt the dataset parameters that describe generated data only, for a point
 * whose data is a file. */
void registry_point_on_file(dm_point *pt);

/* Levenshtein distance, for close-match suggestions. */
int registry_edit_distance(const char *a, const char *b);
/* Writes into buf (comma-separated) the candidates close to name (edit distance <=
 * max(2, len/3), or sharing a 3-letter prefix) with *close_found 1, or all of them with
 * *close_found 0 when none is close. */
void registry_suggest(const char *name, const char *const *cands, size_t ncands, char *buf,
                      size_t n, int *close_found);

#ifdef __cplusplus
}
#endif

#endif
