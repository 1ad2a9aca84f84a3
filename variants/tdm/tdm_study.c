/* tdm_study.c - tdm's study: the eight characterizations of Archuleta et al. (IPDPS 2009,
 * papers/tdm-characterization-ipdps09.txt), each quoting the paper and judged by a rule
 * on the medians of sweeps/tdm-fig7.yaml (or fig6, fig9); the paper's Table 2 and
 * Figs. 6-9 as reproduce targets, and the workload's default sweep. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study.h"

#define EV(r, ...) dm_append((r)->evidence, sizeof (r)->evidence, __VA_ARGS__)
#define HW(r, ...) dm_append((r)->hardware, sizeof (r)->hardware, __VA_ARGS__)

static const char *const THREAD_V[2] = { "thread-tex", "thread-shared" };
static const char *const BLOCK_V[2] = { "block-tex", "block-shared" };
static const int BLOCKS[] = { 16, 32, 64, 128, 256, 512, 1024 };
#define NBLOCKS ((int)(sizeof BLOCKS / sizeof BLOCKS[0]))
#define PAPER_MAX_BLOCK 512 /* the paper's cards ran at most 512 threads per block */
static const int EPISODES[4] = { 0, 26, 650, 15600 };

/* The median of variant at level and block (< 0: the fastest block) on card into *p.
 * Returns 0; 1 when there is no such point (r marked not measurable, naming it); or
 * DM_ERUNTIME. */
static int get(const dm_study_data *d, const char *card, const char *variant, int level,
               int block, dm_median *p, dm_claim_result *r, dm_err *err)
{
    char where[64];
    if (block >= 0)
        snprintf(where, sizeof where, "level=%d,block=%d", level, block);
    else
        snprintf(where, sizeof where, "level=%d", level);
    if (d->median(d->ctx, card, d->sweep, variant, where, p, err))
        return err->code;
    if (!p->found) {
        r->verdict = DM_UNMEASURED;
        r->hardware[0] = '\0';
        EV(r, "no ok point of %s at level %d", variant, level);
        if (block >= 0)
            EV(r, ", block %d", block);
        EV(r, " on a card named like \"%s\" in complete runs of %s. ", card, d->sweep);
        return 1;
    }
    return 0;
}

/* The times of variant at level for each of BLOCKS on the card (NAN where the block has
 * no ok point: a block over the card's limit is pruned, not missing). Returns 0; 1 when
 * no block has a point (r marked not measurable); or DM_ERUNTIME. */
static int curve(const dm_study_data *d, const char *variant, int level, double t[NBLOCKS],
                 dm_claim_result *r, dm_err *err)
{
    int found = 0;
    for (int i = 0; i < NBLOCKS; i++) {
        char where[64];
        dm_median p;
        snprintf(where, sizeof where, "level=%d,block=%d", level, BLOCKS[i]);
        if (d->median(d->ctx, d->card, d->sweep, variant, where, &p, err))
            return err->code;
        t[i] = p.found ? p.median : NAN;
        found += p.found;
    }
    if (!found) {
        r->verdict = DM_UNMEASURED;
        r->hardware[0] = '\0';
        EV(r, "no ok point of %s at level %d on a card named like \"%s\" in complete runs "
              "of %s. ", variant, level, d->card, d->sweep);
        return 1;
    }
    return 0;
}

/* Returns from a rule: with the error status, or 0 when a point is missing. */
#define NEED(call)                                                                           \
    do {                                                                                     \
        int s_ = (call);                                                                     \
        if (s_)                                                                              \
            return s_ < 0 ? s_ : 0;                                                          \
    } while (0)

static double ms(double s)
{
    return s * 1e3;
}

/* The block of the point p. */
static int blk(const dm_median *p)
{
    return (int)study_param(p->params, "block");
}

