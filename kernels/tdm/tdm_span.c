/* tdm_span.c - how the block-parallel variants count exactly across chunk boundaries,
 * in plain C: a span table per chunk, composed left to right.
 *
 * The paper's block algorithms cut the database into one chunk per thread and add
 * a step between map and reduce for occurrences that span chunk boundaries (its
 * Fig. 5). Here that step is exact by construction. A thread does not know the state
 * its episode's machine is in when the machine reaches the thread's chunk, so it runs
 * the machine over the chunk once from every state s = 0..L-1 and keeps, for each, the
 * occurrences it completed (count[s]) and the state it left in (exit[s]). That table is
 * a function from entry state to (exit state, count); the table of two adjacent chunks
 * is the composition
 *
 *     (A then B).count[s] = A.count[s] + B.count[A.exit[s]]
 *     (A then B).exit[s]  = B.exit[A.exit[s]]
 *
 * because the machine's state at the boundary is all it carries across (the counter
 * only adds). Composition of functions is associative, so the tables can be combined
 * as a tree in any bracketing as long as the order of the chunks is kept; the whole
 * database's table at entry state 0 is then exactly the single machine's count.
 * Nothing limits where a boundary may fall: an occurrence spanning any number of
 * chunks, including chunks shorter than the episode, is carried by the entry states.
 * The GPU kernels (tdm_block.cu, tdm_packed.cu) do the same with the same order. */
#include <stdlib.h>
#include <string.h>

#include "tdm/tdm.h"

void tdm_span_of(const uint8_t *sym, int64_t n, const uint8_t *ep, int level, tdm_span *out)
{
    for (int s = 0; s < level; s++) {
        int state = s;
        uint32_t count = 0;
        for (int64_t i = 0; i < n; i++) {
            if (sym[i] != ep[state])
                continue;
            if (++state == level) {
                count++;
                state = 0;
            }
        }
        out->count[s] = count;
        out->exit[s] = (uint8_t)state;
    }
}

void tdm_span_compose(const tdm_span *first, const tdm_span *then, int level, tdm_span *out)
{
    tdm_span r;
    for (int s = 0; s < level; s++) {
        int mid = first->exit[s];
        r.count[s] = first->count[s] + then->count[mid];
        r.exit[s] = then->exit[mid];
    }
    memcpy(out->count, r.count, (size_t)level * sizeof r.count[0]);
    memcpy(out->exit, r.exit, (size_t)level);
}

uint32_t tdm_span_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level,
                        int64_t chunk)
{
    int64_t nchunks = (n + chunk - 1) / chunk;
    if (nchunks == 0)
        return 0;
    tdm_span *t = malloc((size_t)nchunks * sizeof *t);
    if (!t)
        return UINT32_MAX;
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t lo = c * chunk, len = n - lo < chunk ? n - lo : chunk;
        tdm_span_of(sym + lo, len, ep, level, &t[c]);
    }
    /* The block kernels' reduction: at distance d, table i (i a multiple of 2d) takes
     * table i+d after it. */
    for (int64_t d = 1; d < nchunks; d *= 2)
        for (int64_t i = 0; i + d < nchunks; i += 2 * d)
            tdm_span_compose(&t[i], &t[i + d], level, &t[i]);
    uint32_t count = t[0].count[0];
    free(t);
    return count;
}
