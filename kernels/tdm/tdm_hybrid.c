/* tdm_hybrid.c - the hybrid variant's choice between the paper's block-tex (fast on few
 * episodes: time grows with them) and thread-tex (about constant until the card is
 * full), switching where the stored crossover fit f(level) says their times cross; and
 * packed's between its own kernels (a floor of four launches) and block-tex on short
 * databases, by the fit of those two over the database's length. */
#include <math.h>
#include <string.h>

#include "crossover_lookup.h"
#include "tdm/tdm.h"

int64_t tdm_switch_at(const dm_crossover_fit *fit, int level)
{
    double x = round(crossover_switch_at(fit, level));
    if (!(x >= 1))
        return 1;
    return x > (double)TDM_MAX_SWITCH ? TDM_MAX_SWITCH : (int64_t)x;
}

const char *tdm_hybrid_choose(int level, int64_t episodes, const dm_crossover_fit *fit,
                              int64_t switch_at, const char *below)
{
    if (switch_at == 0 && !fit)
        return NULL;
    int64_t at = switch_at ? switch_at : tdm_switch_at(fit, level);
    if (!below || strcmp(below, "auto") == 0)
        below = fit && fit->below ? fit->below : "block-tex";
    int thread_below = strcmp(below, "thread-tex") == 0;
    if (episodes < at)
        return thread_below ? "thread-tex" : "block-tex";
    return thread_below ? "block-tex" : "thread-tex";
}

/* The fit for dev in w's table of block-tex against other over axis, grouped by level,
 * or NULL. */
static const dm_crossover_fit *tdm_fit(const dm_workload *w, const dm_device *dev,
                                       const char *other, const char *axis, char *how,
                                       size_t hown)
{
    const dm_crossover_fit *fit;
    if (!crossover_lookup(w, dev, "block-tex", other, axis, "level", &fit, how, hown))
        return NULL;
    return fit;
}

const dm_crossover_fit *tdm_hybrid_fit(const dm_workload *w, const dm_device *dev,
                                       char *how, size_t hown)
{
    return tdm_fit(w, dev, "thread-tex", "count", how, hown);
}

const char *tdm_packed_choose(int level, int64_t length, const dm_crossover_fit *fit,
                              const char *small)
{
    if (small && strcmp(small, "auto") != 0)
        return small;
    if (fit && fit->below && strcmp(fit->below, "block-tex") == 0 &&
        length < tdm_switch_at(fit, level))
        return "block-tex";
    return "packed";
}

const dm_crossover_fit *tdm_packed_fit(const dm_workload *w, const dm_device *dev,
                                       char *how, size_t hown)
{
    return tdm_fit(w, dev, "packed", "length", how, hown);
}
