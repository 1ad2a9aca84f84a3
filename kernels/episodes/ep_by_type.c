/* ep_by_type.c - a stream split by event type (a stable counting sort), so that counting
 * an episode reads only the events of its own types: the multi-core baseline and the
 * GPU kernels merge those runs back into stream order. */
#include <math.h>
#include <stdlib.h>

#include "episodes/episodes.h"

void ep_by_type_free(ep_by_type *b)
{
    free(b->first);
    free(b->pos);
    free(b->time);
    free(b->mask);
    b->first = b->pos = NULL;
    b->time = NULL;
    b->mask = NULL;
}

int ep_by_type_build(const ep_stream *s, ep_by_type *b)
{
    size_t slots = (size_t)s->n + (size_t)s->ntypes + 1;
    int64_t *next = malloc(((size_t)s->ntypes + 1) * sizeof *next);
    b->first = calloc((size_t)s->ntypes + 1, sizeof *b->first);
    b->pos = malloc(slots * sizeof *b->pos);
    b->time = malloc(slots * sizeof *b->time);
    b->slots = (int64_t)slots;
    b->mask = NULL;
    b->words = 0;
    if (!next || !b->first || !b->pos || !b->time) {
        free(next);
        ep_by_type_free(b);
        return -1;
    }
    for (int64_t i = 0; i < s->n; i++)
        b->first[s->type[i] + 1]++;
    for (int y = 0; y < s->ntypes; y++) {
        b->first[y + 1] += b->first[y] + 1;
        next[y] = b->first[y];
        b->pos[b->first[y + 1] - 1] = s->n;
        b->time[b->first[y + 1] - 1] = INFINITY;
    }
    b->pos[slots - 1] = s->n;
    b->time[slots - 1] = INFINITY;
    for (int64_t i = 0; i < s->n; i++) {
        int64_t at = next[s->type[i]]++;
        b->pos[at] = i;
        b->time[at] = s->time[i];
    }
    free(next);
    return 0;
}

int ep_by_type_masks(const ep_stream *s, ep_by_type *b)
{
    const int64_t words = (s->n + 63) / 64;
    if (s->ntypes > 0 && words > EP_MASK_BYTES_MAX / 8 / s->ntypes)
        return 1;
    b->mask = calloc((size_t)(s->ntypes * words) + 1, sizeof *b->mask);
    if (!b->mask)
        return -1;
    b->words = words;
    for (int64_t i = 0; i < s->n; i++)
        b->mask[s->type[i] * words + i / 64] |= (uint64_t)1 << (i & 63);
    return 0;
}
