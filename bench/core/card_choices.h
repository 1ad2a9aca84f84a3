/* card_choices.h - the per-card choices this process was given at run time: block sizes
 * `dmbench tune --store` chose and crossover fits `dmbench crossover --store` made, read
 * from the results database when a command starts (results/store/store_cards.c), so that
 * tuning a card takes effect at the next run, with no rebuild. They come before the
 * compiled-in tables (variants/<w>/tuned.h, fits.h: the shipped defaults) at every step
 * of the lookups (tuned_lookup.h, crossover_lookup.h). Filled before any point is
 * expanded or run, read only after, so the worker threads need no lock. */
#ifndef DM_CARD_CHOICES_H
#define DM_CARD_CHOICES_H

#include "crossover_lookup.h"
#include "tuned_lookup.h"

/* A pair of variants whose crossover `dmbench tune --card` fits (as `dmbench crossover W
 * A B --axis AXIS --group GROUP --store` does) for a hybrid to switch by. */
typedef struct dm_card_crossover {
    const char *variant_a, *variant_b, *axis, *group;
} dm_card_crossover;

/* What `dmbench tune --card` runs to tune a workload on the card at hand, in a bounded
 * time: its sweeps (names under sweeps/, without .yaml), whose runs the block sizes are
 * chosen from, and the crossovers fitted from them. A workload's `card_tuning`. */
struct dm_card_tuning {
    const char *const *sweeps;           /* NULL-ended */
    const dm_card_crossover *crossovers; /* zero-ended; NULL: none */
};

/* Adds a tuned choice of workload w (copied, strings too). Returns 0, or DM_ERUNTIME
 * with err set (no memory). */
int card_choices_add_tuned(const dm_workload *w, const dm_tuned *t, dm_err *err);
/* Adds a crossover fit of w (copied, its measured groups too). Returns 0 or DM_ERUNTIME. */
int card_choices_add_fit(const dm_workload *w, const dm_crossover_fit *f, dm_err *err);
/* Forgets every choice added. */
void card_choices_clear(void);

/* w's stored choices, ending with a zeroed entry (an empty table when it has none). */
const dm_tuned *card_choices_tuned(const dm_workload *w);
const dm_crossover_fit *card_choices_fits(const dm_workload *w);

/* The two sources of per-card choices, as the lookups name them in their rules: [0] the
 * store ("stored"), read first, and [1] the compiled-in defaults ("shipped"). */
extern const char *const card_choices_source[2];

/* 1 when any workload has a tuned choice or fit, stored or shipped, measured on the card
 * named card; else 0. */
int card_choices_know_card(const char *card);

#endif
