/* cl_gpu_pass.c - the GPU colocation miner's passes over a table's input, a slice of
 * `slice` rows a launch: the counting run (rows and participation bitmap, its sums and
 * its rows added up on the device into the candidate's slot, so a level's candidates are
 * all enqueued and read back at once) and the writing run (counted again, then written:
 * the paper's two-run output); filter C's sums into a slot; the ratios made on the host
 * from the slots' integers, as cl_mine makes them. */
#include <string.h>

#include "coloc/cl_gpu_int.h"

uint64_t clg_work_rows(const clg_work *w)
{
    const uint32_t *start = w->side->h.start;
    return w->feat->k == 2 ? start[w->feat->f[0] + 1] - start[w->feat->f[0]] : w->t1->rows;
}

/* The entries of a slot of a size-k1 candidate: k1 sums, the rows, then the rows of
 * points they stand for (a merged fine set only). */
static uint64_t clg_slot_size(int k1)
{
    return (uint64_t)k1 + 2;
}

int clg_level_slots(cl_gpu *g, int n, int k1, dm_err *err)
{
    const uint64_t entries = (uint64_t)n * clg_slot_size(k1);
    if (clg_grow(g, (void **)&g->slots, &g->slots_cap, entries, sizeof *g->slots, err) ||
        clg_host_grow(g, (void **)&g->h_slots, &g->h_slots_cap, entries, sizeof *g->h_slots,
                      err) ||
        DM_CUDA(err, cudaMemsetAsync(g->slots, 0, entries * sizeof *g->slots, g->st)))
        return DM_ERUNTIME;
    return 0;
}

int clg_level_read(cl_gpu *g, int n, int k1, dm_err *err)
{
    const uint64_t entries = (uint64_t)n * clg_slot_size(k1);
    if (clg_copy(g, g->h_slots, g->slots, entries * sizeof *g->slots, cudaMemcpyDeviceToHost,
                 err))
        return DM_ERUNTIME;
    return clg_sync(g, err);
}

double clg_slot_ratio(const cl_gpu *g, const cl_inst *h, const clg_feats *f, int i)
{
    const unsigned long long *sums = g->h_slots + (uint64_t)i * clg_slot_size(f->k);
    double pi = 1;
    for (int m = 0; m < f->k; m++) {
        double ratio = cl_ratio(sums[m], h->total[f->f[m]]);
        if (ratio < pi)
            pi = ratio;
    }
    return pi;
}

uint64_t clg_slot_rows(const cl_gpu *g, int k1, int i)
{
    return g->h_slots[(uint64_t)i * clg_slot_size(k1) + (uint64_t)k1];
}

uint64_t clg_slot_points(const cl_gpu *g, int k1, int i)
{
    return g->h_slots[(uint64_t)i * clg_slot_size(k1) + (uint64_t)k1 + (g->fine.h.weight != NULL)];
}

/* The prefix hash of w->t2 into g->hash, its slots into a->slots (waits for the count of
 * groups, which sizes the hash). */
static int clg_hash_prepare(cl_gpu *g, const clg_work *w, clg_pass *a, dm_err *err)
{
    const clg_table *t2 = w->t2;
    if (DM_CUDA(err, cudaMemsetAsync(g->groups, 0, sizeof *g->groups, g->st)) ||
        clg_hash_groups(t2->dev, t2->rows, t2->k, g->groups, g->o.block, g->st, err) ||
        clg_copy(g, &g->h->groups, g->groups, sizeof *g->groups, cudaMemcpyDeviceToHost, err) ||
        clg_sync(g, err))
        return DM_ERUNTIME;
    uint64_t slots = 2;
    while (slots < 2 * g->h->groups)
        slots *= 2;
    if (clg_grow(g, (void **)&g->hash, &g->hash_cap, slots, sizeof *g->hash, err) ||
        DM_CUDA(err, cudaMemsetAsync(g->hash, 0xff, slots * sizeof *g->hash, g->st)) ||
        clg_hash_build(t2->dev, t2->rows, t2->k, g->hash, slots, g->o.block, g->st, err))
        return DM_ERUNTIME;
    a->t2 = t2->dev;
    a->rows2 = t2->rows;
    a->hash = g->hash;
    a->slots = slots;
    return 0;
}

