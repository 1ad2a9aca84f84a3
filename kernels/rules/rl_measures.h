/* rl_measures.h - the rule quality measures of Cano, Luna & Ventura 2013, Sect. 3, from a
 * rule's contingency table (paper file rules-gpu-evaluation-cano2013.txt, Table 2 at
 * lines 679-685, Eqs. 1-5 at lines 703-721; Listing 3, lines 905-938, computes the same
 * from the table in floats). One inline function for the host (the CPU interpreter) and
 * the device (the GPU fitness kernel, rl_gpu.cu), so both compute them the same way: in
 * double, every operation correctly rounded, products never fused into an FMA with the
 * subtraction that follows (nvcc contracts a * b - c by default; __dmul_rn is never
 * contracted). Equal counts then give equal doubles on both. */
#ifndef DM_RL_MEASURES_H
#define DM_RL_MEASURES_H

#include <math.h>
#include <stdint.h>

#include "rules/rl_eval.h"

#ifdef __CUDACC__
#define RL_HOST_DEVICE __host__ __device__
#else
#define RL_HOST_DEVICE
#endif

#ifdef __CUDA_ARCH__
#define RL_MUL(a, b) __dmul_rn((a), (b))
#define RL_NAN __longlong_as_double(0x7ff8000000000000LL)
#define RL_INF __longlong_as_double(0x7ff0000000000000LL)
#else
#define RL_MUL(a, b) ((a) * (b))
#define RL_NAN ((double)NAN)
#define RL_INF ((double)INFINITY)
#endif

/* Fills r's five measures from its contingency table (n_a, n_c, n_ac, n_anc) over n
 * instances. */
static inline RL_HOST_DEVICE void rl_measures(rl_rule_result *r, int64_t n)
{
    double N = (double)n, a = (double)r->n_a, c = (double)r->n_c, ac = (double)r->n_ac,
           anc = (double)r->n_anc, nc = (double)(n - r->n_c);
    /* Eq. 1 (line 703): Support(X -> Y) = p(XY) = n(XY) / N. */
    r->support = ac / N;
    /* Eq. 2 (line 707): Confidence = p(XY) / p(X) = n(XY) / n(X). With n(X) = 0 it is
     * 0/0: NaN, as Listing 3's float division gives (the rule covers nothing, so how
     * often it holds when it applies is undefined). */
    r->confidence = r->n_a ? ac / a : RL_NAN;
    /* Eq. 3 (line 713): Lift = p(XY) / (p(X) p(Y)) = n(XY) N / (n(X) n(Y)). NaN when n(X)
     * or n(Y) is 0 (then n(XY) is 0 too: 0/0). */
    r->lift = r->n_a && r->n_c ? RL_MUL(ac, N) / RL_MUL(a, c) : RL_NAN;
    /* Eq. 4 (line 717): Leverage = p(XY) - p(X) p(Y); always defined. */
    r->leverage = ac / N - RL_MUL(a / N, c / N);
    /* Eq. 5 (line 721): Conviction = p(X) p(not Y) / p(X not Y)
     *                              = n(X) n(not Y) / (N n(X not Y)).
     * +inf when n(X not Y) = 0 and n(X) > 0: the rule never fails where it applies (a
     * division by zero is never done). NaN when n(X) = 0 (0/0, as confidence). */
    if (r->n_a == 0)
        r->conviction = RL_NAN;
    else if (r->n_anc == 0)
        r->conviction = RL_INF;
    else
        r->conviction = RL_MUL(a, nc) / RL_MUL(N, anc);
}

#endif