/* "1 and 3" style list of the levels whose bit is set in mask, into buf. */
static void levels_text(unsigned mask, char *buf, size_t n)
{
    int count = 0, seen = 0;
    buf[0] = '\0';
    for (int l = 1; l <= 3; l++)
        count += (mask >> l) & 1;
    for (int l = 1; l <= 3; l++)
        if ((mask >> l) & 1) {
            seen++;
            dm_append(buf, n, "%s%d", seen == 1 ? "" : seen == count ? " and " : ", ", l);
        }
}

/* C1: the thread-parallel variants take the same time at every level. */
static int judge_c1(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    int holds = 1;
    for (int v = 0; v < 2; v++) {
        double lo = INFINITY, hi = 0;
        EV(r, "%s fastest", THREAD_V[v]);
        for (int l = 1; l <= 3; l++) {
            dm_median p;
            NEED(get(d, d->card, THREAD_V[v], l, -1, &p, r, err));
            EV(r, "%s level %d (%d episodes) %.4g ms at block %d", l > 1 ? "," : "", l,
               EPISODES[l], ms(p.median), blk(&p));
            lo = fmin(lo, p.median);
            hi = fmax(hi, p.median);
        }
        EV(r, ": slowest/fastest %.3f. ", hi / lo);
        holds &= hi / lo <= 1.5;
    }
    EV(r, "600 times as many episodes (26 to 15,600) take about the same time, so the "
          "time per episode falls by about that factor. Rule: holds when, for both "
          "thread-parallel variants, the slowest level's best time is within 1.5x of the "
          "fastest level's.");
    r->verdict = holds ? DM_HOLDS : DM_BREAKS;
    if (!holds)
        HW(r, "the thread-parallel time grows with the number of episodes on this card.");
    return 0;
}

/* C2: thread-shared gets faster with more threads per block, pays the buffering back
 * against thread-tex, and (the paper's word) does so exponentially. */
static int judge_c2(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    int falls = 1, beats = 1, steep = 1;
    double least = INFINITY, most = 0;
    for (int l = 1; l <= 3; l++) {
        double t[NBLOCKS];
        dm_median tex;
        NEED(curve(d, "thread-shared", l, t, r, err));
        NEED(get(d, d->card, "thread-tex", l, -1, &tex, r, err));
        if (isnan(t[0])) {
            r->verdict = DM_UNMEASURED;
            EV(r, "no ok point of thread-shared at level %d, block %d in complete runs of %s.",
               l, BLOCKS[0], d->sweep);
            return 0;
        }
        int best = 0;
        for (int i = 1; i < NBLOCKS; i++)
            if (!isnan(t[i]) && t[i] < t[best])
                best = i;
        double drop = 1 - t[best] / t[0];
        EV(r, "level %d: thread-shared %.4g ms at block %d, %.4g ms at block %d (%.0f %% "
              "faster), thread-tex's best %.4g ms; drop per doubling up to the fastest "
              "block:", l, ms(t[0]), BLOCKS[0], ms(t[best]), BLOCKS[best], 100 * drop,
           ms(tex.median));
        /* The shape: each doubling's drop, and its ratio to the drop before it. */
        double first = NAN, prev = NAN, largest = -INFINITY;
        for (int i = 0, j; i < best; i = j) {
            for (j = i + 1; j < best && isnan(t[j]); j++)
                ;
            double dj = t[i] - t[j];
            EV(r, " %d to %d %.3g ms", BLOCKS[i], BLOCKS[j], ms(dj));
            if (!isnan(prev) && prev > 0)
                EV(r, " (x%.2f)", dj / prev);
            EV(r, j < best ? "," : ".");
            if (isnan(first))
                first = dj;
            largest = fmax(largest, dj);
            prev = dj;
        }
        if (best == 0)
            EV(r, " none (block %d is the fastest).", BLOCKS[0]);
        EV(r, " ");
        falls &= drop >= 0.05;
        beats &= t[best] <= tex.median;
        steep &= drop >= 0.5 && first >= largest;
        least = fmin(least, drop);
        most = fmax(most, drop);
    }
    EV(r, "Rule: the fall holds when at every level thread-shared's best block is at least "
          "5 %% faster than block %d and its best time is no slower than thread-tex's (the "
          "buffering cost is paid back). \"Exponentially\" holds when, besides, at every "
          "level the time itself decays: at least half of the time at block %d is gone at "
          "the fastest block, and the first doubling's drop is the largest (a fall that "
          "slows, as an exponential does toward its floor). Holds when both do, partly "
          "holds when the fall does and the shape does not.", BLOCKS[0], BLOCKS[0]);
    r->verdict = !(falls && beats) ? DM_BREAKS : steep ? DM_HOLDS : DM_PARTLY;
    if (r->verdict == DM_BREAKS)
        HW(r, "%s", !beats ? "the texture path is served by the same L1 as shared memory "
                             "since Volta (unified L1/texture cache), so copying the letters "
                             "into shared memory buys little over reading them through it."
                           : "thread-shared's time does not fall with more threads per block.");
    else if (r->verdict == DM_PARTLY && most < 0.5)
        HW(r, "thread-shared's time falls by %.0f %% at most from block %d to its fastest "
              "block, so at least %.0f %% of it does not depend on the block size: the "
              "buffering the paper amortizes over a block's threads is a small part of the "
              "time on this card, not the high initial load that made its Figure 6(b) fall "
              "steeply.", 100 * most, BLOCKS[0], 100 * (1 - most));
    else if (r->verdict == DM_PARTLY)
        HW(r, "thread-shared's time falls by %.0f-%.0f %% from block %d to its fastest block, "
              "but not as a decay: its largest drop comes at a later doubling than the first, "
              "or at some level the fall is under half.", 100 * least, 100 * most, BLOCKS[0]);
    return 0;
}

