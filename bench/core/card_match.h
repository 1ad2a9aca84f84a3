/* card_match.h - which compiled-in entries measured on some card (tuned block sizes,
 * crossover fits) apply to a device: those of the same card, else those of its
 * architecture family (the same compute capability). One rule for every such table. */
#ifndef DM_CARD_MATCH_H
#define DM_CARD_MATCH_H

#include "dm.h"

/* How closely an entry's card must match the device, closest first. */
typedef enum dm_card_scope {
    DM_CARD_SAME = 0,   /* the same card name */
    DM_CARD_FAMILY = 1, /* the same compute capability */
    DM_CARD_SCOPES = 2  /* how many there are */
} dm_card_scope;

/* 1 when an entry measured on card, of compute capability cc ("9.0"), applies to dev at
 * scope: the same card name (DM_CARD_SAME) or the same compute capability
 * (DM_CARD_FAMILY); else 0. */
int card_match(const dm_device *dev, const char *card, const char *cc, dm_card_scope scope);

/* "card" or "architecture family": how a value was found, for messages. */
const char *card_scope_name(dm_card_scope scope);

#endif
