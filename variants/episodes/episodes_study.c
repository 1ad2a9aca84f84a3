/* episodes_study.c - the episodes workload's study (Cao et al.): the two papers' claims about their
 * evaluation (the CF 2010 paper's sections 4.2 and 5.2-5.4, the journal's multi-GPU
 * sections 7.4-7.5), each quoted with its line and judged by a rule on the medians of the
 * sweeps that measure it; Table 1 and Figs. 8, 10-16 as reproduce targets; the default
 * sweep. How many candidates PreElim eliminates (Fig. 10(a)) and how a multi-GPU level
 * splits into transfers and counting (Fig. 15, Table 2) are among each point's facts,
 * the same or nearly so on any card, so no rule over medians judges them. */
#include <math.h>
#include <stdio.h>

#include "study.h"

#define EP_CF10 "episodes-chip-on-chip-cf10"
#define EP_JOURNAL "episodes-gpu-multigpu-journal"

#define EV(r, ...) dm_append((r)->evidence, sizeof (r)->evidence, __VA_ARGS__)
#define HW(r, ...) dm_append((r)->hardware, sizeof (r)->hardware, __VA_ARGS__)

/* A ratio of two medians that counts as a difference: 5 %, beyond the sweeps' noise. */
#define EP_MARGIN 1.05
/* "approximately N-fold" and "about N-fold" read as within 10 % below N. */
#define EP_ABOUT 0.9
/* The papers' GPUs: a GTX 280 (cf10 line 355) and the GTX 295's GPUs (journal line 988),
 * 30 multiprocessors each. */
#define EP_PAPER_SMS 30

/* ---- where the papers' settings are measured ---------------------------------------- */

/* The generated streams, told apart by their points' parameters: a run of a sweep with
 * -a neurons=64 -a seconds=100 keeps the sweep's name. */
#define EP_SYM26 "neurons=26,seconds=60"
#define EP_LARGE "neurons=64,seconds=100"

/* Level-wise mining of one stream to level 8 by one sweep, at its supports. */
typedef struct ep_mining {
    const char *sweep;
    const char *stream; /* the stream's parameters; "" where the sweep reads a file */
    const char *name;
    int support[5];
    int n;
} ep_mining;

static const ep_mining MINE_SYM26 = { "episodes-mining", EP_SYM26, "Sym26",
                                      { 30, 40, 60, 100, 200 }, 5 };
static const ep_mining MINE_SIM64 = { "episodes-mining-sim64", "", "the recording sim-64-size20",
                                      { 100, 200, 400 }, 3 };
#define EP_LARGE_NAME "the 2.5x stream (64 neurons, 100 s)"
static const ep_mining MINE_LARGE = { "episodes-mining-large", EP_LARGE, EP_LARGE_NAME,
                                      { 120, 200, 400 }, 3 };
/* PTPE and MTPE mining alone, beside hybrid's mining of Sym26 (Fig. 8(b)). */
static const ep_mining MINE_ALONE = { "episodes-mining-machines", EP_SYM26, "Sym26",
                                      { 30, 100, 200 }, 3 };
/* The multi-GPU sweep on Sym26 and, run with the large stream's parameters, on it. */
static const ep_mining MULTI[2] = {
    { "episodes-multigpu", EP_SYM26, "Sym26", { 30, 40, 60, 100, 200 }, 5 },
    { "episodes-multigpu", EP_LARGE, EP_LARGE_NAME, { 120, 200, 400 }, 3 },
};
static const char *const COUNTING[3] = { "ptpe", "hybrid", "twopass" };

/* One setting: the sweep that measures it, its points' parameters, its name. */
typedef struct ep_at {
    const char *sweep;
    char where[128];
    char name[96];
} ep_at;

/* Counting (not mining) on Sym26 at level, its episodes fixed by the sweep (count < 0)
 * or the first count of them. */
static ep_at counted(const char *sweep, int level, int count)
{
    ep_at a = { .sweep = sweep };
    if (count < 0) {
        snprintf(a.where, sizeof a.where, EP_SYM26 ",level=%d", level);
        snprintf(a.name, sizeof a.name, "level %d", level);
    } else {
        snprintf(a.where, sizeof a.where, EP_SYM26 ",level=%d,count=%d", level, count);
        snprintf(a.name, sizeof a.name, "level %d at %d episodes", level, count);
    }
    return a;
}

/* Mining of m's stream at support. */
static ep_at mined(const ep_mining *m, int support)
{
    ep_at a = { .sweep = m->sweep };
    snprintf(a.where, sizeof a.where, "%s%slevel=8,support=%d", m->stream,
             m->stream[0] ? "," : "", support);
    snprintf(a.name, sizeof a.name, "%s at support %d", m->name, support);
    return a;
}

/* The median of variant at a, among its points whose variant parameters match vwhere
 * ("" for any), into *m. Returns 0; 1 when no complete run of a's sweep on the card has
 * an ok point of it (r marked not measurable, naming it); or DM_ERUNTIME. */
static int need(const dm_study_data *d, const ep_at *a, const char *variant,
                const char *vwhere, dm_median *m, dm_claim_result *r, dm_err *err)
{
    char where[192];
    snprintf(where, sizeof where, "%s%s%s", a->where, vwhere[0] ? "," : "", vwhere);
    if (d->median(d->ctx, d->card, a->sweep, variant, where, m, err))
        return err->code;
    if (m->found)
        return 0;
    char what[128];
    snprintf(what, sizeof what, "%s%s%s", variant, vwhere[0] ? " with " : "", vwhere);
    study_unmeasured(d, (const char *const[]){ a->sweep, NULL }, what, a->name, a->where, r);
    return 1;
}

/* What a rule returns after need(): 0 when a point was missing, else the error. */
static int stop(int rc)
{
    return rc < 0 ? rc : 0;
}

/* Seconds as text, in s from one second up, else in ms. */
typedef struct ep_text {
    char s[32];
} ep_text;

static ep_text tm(double s)
{
    ep_text t;
    snprintf(t.s, sizeof t.s, s >= 1 ? "%.4g s" : "%.4g ms", s >= 1 ? s : s * 1e3);
    return t;
}

/* The verdict of a claim made of n checks of which held hold: all, some, none. */
static dm_verdict tally(int held, int n)
{
    return held == n ? DM_HOLDS : held ? DM_PARTLY : DM_BREAKS;
}