/* C3: the block-parallel variants get slower as threads per block grow, judged per
 * level over the paper's range of blocks (16 to 512). */
static int judge_c3(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    unsigned holds = 0, breaks = 0;
    dm_median any;
    NEED(get(d, d->card, BLOCK_V[0], 1, -1, &any, r, err));
    for (int l = 1; l <= 3; l++) {
        int level_holds = 1;
        for (int v = 0; v < 2; v++) {
            double t[NBLOCKS];
            NEED(curve(d, BLOCK_V[v], l, t, r, err));
            int best = -1, top = -1;
            for (int i = 0; i < NBLOCKS && BLOCKS[i] <= PAPER_MAX_BLOCK; i++) {
                if (isnan(t[i]))
                    continue;
                top = i;
                if (best < 0 || t[i] < t[best])
                    best = i;
            }
            if (top < 0 || BLOCKS[top] != PAPER_MAX_BLOCK || isnan(t[0])) {
                r->verdict = DM_UNMEASURED;
                EV(r, "%s level %d lacks block %d or %d in complete runs of %s.", BLOCK_V[v],
                   l, BLOCKS[0], PAPER_MAX_BLOCK, d->sweep);
                return 0;
            }
            double past = t[top] / t[best];
            EV(r, "%s level %d: %.4g ms at block %d, ", BLOCK_V[v], l, ms(t[0]), BLOCKS[0]);
            if (best == top)
                EV(r, "fastest at %d (%.4g ms). ", PAPER_MAX_BLOCK, ms(t[top]));
            else
                EV(r, "fastest %.4g ms at %d, %.4g ms at %d (%+.0f %% from the fastest). ",
                   ms(t[best]), BLOCKS[best], ms(t[top]), PAPER_MAX_BLOCK, 100 * (past - 1));
            level_holds &= past >= 1.05;
        }
        if (level_holds)
            holds |= 1u << l;
        else
            breaks |= 1u << l;
    }
    char hl[32], bl[32];
    levels_text(holds, hl, sizeof hl);
    levels_text(breaks, bl, sizeof bl);
    EV(r, "Rule, per level: a level holds when, for both block-parallel variants, %d "
          "threads per block (the paper's largest) are at least 5 %% slower than the "
          "fastest block from %d to %d, so that threads added past it lose time; the claim "
          "holds when every level does, partly holds when some do. Levels that hold: %s.",
       PAPER_MAX_BLOCK, BLOCKS[0], PAPER_MAX_BLOCK, holds ? hl : "none");
    r->verdict = !breaks ? DM_HOLDS : holds ? DM_PARTLY : DM_BREAKS;
    if (breaks) {
        unsigned few = breaks & 6u; /* levels 1 and 2: 26 and 650 blocks */
        char fl[32];
        levels_text(few, fl, sizeof fl);
        HW(r, "at level%s %s the block-parallel time does not rise 5 %% past its fastest "
              "block by %d threads per block. "
              "The GTX 280 ran at most 8 blocks and 1024 threads per SM on 30 SMs, with %d "
              "threads per block; this card (compute capability %s, %d SMs) runs up to 1024 "
              "threads per block and 2048 threads per SM", strchr(bl, ' ') ? "s" : "", bl,
           PAPER_MAX_BLOCK,
           PAPER_MAX_BLOCK, any.cc, any.sms);
        if (few)
            HW(r, ", so with only %s blocks (level%s %s) the added threads of a block are what "
                  "fills the SMs, and stitching the extra chunk boundaries costs less than "
                  "that gains", few == 6u ? "26 or 650" : few == 2u ? "26" : "650",
               few == 6u ? "s" : "", fl);
        if (breaks & 8u)
            HW(r, "%s at level 3 the 15,600 blocks fill the SMs at any block size, and still "
                  "the added threads gain more than the extra chunk boundaries cost",
               few ? ";" : ", and");
        HW(r, ".");
    }
    return 0;
}

