/* rl_measures.c - the rule quality measures of Cano, Luna & Ventura 2013, Sect. 3, from a
 * rule's contingency table (paper file rules-gpu-evaluation-cano2013.txt, Table 2 at
 * lines 679-685, Eqs. 1-5 at lines 703-721; Listing 3, lines 905-938, computes the same
 * from the table in floats). */
#include <math.h>

#include "rules/rl_eval.h"

void rl_measures(rl_rule_result *r, int64_t n)
{
    double N = (double)n, a = (double)r->n_a, c = (double)r->n_c, ac = (double)r->n_ac,
           anc = (double)r->n_anc, nc = (double)(n - r->n_c);
    /* Eq. 1 (line 703): Support(X -> Y) = p(XY) = n(XY) / N. */
    r->support = ac / N;
    /* Eq. 2 (line 707): Confidence = p(XY) / p(X) = n(XY) / n(X). With n(X) = 0 it is
     * 0/0: NaN, as Listing 3's float division gives (the rule covers nothing, so how
     * often it holds when it applies is undefined). */
    r->confidence = r->n_a ? ac / a : NAN;
    /* Eq. 3 (line 713): Lift = p(XY) / (p(X) p(Y)) = n(XY) N / (n(X) n(Y)). NaN when n(X)
     * or n(Y) is 0 (then n(XY) is 0 too: 0/0). */
    r->lift = r->n_a && r->n_c ? ac * N / (a * c) : NAN;
    /* Eq. 4 (line 717): Leverage = p(XY) - p(X) p(Y); always defined. */
    r->leverage = ac / N - (a / N) * (c / N);
    /* Eq. 5 (line 721): Conviction = p(X) p(not Y) / p(X not Y)
     *                              = n(X) n(not Y) / (N n(X not Y)).
     * +inf when n(X not Y) = 0 and n(X) > 0: the rule never fails where it applies (a
     * division by zero is never done). NaN when n(X) = 0 (0/0, as confidence). */
    if (r->n_a == 0)
        r->conviction = NAN;
    else if (r->n_anc == 0)
        r->conviction = INFINITY;
    else
        r->conviction = a * nc / (N * anc);
}
