/* card_match.c - the card, then architecture family, rule by which tuned block sizes
 * and crossover fits measured on one card apply to another. */
#include <stdio.h>
#include <string.h>

#include "card_match.h"

int card_match(const dm_device *dev, const char *card, const char *cc, dm_card_scope scope)
{
    char dev_cc[16];
    if (scope == DM_CARD_SAME)
        return strcmp(card, dev->name) == 0;
    snprintf(dev_cc, sizeof dev_cc, "%d.%d", dev->cc_major, dev->cc_minor);
    return strcmp(cc, dev_cc) == 0;
}

const char *card_scope_name(dm_card_scope scope)
{
    return scope == DM_CARD_SAME ? "card" : "architecture family";
}
