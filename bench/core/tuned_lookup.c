/* tuned_lookup.c - the tuning bucket of a point, and finding a tuned block size for it in
 * its workload's table, with fallbacks from the exact bucket to the card to its
 * architecture family (card_match.h). */
#include <stdio.h>
#include <string.h>

#include "card_match.h"
#include "tuned_lookup.h"

/* A bucket's text at most: a point's parameters, formatted. */
#define TUNED_BUCKET_MAX 2048

void tuned_bucket_params(const char *params, const char *axis, const char *data, char *out,
                         size_t n)
{
    dm_params_without(params, axis, out, n);
    if (data && data[0])
        dm_append(out, n, "%sdata=%s", out[0] ? "," : "", data);
}

void tuned_bucket(const dm_point *pt, const char *axis, const char *data, char *out,
                  size_t n)
{
    char params[TUNED_BUCKET_MAX];
    dm_point_format(pt, params, sizeof params);
    tuned_bucket_params(params, axis, data, out, n);
}

/* w's table, or an empty one when it has none. */
static const dm_tuned *tuned_table_of(const dm_workload *w)
{
    static const dm_tuned none[] = { { 0 } };
    return w->tuned ? w->tuned : none;
}

int tuned_has(const dm_workload *w, const char *variant, const char *axis)
{
    for (const dm_tuned *t = tuned_table_of(w); t->card; t++)
        if (!strcmp(t->variant, variant) && !strcmp(t->axis, axis))
            return 1;
    return 0;
}

/* 1 when entry a is for (variant, axis) and applies to dev at scope. */
static int tuned_applies(const dm_tuned *a, const dm_device *dev, const char *variant,
                         const char *axis, dm_card_scope scope)
{
    return !strcmp(a->variant, variant) && !strcmp(a->axis, axis) &&
           card_match(dev, a->card, a->cc, scope);
}

/* The most frequent value among the entries that apply at scope (smallest on equal
 * counts), or 0 with *found 0. */
static int64_t most_frequent(const dm_tuned *t, const dm_device *dev, const char *variant,
                             const char *axis, dm_card_scope scope, int *found)
{
    int64_t best = 0;
    int best_count = 0;
    for (const dm_tuned *a = t; a->card; a++) {
        if (!tuned_applies(a, dev, variant, axis, scope))
            continue;
        int count = 0;
        for (const dm_tuned *b = t; b->card; b++)
            count += tuned_applies(b, dev, variant, axis, scope) && b->value == a->value;
        if (count > best_count || (count == best_count && a->value < best)) {
            best = a->value;
            best_count = count;
        }
    }
    *found = best_count > 0;
    return best;
}

int tuned_lookup(const dm_point *pt, const char *data, const dm_device *dev, const char *axis,
                 int64_t *value, const char **how)
{
    const dm_tuned *table = tuned_table_of(pt->workload);
    const char *variant = pt->variant->name;
    char bucket[TUNED_BUCKET_MAX];
    int found;
    tuned_bucket(pt, axis, data, bucket, sizeof bucket);
    for (const dm_tuned *a = table; a->card; a++)
        if (tuned_applies(a, dev, variant, axis, DM_CARD_SAME) && !strcmp(a->bucket, bucket)) {
            *value = a->value;
            *how = "card and bucket";
            return 1;
        }
    for (dm_card_scope scope = DM_CARD_SAME; scope < DM_CARD_SCOPES; scope++) {
        *value = most_frequent(table, dev, variant, axis, scope, &found);
        *how = card_scope_name(scope);
        if (found)
            return 1;
    }
    return 0;
}
