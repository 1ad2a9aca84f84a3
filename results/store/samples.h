/* samples.h - reading a point's raw samples back from the results database, for the
 * statistical tests of tune and compare. */
#ifndef DM_SAMPLES_H
#define DM_SAMPLES_H

#include "store.h"

/* The samples' seconds of point_id in *x (malloc'd, caller frees) and their count in *n.
 * Returns 0 (n may be 0), or DM_ERUNTIME. */
int samples_load(dm_store *st, int64_t point_id, double **x, size_t *n, dm_err *err);

/* Writes seconds with a unit chosen for the value (ns, us, ms, s) and 3 significant
 * digits: "4.00 ms", "123 us"; "-" when NAN. */
void samples_fmt_seconds(double sec, char *buf, size_t n);

#endif
