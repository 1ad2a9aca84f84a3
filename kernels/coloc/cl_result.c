/* cl_result.c - the colocation mining answer: patterns as feature lists, freeing, and the
 * exact comparison of two answers' prevalent patterns and PI values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coloc/coloc.h"

int cl_mask_features(uint64_t mask, int *feat)
{
    int k = 0;
    for (; mask; mask &= mask - 1)
        feat[k++] = __builtin_ctzll(mask);
    return k;
}

void cl_result_free(cl_result *r)
{
    free(r->cand);
    memset(r, 0, sizeof *r);
}

/* The next prevalent candidate of r at or after *i, or NULL; advances *i past it. */
static const cl_candidate *cl_next_prevalent(const cl_result *r, int64_t *i)
{
    while (*i < r->ncand && !r->cand[*i].prevalent)
        (*i)++;
    return *i < r->ncand ? &r->cand[(*i)++] : NULL;
}

/* Writes the features of mask as "0+3+5" into buf. */
static void cl_mask_text(uint64_t mask, char *buf, size_t n)
{
    int feat[CL_MAX_FEATURES], k = cl_mask_features(mask, feat);
    buf[0] = '\0';
    for (int i = 0; i < k; i++)
        dm_append(buf, n, "%s%d", i ? "+" : "", feat[i]);
}

int cl_result_compare(const cl_result *a, const cl_result *b, char *why, size_t n)
{
    int64_t i = 0, j = 0;
    char pa[256], pb[256];
    for (int64_t rank = 1;; rank++) {
        const cl_candidate *x = cl_next_prevalent(a, &i), *y = cl_next_prevalent(b, &j);
        if (!x && !y)
            return 0;
        if (x)
            cl_mask_text(x->mask, pa, sizeof pa);
        if (y)
            cl_mask_text(y->mask, pb, sizeof pb);
        if (!x || !y || x->mask != y->mask) {
            snprintf(why, n, "prevalent pattern %lld: %s against %s", (long long)rank,
                     x ? pa : "none", y ? pb : "none");
            return 1;
        }
        if (memcmp(&x->pi, &y->pi, sizeof x->pi) != 0) {
            snprintf(why, n, "pattern %s: PI %.17g against %.17g", pa, x->pi, y->pi);
            return 1;
        }
    }
}
