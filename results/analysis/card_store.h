/* card_store.h - the per-card store: block sizes `dmbench tune --store` chose (table
 * tuned_choices) and crossover fits `dmbench crossover --store` made (crossover_fits),
 * kept in the results database beside the runs they were measured in, and read into
 * this process (bench/core/card_choices.h) when `run` or `mine` starts, so they take
 * effect without a rebuild. Each entry is checked against the workloads this binary
 * has: a damaged or foreign one (another dmbench's variant, a value its parameter
 * refuses) is refused, naming its row. */
#ifndef DM_CARD_STORE_H
#define DM_CARD_STORE_H

#include "store.h"
#include "tune.h"

/* Reads st's tuned choices and the better form of its newest crossover fit per card and
 * key into card_choices (none from a database without them). Returns 0 with *ntuned and
 * *nfits (either may be NULL) the entries read, DM_EINPUT naming the first damaged or
 * foreign entry (its row, what is wrong, the sqlite3 command that shows it), or
 * DM_ERUNTIME. */
int card_store_load(dm_store *st, int *ntuned, int *nfits, dm_err *err);

/* Stores r's choices of card (NULL: of every card), each its chosen value with the runs
 * its candidates came from,
 * replacing the same (workload, card, variant, axis, bucket)'s earlier one; a bucket
 * measured at one value only is no choice and is left out. Returns 0
 * with *stored the number written, or DM_ERUNTIME. */
int card_store_put_tuned(dm_store *st, const dm_tune_result *r, const dm_tune_opts *o,
                         const char *card, int *stored, dm_err *err);

#endif
