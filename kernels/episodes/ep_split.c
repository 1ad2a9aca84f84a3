/* ep_split.c - a level's candidates in even contiguous slices over the GPUs, units of
 * unequal work balanced over them, and the per-level maxima of what the GPUs did. */
#include <stdlib.h>

#include "episodes/ep_split.h"

void ep_split(int64_t n, int parts, int part, int64_t *first, int64_t *count)
{
    const int64_t base = n / parts, extra = n % parts;
    *first = part * base + (part < extra ? part : extra);
    *count = base + (part < extra);
}

/* A unit of ep_split_balance's, in the order units are placed: heaviest first, then by
 * index, so that the order and the placement depend on nothing else. */
typedef struct ep_split_unit {
    int64_t w, i;
} ep_split_unit;

/* Sorts u[0..n), in index order, heaviest first and by index among equal weights: a
 * stable radix sort on the weights (non-negative), 11 bits a pass, as many passes as the
 * heaviest needs; tmp holds n. (Level 2 of a 128-type stream is 16,384 units: sharing it
 * took 2.9 ms of the host's time on two H200s with a comparison sort, which alone took
 * 6.2 ms on the development machine, where this takes 0.19 ms.) */
static void ep_split_heaviest_first(ep_split_unit *u, ep_split_unit *tmp, int64_t n)
{
    enum { BITS = 11, BUCKETS = 1 << BITS };
    int64_t most = 0;
    for (int64_t i = 0; i < n; i++)
        most = u[i].w > most ? u[i].w : most;
    for (int shift = 0; shift < 63 && (most >> shift) > 0; shift += BITS) {
        int64_t at[BUCKETS + 1] = {0};
        for (int64_t i = 0; i < n; i++) /* descending: bucket of the digit's complement */
            at[(BUCKETS - 1 - ((u[i].w >> shift) & (BUCKETS - 1))) + 1]++;
        for (int b = 0; b < BUCKETS; b++)
            at[b + 1] += at[b];
        for (int64_t i = 0; i < n; i++)
            tmp[at[BUCKETS - 1 - ((u[i].w >> shift) & (BUCKETS - 1))]++] = u[i];
        for (int64_t i = 0; i < n; i++)
            u[i] = tmp[i];
    }
}

int ep_split_balance(const int64_t *w, const int64_t *move, const int *held, int64_t n,
                     int parts, int can_move, int *part)
{
    ep_split_unit *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    ep_split_unit *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    int64_t *load = calloc((size_t)parts, sizeof *load);
    double *excess = calloc((size_t)parts, sizeof *excess);
    if (!order || !tmp || !load || !excess) {
        free(order);
        free(tmp);
        free(load);
        free(excess);
        return -1;
    }
    double total = 0;
    for (int64_t i = 0; i < n; i++) {
        order[i] = (ep_split_unit){.w = w[i], .i = i};
        total += (double)w[i];
        if (held[i] != EP_SPLIT_ANY)
            excess[held[i]] += (double)w[i];
    }
    ep_split_heaviest_first(order, tmp, n);
    free(tmp);
    for (int p = 0; p < parts; p++)
        excess[p] -= total / parts;
    /* Who stays: a held unit, unless its holder is above an even share and giving it up
     * leaves the excess no larger in size (heaviest first, so few units leave). part[i]
     * -1: to be placed, as every unit of EP_SPLIT_ANY is. */
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = order[k].i;
        const int h = held[i];
        if (h == EP_SPLIT_ANY ||
            (can_move && excess[h] > 0 && (double)w[i] <= 2 * excess[h])) {
            if (h != EP_SPLIT_ANY)
                excess[h] -= (double)w[i];
            part[i] = -1;
            continue;
        }
        part[i] = h;
        load[h] += w[i];
    }
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = order[k].i;
        if (part[i] >= 0)
            continue;
        int best = 0;
        int64_t best_load = INT64_MAX;
        for (int p = 0; p < parts; p++) {
            const int64_t l = load[p] + w[i] + (p == held[i] || held[i] == EP_SPLIT_ANY ? 0
                                                                                    : move[i]);
            if (l < best_load) {
                best = p;
                best_load = l;
            }
        }
        part[i] = best;
        load[best] = best_load;
    }
    free(order);
    free(load);
    free(excess);
    return 0;
}

void ep_split_pass_merge(ep_split_pass *level, const ep_split_pass *gpu)
{
    level->per_gpu = gpu->per_gpu > level->per_gpu ? gpu->per_gpu : level->per_gpu;
    level->wall_s = gpu->wall_s > level->wall_s ? gpu->wall_s : level->wall_s;
    level->timed |= gpu->timed;
    level->transfer_s = gpu->transfer_s > level->transfer_s ? gpu->transfer_s
                                                            : level->transfer_s;
    level->kernel_s = gpu->kernel_s > level->kernel_s ? gpu->kernel_s : level->kernel_s;
}