int clg_lanes_fork(cl_gpu *g, dm_err *err)
{
    g->next_lane = 0;
    if (DM_CUDA(err, cudaEventRecord(g->fork, g->st)))
        return DM_ERUNTIME;
    for (int l = 1; l < CLG_LANES; l++)
        if (DM_CUDA(err, cudaStreamWaitEvent(g->lane[l], g->fork, 0)))
            return DM_ERUNTIME;
    return 0;
}

int clg_lanes_join(cl_gpu *g, dm_err *err)
{
    for (int l = 1; l < CLG_LANES; l++)
        if (DM_CUDA(err, cudaEventRecord(g->join[l], g->lane[l])) ||
            DM_CUDA(err, cudaStreamWaitEvent(g->st, g->join[l], 0)))
            return DM_ERUNTIME;
    return 0;
}

/* The lane the next candidate takes (0 when it must: shared). */
static int clg_take_lane(cl_gpu *g, int shared)
{
    if (shared)
        return 0;
    const int l = g->next_lane;
    g->next_lane = (l + 1) % CLG_LANES;
    return l;
}

/* The launch arguments of a pass over w on lane l (but for its input and count), the
 * hash built for the join. */
static int clg_pass_begin(cl_gpu *g, const clg_work *w, int counting, int l, clg_pass *a,
                          dm_err *err)
{
    const int k1 = w->feat->k;
    const uint32_t *start = w->side->h.start;
    *a = (clg_pass){.s = w->side->d, .k = k1 - 1, .blo = start[w->feat->f[k1 - 1]],
                    .bhi = start[w->feat->f[k1 - 1] + 1], .counts = g->scratch[l].counts,
                    .bits = counting ? w->side->bits[l] : NULL,
                    .offsets = g->scratch[l].offsets, .block = g->o.block,
                    .stream = g->lane[l]};
    if (w->side == &g->fine)
        g->cost->tested += clg_work_rows(w);
    return w->t2 ? clg_hash_prepare(g, w, a, err) : 0;
}

/* Points a (set up but for its input) at input rows lo .. lo + a->n - 1 of w, copied to
 * the device first when w's input table is in host memory. */
static int clg_slice_input(cl_gpu *g, const clg_work *w, clg_pass *a, uint64_t lo,
                           dm_err *err)
{
    const int k = w->feat->k - 1;
    if (k == 1) {
        a->first = w->side->h.start[w->feat->f[0]] + (uint32_t)lo;
    } else if (w->t1->dev) {
        a->in = w->t1->dev + lo * (uint64_t)k;
    } else {
        if (clg_grow(g, (void **)&g->in, &g->in_cap, a->n * (uint64_t)k, sizeof *g->in, err) ||
            clg_copy(g, g->in, w->t1->host + lo * (uint64_t)k,
                     a->n * (uint64_t)k * sizeof *g->in, cudaMemcpyHostToDevice, err))
            return DM_ERUNTIME;
        a->in = g->in;
    }
    return 0;
}

/* Enqueues the count of input rows lo .. lo + a->n - 1 of w (a set up but for its input,
 * on lane l) into a->counts, or takes them from kept (the counting run's, the whole input
 * in one slice), and their prefix sum into a->offsets: the slice's rows at
 * a->offsets[a->n]. */
static int clg_slice_count(cl_gpu *g, const clg_work *w, clg_pass *a, int l, uint64_t lo,
                           const uint64_t *kept, dm_err *err)
{
    const clg_scratch *s = &g->scratch[l];
    if (clg_slice_input(g, w, a, lo, err))
        return DM_ERUNTIME;
    if (kept)
        return clg_scan(kept, s->offsets, a->n + 1, s->temp, s->temp_bytes, g->lane[l], err);
    if (DM_CUDA(err, cudaMemsetAsync(a->counts + a->n, 0, sizeof *a->counts, g->lane[l])) ||
        (a->t2 ? clg_hash_count(a, err) : clg_grid_count(a, err)) ||
        clg_scan(a->counts, s->offsets, a->n + 1, s->temp, s->temp_bytes, g->lane[l], err))
        return DM_ERUNTIME;
    return 0;
}

int clg_lanes_room(cl_gpu *g, uint64_t n, dm_err *err)
{
    for (int l = 1; l < CLG_LANES; l++)
        if (clg_scratch_grow(g, &g->scratch[l], n, err))
            return DM_ERUNTIME;
    return 0;
}