/* C4: at level 1 the block-parallel variants are far faster than the thread-parallel. */
static int judge_c4(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median t[2], b[2], t16, t512;
    for (int v = 0; v < 2; v++) {
        NEED(get(d, d->card, THREAD_V[v], 1, -1, &t[v], r, err));
        NEED(get(d, d->card, BLOCK_V[v], 1, -1, &b[v], r, err));
    }
    NEED(get(d, d->card, "thread-tex", 1, 16, &t16, r, err));
    NEED(get(d, d->card, "thread-tex", 1, 512, &t512, r, err));
    double tb = fmin(t[0].median, t[1].median), bb = fmin(b[0].median, b[1].median);
    EV(r, "level 1 (26 episodes), best times: thread-tex %.4g ms (block %d), thread-shared "
          "%.4g ms (block %d), block-tex %.4g ms (block %d), block-shared %.4g ms (block %d); "
          "best block-parallel is %.0fx faster than best thread-parallel. thread-tex goes "
          "from %.4g ms at block 16 to %.4g ms at 512 (the paper's uptrend is %s). Rule: "
          "holds when the best block-parallel time is at least 10x (an order of magnitude) "
          "below the best thread-parallel time.",
       ms(t[0].median), blk(&t[0]), ms(t[1].median), blk(&t[1]), ms(b[0].median), blk(&b[0]),
       ms(b[1].median), blk(&b[1]), tb / bb, ms(t16.median), ms(t512.median),
       t512.median > 1.05 * t16.median ? "there" : "within 5 %, flat");
    r->verdict = tb / bb >= 10 ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS)
        HW(r, "26 threads no longer leave the card idle enough to lose to block parallelism.");
    return 0;
}

