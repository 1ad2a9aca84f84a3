/* tuned.c - finding a tuned block size for a point, with fallbacks from the exact bucket
 * to the card to its architecture family (card_match.h). */
#include <string.h>

#include "card_match.h"
#include "tuned.h"
#include "tuned_blocks.h"

const dm_tuned *tuned_table(void)
{
    return dm_tuned_table;
}

/* 1 when entry a is for (workload, variant, axis) and applies to dev at scope. */
static int tuned_applies(const dm_tuned *a, const dm_device *dev, const char *workload,
                         const char *variant, const char *axis, dm_card_scope scope)
{
    return !strcmp(a->workload, workload) && !strcmp(a->variant, variant) &&
           !strcmp(a->axis, axis) && card_match(dev, a->card, a->cc, scope);
}

/* The most frequent value among the entries that apply at scope (smallest on equal
 * counts), or 0 with *found 0. */
static int64_t most_frequent(const dm_tuned *t, const dm_device *dev, const char *workload,
                             const char *variant, const char *axis, dm_card_scope scope,
                             int *found)
{
    int64_t best = 0;
    int best_count = 0;
    for (const dm_tuned *a = t; a->card; a++) {
        if (!tuned_applies(a, dev, workload, variant, axis, scope))
            continue;
        int count = 0;
        for (const dm_tuned *b = t; b->card; b++)
            count += tuned_applies(b, dev, workload, variant, axis, scope) &&
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
    int found;
    for (const dm_tuned *a = table; a->card; a++)
        if (tuned_applies(a, dev, workload, variant, axis, DM_CARD_SAME) &&
            !strcmp(a->bucket, bucket)) {
            *value = a->value;
            *how = "card and bucket";
            return 1;
        }
    for (dm_card_scope scope = DM_CARD_SAME; scope < DM_CARD_SCOPES; scope++) {
        *value = most_frequent(table, dev, workload, variant, axis, scope, &found);
        *how = card_scope_name(scope);
        if (found)
            return 1;
    }
    return 0;
}
