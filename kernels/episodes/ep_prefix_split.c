/* ep_prefix_split.c - counting by prefix over several parts (ep_prefix_split.h): the
 * share made on the calling thread (a level of extensions balanced by ep_split_balance),
 * each part's counted on its own, the counts and the owners of the kept episodes
 * gathered. */
#include <stdlib.h>
#include <string.h>

#include "episodes/ep_prefix_split.h"

int ep_prefix_split_init(ep_prefix_split *sp, int parts, int64_t keep, const ep_stream *s,
                         int64_t wave, ep_prefix_parts_fn run, void *run_ctx, dm_err *err)
{
    *sp = (ep_prefix_split){.parts = parts, .keep = keep, .wave = wave, .run = run,
                            .run_ctx = run_ctx};
    if (!(sp->events = calloc(s->ntypes > 0 ? (size_t)s->ntypes : 1, sizeof *sp->events)))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory");
    for (int64_t i = 0; i < s->n; i++)
        sp->events[s->type[i]]++;
    return 0;
}

void ep_prefix_split_free(ep_prefix_split *sp)
{
    for (int p = 0; p < sp->parts; p++) {
        ep_prefix_share *sh = &sp->share[p];
        free(sh->counts);
        free(sh->own_freq);
        free(sh->own_ext);
        free(sh->own_held);
        free(sh->own_src);
        free(sh->local);
    }
    free(sp->events);
    free(sp->assign);
    free(sp->at);
    free(sp->unit);
    free(sp->w);
    free(sp->move);
    free(sp->unit_of);
    free(sp->held);
    free(sp->part);
    free(sp->owner);
    free(sp->src);
    *sp = (ep_prefix_split){0};
}

void ep_prefix_split_fetching(ep_prefix_split *sp, ep_prefix_state *const *states)
{
    for (int p = 0; p < sp->parts; p++)
        sp->state[p] = states[p];
    sp->fetching = 1;
}

/* Room for n items of a batch. Returns 0, or DM_ERUNTIME without memory. */
static int ep_split_items(ep_prefix_split *sp, int64_t n, dm_err *err)
{
    int64_t cap = sp->cap_items, cap_at = sp->cap_items;
    if (ep_room((void **)&sp->assign, &cap, n, sizeof *sp->assign) ||
        ep_room((void **)&sp->at, &cap_at, n, sizeof *sp->at) ||
        ep_room((void **)&sp->unit, &sp->cap_items, n, sizeof *sp->unit))
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
    sp->moved = 0;
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

/* The cost of a step from the events of type a to those of type b: the events it reads. */
static int64_t ep_split_step_cost(const ep_prefix_split *sp, int32_t a, int32_t b)
{
    return sp->events[a] + sp->events[b];
}

/* Makes the units of ext[0..n) (ep_prefix_split_ext) and places them. Returns 0, or
 * DM_ERUNTIME without memory. */
static int ep_split_units(ep_prefix_split *sp, const ep_episode *freq, int64_t nfreq,
                          const ep_ext *ext, int64_t n, dm_err *err)
{
    int64_t cap = sp->cap_units, cap_move = sp->cap_units, cap_held = sp->cap_units;
    if (ep_room((void **)&sp->w, &cap, n, sizeof *sp->w) ||
        ep_room((void **)&sp->move, &cap_move, n, sizeof *sp->move) ||
        ep_room((void **)&sp->held, &cap_held, n, sizeof *sp->held) ||
        ep_room((void **)&sp->part, &sp->cap_units, n, sizeof *sp->part) ||
        ep_room((void **)&sp->unit_of, &sp->cap_unit_of, nfreq, sizeof *sp->unit_of))
        goto nomem;
    for (int64_t j = 0; j < nfreq; j++)
        sp->unit_of[j] = -1;
    sp->nunits = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t j = ext[i].prefix;
        const ep_episode *a = &freq[j];
        int64_t u = sp->unit_of[j];
        if (u < 0) {
            u = sp->nunits++;
            sp->w[u] = 0;
            sp->move[u] = 0;
            sp->held[u] = sp->owner[j];
            if (sp->owner[j] != EP_PREFIX_EVERY) {
                sp->unit_of[j] = u;
                if (sp->fetching) /* a copy of its starts */
                    sp->move[u] = sp->events[a->ev[a->n - 1]];
                for (int k = 1; k < a->n && !sp->fetching; k++)
                    sp->move[u] += ep_split_step_cost(sp, a->ev[k - 1], a->ev[k]);
            }
        }
        sp->w[u] += ep_split_step_cost(sp, a->ev[a->n - 1], ext[i].type);
        sp->unit[i] = u;
    }
    if (ep_split_balance(sp->w, sp->move, sp->held, sp->nunits, sp->parts,
                         sp->fetching || n >= sp->parts * sp->wave, sp->part) == 0)
        return 0;
nomem:
    return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld extensions",
                      (long long)n);
}

