/* crossover_lookup.c - finding a workload's compiled-in crossover fit for a card, with
 * the same card-then-family fallback as the tuned block sizes. */
#include <string.h>

#include "card_match.h"
#include "crossover_lookup.h"

int crossover_lookup(const dm_workload *w, const dm_device *dev, const char *a, const char *b,
                     const char *axis, const char *group, const dm_crossover_fit **fit,
                     const char **how)
{
    for (dm_card_scope scope = DM_CARD_SAME; w->fits && scope < DM_CARD_SCOPES; scope++)
        for (const dm_crossover_fit *f = w->fits; f->card; f++) {
            int pair = (!strcmp(f->variant_a, a) && !strcmp(f->variant_b, b)) ||
                       (!strcmp(f->variant_a, b) && !strcmp(f->variant_b, a));
            if (pair && !strcmp(f->axis, axis) && !strcmp(f->group, group) &&
                card_match(dev, f->card, f->cc, scope)) {
                *fit = f;
                *how = card_scope_name(scope);
                return 1;
            }
        }
    return 0;
}

double crossover_fit_at(const dm_crossover_fit *fit, double g)
{
    return strcmp(fit->form, "a/N + b") == 0 ? fit->a / g + fit->b : fit->a * g + fit->b;
}