/* The card of m, as a note's subject: "NAME (compute capability CC, N SMs)". */
static void card_note(dm_claim_result *r, const dm_median *m)
{
    HW(r, "%s (compute capability %s, %d SMs, against the papers' %d)", m->gpu, m->cc, m->sms,
       EP_PAPER_SMS);
}

/* ---- CF 2010, section 4.2: PreElim ------------------------------------------------------ */

/* C1: PreElim, the relaxed count, is faster than the exact count at every level. */
static int judge_c1(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median pre[5], ptpe[5];
    int rc, held = 0;
    for (int l = 2; l <= 6; l++) {
        const ep_at a = counted("episodes-preelim", l, -1);
        if ((rc = need(d, &a, "preelim", "relax=1", &pre[l - 2], r, err)) ||
            (rc = need(d, &a, "ptpe", "relax=1", &ptpe[l - 2], r, err)))
            return stop(rc);
    }
    EV(r, "Sym26, every link [0, 6] ms, each kernel at its faster way of reading:");
    for (int i = 0; i < 5; i++) {
        double x = ptpe[i].median / pre[i].median;
        held += x >= EP_MARGIN;
        EV(r, "%s level %d: PreElim %s, PTPE %s, PTPE/PreElim %.2f", i ? ";" : "", i + 2,
           tm(pre[i].median).s, tm(ptpe[i].median).s, x);
    }
    EV(r, ". Rule: PTPE is the machine the hybrid runs on many episodes, here on the same "
          "episodes and intervals as PreElim; holds when PreElim is at least 5 %% faster "
          "than PTPE at every level from 2 to 6, partly holds when at some.");
    r->verdict = tally(held, 5);
    if (r->verdict != DM_HOLDS) {
        HW(r, "PreElim is not 5 %% faster than PTPE's machine at every level on ");
        card_note(r, &pre[0]);
        HW(r, ": the paper's hybrid needed 17 registers and 80 bytes of local memory a "
              "counting thread and PreElim 13 and none (line 403), local memory the GTX 280 "
              "read from device memory uncached; these kernels keep a machine's lists in "
              "shared memory, so PreElim's one time a node saves less.");
    }
    return 0;
}

/* ---- CF 2010, section 5.2: PTPE, MTPE and the hybrid ------------------------------------ */

/* C2: neither PTPE nor MTPE is the one to run at every level. */
static int judge_c2(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median p[6], m[6];
    int rc, ptpe_ahead = 0, mtpe_ahead = 0;
    for (int l = 1; l <= 6; l++) {
        const ep_at a = counted("episodes-levels", l, -1);
        if ((rc = need(d, &a, "ptpe", "", &p[l - 1], r, err)) ||
            (rc = need(d, &a, "mtpe", "machines=0", &m[l - 1], r, err)))
            return stop(rc);
    }
    EV(r, "Sym26, every episode of levels 1-3 and the first 20,000 of levels 4-6, each "
          "kernel at its faster way of reading (MTPE with the papers' K = N machines):");
    for (int i = 0; i < 6; i++) {
        double x = p[i].median / m[i].median;
        mtpe_ahead += x >= EP_MARGIN;
        ptpe_ahead += 1 / x >= EP_MARGIN;
        EV(r, "%s level %d: PTPE %s, MTPE %s, PTPE/MTPE %.2f", i ? ";" : "", i + 1,
           tm(p[i].median).s, tm(m[i].median).s, x);
    }
    EV(r, ". Rule: holds when MTPE is at least 5 %% faster than PTPE at some level and PTPE "
          "at least 5 %% faster than MTPE at another, so that neither is the one to run at "
          "all levels. The paper's Fig. 8(a) (lines 363-368): PTPE 3.96x and 2.84x faster at "
          "levels 3 and 4, MTPE 1.32x and 2.63x at levels 6 and 7, on its mining's "
          "candidates.");
    r->verdict = ptpe_ahead && mtpe_ahead ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS) {
        HW(r, "%s at any level from 1 to 6 on ",
           ptpe_ahead   ? "MTPE is not 5 % faster than PTPE"
           : mtpe_ahead ? "PTPE is not 5 % faster than MTPE"
                        : "neither kernel is 5 % faster than the other");
        card_note(r, &p[0]);
        HW(r, ": %s.", mtpe_ahead ? "a level's 20,000 episodes at most fill too little of its "
                                    "thread slots for a thread per episode"
                                  : "MTPE's segments and merge cost more than they gain here");
    }
    return 0;
}

/* The fewest and most episodes of Table 1's sweep (a power of two each). */
#define T1_LO 16
#define T1_HI 32768
#define T1_N 12

/* C3: at every level PTPE and MTPE cross over: MTPE below some number of episodes,
 * PTPE above it (Table 1). */
static int judge_c3(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    static const int paper[6] = { 415, 190, 200, 100, 100, 60 }; /* line 375 */
    dm_median p[6][T1_N], m[6][T1_N];
    int rc, held = 0, missing[6];
    for (int l = 3; l <= 8; l++)
        for (int k = 0, c = T1_LO; k < T1_N; k++, c *= 2) {
            const ep_at a = counted("episodes-table1", l, c);
            if ((rc = need(d, &a, "ptpe", "", &p[l - 3][k], r, err)) ||
                (rc = need(d, &a, "mtpe", "", &m[l - 3][k], r, err)))
                return stop(rc);
        }
    EV(r, "Sym26, %d to %d episodes by powers of two:", T1_LO, T1_HI);
    for (int i = 0; i < 6; i++) {
        double lo = p[i][0].median / m[i][0].median;
        double hi = m[i][T1_N - 1].median / p[i][T1_N - 1].median;
        int from = T1_N; /* the first count from which PTPE stays faster */
        while (from > 0 && p[i][from - 1].median < m[i][from - 1].median)
            from--;
        missing[i] = !(lo >= EP_MARGIN && hi >= EP_MARGIN);
        held += !missing[i];
        EV(r, "%s level %d: PTPE/MTPE %.2f at %d, MTPE/PTPE %.2f at %d, PTPE faster ",
           i ? ";" : "", i + 3, lo, T1_LO, hi, T1_HI);
        if (from < T1_N)
            EV(r, "from %d on (the paper's crossover %d)", T1_LO << from, paper[i]);
        else
            EV(r, "nowhere up to %d (the paper's crossover %d)", T1_HI, paper[i]);
    }
    EV(r, ". Rule: holds when at every level from 3 to 8 MTPE is at least 5 %% faster than "
          "PTPE at the fewest episodes and PTPE at least 5 %% faster than MTPE at the most, "
          "so that they cross between; partly holds when at some levels. Where they cross "
          "moves with the threads the card runs at once, so the rule does not compare it "
          "with the paper's.");
    r->verdict = tally(held, 6);
    if (r->verdict != DM_HOLDS) {
        HW(r, "no crossover between %d and %d episodes at level", T1_LO, T1_HI);
        for (int i = 0, first = 1; i < 6; i++)
            if (missing[i]) {
                HW(r, "%s %d", first ? "" : ",", i + 3);
                first = 0;
            }
        HW(r, " on ");
        card_note(r, &p[0][0]);
        HW(r, ": a thread per episode fills a card of more multiprocessors only with more "
              "episodes, so PTPE overtakes MTPE later than at Table 1's 60 to 415.");
    }
    return 0;
}

