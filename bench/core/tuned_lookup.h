/* tuned_lookup.h - block sizes chosen by `dmbench tune`, per card, variant and problem
 * bucket: stored in the results database (card_choices.h) or compiled in per workload
 * as shipped defaults (variants/<w>/tuned.h, the workload's `tuned`); the bucket a point
 * is tuned in; and how a point finds its value when its sweep leaves the parameter open.
 * The lookup respects the problem, in this order:
 *   1. this card, this bucket (else one that differs in parameters of role DM_TUNE_ANY
 *      only: a seed, a choice that does not change the tuned kernel's problem);
 *   2. this bucket on another card of the same architecture (compute capability), the
 *      same way;
 *   3. the nearest bucket of the same variant on this card, then on the architecture:
 *      every parameter equal but the problem sizes (DM_TUNE_SIZE, the nearest by the sum
 *      of their log ratios) and seeds (DM_TUNE_ANY);
 *   4. none: the caller keeps its documented default (the parameter's default).
 * At each step stored choices come before shipped ones. Never a value pooled over other
 * problems. */
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

/* 1 when w has a choice for axis of variant on some card, stored or shipped, else 0. */
int tuned_has(const dm_workload *w, const char *variant, const char *axis);

/* Looks axis up for pt, whose data come from the file named data (NULL: generated; see
 * tuned_bucket_params), on dev, by the rules above. Returns 1 with *value and the rule
 * that found it written into how (of size hown; "this card, this bucket (stored)"), else
 * 0 (no choice for the variant on this card or its architecture that fits the problem). */
int tuned_lookup(const dm_point *pt, const char *data, const dm_device *dev, const char *axis,
                 int64_t *value, char *how, size_t hown);

/* Gives pt's parameter axis the value tuned_lookup finds for dev, noting the rule in
 * pt->chosen; without one, notes that it keeps its current value, the default. */
void tuned_choose(dm_point *pt, const char *data, const dm_device *dev, const char *axis);

#endif
