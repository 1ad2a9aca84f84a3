/* run_order.c - which points of an expansion a run carries out, and in what order: those
 * of its shard that constraints kept, grouped by dataset, then by problem (so that each
 * dataset and CPU reference is made once), then in expansion order. */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

typedef struct order_entry {
    size_t idx;
    char *dkey, *pkey;
    size_t drank, prank;
} order_entry;

static int by_dkey(const void *a, const void *b)
{
    const order_entry *x = a, *y = b;
    int c = strcmp(x->dkey, y->dkey);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int by_pkey(const void *a, const void *b)
{
    const order_entry *x = a, *y = b;
    int c = strcmp(x->pkey, y->pkey);
    return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int by_rank(const void *a, const void *b)
{
    const order_entry *x = a, *y = b;
    if (x->drank != y->drank)
        return x->drank < y->drank ? -1 : 1;
    if (x->prank != y->prank)
        return x->prank < y->prank ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Gives each entry the first expansion index among entries with an equal key. */
static void rank_keys(order_entry *o, size_t n, int (*cmp)(const void *, const void *), int dkey)
{
    qsort(o, n, sizeof *o, cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        const char *k = dkey ? o[i].dkey : o[i].pkey;
        while (j < n && strcmp(k, dkey ? o[j].dkey : o[j].pkey) == 0)
            j++;
        for (size_t m = i; m < j; m++)
            *(dkey ? &o[m].drank : &o[m].prank) = o[i].idx;
        i = j;
    }
}

int runner_in_shard(dm_shard shard, size_t idx)
{
    return shard.count == 0 || idx % (size_t)shard.count == (size_t)(shard.index - 1);
}

size_t *runner_order(const dm_expansion *e, dm_shard shard, size_t *count)
{
    order_entry *o = calloc(e->n + 1, sizeof *o);
    size_t *out = malloc((e->n + 1) * sizeof *out);
    size_t n = 0;
    int ok = o && out;
    for (size_t i = 0; ok && i < e->n; i++) {
        if (e->points[i].pruned == 1 || !runner_in_shard(shard, i))
            continue;
        char key[DM_KEY_MAX];
        o[n].idx = i;
        dm_point_dataset_key(&e->points[i].point, key, sizeof key);
        o[n].dkey = strdup(key);
        dm_point_problem_key(&e->points[i].point, key, sizeof key);
        o[n].pkey = strdup(key);
        ok = o[n].dkey && o[n].pkey;
        n++;
    }
    if (ok) {
        rank_keys(o, n, by_dkey, 1);
        rank_keys(o, n, by_pkey, 0);
        qsort(o, n, sizeof *o, by_rank);
        for (size_t i = 0; i < n; i++)
            out[i] = o[i].idx;
        *count = n;
    }
    for (size_t i = 0; o && i < n; i++) {
        free(o[i].dkey);
        free(o[i].pkey);
    }
    free(o);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

size_t runner_shard_planned(const dm_expansion *e, dm_shard shard)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++)
        n += !e->points[i].pruned && runner_in_shard(shard, i);
    return n;
}
