/* crossover_lookup.h - the crossover fits `dmbench crossover --header` compiles in per
 * workload (variants/<w>/fits.h, the workload's `fits`), and how a hybrid variant finds
 * the one for its card: the same card, else its architecture family (card_match.h). A
 * fit gives, for a pair of variants, the axis value crossover(group) where they cross,
 * as a/N + b or a*N + b, with what each group it was made from measured. */
#ifndef DM_CROSSOVER_LOOKUP_H
#define DM_CROSSOVER_LOOKUP_H

#include "dm.h"

/* One group of the measurement a fit was made from: where the curves crossed (x; NAN
 * when they did not), and the variant faster below x, or at every axis value from
 * axis_lo to axis_hi when they did not cross. */
typedef struct dm_crossover_measured {
    double group, x, axis_lo, axis_hi;
    const char *faster;
} dm_crossover_measured;

typedef struct dm_crossover_fit {
    const char *card, *cc;             /* where it was measured; cc "9.0" */
    const char *variant_a, *variant_b, *axis, *group;
    const char *form;                  /* "a/N + b" or "a*N + b" */
    double a, b, r2;
    int n;                             /* crossovers fitted */
    const char *below;                 /* the variant faster below the crossover, or
                                          NULL when that differed between groups */
    const dm_crossover_measured *measured; /* its groups (NULL for fits stored without) */
    int nmeasured;
} dm_crossover_fit;

/* Looks up the fit of (variant pair in either order, axis, group) for dev in w's stored
 * fits (card_choices.h), then its compiled-in table (ending with a zeroed entry): the same
 * card's, stored first, else the first of another card of its architecture family,
 * stored first. Returns 1 with *fit and the rule written into how (of size hown; "fit of
 * this card (stored)") unless how is NULL, else 0. */
int crossover_lookup(const dm_workload *w, const dm_device *dev, const char *a, const char *b,
                     const char *axis, const char *group, const dm_crossover_fit **fit,
                     char *how, size_t hown);

/* The fitted crossover at group value g: a/g + b or a*g + b. */
double crossover_fit_at(const dm_crossover_fit *fit, double g);

/* Where a hybrid switches at group value g: the crossover measured in group g when its
 * curves crossed; else the fit at g, but never against a group g measured without a
 * crossing: when fit->below was faster there at every axis value, at least its axis_hi,
 * when the other variant was, at most its axis_lo (the fit alone without fit->below).
 * The first of fit->measured with group g speaks for it. */
double crossover_switch_at(const dm_crossover_fit *fit, double g);

#endif