int clg_count(cl_gpu *g, const clg_work *w, int i, uint64_t *keep, dm_err *err)
{
    const clg_feats *f = w->feat;
    unsigned long long *slot = g->slots + (uint64_t)i * clg_slot_size(f->k);
    clg_pass a;
    const int l = clg_take_lane(g, w->t2 || (w->t1 && !w->t1->dev));
    uint32_t *bits = w->side->bits[l];
    if (DM_CUDA(err, cudaMemsetAsync(bits, 0, w->side->words * sizeof *bits, g->lane[l])) ||
        clg_pass_begin(g, w, 1, l, &a, err))
        return DM_ERUNTIME;
    if (w->side == &g->fine && w->side->h.weight)
        a.points = slot + f->k + 1;
    a.rows = slot + f->k; /* the rows straight into the slot: no prefix sum */
    const uint64_t total = clg_work_rows(w);
    if (keep && DM_CUDA(err, cudaMemsetAsync(keep + total, 0, sizeof *keep, g->lane[l])))
        return DM_ERUNTIME;
    for (uint64_t lo = 0; lo < total; lo += a.n) {
        a.n = total - lo < g->o.slice ? total - lo : g->o.slice;
        a.counts = keep ? keep + lo : NULL;
        if (clg_slice_input(g, w, &a, lo, err) ||
            (a.t2 ? clg_hash_count(&a, err) : clg_grid_count(&a, err)))
            return DM_ERUNTIME;
    }
    return clg_bits_sum(&w->side->d, bits, f, slot, g->o.block, g->lane[l], err);
}

/* A level's n candidates cc of size k1 for clg_level_sums (pruned ones left out), and
 * with pairs the slot of each size-2 one by its features (clg_pairs), in one pinned
 * buffer copied at once into g->masks: the masks, each feature's first entry, the
 * entries, the pair map, in 32-bit words; *first and *pair where the device's are,
 * *nentry the entries. Returns 0, or DM_ERUNTIME. */
static int clg_level_lists(cl_gpu *g, const cl_candidate *cc, int n, int k1, int pairs,
                           const uint32_t **first_dev, const int32_t **pair_dev,
                           uint32_t *nentry, dm_err *err)
{
    const int nfeat = g->fine.h.nfeat;
    const uint64_t npair = pairs ? (uint64_t)nfeat * (uint64_t)nfeat : 0,
                   words = 2 * (uint64_t)n + (uint64_t)nfeat + 1 +
                           (uint64_t)n * (uint64_t)k1 + npair;
    if (clg_grow(g, (void **)&g->masks, &g->masks_cap, (words + 1) / 2, sizeof *g->masks,
                 err) ||
        clg_host_grow(g, (void **)&g->h_masks, &g->h_masks_cap, (words + 1) / 2,
                      sizeof *g->h_masks, err))
        return DM_ERUNTIME;
    uint32_t *first = (uint32_t *)(g->h_masks + n), *entry = first + nfeat + 1;
    int32_t *pair = (int32_t *)(entry + (uint64_t)n * (uint64_t)k1);
    memset(first, 0, ((size_t)nfeat + 1) * sizeof *first);
    for (uint64_t p = 0; p < npair; p++)
        pair[p] = -1;
    for (int i = 0; i < n; i++) {
        g->h_masks[i] = cc[i].mask;
        for (uint64_t m = cc[i].pruned ? 0 : cc[i].mask; m; m &= m - 1)
            first[__builtin_ctzll(m) + 1]++;
    }
    for (int f = 0; f < nfeat; f++)
        first[f + 1] += first[f];
    for (int i = 0; i < n; i++) { /* first[f] moves to f's end, then back */
        if (cc[i].pruned)
            continue;
        uint32_t place = 0;
        for (uint64_t m = cc[i].mask; m; m &= m - 1)
            entry[first[__builtin_ctzll(m)]++] = (uint32_t)i << 6 | place++;
        if (pairs) {
            const uint64_t low = cc[i].mask & (cc[i].mask - 1);
            pair[__builtin_ctzll(cc[i].mask) * nfeat + __builtin_ctzll(low)] = i;
        }
    }
    for (int f = nfeat; f > 0; f--)
        first[f] = first[f - 1];
    first[0] = 0;
    *nentry = first[nfeat];
    *first_dev = (const uint32_t *)(g->masks + n);
    *pair_dev = (const int32_t *)(*first_dev + (pair - (int32_t *)first));
    return clg_copy(g, g->masks, g->h_masks, (size_t)words * sizeof *first,
                    cudaMemcpyHostToDevice, err);
}

