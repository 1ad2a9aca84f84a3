/* ep_prefix_split.c - counting by prefix over several parts (ep_prefix_split.h): the
 * share made on the calling thread, each part's counted on its own, the counts and the
 * owners of the kept episodes gathered. */
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_prefix_split.h"
#include "episodes/ep_split.h"

void ep_prefix_split_init(ep_prefix_split *sp, int parts, int64_t keep,
                          ep_prefix_parts_fn run, void *run_ctx)
{
    *sp = (ep_prefix_split){.parts = parts, .keep = keep, .run = run, .run_ctx = run_ctx};
}

void ep_prefix_split_free(ep_prefix_split *sp)
{
    for (int p = 0; p < sp->parts; p++) {
        ep_prefix_share *sh = &sp->share[p];
        free(sh->counts);
        free(sh->own_freq);
        free(sh->own_ext);
        free(sh->local);
    }
    free(sp->assign);
    free(sp->at);
    free(sp->owner);
    *sp = (ep_prefix_split){0};
}

/* Room for n items of a batch. Returns 0, or DM_ERUNTIME without memory. */
static int ep_split_items(ep_prefix_split *sp, int64_t n, dm_err *err)
{
    int64_t cap = sp->cap_items;
    if (ep_room((void **)&sp->assign, &cap, n, sizeof *sp->assign) ||
        ep_room((void **)&sp->at, &sp->cap_items, n, sizeof *sp->at))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld episodes",
                          (long long)n);
    return 0;
}

int ep_prefix_split_batch(ep_prefix_split *sp, const ep_episode *eps, int64_t n,
                          dm_err *err)
{
    if (ep_split_items(sp, n, err))
        return err->code;
    sp->eps = eps;
    sp->ext = NULL;
    sp->n = n;
    int every = 1;
    for (int64_t i = 0; i < n && every; i++)
        every = eps[i].n == 1;
    for (int p = 0; p < sp->parts; p++) {
        int64_t first = 0, count = n;
        if (!every)
            ep_split(n, sp->parts, p, &first, &count);
        sp->share[p].eps = eps + first;
        sp->share[p].n = count;
        for (int64_t i = first; i < first + count; i++) {
            sp->assign[i] = every ? EP_PREFIX_EVERY : p;
            sp->at[i] = i - first;
        }
    }
    return 0;
}

int ep_prefix_split_ext(ep_prefix_split *sp, const ep_episode *freq, int64_t nfreq,
                        const ep_ext *ext, int64_t n, dm_err *err)
{
    if (nfreq != sp->nowner)
        return dm_err_set(err, DM_EINPUT, "counting by prefix over %d parts: %lld prefixes "
                          "given, %lld kept from the batch before", sp->parts,
                          (long long)nfreq, (long long)sp->nowner);
    if (ep_split_items(sp, n, err))
        return err->code;
    sp->eps = NULL;
    sp->freq = freq;
    sp->nfreq = nfreq;
    sp->ext = ext;
    sp->n = n;
    for (int p = 0; p < sp->parts; p++)
        sp->share[p].n = 0;
    int turn = 0;
    for (int64_t i = 0; i < n; i++) {
        int p = sp->owner[ext[i].prefix];
        if (p == EP_PREFIX_EVERY) {
            p = turn;
            turn = turn + 1 == sp->parts ? 0 : turn + 1;
        }
        sp->assign[i] = p;
        sp->at[i] = sp->share[p].n++;
    }
    return 0;
}

/* part's freq and ext from the batch's: its prefixes (those it holds) renumbered among
 * themselves, copied unless it holds them all and takes every extension. Returns 0, or
 * DM_ERUNTIME without memory. */
static int ep_split_own_ext(ep_prefix_split *sp, int part, dm_err *err)
{
    ep_prefix_share *sh = &sp->share[part];
    sh->freq = sp->freq;
    sh->nfreq = sp->nfreq;
    sh->ext = sp->ext;
    if (sp->parts == 1)
        return 0;
    if (ep_room((void **)&sh->local, &sh->cap_local, sp->nfreq, sizeof *sh->local))
        goto nomem;
    int64_t held = 0;
    for (int64_t j = 0; j < sp->nfreq; j++) {
        const int o = sp->owner[j];
        sh->local[j] = o == EP_PREFIX_EVERY || o == part ? held++ : -1;
    }
    if (held == sp->nfreq && sh->n == sp->n) /* every prefix held, every extension here */
        return 0;
    if (held < sp->nfreq) {
        if (ep_room((void **)&sh->own_freq, &sh->cap_freq, held, sizeof *sh->own_freq))
            goto nomem;
        for (int64_t j = 0; j < sp->nfreq; j++)
            if (sh->local[j] >= 0)
                sh->own_freq[sh->local[j]] = sp->freq[j];
        sh->freq = sh->own_freq;
    }
    sh->nfreq = held;
    if (ep_room((void **)&sh->own_ext, &sh->cap_ext, sh->n, sizeof *sh->own_ext))
        goto nomem;
    for (int64_t i = 0; i < sp->n; i++)
        if (sp->assign[i] == part) {
            ep_ext *x = &sh->own_ext[sp->at[i]];
            *x = sp->ext[i];
            x->prefix = sh->local[x->prefix];
        }
    sh->ext = sh->own_ext;
    return 0;
nomem:
    return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld extensions",
                      (long long)sh->n);
}

int ep_prefix_split_count(ep_prefix_split *sp, int part, ep_prefix_state *st, dm_err *err)
{
    ep_prefix_share *sh = &sp->share[part];
    if (ep_room((void **)&sh->counts, &sh->cap_counts, sh->n, sizeof *sh->counts))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %lld counts",
                          (long long)sh->n);
    if (sp->eps)
        return sh->n ? ep_prefix_cb(st, sh->eps, sh->n, sh->counts, err) : 0;
    if (ep_split_own_ext(sp, part, err))
        return err->code;
    /* A part given no extension still keeps none of this level: its state must agree. */
    return ep_prefix_ext_cb(st, sh->freq, sh->nfreq, sh->ext, sh->n, sh->counts, err);
}

int ep_prefix_split_gather(ep_prefix_split *sp, int64_t *counts, dm_err *err)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < sp->n; i++) {
        const int p = sp->assign[i];
        counts[i] = sp->share[p == EP_PREFIX_EVERY ? 0 : p].counts[sp->at[i]];
        kept += counts[i] >= sp->keep;
    }
    sp->nowner = 0;
    if (ep_room((void **)&sp->owner, &sp->cap_owner, kept, sizeof *sp->owner))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %lld owners",
                          (long long)kept);
    for (int64_t i = 0; i < sp->n; i++)
        if (counts[i] >= sp->keep)
            sp->owner[sp->nowner++] = sp->assign[i];
    return 0;
}

int ep_prefix_split_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                       dm_err *err)
{
    ep_prefix_split *sp = ctx;
    if (ep_prefix_split_batch(sp, eps, n, err) || sp->run(sp->run_ctx, err) ||
        ep_prefix_split_gather(sp, counts, err))
        return err->code;
    return 0;
}

int ep_prefix_split_ext_cb(void *ctx, const ep_episode *freq, int64_t nfreq,
                           const ep_ext *ext, int64_t n, int64_t *counts, dm_err *err)
{
    ep_prefix_split *sp = ctx;
    if (ep_prefix_split_ext(sp, freq, nfreq, ext, n, err) || sp->run(sp->run_ctx, err) ||
        ep_prefix_split_gather(sp, counts, err))
        return err->code;
    return 0;
}
