/* query.h - small read queries over the results database for commands that check or
 * summarise a run (calibration); the analysis issue's tools build on the same views. */
#ifndef DM_QUERY_H
#define DM_QUERY_H

#include "store.h"

/* The highest bandwidth (bytes_per_run / median, GB/s) among run_id's ok points of
 * variant whose problem key contains key_part, with that point's parameters in params
 * (may be NULL) and its sample count in *n. Returns 0 (*gbps NAN when there is no such
 * point), or DM_ERUNTIME. */
int query_best_gbps(dm_store *st, int64_t run_id, const char *variant, const char *key_part,
                    double *gbps, char *params, size_t params_len, int64_t *n, dm_err *err);

#endif