int clg_cellagg_level(cl_gpu *g, const cl_candidate *cc, int n, int k1, dm_err *err)
{
    const uint32_t *first;
    const int32_t *pair;
    uint32_t nentry;
    const int nfeat = g->coarse.h.nfeat;
    return clg_level_lists(g, cc, n, k1, 0, &first, &pair, &nentry, err) ||
                   clg_level_sums(&g->coarse.d, nfeat, g->quad_mask, NULL, g->masks, first,
                                  first + nfeat + 1, nentry, (int)clg_slot_size(k1),
                                  g->slots, g->o.block, g->st, err)
               ? DM_ERUNTIME
               : 0;
}

int clg_pairs_level(cl_gpu *g, const cl_candidate *cc, int n, dm_err *err)
{
    const uint32_t *first;
    const int32_t *pair;
    uint32_t nentry;
    const clg_side *f = &g->fine;
    const int nfeat = f->h.nfeat;
    g->cost->tested += f->h.n;
    return clg_level_lists(g, cc, n, 2, 1, &first, &pair, &nentry, err) ||
                   clg_grow(g, (void **)&g->nbr, &g->nbr_cap, f->h.n, sizeof *g->nbr, err) ||
                   DM_CUDA(err, cudaMemsetAsync(g->nbr, 0, f->h.n * sizeof *g->nbr, g->st)) ||
                   clg_pairs(&f->d, nfeat, pair, n, (int)clg_slot_size(2), g->nbr, g->slots,
                             g->o.block, g->st, err) ||
                   clg_level_sums(&f->d, nfeat, NULL, g->nbr, g->masks, first,
                                  first + nfeat + 1, nentry, (int)clg_slot_size(2), g->slots,
                                  g->o.block, g->st, err)
               ? DM_ERUNTIME
               : 0;
}

int clg_write(cl_gpu *g, const clg_work *w, clg_table *out, const uint64_t *kept,
              dm_err *err)
{
    const int k1 = w->feat->k;
    const uint64_t total = clg_work_rows(w);
    const int l = clg_take_lane(g, w->t2 || (w->t1 && !w->t1->dev) || !out->dev ||
                                       total > g->o.slice);
    clg_pass a;
    if (clg_pass_begin(g, w, 0, l, &a, err))
        return DM_ERUNTIME;
    uint64_t at = 0;
    for (uint64_t lo = 0; lo < total; lo += a.n) {
        a.n = total - lo < g->o.slice ? total - lo : g->o.slice;
        if (clg_slice_count(g, w, &a, l, lo, a.n == total ? kept : NULL, err))
            return DM_ERUNTIME;
        uint64_t got = out->rows; /* one slice: the counting run's rows */
        if (a.n < total) {
            if (clg_copy(g, &g->h->rows, a.offsets + a.n, sizeof g->h->rows,
                         cudaMemcpyDeviceToHost, err) ||
                clg_sync(g, err))
                return DM_ERUNTIME;
            got = g->h->rows;
        }
        if (got == 0)
            continue;
        const uint64_t ids = got * (uint64_t)k1;
        if (out->dev) {
            a.out = out->dev + at * (uint64_t)k1;
        } else if (clg_grow(g, (void **)&g->out, &g->out_cap, ids, sizeof *g->out, err)) {
            return DM_ERUNTIME;
        } else {
            a.out = g->out;
        }
        if ((a.t2 ? clg_hash_write(&a, err) : clg_grid_write(&a, err)) ||
            (out->host && clg_copy(g, out->host + at * (uint64_t)k1, g->out,
                                   ids * sizeof *g->out, cudaMemcpyDeviceToHost, err)))
            return DM_ERUNTIME;
        at += got;
    }
    if (at != out->rows)
        return dm_err_set(err, DM_ERUNTIME, "an instance table wrote %llu rows where %llu "
                          "were counted", (unsigned long long)at,
                          (unsigned long long)out->rows);
    return 0;
}
