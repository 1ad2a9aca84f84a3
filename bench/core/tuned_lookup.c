/* tuned_lookup.c - the tuning bucket of a point, and finding a tuned block size for it
 * among the stored and shipped choices: the same bucket on this card, then on its
 * architecture, then the nearest bucket by problem size on either (card_match.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_choices.h"
#include "card_match.h"
#include "tuned_lookup.h"

/* A bucket's text at most: a point's parameters, formatted, and its data file's name. */
#define TUNED_BUCKET_MAX DM_KEY_MAX

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

/* The two sources of w's choices, stored first: tables[0] stored, tables[1] shipped
 * (either may be empty, never NULL). */
static void tuned_sources(const dm_workload *w, const dm_tuned *tables[2])
{
    static const dm_tuned none[] = { { 0 } };
    tables[0] = card_choices_tuned(w);
    tables[1] = w->tuned ? w->tuned : none;
}

int tuned_has(const dm_workload *w, const char *variant, const char *axis)
{
    const dm_tuned *tables[2];
    tuned_sources(w, tables);
    for (int s = 0; s < 2; s++)
        for (const dm_tuned *t = tables[s]; t->card; t++)
            if (!strcmp(t->variant, variant) && !strcmp(t->axis, axis))
                return 1;
    return 0;
}

/* 1 when entry a is for (variant, axis) and applies to dev at scope; at DM_CARD_FAMILY
 * only entries of other cards of dev's architecture (this card's came first). */
static int tuned_applies(const dm_tuned *a, const dm_device *dev, const char *variant,
                         const char *axis, dm_card_scope scope)
{
    return !strcmp(a->variant, variant) && !strcmp(a->axis, axis) &&
           card_match(dev, a->card, a->cc, scope) &&
           (scope == DM_CARD_SAME || strcmp(a->card, dev->name) != 0);
}

/* The role of the bucket entry called name (of n bytes) for pt: its parameter's, and
 * DM_TUNE_MATCH for the data file and for names pt has not. */
static dm_tune_role tuned_role(const dm_point *pt, const char *name, size_t n)
{
    for (int i = 0; i < pt->nparams; i++)
        if (strlen(pt->specs[i]->name) == n && !strncmp(pt->specs[i]->name, name, n))
            return pt->specs[i]->tune;
    return DM_TUNE_MATCH;
}

/* 1 when the bucket entry "name=value" of pt's bucket (len bytes, = at eq) is a parameter
 * of pt at its default, as the spec writes it: a parameter added after a choice was
 * tuned, which the choice's bucket lacks, ran at that default then. */
static int tuned_at_default(const dm_point *pt, const char *entry, const char *eq, size_t len)
{
    size_t name = (size_t)(eq - entry), value = len - name - 1;
    for (int i = 0; i < pt->nparams; i++) {
        const dm_param_spec *p = pt->specs[i];
        if (strlen(p->name) == name && !strncmp(p->name, entry, name))
            return p->def && strlen(p->def) == value && !strncmp(p->def, eq + 1, value);
    }
    return 0;
}

/* How far bucket b is from pt's bucket a: the sum over problem sizes of |log(a/b)|, when
 * every other entry is equal (seeds aside) and in the same order, b lacking only entries
 * of a at their defaults (tuned_at_default); else -1. The sizes of b that differ are
 * written into sizes (of size n), "length=277906". */
static double tuned_distance(const dm_point *pt, const char *a, const char *b, char *sizes,
                             size_t n)
{
    double dist = 0;
    sizes[0] = '\0';
    while (*a) {
        size_t la = strcspn(a, ","), lb = strcspn(b, ",");
        const char *eqa = memchr(a, '=', la), *eqb = memchr(b, '=', lb);
        if (!eqa)
            return -1;
        if (!eqb || eqa - a != eqb - b || strncmp(a, b, (size_t)(eqa - a))) {
            if (!tuned_at_default(pt, a, eqa, la))
                return -1;
            a += la + (a[la] == ',');
            continue;
        }
        size_t name = (size_t)(eqa - a);
        int same = la == lb && !strncmp(a, b, la);
        switch (tuned_role(pt, a, name)) {
        case DM_TUNE_MATCH:
            if (!same)
                return -1;
            break;
        case DM_TUNE_SIZE: {
            double x = strtod(eqa + 1, NULL), y = strtod(eqb + 1, NULL);
            if (!(x > 0 && y > 0))
                return -1;
            dist += fabs(log(x / y));
            if (!same)
                dm_append(sizes, n, "%s%.*s", sizes[0] ? "," : "", (int)lb, b);
            break;
        }
        case DM_TUNE_ANY:
            break;
        }
        a += la + (a[la] == ',');
        b += lb + (b[lb] == ',');
    }
    return *b ? -1 : dist;
}