/* Where each prefix moved off its holder is fetched from (fetching): its holder's kept
 * starts, at the offset of its index among the episodes that part keeps (the level
 * before's it holds and those every part holds, in order). Read on the calling thread,
 * while no part counts. Returns 0, or DM_ERUNTIME without memory or when a holder keeps
 * fewer episodes than it should. */
static int ep_split_sources(ep_prefix_split *sp, int64_t nfreq, dm_err *err)
{
    if (ep_room((void **)&sp->src, &sp->cap_src, nfreq, sizeof *sp->src))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld prefixes",
                          (long long)nfreq);
    int64_t kept[EP_PREFIX_SPLIT_MAX] = {0};
    for (int64_t j = 0; j < nfreq; j++) {
        const int o = sp->owner[j];
        const int64_t u = sp->unit_of[j];
        sp->src[j] = NULL;
        if (o == EP_PREFIX_EVERY) {
            for (int p = 0; p < sp->parts; p++)
                kept[p]++;
            continue;
        }
        const int64_t at = kept[o]++;
        if (u < 0 || sp->part[u] == o)
            continue;
        const ep_prefix_state *h = sp->state[o];
        if (at >= h->nkept || !h->kept_starts)
            return dm_err_set(err, DM_ERUNTIME, "counting by prefix: part %d keeps %lld "
                              "episodes, and prefix %lld is its %lld-th", o,
                              (long long)h->nkept, (long long)j, (long long)at + 1);
        sp->src[j] = h->kept_starts + h->kept_off[at];
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
    if (ep_split_items(sp, n, err) ||
        (sp->parts > 1 && ep_split_units(sp, freq, nfreq, ext, n, err)) ||
        (sp->parts > 1 && sp->fetching && ep_split_sources(sp, nfreq, err)))
        return err->code;
    sp->eps = NULL;
    sp->freq = freq;
    sp->nfreq = nfreq;
    sp->ext = ext;
    sp->n = n;
    sp->moved = 0;
    for (int64_t u = 0; sp->parts > 1 && u < sp->nunits; u++)
        sp->moved += sp->held[u] != EP_PREFIX_EVERY && sp->part[u] != sp->held[u];
    for (int p = 0; p < sp->parts; p++)
        sp->share[p].n = 0;
    for (int64_t i = 0; i < n; i++) {
        const int p = sp->parts > 1 ? sp->part[sp->unit[i]] : 0;
        sp->assign[i] = p;
        sp->at[i] = sp->share[p].n++;
    }
    return 0;
}

/* part's freq, held and ext from the batch's: the prefixes whose starts it holds and
 * those moved to it, renumbered among themselves, copied unless it holds them all and
 * takes every extension. Returns 0, or DM_ERUNTIME without memory. */
static int ep_split_own_ext(ep_prefix_split *sp, int part, dm_err *err)
{
    ep_prefix_share *sh = &sp->share[part];
    sh->freq = sp->freq;
    sh->nfreq = sp->nfreq;
    sh->held = NULL;
    sh->src = NULL;
    sh->ext = sp->ext;
    if (sp->parts == 1)
        return 0;
    if (ep_room((void **)&sh->local, &sh->cap_local, sp->nfreq, sizeof *sh->local) ||
        ep_room((void **)&sh->own_held, &sh->cap_held, sp->nfreq, sizeof *sh->own_held) ||
        (sp->fetching &&
         ep_room((void **)&sh->own_src, &sh->cap_src, sp->nfreq, sizeof *sh->own_src)))
        goto nomem;
    int64_t local = 0, held = 0;
    for (int64_t j = 0; j < sp->nfreq; j++) {
        const int o = sp->owner[j];
        const int64_t u = sp->unit_of[j];
        const int mine = o == EP_PREFIX_EVERY || o == part, moved = !mine && u >= 0 &&
                                                                     sp->part[u] == part;
        sh->local[j] = mine || moved ? local++ : -1;
        if (mine || moved)
            sh->own_held[sh->local[j]] = mine ? held++ : -1;
        if (sp->fetching && (mine || moved))
            sh->own_src[sh->local[j]] = moved ? sp->src[j] : NULL;
    }
    if (held < local) {
        sh->held = sh->own_held;
        sh->src = sp->fetching ? sh->own_src : NULL;
    }
    if (local == sp->nfreq && held == local && sh->n == sp->n) /* all here, and all held */
        return 0;
    if (local < sp->nfreq) {
        if (ep_room((void **)&sh->own_freq, &sh->cap_freq, local, sizeof *sh->own_freq))
            goto nomem;
        for (int64_t j = 0; j < sp->nfreq; j++)
            if (sh->local[j] >= 0)
                sh->own_freq[sh->local[j]] = sp->freq[j];
        sh->freq = sh->own_freq;
    }
    sh->nfreq = local;
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
    return ep_prefix_count_ext(st, sh->freq, sh->nfreq, sh->held, sh->src, sh->ext, sh->n,
                               sh->counts, err);
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