/* C5: at level 2 the block-parallel time depends on the block size. */
static int judge_c5(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    int holds = 1;
    for (int v = 0; v < 2; v++) {
        double t[NBLOCKS], lo = INFINITY, hi = 0;
        int blo = 0, bhi = 0;
        NEED(curve(d, BLOCK_V[v], 2, t, r, err));
        EV(r, "level 2 %s:", BLOCK_V[v]);
        for (int i = 0; i < NBLOCKS; i++) {
            if (isnan(t[i]))
                continue;
            EV(r, " %d: %.4g ms;", BLOCKS[i], ms(t[i]));
            if (t[i] < lo)
                lo = t[i], blo = BLOCKS[i];
            if (t[i] > hi)
                hi = t[i], bhi = BLOCKS[i];
        }
        EV(r, " slowest (block %d) / fastest (block %d) = %.2f. ", bhi, blo, hi / lo);
        holds &= hi / lo >= 2;
    }
    dm_median ts, bs;
    NEED(get(d, d->card, "thread-shared", 2, 16, &ts, r, err));
    NEED(get(d, d->card, "block-shared", 2, 16, &bs, r, err));
    EV(r, "The paper's side remarks: at block 16 thread-shared %.4g ms against block-shared "
          "%.4g ms (the paper had Algorithm 2 ahead: %s here). Rule, on the heading: holds "
          "when, for both block-parallel variants, the slowest block size is at least 2x "
          "the fastest.",
       ms(ts.median), ms(bs.median), ts.median < bs.median ? "so" : "not so");
    r->verdict = holds ? DM_HOLDS : DM_BREAKS;
    if (!holds)
        HW(r, "the block-parallel time at level 2 hardly moves with block size on this card.");
    return 0;
}

/* C6: at level 3 the thread-parallel variants beat the block-parallel ones. */
static int judge_c6(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    dm_median p[4];
    const char *v[4] = { "thread-tex", "thread-shared", "block-tex", "block-shared" };
    for (int i = 0; i < 4; i++)
        NEED(get(d, d->card, v[i], 3, -1, &p[i], r, err));
    double tb = fmin(p[0].median, p[1].median), bb = fmin(p[2].median, p[3].median);
    EV(r, "level 3 (15,600 episodes), best times:");
    for (int i = 0; i < 4; i++)
        EV(r, " %s %.4g ms (block %d)%s", v[i], ms(p[i].median), blk(&p[i]), i < 3 ? "," : ".");
    EV(r, " Best thread-parallel / best block-parallel = %.2f. Rule: holds when the best "
          "thread-parallel time is below the best block-parallel time.", tb / bb);
    r->verdict = tb < bb ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS)
        HW(r, "the paper's block-parallel algorithms were held to 240 episodes in flight (8 "
              "resident blocks on each of 30 SMs), its thread-parallel ones to 30,720 threads. "
              "This card (compute capability %s, %d SMs) keeps up to 32 blocks and 2048 "
              "threads per SM: up to %d blocks, each an episode, can be in flight, while "
              "the 15,600 "
              "threads of the thread-parallel variants fill %.1f %% of the %d thread slots. "
              "The SM count grew %.1fx and the per-SM block limit 4x, so block parallelism "
              "now has the occupancy thread parallelism lost.",
           p[2].cc, p[2].sms, 32 * p[2].sms, 100.0 * 15600 / (2048.0 * p[2].sms),
           2048 * p[2].sms, p[2].sms / 30.0);
    return 0;
}

/* The other card for C7 and C8, with r marked not measurable when there is none. */
static int other_card(const dm_study_data *d, char *other, size_t n, dm_claim_result *r,
                      dm_err *err)
{
    if (d->other_card(d->ctx, d->sweep, d->card, other, n, err))
        return err->code;
    if (!other[0]) {
        r->verdict = DM_UNMEASURED;
        EV(r, "the claim compares cards, and the databases hold complete runs of %s on one "
              "card only (\"%s\").", d->sweep, d->card);
    }
    return 0;
}

