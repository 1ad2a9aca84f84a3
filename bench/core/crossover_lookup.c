/* crossover_lookup.c - finding a workload's compiled-in crossover fit for a card, with
 * the same card-then-family fallback as the tuned block sizes. */
#include <math.h>
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

double crossover_switch_at(const dm_crossover_fit *fit, double g)
{
    double at = crossover_fit_at(fit, g);
    for (int i = 0; i < fit->nmeasured; i++) {
        const dm_crossover_measured *m = &fit->measured[i];
        if (m->group != g)
            continue;
        if (isfinite(m->x))
            return m->x;
        if (!fit->below) /* no side known to hold the measured range for */
            return at;
        if (!strcmp(m->faster, fit->below))
            return at > m->axis_hi ? at : m->axis_hi;
        return at < m->axis_lo ? at : m->axis_lo;
    }
    return at;
}
