/* ep_prefix_split.c - counting by prefix over several parts (ep_prefix_split.h): the
 * share made on the calling thread (a level of extensions balanced by ep_split_balance),
 * in units that are runs of the batch (a prefix's extensions are contiguous); each part
 * takes its units' items, counts them and puts its counts back in the batch's, on its
 * own; the owners of the kept episodes found on the calling thread. */
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
        free(sh->own_counts);
        free(sh->own_freq);
        free(sh->own_ext);
        free(sh->own_held);
        free(sh->own_src);
        free(sh->local);
    }
    free(sp->events);
    free(sp->first);
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

/* Room for n units of a batch (and where the last one's run ends). Returns 0, or
 * DM_ERUNTIME without memory. */
static int ep_split_room(ep_prefix_split *sp, int64_t n, dm_err *err)
{
    int64_t cap = sp->cap_units, cap_move = sp->cap_units, cap_held = sp->cap_units,
            cap_part = sp->cap_units;
    if (ep_room((void **)&sp->w, &cap, n + 1, sizeof *sp->w) ||
        ep_room((void **)&sp->move, &cap_move, n + 1, sizeof *sp->move) ||
        ep_room((void **)&sp->held, &cap_held, n + 1, sizeof *sp->held) ||
        ep_room((void **)&sp->part, &cap_part, n + 1, sizeof *sp->part) ||
        ep_room((void **)&sp->first, &sp->cap_units, n + 1, sizeof *sp->first))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld items",
                          (long long)n);
    return 0;
}

/* 1 when unit u is in part's share: counted there, or on every part. */
static int ep_split_counts(const ep_prefix_split *sp, int64_t u, int part)
{
    return sp->part[u] == part || sp->part[u] == EP_PREFIX_EVERY;
}

/* Each part's items: the sum of its units' runs. */
static void ep_split_sizes(ep_prefix_split *sp)
{
    for (int p = 0; p < sp->parts; p++)
        sp->share[p].n = 0;
    for (int64_t u = 0; u < sp->nunits; u++)
        for (int p = 0; p < sp->parts; p++)
            if (ep_split_counts(sp, u, p))
                sp->share[p].n += sp->first[u + 1] - sp->first[u];
}

/* Shares out eps[0..n), to count into counts: every part all of them when each is one
 * node (no step to take: every part keeps them), else even contiguous slices. Returns 0,
 * or DM_ERUNTIME without memory. */
static int ep_split_batch(ep_prefix_split *sp, const ep_episode *eps, int64_t n,
                          int64_t *counts, dm_err *err)
{
    if (ep_split_room(sp, sp->parts, err))
        return err->code;
    sp->eps = eps;
    sp->ext = NULL;
    sp->n = n;
    sp->counts = counts;
    sp->moved = 0;
    int every = 1;
    for (int64_t i = 0; i < n && every; i++)
        every = eps[i].n == 1;
    sp->nunits = every ? 1 : sp->parts;
    for (int64_t u = 0; u < sp->nunits; u++) {
        int64_t first = 0, count = n;
        if (!every)
            ep_split(n, sp->parts, (int)u, &first, &count);
        sp->first[u] = first;
        sp->part[u] = every ? EP_PREFIX_EVERY : (int)u;
        sp->share[u].eps = eps + first;
    }
    sp->first[sp->nunits] = n;
    for (int p = 1; every && p < sp->parts; p++)
        sp->share[p].eps = eps;
    ep_split_sizes(sp);
    return 0;
}

/* The cost of a step from the events of type a to those of type b: the events it reads. */
static int64_t ep_split_step_cost(const ep_prefix_split *sp, int32_t a, int32_t b)
{
    return sp->events[a] + sp->events[b];
}

/* Makes the units of ext[0..n) (ep_prefix_split_ext): the run of extensions of each
 * prefix one part holds, and each extension of a prefix every part holds alone; and,
 * over several parts, places them. Returns 0, or DM_ERUNTIME without memory. */