/* C7: at levels 1 and 2 the thread-parallel time follows the SM clock across cards. */
static int judge_c7(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    char other[128];
    if (other_card(d, other, sizeof other, r, err) || !other[0])
        return err->code;
    int holds = 1;
    double clk = NAN;
    for (int v = 0; v < 2; v++)
        for (int l = 1; l <= 2; l++) {
            dm_median a, b;
            NEED(get(d, d->card, THREAD_V[v], l, -1, &a, r, err));
            NEED(get(d, other, THREAD_V[v], l, -1, &b, r, err));
            clk = a.sm_mhz / b.sm_mhz;
            double t = b.median / a.median;
            EV(r, "%s level %d: %.4g ms on %s (SM clock %.0f MHz at start), %.4g ms on %s "
                  "(%.0f MHz), time ratio %.3f. ", THREAD_V[v], l, ms(a.median), a.gpu,
               a.sm_mhz, ms(b.median), b.gpu, b.sm_mhz, t);
            holds &= fabs(t / clk - 1) <= 0.1;
        }
    if (!(fabs(clk - 1) > 0.02)) {
        r->verdict = DM_UNMEASURED;
        EV(r, "Both cards ran at the same SM clock (or it was not recorded), so clock "
              "dependence cannot be separated from anything else; the equal times are "
              "consistent with the claim but do not test it. A card at another clock, or "
              "runs at locked clocks, would.");
        return 0;
    }
    EV(r, "Rule: holds when every time ratio is within 10 %% of the clock ratio %.3f.", clk);
    r->verdict = holds ? DM_HOLDS : DM_BREAKS;
    if (!holds)
        HW(r, "the thread-parallel time does not scale with the SM clock between these cards.");
    return 0;
}

/* C8: at level 3 block-tex follows the peak memory bandwidth across cards. */
static int judge_c8(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    char other[128];
    if (other_card(d, other, sizeof other, r, err) || !other[0])
        return err->code;
    dm_median a, b;
    NEED(get(d, d->card, "block-tex", 3, -1, &a, r, err));
    NEED(get(d, other, "block-tex", 3, -1, &b, r, err));
    EV(r, "block-tex level 3, best: %.4g ms (block %d) on %s, %.4g ms (block %d) on %s. ",
       ms(a.median), blk(&a), a.gpu, ms(b.median), blk(&b), b.gpu);
    if (isnan(a.mem_gbps) || isnan(b.mem_gbps)) {
        r->verdict = DM_UNMEASURED;
        EV(r, "The run of %s did not note its memory clock and bus width "
              "(device.mem_clock_mhz, device.mem_bus_bits), so its peak bandwidth is "
              "unknown and the claim is not tested.", isnan(a.mem_gbps) ? a.gpu : b.gpu);
        return 0;
    }
    double bw = a.mem_gbps / b.mem_gbps, t = b.median / a.median;
    EV(r, "Peak DRAM bandwidth, 2 x memory clock x bus width from each run's device notes "
          "(as the paper's Table 2 gives its cards'): %.0f GB/s (%.0f-bit bus) on %s, %.0f "
          "GB/s (%.0f-bit bus) on %s. Bandwidth ratio %.3f, time ratio %.3f. ", a.mem_gbps,
       a.mem_bus_bits, a.gpu, b.mem_gbps, b.mem_bus_bits, b.gpu, bw, t);
    if (!(fabs(bw - 1) > 0.02)) {
        r->verdict = DM_UNMEASURED;
        EV(r, "The cards have the same peak bandwidth, so the claim is not tested.");
        return 0;
    }
    EV(r, "Rule: holds when at least half of the bandwidth's advantage shows up as speed: "
          "the faster-memory card's time ratio is at least 1 + (bandwidth ratio - 1) / 2.");
    double m = bw >= 1 ? bw : 1 / bw, tt = bw >= 1 ? t : 1 / t;
    r->verdict = tt >= 1 + (m - 1) / 2 ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS)
        HW(r, "the database is 393,019 one-byte letters (384 KiB); this card's L2 holds %.0f "
              "MiB and each SM's unified L1/texture cache up to 256 KiB, so after the first "
              "touch the letters are most likely read from L2 and the per-SM L1/texture "
              "cache, not DRAM (an explanation, not a measurement: see the CUPTI line). "
              "The paper's cards cached texture reads in 6-8 KB per SM (its Section 4.2) "
              "with no cache that could hold the whole database, so its Algorithm 3 kept "
              "reading DRAM.",
           a.l2_bytes / 1048576.0);
    return 0;
}