/* The counts of the hybrid sweep: 64 to 32,768 by powers of two. */
#define HY_LO 64
#define HY_N 10
/* The misses the evidence names one by one. */
#define HY_SHOWN 6

/* C4: the hybrid is as fast as the faster of PTPE and MTPE. */
static int judge_c4(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median h[6][HY_N], p[6][HY_N], m[6][HY_N];
    int rc, held = 0, shown = 0;
    double over_p = 0, over_m = 0;
    for (int l = 3; l <= 8; l++)
        for (int k = 0, c = HY_LO; k < HY_N; k++, c *= 2) {
            const ep_at a = counted("episodes-hybrid", l, c);
            if ((rc = need(d, &a, "hybrid", "", &h[l - 3][k], r, err)) ||
                (rc = need(d, &a, "ptpe", "", &p[l - 3][k], r, err)) ||
                (rc = need(d, &a, "mtpe", "", &m[l - 3][k], r, err)))
                return stop(rc);
        }
    EV(r, "Sym26, levels 3 to 8 at %d to %d episodes:", HY_LO, HY_LO << (HY_N - 1));
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < HY_N; k++) {
            double hy = h[i][k].median, faster = fmin(p[i][k].median, m[i][k].median);
            over_p = fmax(over_p, p[i][k].median / hy);
            over_m = fmax(over_m, m[i][k].median / hy);
            if (hy <= EP_MARGIN * faster) {
                held++;
            } else if (shown++ < HY_SHOWN) {
                EV(r, " level %d at %d episodes, hybrid %s (switch_at %.0f), PTPE %s, MTPE "
                      "%s, %.2fx the faster;", i + 3, HY_LO << k, tm(hy).s,
                   study_param(h[i][k].params, "switch_at"), tm(p[i][k].median).s,
                   tm(m[i][k].median).s, hy / faster);
            }
        }
    if (shown > HY_SHOWN)
        EV(r, " and %d more;", shown - HY_SHOWN);
    EV(r, " hybrid within 5 %% of the faster kernel, or faster, at %d of %d (level, count) "
          "pairs; at most %.2fx faster than PTPE and %.2fx than MTPE. Rule: holds when hybrid "
          "is within 5 %% of the faster of PTPE and MTPE at every pair, partly holds when at "
          "least at half of them.", held, 6 * HY_N, over_p, over_m);
    r->verdict = held == 6 * HY_N ? DM_HOLDS : 2 * held >= 6 * HY_N ? DM_PARTLY : DM_BREAKS;
    if (r->verdict != DM_HOLDS) {
        HW(r, "hybrid picks PTPE above its switch point, resolved for ");
        card_note(r, &h[0][0]);
        HW(r, " from the crossover fit compiled in for it (variants/episodes/fits.h), else "
              "from Equation 2; where it ran the slower kernel, that switch point missed the "
              "crossover measured here.");
    }
    return 0;
}

/* C5: hybrid gains little over PTPE at low support and little over MTPE at high support
 * (Fig. 8(b)). */
static int judge_c5(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const ep_mining *s = &MINE_ALONE;
    dm_median h[3], p[3], m[3];
    double gp[3], gm[3];
    int rc;
    for (int i = 0; i < s->n; i++) {
        ep_at a = mined(s, s->support[i]), b = mined(&MINE_SYM26, s->support[i]);
        if ((rc = need(d, &b, "hybrid", "", &h[i], r, err)) ||
            (rc = need(d, &a, "ptpe", "", &p[i], r, err)) ||
            (rc = need(d, &a, "mtpe", "machines=0", &m[i], r, err)))
            return stop(rc);
    }
    EV(r, "Sym26 mined to level 8 (hybrid from %s, PTPE and MTPE alone with K = N from %s):",
       MINE_SYM26.sweep, s->sweep);
    for (int i = 0; i < s->n; i++) {
        gp[i] = p[i].median / h[i].median;
        gm[i] = m[i].median / h[i].median;
        EV(r, "%s support %d: hybrid %s, PTPE %s (%.2fx hybrid's), MTPE %s (%.2fx)",
           i ? ";" : "", s->support[i], tm(h[i].median).s, tm(p[i].median).s, gp[i],
           tm(m[i].median).s, gm[i]);
    }
    int low_p = gp[2] >= EP_MARGIN * gp[0], high_m = gm[0] >= EP_MARGIN * gm[2];
    EV(r, ". Its largest gains: %.2fx over PTPE, %.2fx over MTPE (the paper's almost 3x and "
          "over 4.5x). Rule: holds when hybrid's gain over PTPE is at least 5 %% larger at "
          "support %d than at %d (little gain where candidates are many) and its gain over "
          "MTPE at least 5 %% larger at %d than at %d (little gain where they are few); "
          "partly holds when one of the two is.",
       fmax(fmax(gp[0], gp[1]), gp[2]), fmax(fmax(gm[0], gm[1]), gm[2]), s->support[2],
       s->support[0], s->support[0], s->support[2]);
    r->verdict = tally(low_p + high_m, 2);
    if (r->verdict != DM_HOLDS) {
        if (!low_p)
            HW(r, "PTPE is not left further behind at high support than at low; ");
        if (!high_m)
            HW(r, "MTPE is as close to hybrid at support %d as at %d, where the paper's GTX "
                  "280 was already filled by PTPE's thread per episode (Table 1's crossovers "
                  "of 60-415 episodes); ", s->support[0], s->support[2]);
        HW(r, "on ");
        card_note(r, &h[0]);
        HW(r, ".");
    }
    return 0;
}