/* Step 3 at scope: the entry of the nearest bucket, stored first on equal distances;
 * NULL when none compares. *source is its source, sizes its differing sizes. */
static const dm_tuned *tuned_nearest(const dm_tuned *const tables[2], const dm_point *pt,
                                     const char *bucket, const dm_device *dev,
                                     const char *axis, dm_card_scope scope, int *source,
                                     char *sizes, size_t n)
{
    const dm_tuned *best = NULL;
    double best_dist = INFINITY;
    char these[TUNED_BUCKET_MAX];
    for (int s = 0; s < 2; s++)
        for (const dm_tuned *t = tables[s]; t->card; t++) {
            if (!tuned_applies(t, dev, pt->variant->name, axis, scope))
                continue;
            double d = tuned_distance(pt, bucket, t->bucket, these, sizeof these);
            if (d >= 0 && d < best_dist) {
                best = t;
                best_dist = d;
                *source = s;
                snprintf(sizes, n, "%s", these[0] ? these : "the same size");
            }
        }
    return best;
}

/* Steps 1 and 2 at scope: among the stored, then the shipped entries, the one whose
 * bucket is pt's, else one that differs in seeds only (DM_TUNE_ANY); NULL when none.
 * *source is its source. */
static const dm_tuned *tuned_same(const dm_tuned *const tables[2], const dm_point *pt,
                                  const char *bucket, const dm_device *dev, const char *axis,
                                  dm_card_scope scope, int *source)
{
    char sizes[TUNED_BUCKET_MAX];
    for (int s = 0; s < 2; s++)
        for (int exact = 1; exact >= 0; exact--)
            for (const dm_tuned *t = tables[s]; t->card; t++)
                if (tuned_applies(t, dev, pt->variant->name, axis, scope) &&
                    (exact ? !strcmp(t->bucket, bucket)
                           : tuned_distance(pt, bucket, t->bucket, sizes, sizeof sizes) == 0)) {
                    *source = s;
                    return t;
                }
    return NULL;
}

int tuned_lookup(const dm_point *pt, const char *data, const dm_device *dev, const char *axis,
                 int64_t *value, char *how, size_t hown)
{
    const dm_tuned *tables[2], *t;
    char bucket[TUNED_BUCKET_MAX], sizes[TUNED_BUCKET_MAX];
    int s = 0;
    tuned_sources(pt->workload, tables);
    tuned_bucket(pt, axis, data, bucket, sizeof bucket);
    for (dm_card_scope scope = DM_CARD_SAME; scope < DM_CARD_SCOPES; scope++)
        if ((t = tuned_same(tables, pt, bucket, dev, axis, scope, &s)) != NULL) {
            *value = t->value;
            if (scope == DM_CARD_SAME)
                snprintf(how, hown, "this card, this bucket (%s)", card_choices_source[s]);
            else
                snprintf(how, hown, "this bucket on %s, the same architecture %s (%s)", t->card,
                         t->cc, card_choices_source[s]);
            return 1;
        }
    for (dm_card_scope scope = DM_CARD_SAME; scope < DM_CARD_SCOPES; scope++) {
        if (!(t = tuned_nearest(tables, pt, bucket, dev, axis, scope, &s, sizes, sizeof sizes)))
            continue;
        *value = t->value;
        if (scope == DM_CARD_SAME)
            snprintf(how, hown, "nearest bucket on this card, %s (%s)", sizes,
                     card_choices_source[s]);
        else
            snprintf(how, hown, "nearest bucket on %s, the same architecture %s, %s (%s)",
                     t->card, t->cc, sizes, card_choices_source[s]);
        return 1;
    }
    return 0;
}

void tuned_choose(dm_point *pt, const char *data, const dm_device *dev, const char *axis)
{
    char how[DM_HOW_MAX], val[32];
    int64_t v;
    dm_value parsed;
    const dm_value *cur = dm_point_get(pt, axis);
    if (tuned_lookup(pt, data, dev, axis, &v, how, sizeof how)) {
        snprintf(val, sizeof val, "%lld", (long long)v);
        for (int i = 0; i < pt->nparams; i++)
            if (!strcmp(pt->specs[i]->name, axis) &&
                dm_value_parse(pt->specs[i], val, &parsed, NULL) == 0) {
                pt->values[i] = parsed;
                dm_point_note_choice(pt, axis, "%lld, %s", (long long)v, how);
                return;
            }
    }
    dm_value_format(cur, val, sizeof val);
    dm_point_note_choice(pt, axis, "%s, the default: no tuning of %s for this problem on this "
                         "card or its architecture", val, pt->variant->name);
}