static const char *const occ[] = { "achieved_occupancy", NULL };
static const char *const l1bank[] = { "l1_hit_rate", "shared_load_bank_conflicts", NULL };
static const char *const l1[] = { "l1_hit_rate", NULL };
static const char *const dur[] = { "duration", NULL };
static const char *const dram[] = { "dram_read_bytes", "l2_hit_rate", NULL };

static const dm_claim tdm_claims[] = {
    { .id = "C1", .shorts = occ, .title = "Thread Parallel Algorithm has O(C) Time Complexity Per Episode",
      .line = 231, .quote_line = 233, .judge = judge_c1,
      .metric = "sm__warps_active.avg.pct_of_peak_sustained_active "
      "(achieved_occupancy: how little of the card 26 to 15,600 threads fill)",
      .wording = "Algorithm 1 and 2 are constant time algorithms per episode. Whether "
      "performing 26, 1560, or 25,320 searches, the amount of time to complete each "
      "individual search is essentially the same." },
    { .id = "C2", .shorts = l1bank, .title = "Buffering Penalty in Thread Parallel Can be Amortized",
      .line = 237, .quote_line = 239, .judge = judge_c2,
      .metric = "l1tex__t_sector_hit_rate.pct (l1_hit_rate) and "
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum (shared_load_bank_conflicts)",
      .wording = "As more threads are added to a block Algorithm 2 exponentially decreases in "
      "execution time as shown in Figure 6(b)." },
    { .id = "C3", .shorts = occ, .title = "Block Parallelism Does Not Scale with Block Size",
      .line = 259, .quote_line = 261, .judge = judge_c3,
      .metric = "sm__warps_active.avg.pct_of_peak_sustained_active "
      "(achieved_occupancy)",
      .wording = "Unlike Algorithm 2, Algorithms 3 and 4 actually lose performance per episode "
      "as the number of threads per block and level increase." },
    { .id = "C4", .shorts = occ, .title = "Thread Level Parallelism Alone is Not Sufficient for Small "
      "Problem Sizes", .line = 269, .quote_line = 271,
      .judge = judge_c4,
      .metric = "sm__warps_active.avg.pct_of_peak_sustained_active (achieved_occupancy)",
      .wording = "When evaluating small problem sizes, e.g., L = 1, there are not enough "
      "episodes to generate enough threads to utilize the resources of the card. [...] "
      "Algorithms 3 and 4, on the other hand, are orders of magnitude faster" },
    { .id = "C5", .shorts = l1, .title = "Block Level Depends on Block Size for Medium Problem Sizes",
      .line = 277, .quote_line = 277,
      .judge = judge_c5, .metric = "l1tex__t_sector_hit_rate.pct (l1_hit_rate)",
      .wording = "Block Level Depends on Block Size for Medium Problem Sizes. As seen in "
      "Figure 7(b), a medium problem size (L = 2) contains enough parallelism at the thread "
      "level such that the thread-parallel Algorithm 2 outperforms the block-parallel "
      "Algorithm 4 for small numbers of threads per block" },
    { .id = "C6", .shorts = occ, .title = "Thread-Level Parallelism is Sufficient for Large Problem Sizes",
      .line = 283, .quote_line = 283, .judge = judge_c6,
      .metric = "sm__warps_active.avg.pct_of_peak_sustained_active "
      "(achieved_occupancy)",
      .wording = "the thread-level parallel algorithms (Algorithm 1 and 2) are significantly "
      "faster than the block level algorithms (Algorithms 3 and 4)." },
    { .id = "C7", .shorts = dur, .title = "Thread Level Parallelism is Dependent on Processor Clock "
      "Frequency for Small and Medium Problems", .line = 289, .quote_line = 289,
      .judge = judge_c7, .cross_card = 1,
      .metric = "gpu__time_duration.sum (duration) with the SM clock locked at two settings",
      .wording = "Algorithms 1 and 2 are greatly dependent on the processor clock frequency "
      "for small and medium problem sizes, and scale essentially linearly by this measure" },
    { .id = "C8", .shorts = dram, .title = "Block-Level Algorithms are Affected by Memory Bandwidth",
      .line = 296, .quote_line = 296, .judge = judge_c8, .cross_card = 1,
      .metric = "dram__bytes_read.sum (dram_read_bytes) and "
      "lts__t_sector_hit_rate.pct (l2_hit_rate)",
      .wording = "Algorithm 3 can be greatly effected by memory contention when searching "
      "large problem sizes." },
    { 0 },
};