/* ---- CF 2010, sections 5.3-5.4: two-pass, and the GPU against the CPU ------------------- */

/* C6: two-pass beats hybrid at every support of every data set (Fig. 10(b)). */
static int judge_c6(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const ep_mining *const sets[3] = { &MINE_SYM26, &MINE_SIM64, &MINE_LARGE };
    dm_median h[3][5], t[3][5];
    int rc, held = 0, n = 0;
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < sets[k]->n; i++) {
            const ep_at a = mined(sets[k], sets[k]->support[i]);
            if ((rc = need(d, &a, "hybrid", "", &h[k][i], r, err)) ||
                (rc = need(d, &a, "twopass", "", &t[k][i], r, err)))
                return stop(rc);
        }
    for (int k = 0; k < 3; k++) {
        EV(r, "%s%s (%s), two-pass over hybrid:", k ? "; " : "", sets[k]->name, sets[k]->sweep);
        for (int i = 0; i < sets[k]->n; i++, n++) {
            double x = h[k][i].median / t[k][i].median;
            held += x >= EP_MARGIN;
            lo = fmin(lo, x);
            hi = fmax(hi, x);
            EV(r, "%s %.2fx at %d (%s against %s)", i ? "," : "", x, sets[k]->support[i],
               tm(t[k][i].median).s, tm(h[k][i].median).s);
        }
    }
    EV(r, ". Rule: holds when two-pass is at least 5 %% faster than hybrid at every support "
          "of the three streams, partly holds when at some. Measured %.2fx to %.2fx, the "
          "paper's 1.2x to 2.8x.", lo, hi);
    r->verdict = tally(held, n);
    if (r->verdict != DM_HOLDS) {
        HW(r, "the paper's hybrid kept 80 bytes of local memory a thread (line 403), which "
              "the GTX 280 (compute capability 1.3) read from device memory with no cache, "
              "and PreElim none; on ");
        card_note(r, &h[0][0]);
        HW(r, " local memory is cached in L1 and these kernels keep each machine's lists in "
              "shared memory, so the bound spares little memory traffic and costs a walk of "
              "the stream, as the count it spares does. How many candidates it eliminated is "
              "among each point's facts (survivors per level), which this rule does not "
              "read.");
    }
    return 0;
}

/* A speedup the papers call approximately (or about) paper-fold: reached when at least
 * EP_ABOUT of it. */
static int reaches(double speedup, double paper)
{
    return speedup >= EP_ABOUT * paper;
}

/* The note on a speedup over cpu-mt that falls short of the papers' factor. */
static void cpu_note(dm_claim_result *r, const dm_median *m, int line)
{
    HW(r, "cpu-mt counts on every core of the host that ran ");
    card_note(r, m);
    HW(r, ", where the papers' CPU was a Core 2 Quad with four threads (line %d); a speedup "
          "moves by the card's gain over the CPU's.", line);
}

/* C7: the GPU mines about 15 times as fast as the multi-core CPU (Fig. 12). */
static int judge_c7(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const ep_mining *s = &MINE_SYM26;
    dm_median c[5], h[5], t[5];
    int rc, ahead = 0, best = 0;
    double sp[5];
    for (int i = 0; i < s->n; i++) {
        const ep_at a = mined(s, s->support[i]);
        if ((rc = need(d, &a, "cpu-mt", "", &c[i], r, err)) ||
            (rc = need(d, &a, "hybrid", "", &h[i], r, err)) ||
            (rc = need(d, &a, "twopass", "", &t[i], r, err)))
            return stop(rc);
    }
    EV(r, "Sym26 mined to level 8, the GPU's faster of hybrid and two-pass against cpu-mt:");
    for (int i = 0; i < s->n; i++) {
        int two = t[i].median < h[i].median;
        sp[i] = c[i].median / (two ? t[i] : h[i]).median;
        ahead += sp[i] >= EP_MARGIN;
        best = sp[i] > sp[best] ? i : best;
        EV(r, "%s support %d: cpu-mt %s, %s %s, %.1fx", i ? ";" : "", s->support[i],
           tm(c[i].median).s, two ? "two-pass" : "hybrid", tm((two ? t[i] : h[i]).median).s,
           sp[i]);
    }
    EV(r, ". Rule: holds when the GPU is at least 5 %% faster than cpu-mt at every support "
          "and its largest speedup is approximately the paper's 15-fold (at least %.1fx); "
          "partly holds when it is faster everywhere but by less; does not hold when cpu-mt "
          "is as fast at some support.", EP_ABOUT * 15);
    r->verdict = ahead < s->n ? DM_BREAKS : reaches(sp[best], 15) ? DM_HOLDS : DM_PARTLY;
    if (r->verdict != DM_HOLDS) {
        HW(r, "the largest speedup is %.1fx, at support %d: ", sp[best], s->support[best]);
        cpu_note(r, &h[0], 407);
    }
    return 0;
}

/* ---- the journal, sections 7.4-7.5: several GPUs ------------------------------------------ */

/* The median of multigpu at a on gpus GPUs counting with counting into *m; as need(). */
static int mg(const dm_study_data *d, const ep_at *a, int gpus, const char *counting,
              dm_median *m, dm_claim_result *r, dm_err *err)
{
    char vwhere[48];
    snprintf(vwhere, sizeof vwhere, "gpus=%d,counting=%s", gpus, counting);
    return need(d, a, "multigpu", vwhere, m, r, err);
}

/* The most GPUs (8, 4 or 2) of an ok multigpu point of s at its lowest support into *g.
 * Returns 0; 1 when none has more than one (r marked not measurable); or DM_ERUNTIME. */
