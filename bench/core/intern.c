/* intern.c - the process's pool of parameter texts: each distinct text is kept once, for
 * the life of the process, so a dm_value holds a pointer into the pool (eight bytes
 * however long the text) and points copy and compare as cheaply as numbers. A sweep has
 * few distinct texts (an axis's values, a file's path), so the pool stays small. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dm.h"

typedef struct intern_entry {
    struct intern_entry *next;
    uint64_t hash;
    size_t len;
    char text[]; /* len characters and a NUL */
} intern_entry;

/* Chained buckets, a power of two of them, doubled when the texts outnumber them. */
static struct {
    pthread_mutex_t lock;
    intern_entry **bucket;
    size_t nbuckets, n;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Doubles the buckets (64 at first). Returns 0, or -1 without memory (the pool as it
 * was, still whole). */
static int intern_grow(void)
{
    size_t n = pool.nbuckets ? 2 * pool.nbuckets : 64;
    intern_entry **b = calloc(n, sizeof *b);
    if (!b)
        return -1;
    for (size_t i = 0; i < pool.nbuckets; i++)
        for (intern_entry *e = pool.bucket[i], *next; e; e = next) {
            next = e->next;
            e->next = b[e->hash & (n - 1)];
            b[e->hash & (n - 1)] = e;
        }
    free(pool.bucket);
    pool.bucket = b;
    pool.nbuckets = n;
    return 0;
}

const char *dm_intern(const char *text, size_t len)
{
    uint64_t h = dm_hash_bytes(DM_HASH_INIT, text, len);
    const char *found = NULL;
    pthread_mutex_lock(&pool.lock);
    if (pool.n >= pool.nbuckets && intern_grow() != 0 && !pool.nbuckets)
        goto done;
    for (intern_entry *e = pool.bucket[h & (pool.nbuckets - 1)]; e && !found; e = e->next)
        if (e->hash == h && e->len == len && memcmp(e->text, text, len) == 0)
            found = e->text;
    if (!found) {
        intern_entry *e = malloc(sizeof *e + len + 1);
        if (!e)
            goto done;
        e->hash = h;
        e->len = len;
        memcpy(e->text, text, len);
        e->text[len] = '\0';
        e->next = pool.bucket[h & (pool.nbuckets - 1)];
        pool.bucket[h & (pool.nbuckets - 1)] = e;
        pool.n++;
        found = e->text;
    }
done:
    pthread_mutex_unlock(&pool.lock);
    return found;
}