/* ---- reproduce targets ------------------------------------------------------------- */

#define TDM_PAPER "tdm-characterization-ipdps09"

static const char *const fig6_claims[] = { "C1", "C2", "C3", NULL };
static const char *const fig7_claims[] = { "C4", "C5", "C6", NULL };
static const char *const fig8_claims[] = { "C7", "C8", NULL };
static const char *const all_claims[] = { "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", NULL };

#define FIGURE(n, cap, cl, main)                                                           \
    { .name = "tdm-fig" #n, .paper = TDM_PAPER, .item = "Fig. " #n, .caption = cap,         \
      .sweep = "tdm-fig" #n, .kind = DM_TARGET_FIGURE, .row_axis = "block",                 \
      .col_axis = "level", .claims = cl, .small = main }

/* The main job's tdm: Fig. 9 whole (the complete grid, every characterization; 36 s on
 * an H100, docs/reproduce.md). */
static const char *const fig9_main[] = { NULL };

/* Table 2 is the paper's, and its facts are what C6-C8 reason with, so it is tdm's
 * target; the sweep that measures the card's bandwidth for it runs the copy kernels of
 * the calibration workload, which sweeps/tdm-table2.yaml names. */
static const dm_target tdm_targets[] = {
    { .name = "tdm-table2", .paper = TDM_PAPER, .item = "Table 2", .table = "Table 2",
      .caption = "the three GPUs of the study: memory, bandwidth, multiprocessors, cores, "
                 "clock, compute capability and per-multiprocessor limits",
      .sweep = "tdm-table2", .kind = DM_TARGET_CARDS,
      .note = "the 9800 GX2 is two G92 GPUs on one board; its bandwidth and memory are per "
              "GPU. The threads a card keeps active at once, set beside this card's below, "
              "are what Characterization 6 (line 283) reasons with" },
    FIGURE(6, "impact of problem size on the GTX 280: time against threads per block for "
              "each algorithm, a curve per level", fig6_claims, NULL),
    FIGURE(7, "impact of algorithm: time against threads per block at each level, a curve "
              "per algorithm", fig7_claims, NULL),
    FIGURE(8, "impact of hardware: the thread-parallel algorithms at levels 1 and 2 follow "
              "the clock, block-tex at level 3 the memory", fig8_claims, NULL),
    FIGURE(9, "the complete grid: algorithm x level x threads per block, a curve per card",
           all_claims, fig9_main),
    { 0 },
};

static const dm_paper tdm_papers[] = {
    { .file = TDM_PAPER, .cite = "Archuleta et al., IPDPS 2009" },
    { 0 },
};

/* tdm-fig6 and tdm-fig9 measure the same variants, levels and blocks as tdm-fig7 (and
 * more blocks), so the claims read them too. */
static const char *const tdm_claim_sweeps[] = { "tdm-fig7", "tdm-fig6", "tdm-fig9", NULL };

const dm_study tdm_study = {
    .papers = tdm_papers,
    .claims = tdm_claims,
    .claims_title = "the paper's eight characterizations",
    .times_note = "Every time is the median of at least 10 cold samples of a point verified "
                  "against the CPU reference; \"best\" is the fastest block of those measured "
                  "(16 to 1024 threads per block).",
    .claim_sweeps = tdm_claim_sweeps,
    .group_axis = "level",
    .group_prefix = "L",
    .best_axis = "block",
    .targets = tdm_targets,
    .default_sweep = "tdm-perf",
};
