/* tdm_groups.c - the host side of the packed variant: episodes that share every letter
 * but the first form a group, whose machines one thread advances together with one
 * bit per first letter. */
#include <stdlib.h>
#include <string.h>

#include "tdm/tdm.h"

typedef struct tdm_keyed {
    uint32_t key; /* the suffix, last letter in the highest bits */
    uint32_t first;
    int64_t index;
} tdm_keyed;

static int tdm_by_key(const void *a, const void *b)
{
    const tdm_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

void tdm_groups_free(tdm_groups *g)
{
    free(g->first);
    free(g->suffix);
    free(g->slot);
    memset(g, 0, sizeof *g);
}

int tdm_groups_build(const tdm_episodes *e, tdm_groups *g, dm_err *err)
{
    memset(g, 0, sizeof *g);
    if (e->level > TDM_PACKED_MAX_LEVEL)
        return dm_err_set(err, DM_EINPUT, "packed groups hold episodes of at most %d letters",
                          TDM_PACKED_MAX_LEVEL);
    g->level = e->level;
    tdm_keyed *v = malloc((size_t)e->n * sizeof *v);
    if (!v)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory grouping episodes");
    for (int64_t i = 0; i < e->n; i++) {
        const uint8_t *ep = e->letters + i * e->level;
        uint32_t key = 0;
        for (int k = 1; k < e->level; k++)
            key |= (uint32_t)ep[k] << (5 * (k - 1));
        v[i] = (tdm_keyed){.key = key, .first = ep[0], .index = i};
    }
    qsort(v, (size_t)e->n, sizeof *v, tdm_by_key);
    int64_t ngroups = 0;
    for (int64_t i = 0; i < e->n; i++)
        ngroups += i == 0 || v[i].key != v[i - 1].key;
    g->first = calloc((size_t)ngroups, sizeof *g->first);
    g->suffix = calloc((size_t)ngroups, sizeof *g->suffix);
    g->slot = malloc((size_t)ngroups * TDM_ALPHABET * sizeof *g->slot);
    if (!g->first || !g->suffix || !g->slot) {
        free(v);
        tdm_groups_free(g);
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %lld groups",
                          (long long)ngroups);
    }
    memset(g->slot, 0xff, (size_t)ngroups * TDM_ALPHABET * sizeof *g->slot);
    int64_t cur = -1;
    for (int64_t i = 0; i < e->n; i++) {
        if (i == 0 || v[i].key != v[i - 1].key)
            g->suffix[++cur] = v[i].key;
        g->first[cur] |= 1u << v[i].first;
        g->slot[cur * TDM_ALPHABET + v[i].first] = (int32_t)v[i].index;
    }
    g->n = ngroups;
    free(v);
    return 0;
}