static int most_gpus(const dm_study_data *d, const ep_mining *s, int *g, dm_claim_result *r,
                     dm_err *err)
{
    const ep_at a = mined(s, s->support[0]);
    for (*g = 8; *g >= 2; *g /= 2) {
        char where[160];
        dm_median m;
        snprintf(where, sizeof where, "%s,gpus=%d", a.where, *g);
        if (d->median(d->ctx, d->card, a.sweep, "multigpu", where, &m, err))
            return err->code;
        if (m.found)
            return 0;
    }
    study_unmeasured(d, (const char *const[]){ a.sweep, NULL }, "multigpu on more than one GPU",
                     a.name, a.where, r);
    return 1;
}

/* The speedups of G GPUs over one, per stream of MULTI (its most GPUs in g[]), way of
 * counting and support, into x[stream][counting][support]; one[] gets a one-GPU point
 * (for the card's note). Writes them into the evidence. Returns as need(). */
static int gpu_speedups(const dm_study_data *d, int g[2], double x[2][3][5], dm_median *one,
                        dm_claim_result *r, dm_err *err)
{
    dm_median a1[2][3][5], ag[2][3][5];
    int rc;
    for (int s = 0; s < 2; s++) {
        if ((rc = most_gpus(d, &MULTI[s], &g[s], r, err)))
            return rc;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < MULTI[s].n; i++) {
                const ep_at a = mined(&MULTI[s], MULTI[s].support[i]);
                if ((rc = mg(d, &a, 1, COUNTING[c], &a1[s][c][i], r, err)) ||
                    (rc = mg(d, &a, g[s], COUNTING[c], &ag[s][c][i], r, err)))
                    return rc;
            }
    }
    for (int s = 0; s < 2; s++) {
        EV(r, "%s%s, %d GPUs over one:", s ? "; " : "", MULTI[s].name, g[s]);
        for (int c = 0; c < 3; c++) {
            EV(r, "%s %s", c ? "," : "", COUNTING[c]);
            for (int i = 0; i < MULTI[s].n; i++) {
                x[s][c][i] = a1[s][c][i].median / ag[s][c][i].median;
                EV(r, "%s %.2fx", i ? " /" : "", x[s][c][i]);
            }
        }
        EV(r, " at support");
        for (int i = 0; i < MULTI[s].n; i++)
            EV(r, "%s %d", i ? " /" : "", MULTI[s].support[i]);
    }
    EV(r, ". ");
    *one = a1[0][0][0];
    return 0;
}

/* C8: several GPUs beat one at low support, and gain less as the support rises
 * (Fig. 13). */
static int judge_c8(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    int g[2], rc, held = 0, fell[3] = { 0 };
    double x[2][3][5];
    dm_median one;
    if ((rc = gpu_speedups(d, g, x, &one, r, err)))
        return stop(rc);
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 3; c++) {
            int top = MULTI[s].n - 1;
            int ok = x[s][c][0] > 2.5 * g[s] / 8 && x[s][c][0] >= EP_MARGIN * x[s][c][top];
            held += ok;
            fell[c] += !ok;
        }
    EV(r, "Rule: per stream and way of counting, holds when G GPUs are more than 2.5 x G / 8 "
          "times as fast as one at the lowest support (the journal's more than 2.5-fold on "
          "eight GPUs at the same share of the GPUs' sum: 1.25x on four) and that gain is at "
          "least 5 %% above the gain at the highest support; the claim holds when all six "
          "cases do, partly holds when some do.");
    r->verdict = tally(held, 6);
    if (r->verdict != DM_HOLDS) {
        HW(r, "on ");
        card_note(r, &one);
        if (fell[0] || fell[2])
            HW(r, " PTPE (and two-pass, whose second pass is PTPE) walks the whole stream a "
                  "thread per episode, so a GPU's slice of a level's candidates shortens no "
                  "thread's walk, and a level's candidates fill a smaller share of this "
                  "card's multiprocessors than of a GTX 295 GPU's%s", fell[1] ? ";" : ".");
        if (fell[1])
            HW(r, " with hybrid a level's candidates are split evenly in their fixed order "
                  "and the slowest GPU sets the level's time, each GPU picking PTPE or MTPE "
                  "for its own slice.");
    }
    return 0;
}

/* C9: at high support several GPUs are slower than one. */
static int judge_c9(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    int g[2], rc, held = 0;
    double x[2][3][5];
    dm_median one;
    if ((rc = gpu_speedups(d, g, x, &one, r, err)))
        return stop(rc);
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 3; c++)
            held += EP_MARGIN * x[s][c][MULTI[s].n - 1] <= 1;
    EV(r, "Rule: holds when at the highest support of each stream (%d and %d) G GPUs are at "
          "least 5 %% slower than one with every way of counting, partly holds when with "
          "some.", MULTI[0].support[MULTI[0].n - 1], MULTI[1].support[MULTI[1].n - 1]);
    r->verdict = tally(held, 6);
    if (r->verdict != DM_HOLDS) {
        HW(r, "the journal's eight GPUs were four GTX 295 boards whose copies shared one "
              "PCI-E bus, serialized, so its transfer time grew eightfold (lines 1020-1024); "
              "on ");
        card_note(r, &one);
        HW(r, " the added GPUs still saved more than they cost at the highest supports in %d "
              "of the 6 cases. Each point's transfer time per level is among its facts "
              "(count_transfer_s, bound_transfer_s), which this rule does not read.",
           6 - held);
    }
    return 0;
}

