/* card_choices.c - the stored per-card choices of this process, per workload: copies of
 * the entries the results database held, each table kept ending with a zeroed entry like
 * the compiled-in ones. */
#include <stdlib.h>
#include <string.h>

#include "card_choices.h"
#include "registry.h"

/* One workload's stored entries. */
typedef struct cc_tables {
    const dm_workload *w;
    dm_tuned *tuned;
    size_t ntuned, captuned;
    dm_crossover_fit *fits;
    size_t nfits, capfits;
} cc_tables;

const char *const card_choices_source[2] = { "stored", "shipped" };

static cc_tables *cc_all;
static size_t cc_n;

/* w's tables, made when missing (NULL without memory). */
static cc_tables *cc_of(const dm_workload *w, int make)
{
    for (size_t i = 0; i < cc_n; i++)
        if (cc_all[i].w == w)
            return &cc_all[i];
    if (!make)
        return NULL;
    cc_tables *grown = realloc(cc_all, (cc_n + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    cc_all = grown;
    memset(&cc_all[cc_n], 0, sizeof *cc_all);
    cc_all[cc_n].w = w;
    return &cc_all[cc_n++];
}

/* Room for one more entry of size bytes and its terminator in *table (of *cap). */
static int cc_room(void **table, size_t n, size_t *cap, size_t size)
{
    if (n + 2 <= *cap)
        return 0;
    size_t want = *cap ? 2 * *cap : 16;
    char *grown = realloc(*table, want * size);
    if (!grown)
        return -1;
    memset(grown + *cap * size, 0, (want - *cap) * size);
    *table = grown;
    *cap = want;
    return 0;
}

int card_choices_add_tuned(const dm_workload *w, const dm_tuned *t, dm_err *err)
{
    cc_tables *c = cc_of(w, 1);
    if (!c || cc_room((void **)&c->tuned, c->ntuned, &c->captuned, sizeof *c->tuned))
        return dm_err_set(err, DM_ERUNTIME, "out of memory keeping the stored choices");
    dm_tuned copy = { strdup(t->card), strdup(t->cc), strdup(t->variant), strdup(t->axis),
                      strdup(t->bucket), t->value };
    if (!copy.card || !copy.cc || !copy.variant || !copy.axis || !copy.bucket) {
        free((char *)copy.card), free((char *)copy.cc), free((char *)copy.variant);
        free((char *)copy.axis), free((char *)copy.bucket);
        return dm_err_set(err, DM_ERUNTIME, "out of memory keeping the stored choices");
    }
    c->tuned[c->ntuned++] = copy;
    return 0;
}

/* Frees the strings and groups of a copied fit. */
static void cc_fit_free(dm_crossover_fit *f)
{
    free((char *)f->card), free((char *)f->cc), free((char *)f->variant_a);
    free((char *)f->variant_b), free((char *)f->axis), free((char *)f->group);
    free((char *)f->form), free((char *)f->below);
    for (int i = 0; f->measured && i < f->nmeasured; i++)
        free((char *)f->measured[i].faster);
    free((void *)f->measured);
}

/* strdup that keeps NULL. */
static char *cc_dup(const char *s, int *bad)
{
    char *d = s ? strdup(s) : NULL;
    *bad |= s && !d;
    return d;
}

int card_choices_add_fit(const dm_workload *w, const dm_crossover_fit *f, dm_err *err)
{
    cc_tables *c = cc_of(w, 1);
    int bad = !c || cc_room((void **)&c->fits, c->nfits, &c->capfits, sizeof *c->fits);
    if (bad)
        return dm_err_set(err, DM_ERUNTIME, "out of memory keeping the stored fits");
    dm_crossover_fit copy = *f;
    copy.card = cc_dup(f->card, &bad), copy.cc = cc_dup(f->cc, &bad);
    copy.variant_a = cc_dup(f->variant_a, &bad), copy.variant_b = cc_dup(f->variant_b, &bad);
    copy.axis = cc_dup(f->axis, &bad), copy.group = cc_dup(f->group, &bad);
    copy.form = cc_dup(f->form, &bad), copy.below = cc_dup(f->below, &bad);
    copy.measured = NULL;
    copy.nmeasured = 0;
    dm_crossover_measured *m = f->nmeasured ? calloc((size_t)f->nmeasured, sizeof *m) : NULL;
    bad |= f->nmeasured && !m;
    for (int i = 0; m && i < f->nmeasured; i++) {
        m[i] = f->measured[i];
        m[i].faster = cc_dup(f->measured[i].faster, &bad);
        copy.nmeasured = i + 1;
    }
    copy.measured = m;
    if (bad) {
        cc_fit_free(&copy);
        return dm_err_set(err, DM_ERUNTIME, "out of memory keeping the stored fits");
    }
    c->fits[c->nfits++] = copy;
    return 0;
}

void card_choices_clear(void)
{
    for (size_t i = 0; i < cc_n; i++) {
        cc_tables *c = &cc_all[i];
        for (size_t k = 0; k < c->ntuned; k++) {
            dm_tuned *t = &c->tuned[k];
            free((char *)t->card), free((char *)t->cc), free((char *)t->variant);
            free((char *)t->axis), free((char *)t->bucket);
        }
        for (size_t k = 0; k < c->nfits; k++)
            cc_fit_free(&c->fits[k]);
        free(c->tuned);
        free(c->fits);
    }
    free(cc_all);
    cc_all = NULL;
    cc_n = 0;
}

const dm_tuned *card_choices_tuned(const dm_workload *w)
{
    static const dm_tuned none[] = { { 0 } };
    const cc_tables *c = cc_of(w, 0);
    return c && c->ntuned ? c->tuned : none;
}

const dm_crossover_fit *card_choices_fits(const dm_workload *w)
{
    static const dm_crossover_fit none[] = { { 0 } };
    const cc_tables *c = cc_of(w, 0);
    return c && c->nfits ? c->fits : none;
}

/* 1 when a zero-ended table of tuned choices or of fits holds an entry of card. */
static int cc_names(const dm_tuned *t, const dm_crossover_fit *f, const char *card)
{
    for (; t && t->card; t++)
        if (!strcmp(t->card, card))
            return 1;
    for (; f && f->card; f++)
        if (!strcmp(f->card, card))
            return 1;
    return 0;
}

int card_choices_know_card(const char *card)
{
    for (size_t i = 0; i < cc_n; i++)
        if (cc_names(cc_all[i].tuned, cc_all[i].fits, card))
            return 1;
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        if (cc_names((*w)->tuned, (*w)->fits, card))
            return 1;
    return 0;
}
