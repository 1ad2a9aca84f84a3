/* crossover_lookup.c - finding a workload's crossover fit for a card, the stored fits
 * before the shipped ones, the same card before its architecture family. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "card_choices.h"
#include "card_match.h"
#include "crossover_lookup.h"

int crossover_lookup(const dm_workload *w, const dm_device *dev, const char *a, const char *b,
                     const char *axis, const char *group, const dm_crossover_fit **fit,
                     char *how, size_t hown)
{
    static const dm_crossover_fit none[] = { { 0 } };
    const dm_crossover_fit *tables[2] = { card_choices_fits(w), w->fits ? w->fits : none };
    for (dm_card_scope scope = DM_CARD_SAME; scope < DM_CARD_SCOPES; scope++)
        for (int s = 0; s < 2; s++)
            for (const dm_crossover_fit *f = tables[s]; f->card; f++) {
                int pair = (!strcmp(f->variant_a, a) && !strcmp(f->variant_b, b)) ||
                           (!strcmp(f->variant_a, b) && !strcmp(f->variant_b, a));
                if (pair && !strcmp(f->axis, axis) && !strcmp(f->group, group) &&
                    card_match(dev, f->card, f->cc, scope)) {
                    *fit = f;
                    if (!how)
                        return 1;
                    if (scope == DM_CARD_SAME)
                        snprintf(how, hown, "fit of this card (%s)", card_choices_source[s]);
                    else
                        snprintf(how, hown, "fit of %s, the same architecture %s (%s)",
                                 f->card, f->cc, card_choices_source[s]);
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