/* C10: two-pass gains less over PTPE on several GPUs than on one (Fig. 14). */
static int judge_c10(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median p1[2][5], t1[2][5], pg[2][5], tg[2][5];
    int g[2], rc, n = 0, ahead = 0, shrinks = 0;
    for (int s = 0; s < 2; s++) {
        if ((rc = most_gpus(d, &MULTI[s], &g[s], r, err)))
            return stop(rc);
        for (int i = 0; i < MULTI[s].n; i++) {
            const ep_at a = mined(&MULTI[s], MULTI[s].support[i]);
            if ((rc = mg(d, &a, 1, "ptpe", &p1[s][i], r, err)) ||
                (rc = mg(d, &a, 1, "twopass", &t1[s][i], r, err)) ||
                (rc = mg(d, &a, g[s], "ptpe", &pg[s][i], r, err)) ||
                (rc = mg(d, &a, g[s], "twopass", &tg[s][i], r, err)))
                return stop(rc);
        }
    }
    for (int s = 0; s < 2; s++) {
        EV(r, "%s%s, two-pass over PTPE on one GPU against %d:", s ? "; " : "", MULTI[s].name,
           g[s]);
        for (int i = 0; i < MULTI[s].n; i++, n++) {
            double x1 = p1[s][i].median / t1[s][i].median, xg = pg[s][i].median / tg[s][i].median;
            ahead += x1 >= EP_MARGIN;
            shrinks += x1 >= EP_MARGIN * xg;
            EV(r, "%s %.2fx against %.2fx at %d", i ? "," : "", x1, xg, MULTI[s].support[i]);
        }
    }
    EV(r, ". Two-pass at least 5 %% faster than PTPE on one GPU at %d of %d settings, its gain "
          "on G GPUs at least 5 %% below one GPU's at %d. Rule: at each stream and support, "
          "two checks: two-pass is at least 5 %% faster than PTPE on one GPU (the journal's "
          "2.5x), and its gain over PTPE on G GPUs is at least 5 %% below that on one (the "
          "journal's 1.1x on eight); holds when every check does, partly holds when some do.",
       ahead, n, shrinks);
    r->verdict = tally(ahead + shrinks, 2 * n);
    if (r->verdict != DM_HOLDS) {
        HW(r, "on ");
        card_note(r, &p1[0][0]);
        if (ahead < n)
            HW(r, " two-pass's PreElim pass walks the stream a thread per candidate as PTPE "
                  "does, so where it eliminates too little it costs more than it spares%s",
               shrinks < n ? ";" : ".");
        if (shrinks < n)
            HW(r, " where its gain does not shrink on more GPUs, both its passes cost a walk "
                  "of the whole stream whatever a GPU's share of the candidates, so splitting "
                  "them changes PTPE and two-pass alike.");
    }
    return 0;
}

/* The fastest way of counting of multigpu at a on gpus GPUs into *m, its name in *which.
 * Returns as need(). */
static int fastest(const dm_study_data *d, const ep_at *a, int gpus, dm_median *m,
                   const char **which, dm_claim_result *r, dm_err *err)
{
    for (int c = 0; c < 3; c++) {
        dm_median each;
        int rc = mg(d, a, gpus, COUNTING[c], &each, r, err);
        if (rc)
            return rc;
        if (c == 0 || each.median < m->median) {
            *m = each;
            *which = COUNTING[c];
        }
    }
    return 0;
}

/* C11: one GPU mines about 15 times as fast as the CPU, eight about 35 times, less than
 * eight times one GPU's speedup (Fig. 16). */
static int judge_c11(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median c[2], one[2], many[2];
    const char *w1[2], *wg[2];
    int g[2], rc, dir = 0, factor = 0;
    for (int s = 0; s < 2; s++) {
        const ep_at a = mined(&MULTI[s], MULTI[s].support[0]);
        if ((rc = most_gpus(d, &MULTI[s], &g[s], r, err)) ||
            (rc = need(d, &a, "cpu-mt", "", &c[s], r, err)) ||
            (rc = fastest(d, &a, 1, &one[s], &w1[s], r, err)) ||
            (rc = fastest(d, &a, g[s], &many[s], &wg[s], r, err)))
            return stop(rc);
    }
    for (int s = 0; s < 2; s++) {
        double s1 = c[s].median / one[s].median, sg = c[s].median / many[s].median;
        int ok = s1 >= EP_MARGIN && sg >= EP_MARGIN * s1 && sg < g[s] * s1;
        dir += ok;
        factor += ok && reaches(s1, 15) && (g[s] < 8 || reaches(sg, 35));
        EV(r, "%s%s at support %d: cpu-mt %s; one GPU %s (%s), %.1fx; %d GPUs %s (%s), %.1fx, "
              "%.2f times one GPU's", s ? "; " : "", MULTI[s].name, MULTI[s].support[0],
           tm(c[s].median).s, tm(one[s].median).s, w1[s], s1, g[s], tm(many[s].median).s, wg[s],
           sg, sg / s1);
    }
    EV(r, ". Rule: per stream at its lowest support, each number of GPUs with its fastest way "
          "of counting; the direction holds when one GPU is at least 5 %% faster than cpu-mt "
          "and G GPUs' speedup is at least 5 %% above one GPU's but below G times it (the "
          "journal's \"not eight times\"); the factor when besides one GPU's speedup is "
          "approximately 15 (at least %.1fx) and, on eight GPUs, G's about 35 (at least "
          "%.1fx; on fewer the 35-fold is not compared). Holds when both hold on both "
          "streams, partly holds when the direction does on some, does not hold when on "
          "none.", EP_ABOUT * 15, EP_ABOUT * 35);
    r->verdict = factor == 2 ? DM_HOLDS : dir ? DM_PARTLY : DM_BREAKS;
    if (r->verdict != DM_HOLDS)
        cpu_note(r, &one[0], 1045);
    return 0;
}

/* ---- the claims ---------------------------------------------------------------------- */

static const char *const occupancy[] = { "achieved_occupancy", NULL };
static const char *const local_div[] = { "local_load_sectors", "local_store_sectors",
                                         "branch_divergent", NULL };
static const char *const duration[] = { "duration", NULL };

#define EP_OCCUPANCY                                                                         \
    "sm__warps_active.avg.pct_of_peak_sustained_active (achieved_occupancy): how much of "   \
    "the card a thread per episode fills"
#define EP_LOCAL_DIV                                                                         \
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum and _st.sum (local_load_sectors, "        \
    "local_store_sectors) and smsp__sass_branch_targets_threads_divergent.sum "              \
    "(branch_divergent): the local memory traffic and divergent branches the paper's "       \
    "Fig. 11 profiles"
#define EP_DURATION                                                                          \
    "gpu__time_duration.sum (duration): how much of a mining's time its kernels take, the "  \
    "rest being the host's candidate generation, sorting and hand-offs"

