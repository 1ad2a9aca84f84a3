/* tuned.h - block sizes chosen by `dmbench tune`, compiled in (variants/tuned_blocks.h),
 * and how a point finds its own when its sweep leaves the parameter open: the same card
 * and bucket; else the card's most frequent choice for the variant; else the same for
 * the card's architecture family (compute capability). */
#ifndef DM_TUNED_H
#define DM_TUNED_H

#include "dm.h"

typedef struct dm_tuned {
    const char *card, *cc, *workload, *variant, *axis, *bucket;
    int64_t value;
} dm_tuned;

/* Looks axis up for (workload, variant, bucket) on dev in table (ending with a zeroed
 * entry). Returns 1 with *value and *how ("card and bucket", "card", "architecture
 * family") when found, else 0. */
int tuned_lookup(const dm_tuned *table, const dm_device *dev, const char *workload,
                 const char *variant, const char *axis, const char *bucket, int64_t *value,
                 const char **how);

/* The compiled-in table. */
const dm_tuned *tuned_table(void);

#endif
