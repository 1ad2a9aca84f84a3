/* tuned_lookup.h - block sizes chosen by `dmbench tune`, compiled in per workload
 * (variants/<w>/tuned.h, the workload's `tuned`), the bucket a point is tuned in, and how
 * a point finds its value when its sweep leaves the parameter open: the same card and
 * bucket; else the card's most frequent choice for the variant; else the same for the
 * card's architecture family (compute capability). */
#ifndef DM_TUNED_LOOKUP_H
#define DM_TUNED_LOOKUP_H

#include "dm.h"

/* One choice of a workload's table; the table ends with a zeroed entry. */
typedef struct dm_tuned {
    const char *card, *cc, *variant, *axis, *bucket;
    int64_t value;
} dm_tuned;

/* The tuning bucket of a point whose parameters read params ("name=value,...", as
 * dm_point_format writes them and the store keeps them): every parameter but axis, in
 * order, then ",data=NAME" when its data come from a file (data: the file's base name,
 * dm_path_base, as the datasets table names it; NULL or "" for generated data, which
 * its parameters define, where a file's points carry the generator's defaults). Points
 * of one variant in one bucket differ in the axis only, so the value tuned among them is
 * the one for each of them. Written into out (of size n). */
void tuned_bucket_params(const char *params, const char *axis, const char *data, char *out,
                         size_t n);
/* The tuning bucket of pt for axis (tuned_bucket_params of its parameters and data). */
void tuned_bucket(const dm_point *pt, const char *axis, const char *data, char *out,
                  size_t n);

/* 1 when w's table has a choice for axis of variant on some card, else 0. */
int tuned_has(const dm_workload *w, const char *variant, const char *axis);

/* Looks axis up for pt, whose data come from the file named data (NULL: generated; see
 * tuned_bucket_params), in its workload's table (its variant, its bucket) on dev.
 * Returns 1 with *value and *how ("card and bucket", "card", "architecture family") when
 * found, else 0 (also when the workload has no table). */
int tuned_lookup(const dm_point *pt, const char *data, const dm_device *dev, const char *axis,
                 int64_t *value, const char **how);

#endif