static const dm_claim episodes_claims[] = {
    { .id = "C1", .title = "CF 2010, 4.2 A Two-Pass Elimination Approach: PreElim runs faster "
      "than the exact count", .line = 258, .quote_line = 345, .judge = judge_c1,
      .metric = EP_LOCAL_DIV, .shorts = local_div,
      .wording = "In our two-pass elimination approach, algorithm *PreElim* is less complex "
      "and runs faster than the hybrid algorithm, because it reduces the time complexity of "
      "the inter-event constraint check from  $O(|s[E_{(k-1)}]|)$  to  $O(1)$ ." },
    { .id = "C2", .title = "CF 2010, 5.2 Performance of the Hybrid Algorithm: neither PTPE "
      "nor MTPE for all levels", .line = 361, .quote_line = 363, .judge = judge_c2,
      .metric = EP_OCCUPANCY, .shorts = occupancy,
      .wording = "As seen in Figure 8(a), it is clear that blindly choosing to execute the "
      "PTPE or MTPE approach for *all* levels is not the best solution." },
    { .id = "C3", .title = "CF 2010, 5.2 and Table 1: PTPE and MTPE cross over at every "
      "level", .line = 361, .quote_line = 370, .judge = judge_c3, .metric = EP_OCCUPANCY,
      .shorts = occupancy,
      .wording = "The crossover points exist in all of our tests for this dataset (see "
      "supplementary information), and for lack of space, Table 1 shows the crossover points "
      "determined experimentally for the Sym26 dataset. / Table 1: Crossover Points on "
      "number of episodes below which MTPE should be run (for the fewer episodes case)." },
    { .id = "C4", .title = "CF 2010, 5.2 and Fig. 8: the hybrid is better than PTPE and MTPE",
      .line = 361, .quote_line = 368, .judge = judge_c4, .metric = EP_OCCUPANCY,
      .shorts = occupancy,
      .wording = "Since the hybrid algorithm leverage the advantages of both PTPE and MTPE "
      "algorithms, it demonstrates a better performance than PTPE and MTPE." },
    { .id = "C5", .title = "CF 2010, 5.2 and Fig. 8(b): the hybrid's gains against support",
      .line = 361, .quote_line = 379, .judge = judge_c5, .metric = EP_OCCUPANCY,
      .shorts = occupancy,
      .wording = "The range of improvement over PTPE is almost 3X and over 4.5X for MTPE. "
      "When the number of episodes is large (i.e., low support threshold) there are enough "
      "episodes to fully utilize the GPU and as such the hybrid algorithm shows little "
      "improvement over PTPE. Conversely, the hybrid algorithm shows little improvement over "
      "MTPE when the support threshold is high with very few episodes." },
    { .id = "C6", .title = "CF 2010, 5.3 and Fig. 10(b): two-pass elimination beats the "
      "hybrid in every case", .line = 394, .quote_line = 396, .judge = judge_c6,
      .metric = EP_LOCAL_DIV, .shorts = local_div,
      .wording = "Speedups for three different datasets at different support thresholds are "
      "shown in Figure 10(b) where in every case, the two-pass elimination algorithm "
      "outperforms the hybrid algorithm with speedups ranging from 1.2X to 2.8X." },
    { .id = "C7", .title = "CF 2010, 5.4 Performance Gain Over CPU: about 15-fold (Fig. 12)",
      .line = 405, .quote_line = 417, .judge = judge_c7, .metric = EP_DURATION,
      .shorts = duration,
      .wording = "Compared with the performance of the CPU implementation, our GPU "
      "algorithms exhibit a significant speedup, as shown in Figure 12. For the 2-1-35 "
      "dataset, the speedup is approximately 15-fold for a support threshold of 2700." },
    { .id = "C8", .title = "Journal, 7.4 Performance of Multi-GPU Mining: several GPUs gain "
      "at low support (Fig. 13)", .line = 985, .quote_line = 994, .judge = judge_c8,
      .metric = EP_DURATION, .shorts = duration,
      .wording = "Despite the performance overhead, we observe significant speedup at low "
      "support thresholds, when comparing the eight-GPU implementation to the single-GPU "
      "implementation, as shown in Figure 13. For dataset 2-1-33, we achieve more than a "
      "2.5-fold speedup when using a threshold of 500. [...] As such, the advantages of a "
      "multi-GPU implementation emerge only at low support thresholds, i.e., when there are "
      "an extremely large number of episode candidates." },
    { .id = "C9", .title = "Journal, 7.4: at high support several GPUs are slower than one",
      .line = 985, .quote_line = 997, .judge = judge_c9, .metric = EP_DURATION,
      .shorts = duration,
      .wording = "For a threshold larger than 800, the performance overhead of the eight-GPU "
      "implementation is so high that the overall performance is worse than the single GPU "
      "one." },
    { .id = "C10", .title = "Journal, 7.4 and Fig. 14: two-pass gains less over PTPE on "
      "several GPUs", .line = 985, .quote_line = 1007, .judge = judge_c10,
      .metric = EP_DURATION, .shorts = duration,
      .wording = "There is not a large performance gain using this approach in the multi-GPU "
      "implementation. For example, for dataset 2-/-34 with a support threshold of 1,500, "
      "the speedup of the two-pass elimination algorithm over the PTPE algorithm is 1.1 "
      "using the eight-GPU implementation. When using the single-GPU implementation, the "
      "speedup is 2.5." },
    { .id = "C11", .title = "Journal, 7.5 Performance Gain over CPU: about 15-fold on one GPU, "
      "35-fold on eight (Fig. 16)", .line = 1042, .quote_line = 1065, .judge = judge_c11,
      .metric = EP_DURATION, .shorts = duration,
      .wording = "Compared with the performance of the CPU implementation, our GPU "
      "algorithms exhibit a significant speedup, as shown in Figure 16. For the 2-1-33 "
      "dataset, the speedup is approximately 15-fold for a support threshold of 500 when "
      "using a single GPU. With the eight-GPU implementation, the speedup is about 35-fold. "
      "Note that due to additional overhead involved in the multi-GPU solution, the speedup "
      "is not eight times that of the single GPU case." },
    { 0 },
};

/* ---- reproduce targets ------------------------------------------------------------------ */

static const dm_paper episodes_papers[] = {
    { .file = EP_CF10, .cite = "Cao et al., CF 2010" },
    { .file = EP_JOURNAL, .cite = "Cao et al., journal version" },
    { 0 },
};

static const char *const fig8a_claims[] = { "C2", NULL };
static const char *const table1_claims[] = { "C3", NULL };
/* The main job's episodes: Table 1 whole, as C3 reads every level and count (133 s on an
 * H100, docs/records/per-card-choices.md). */
