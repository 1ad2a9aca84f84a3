/* tuned.c - finding a tuned block size for a point, with fallbacks from the exact bucket
 * to the card to its architecture family. */
#include <stdio.h>
#include <string.h>

#include "tuned.h"
#include "tuned_blocks.h"

const dm_tuned *tuned_table(void)
{
    return dm_tuned_table;
}

/* The most frequent value among the entries that match (smallest on equal counts), or 0
 * with *found 0. by_card selects on the card's name, else on its compute capability. */
static int64_t most_frequent(const dm_tuned *t, const dm_device *dev, const char *cc,
                             const char *workload, const char *variant, const char *axis,
                             int by_card, int *found)
{
    int64_t best = 0;
    int best_count = 0;
    for (const dm_tuned *a = t; a->card; a++) {
        if (strcmp(a->workload, workload) || strcmp(a->variant, variant) || strcmp(a->axis, axis) ||
            (by_card ? strcmp(a->card, dev->name) : strcmp(a->cc, cc)))
            continue;
        int count = 0;
        for (const dm_tuned *b = t; b->card; b++)
            count += !strcmp(b->workload, workload) && !strcmp(b->variant, variant) &&
                     !strcmp(b->axis, axis) &&
                     (by_card ? !strcmp(b->card, dev->name) : !strcmp(b->cc, cc)) &&
                     b->value == a->value;
        if (count > best_count || (count == best_count && a->value < best)) {
            best = a->value;
            best_count = count;
        }
    }
    *found = best_count > 0;
    return best;
}

int tuned_lookup(const dm_tuned *table, const dm_device *dev, const char *workload,
                 const char *variant, const char *axis, const char *bucket, int64_t *value,
                 const char **how)
{
    char cc[16];
    int found;
    snprintf(cc, sizeof cc, "%d.%d", dev->cc_major, dev->cc_minor);
    for (const dm_tuned *a = table; a->card; a++)
        if (!strcmp(a->card, dev->name) && !strcmp(a->workload, workload) &&
            !strcmp(a->variant, variant) && !strcmp(a->axis, axis) && !strcmp(a->bucket, bucket)) {
            *value = a->value;
            *how = "card and bucket";
            return 1;
        }
    *value = most_frequent(table, dev, cc, workload, variant, axis, 1, &found);
    *how = "card";
    if (found)
        return 1;
    *value = most_frequent(table, dev, cc, workload, variant, axis, 0, &found);
    *how = "architecture family";
    return found;
}