static int ep_split_units(ep_prefix_split *sp, const ep_episode *freq, int64_t nfreq,
                          const ep_ext *ext, int64_t n, dm_err *err)
{
    if (ep_split_room(sp, n, err))
        return err->code;
    if (ep_room((void **)&sp->unit_of, &sp->cap_unit_of, nfreq, sizeof *sp->unit_of))
        goto nomem;
    for (int64_t j = 0; j < nfreq; j++)
        sp->unit_of[j] = -1;
    sp->nunits = 0;
    int64_t u = -1, last = 0; /* the unit being made; its prefix's last type's events */
    for (int64_t i = 0; i < n; i++) {
        const int64_t j = ext[i].prefix;
        const int o = sp->parts > 1 ? sp->owner[j] : 0;
        if (o == EP_PREFIX_EVERY || i == 0 || ext[i - 1].prefix != j) {
            const ep_episode *a = &freq[j];
            u = sp->nunits++;
            last = sp->events[a->ev[a->n - 1]];
            sp->first[u] = i;
            sp->w[u] = 0;
            sp->move[u] = 0;
            sp->held[u] = o;
            sp->part[u] = o;
            if (o != EP_PREFIX_EVERY) {
                sp->unit_of[j] = u;
                if (sp->fetching) /* a copy of its starts */
                    sp->move[u] = last;
                for (int k = 1; k < a->n && !sp->fetching; k++)
                    sp->move[u] += ep_split_step_cost(sp, a->ev[k - 1], a->ev[k]);
            }
        }
        sp->w[u] += last + sp->events[ext[i].type];
    }
    sp->first[sp->nunits] = n;
    if (sp->parts == 1 ||
        ep_split_balance(sp->w, sp->move, sp->held, sp->nunits, sp->parts,
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

/* Shares out ext[0..n), extensions of freq[0..nfreq) (as ep_count_ext_fn gives them),
 * to count into counts, balanced by ep_split_balance (ep_prefix_split_ext_cb). Returns 0,
 * DM_EINPUT when the batch before kept other than nfreq episodes, DM_ERUNTIME without
 * memory. */
static int ep_split_ext(ep_prefix_split *sp, const ep_episode *freq, int64_t nfreq,
                        const ep_ext *ext, int64_t n, int64_t *counts, dm_err *err)
{
    if (nfreq != sp->nowner)
        return dm_err_set(err, DM_EINPUT, "counting by prefix over %d parts: %lld prefixes "
                          "given, %lld kept from the batch before", sp->parts,
                          (long long)nfreq, (long long)sp->nowner);
    if (ep_split_units(sp, freq, nfreq, ext, n, err) ||
        (sp->parts > 1 && sp->fetching && ep_split_sources(sp, nfreq, err)))
        return err->code;
    sp->eps = NULL;
    sp->freq = freq;
    sp->nfreq = nfreq;
    sp->ext = ext;
    sp->n = n;
    sp->counts = counts;
    sp->moved = 0;
    for (int64_t u = 0; sp->parts > 1 && u < sp->nunits; u++)
        sp->moved += sp->held[u] != EP_PREFIX_EVERY && sp->part[u] != sp->held[u];
    ep_split_sizes(sp);
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
    ep_ext *x = sh->own_ext;
    for (int64_t u = 0; u < sp->nunits; u++)
        for (int64_t i = sp->first[u]; sp->part[u] == part && i < sp->first[u + 1]; i++) {
            *x = sp->ext[i];
            x->prefix = sh->local[x->prefix];
            x++;
        }
    sh->ext = sh->own_ext;
    return 0;
nomem:
    return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory sharing %lld extensions",
                      (long long)sh->n);
}

/* part's counts into the batch's, at its units' runs (part 0 those of every part's). */
static void ep_split_scatter(ep_prefix_split *sp, int part)
{
    const int64_t *c = sp->share[part].counts;
    for (int64_t u = 0; u < sp->nunits; u++) {
        if (!ep_split_counts(sp, u, part))
            continue;
        const int64_t len = sp->first[u + 1] - sp->first[u];
        if (sp->part[u] == part || part == 0)
            memcpy(sp->counts + sp->first[u], c, (size_t)len * sizeof *c);
        c += len;
    }
}

int ep_prefix_split_count(ep_prefix_split *sp, int part, ep_prefix_state *st, dm_err *err)
{
    ep_prefix_share *sh = &sp->share[part];
    if (sp->parts == 1)
        sh->counts = sp->counts; /* the batch's own */
    else if (ep_room((void **)&sh->own_counts, &sh->cap_counts, sh->n,
                     sizeof *sh->own_counts))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %lld counts",
                          (long long)sh->n);
    else
        sh->counts = sh->own_counts;
    int rc;
    if (sp->eps)
        rc = sh->n ? ep_prefix_cb(st, sh->eps, sh->n, sh->counts, err) : 0;
    else if ((rc = ep_split_own_ext(sp, part, err)) == 0)
        /* A part given no extension still keeps none of this level: its state must
         * agree. */
        rc = ep_prefix_count_ext(st, sh->freq, sh->nfreq, sh->held, sh->src, sh->ext, sh->n,
                                 sh->counts, err);
    if (rc == 0 && sp->parts > 1)
        ep_split_scatter(sp, part);
    return rc;
}

/* After every part counted: who holds the starts of each episode the batch kept (the
 * part that counted it; every part, for one counted on every part). Returns 0, or
 * DM_ERUNTIME without memory. */
static int ep_split_owners(ep_prefix_split *sp, dm_err *err)
{
    sp->nowner = 0;
    if (ep_room((void **)&sp->owner, &sp->cap_owner, sp->n, sizeof *sp->owner))
        return dm_err_set(err, DM_ERUNTIME, "episodes: out of memory for %lld owners",
                          (long long)sp->n);
    for (int64_t u = 0; u < sp->nunits; u++)
        for (int64_t i = sp->first[u]; i < sp->first[u + 1]; i++)
            if (sp->counts[i] >= sp->keep)
                sp->owner[sp->nowner++] = sp->part[u];
    return 0;
}

int ep_prefix_split_cb(void *ctx, const ep_episode *eps, int64_t n, int64_t *counts,
                       dm_err *err)
{
    ep_prefix_split *sp = ctx;
    if (ep_split_batch(sp, eps, n, counts, err) || sp->run(sp->run_ctx, err) ||
        ep_split_owners(sp, err))
        return err->code;
    return 0;
}

int ep_prefix_split_ext_cb(void *ctx, const ep_episode *freq, int64_t nfreq,
                           const ep_ext *ext, int64_t n, int64_t *counts, dm_err *err)
{
    ep_prefix_split *sp = ctx;
    if (ep_split_ext(sp, freq, nfreq, ext, n, counts, err) || sp->run(sp->run_ctx, err) ||
        ep_split_owners(sp, err))
        return err->code;
    return 0;
}