static const char *const table1_main[] = { NULL };
static const char *const fig8b_claims[] = { "C4", "C5", NULL };
static const char *const fig10_claims[] = { "C6", NULL };
static const char *const fig11_claims[] = { "C1", NULL };
static const char *const fig12_claims[] = { "C6", "C7", NULL };
static const char *const multigpu_claims[] = { "C8", "C9", "C10", "C11", NULL };

/* The figures of the CF 2010 paper, whose numbers the journal's are one higher (its
 * Fig. 9 is Fig. 8 here); a sweep measures one target (`dmbench reproduce` finds the
 * target of a run by its sweep), so the journal's Table 1, the same as this one, stays
 * listed in results/published, and Figs. 13-16 are one target of the multi-GPU sweep.
 * A figure's columns are its variants at the stream's neurons (or the level mined to,
 * for the recording, whose points carry the generator's defaults). */
static const dm_target episodes_targets[] = {
    { .name = "episodes-cf10-table1", .paper = EP_CF10, .item = "Table 1", .table = "Table 1",
      .caption = "crossover points between PTPE and MTPE on the number of episodes, per level "
                 "(Sym26); measured: both kernels over 16 to 32,768 episodes at levels 3 to "
                 "8, which `dmbench crossover episodes mtpe ptpe --axis count --group level` "
                 "fits",
      .sweep = "episodes-table1", .kind = DM_TARGET_FIGURE, .row_axis = "count",
      .col_axis = "level", .claims = table1_claims, .small = table1_main },
    { .name = "episodes-cf10-fig8a", .paper = EP_CF10, .item = "Fig. 8(a)",
      .caption = "PTPE against MTPE per episode size on Sym26; measured: every episode of "
                 "levels 1 to 3 and the first 20,000 of levels 4 to 6, each kernel reading "
                 "the stream or by type (MTPE with N or 1 machines a segment), beside cpu-mt",
      .sweep = "episodes-levels", .kind = DM_TARGET_FIGURE, .row_axis = "level",
      .col_axis = "neurons", .claims = fig8a_claims },
    { .name = "episodes-cf10-fig8b", .paper = EP_CF10, .item = "Fig. 8(b)",
      .caption = "the hybrid against PTPE and MTPE on Sym26; measured per level (3 to 8) over "
                 "64 to 32,768 episodes, the hybrid switching at the card's crossover fit",
      .sweep = "episodes-hybrid", .kind = DM_TARGET_FIGURE, .row_axis = "count",
      .col_axis = "level", .claims = fig8b_claims },
    { .name = "episodes-cf10-fig10", .paper = EP_CF10, .item = "Fig. 10",
      .caption = "two-pass elimination against the hybrid over support thresholds on a "
                 "recorded culture; measured: mining sim-64-size20 to level 8 at supports "
                 "100 to 400, beside cpu-mt and the CPU two-pass, and (beyond the paper) "
                 "counting by prefix on the GPU and the CPU",
      .sweep = "episodes-mining-sim64", .kind = DM_TARGET_FIGURE, .row_axis = "support",
      .col_axis = "level", .claims = fig10_claims },
    { .name = "episodes-cf10-fig11", .paper = EP_CF10, .item = "Fig. 11",
      .caption = "the hybrid's counting against PreElim's (the paper profiles local memory "
                 "and divergent branches); measured: PreElim against PTPE on the relaxed "
                 "problem (every link [0, 6] ms) per level, each reading the stream or by "
                 "type, beside cpu-mt; a run with --metrics local_memory,divergence adds the "
                 "counters",
      .sweep = "episodes-preelim", .kind = DM_TARGET_FIGURE, .row_axis = "level",
      .col_axis = "neurons", .claims = fig11_claims },
    { .name = "episodes-cf10-fig12", .paper = EP_CF10, .item = "Fig. 12",
      .caption = "the GPU against the multi-core CPU over support thresholds; measured: "
                 "mining Sym26 to level 8 at supports 30 to 200 with hybrid and two-pass, "
                 "beside cpu-mt and the CPU two-pass, and (beyond the paper) counting by "
                 "prefix on the GPU and the CPU",
      .sweep = "episodes-mining", .kind = DM_TARGET_FIGURE, .row_axis = "support",
      .col_axis = "neurons", .claims = fig12_claims },
    { .name = "episodes-journal-fig13-16", .paper = EP_JOURNAL, .item = "Figs. 13-16",
      .caption = "multi-GPU mining over support thresholds: several GPUs against one (Fig. "
                 "13), two-pass against PTPE (Fig. 14), the speedup over the CPU (Fig. 16); "
                 "measured: multigpu on 1 to 8 GPUs counting with PTPE, hybrid or two-pass, "
                 "beside cpu-mt (Fig. 15's split is among each point's facts)",
      .sweep = "episodes-multigpu", .kind = DM_TARGET_FIGURE, .row_axis = "support",
      .col_axis = "neurons", .claims = multigpu_claims },
    { 0 },
};

/* The sweeps the claims read, the multi-GPU one first (`dmbench characterize episodes`
 * finds the card by it); each rule reads the ones that measure its settings, whichever
 * sweep is named. */
static const char *const episodes_claim_sweeps[] = {
    "episodes-multigpu", "episodes-mining", "episodes-mining-large", "episodes-mining-sim64",
    "episodes-mining-machines", "episodes-hybrid", "episodes-table1", "episodes-levels",
    "episodes-preelim", NULL,
};

const dm_study episodes_study = {
    .papers = episodes_papers,
    .claims = episodes_claims,
    .claims_title = "the two papers' eleven claims about their evaluation",
    .times_note = "Every time is the median of the samples of a point whose counts (or "
                  "mining) matched Algorithm 1 before it was timed (hot: at "
                  "least 3 or 5, unless the sweep's time cap ran out first); cpu-mt, the "
                  "papers' CPU column, runs on every core of the host that ran the card. Each "
                  "claim reads the sweeps that measure its settings, named in its evidence: "
                  "per variant and setting, the newest complete run on the card that has the "
                  "point. A stream's points are told apart by their parameters (neurons, "
                  "seconds), so runs of one sweep with the large stream's (-a neurons=64 -a "
                  "seconds=100) stand beside its runs on Sym26.",
    .claim_sweeps = episodes_claim_sweeps,
    .group_axis = "level",
    .group_prefix = "level ",
    .best_axis = "block",
    .targets = episodes_targets,
    .default_sweep = "episodes-cpu",
};
