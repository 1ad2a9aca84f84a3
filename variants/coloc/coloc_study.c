/* coloc_study.c - the coloc workload's study (Sainju & Jiang, SSTD 2017): the paper's claims
 * about its evaluation (section 4 and the abstract), each quoted with its line and judged
 * by a rule on the medians of the sweeps that measure it; Tables 1 and 2 and Figs. 6(b)
 * and 6(c) as reproduce targets; the default sweep. Fig. 7(a)'s pruning ratio is a count
 * each point stores among its facts, the same on any machine, so no rule over medians
 * judges it. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study.h"

#define CL_PAPER "colocation-grid-gpu-sstd17"

#define EV(r, ...) dm_append((r)->evidence, sizeof (r)->evidence, __VA_ARGS__)
#define HW(r, ...) dm_append((r)->hardware, sizeof (r)->hardware, __VA_ARGS__)

/* A ratio of two medians that counts as a difference: 5 %, beyond the sweeps' noise. */
#define CL_MARGIN 1.05
/* The paper's card and CPU (line 276), which its times were measured on. */
#define CL_PAPER_CARD "Quadro K6000 (2880 cores, 12 GB)"
#define CL_PAPER_CPU "a Xeon E5-2687W v4 core"

/* ---- where the paper's settings are measured ------------------------------------------- */

static const char *const SW_TABLE2[] = { "coloc-table2", NULL };
static const char *const SW_FIG6A[] = { "coloc-fig6a", NULL };
static const char *const SW_FIG6B[] = { "coloc-fig6b", NULL };
static const char *const SW_FIG6C[] = { "coloc-fig6c", NULL };
/* 250,000 instances at clumpiness 20: the last point of Fig. 6(b) (Table 1's row) and of
 * Fig. 6(c). */
static const char *const SW_CLUMPY[] = { "coloc-fig6b", "coloc-fig6c", NULL };

/* A setting of the paper's experiments: the sweeps that measure it (its medians come from
 * the newest complete run among them on the card) and its points' parameters. */
typedef struct cl_at {
    const char *const *sweeps;
    char where[96];
    char name[64]; /* in the evidence */
} cl_at;

/* The Seattle data at d = 10 and theta (Table 2, Fig. 7). */
static cl_at seattle(double theta)
{
    cl_at a = { .sweeps = SW_TABLE2 };
    snprintf(a.where, sizeof a.where, "distance=10,prevalence=%g", theta);
    snprintf(a.name, sizeof a.name, "Seattle at theta %g", theta);
    return a;
}

/* Synthetic data of instances points at clumpiness, d = 10, theta 0.5 (Fig. 6, Table 1). */
static cl_at synthetic(const char *const *sweeps, long instances, int clumpiness)
{
    cl_at a = { .sweeps = sweeps };
    char n[32]; /* all %ld and two %03ld can print */
    if (instances >= 1000000)
        snprintf(n, sizeof n, "%ld,%03ld,%03ld", instances / 1000000, instances / 1000 % 1000,
                 instances % 1000);
    else
        snprintf(n, sizeof n, "%ld,%03ld", instances / 1000, instances % 1000);
    snprintf(a.where, sizeof a.where, "instances=%ld,clumpiness=%d,distance=10,prevalence=0.5",
             instances, clumpiness);
    snprintf(a.name, sizeof a.name, "%s instances at clumpiness %d", n, clumpiness);
    return a;
}

/* The median of variant at a into *m. Returns 0; 1 when no complete run has an ok point of
 * it (r marked not measurable, naming what is missing); or DM_ERUNTIME. */
static int need(const dm_study_data *d, const cl_at *a, const char *variant, dm_median *m,
                dm_claim_result *r, dm_err *err)
{
    if (study_newest_median(d, a->sweeps, variant, a->where, m, err))
        return err->code;
    if (m->found)
        return 0;
    study_unmeasured(d, a->sweeps, variant, a->name, a->where, r);
    return 1;
}

/* What a rule returns after need(): 0 when a point was missing, else the error. */
static int stop(int rc)
{
    return rc < 0 ? rc : 0;
}

/* Seconds as text, in s from one second up, else in ms. */
typedef struct cl_text {
    char s[32];
} cl_text;

static cl_text secs(double s)
{
    cl_text t;
    if (s >= 1)
        snprintf(t.s, sizeof t.s, "%.4g s", s);
    else
        snprintf(t.s, sizeof t.s, "%.4g ms", s * 1e3);
    return t;
}

/* The verdict of a claim made of n checks of which held hold. */
static dm_verdict tally(int held, int n)
{
    return held == n ? DM_HOLDS : held ? DM_PARTLY : DM_BREAKS;
}

/* ---- Tables 1 and 2: speedups over the CPU baseline ------------------------------------- */

/* A GPU row of the paper's Table 1 or 2: the variant, its total time and its speedup over
 * the CPU baseline, as printed. */
typedef struct cl_row {
    const char *variant;
    double total_s, speedup;
} cl_row;

/* The rows of one setting: the CPU baseline's total time and the three GPU rows. */
typedef struct cl_table {
    double cpu_s;
    cl_row gpu[3];
} cl_table;

/* Table 1, clumpiness 1 (lines 298-301). */
static const cl_table TABLE1_C1 = {
    34.1, { { "MH", 1.9, 17.9 }, { "CG", 0.9, 37.9 }, { "CH", 1.2, 28.4 } } };
/* Table 1, clumpiness 20 (lines 302-305). */
static const cl_table TABLE1_C20 = {
    408.4, { { "MH", 97.4, 4.2 }, { "CG", 13.9, 29.4 }, { "CH", 97, 4.2 } } };
/* Table 2 (lines 323-326). */
static const cl_table TABLE2 = {
    347.4, { { "MH", 26.8, 13 }, { "CG", 5.5, 63.2 }, { "CH", 27.4, 12.7 } } };

/* The paper's total time of variant in t, or NAN when t has no row of it. */
static double paper_time(const cl_table *t, const char *variant)
{
    if (!strcmp(variant, "cpu"))
        return t->cpu_s;
    for (int i = 0; i < 3; i++)
        if (!strcmp(t->gpu[i].variant, variant))
            return t->gpu[i].total_s;
    return NAN;
}

/* Appends to the hardware note sep, then how this machine's variant ran against the
 * paper's time of it in t ("cpu 4.29x as fast (81 s against 347.4 s)"). Returns 1, or 0
 * with nothing appended when t has no time of the variant. */
static int against_paper(dm_claim_result *r, const cl_table *t, const char *variant,
                         const dm_median *m, const char *sep)
{
    double p = paper_time(t, variant);
    if (isnan(p))
        return 0;
    HW(r, "%s%s %.3gx as fast (%s against %.4g s)", sep, variant, p / m->median,
       secs(m->median).s, p);
    return 1;
}

/* The paper's speedups of one of its tables at a: holds when each GPU variant is at least
 * as many times faster than cpu as the paper printed, partly when some are. */
static int judge_speedups(const dm_study_data *d, const cl_at *a, const cl_table *t,
                          dm_claim_result *r, dm_err *err)
{
    dm_median cpu, g[3];
    int rc, held = 0;
    if ((rc = need(d, a, "cpu", &cpu, r, err)))
        return stop(rc);
    for (int i = 0; i < 3; i++)
        if ((rc = need(d, a, t->gpu[i].variant, &g[i], r, err)))
            return stop(rc);
    EV(r, "%s: cpu %s (the paper's %.4g s)", a->name, secs(cpu.median).s, t->cpu_s);
    for (int i = 0; i < 3; i++) {
        double x = cpu.median / g[i].median;
        held += x >= t->gpu[i].speedup;
        EV(r, "; %s %s, %.1fx (the paper's %.4g s, %gx)", t->gpu[i].variant,
           secs(g[i].median).s, x, t->gpu[i].total_s, t->gpu[i].speedup);
    }
    EV(r, ". Rule: holds when each of MH, CG and CH is at least as many times faster than "
          "cpu as the paper printed, partly holds when some are.");
    r->verdict = tally(held, 3);
    if (r->verdict != DM_HOLDS) {
        HW(r, "against the paper's machine (%s, a %s), this one ran ", CL_PAPER_CPU,
           CL_PAPER_CARD);
        against_paper(r, t, "cpu", &cpu, "");
        for (int i = 0; i < 3; i++)
            against_paper(r, t, t->gpu[i].variant, &g[i], ", ");
        HW(r, ": a speedup moves by the card's gain over the CPU's.");
    }
    return 0;
}

/* ---- a variant against another ------------------------------------------------------------ */

#define CL_MAX_PAIRS 8

/* At a setting, the variant the paper found faster and the other. */
typedef struct cl_pair {
    cl_at at;
    const char *fast, *slow;
} cl_pair;

/* Judges p[0..n-1]: a pair holds when its slow variant's median is at least CL_MARGIN
 * times its fast one's; the claim holds when every pair does, partly when some do. Writes
 * each pair's times and factor; the hardware note names the pairs that did not hold and,
 * with t (NULL: none), how each variant ran against the paper's time of it. Returns 0 (not
 * measurable when a point is missing) or DM_ERUNTIME. */
static int judge_pairs(const dm_study_data *d, const cl_pair *p, int n, const cl_table *t,
                       dm_claim_result *r, dm_err *err)
{
    dm_median f[CL_MAX_PAIRS], s[CL_MAX_PAIRS];
    int rc, held = 0;
    assert(n <= CL_MAX_PAIRS);
    for (int i = 0; i < n; i++)
        if ((rc = need(d, &p[i].at, p[i].fast, &f[i], r, err)) ||
            (rc = need(d, &p[i].at, p[i].slow, &s[i], r, err)))
            return stop(rc);
    for (int i = 0; i < n; i++) {
        double x = s[i].median / f[i].median;
        held += x >= CL_MARGIN;
        EV(r, "%s: %s %s, %s %s, %s/%s %.2f. ", p[i].at.name, p[i].fast, secs(f[i].median).s,
           p[i].slow, secs(s[i].median).s, p[i].slow, p[i].fast, x);
    }
    r->verdict = tally(held, n);
    if (r->verdict == DM_HOLDS)
        return 0;
    for (int i = 0, first = 1; i < n; i++)
        if (s[i].median < CL_MARGIN * f[i].median) {
            HW(r, "%s%s is not 5 %% faster than %s at %s", first ? "" : "; ", p[i].fast,
               p[i].slow, p[i].at.name);
            first = 0;
        }
    HW(r, ", on %s (compute capability %s, %d SMs) against the paper's %s", f[0].gpu, f[0].cc,
       f[0].sms, CL_PAPER_CARD);
    for (int i = 0, wrote = 0; t && i < n; i++) {
        const char *sep = "; against the paper's times, ";
        wrote += against_paper(r, t, p[i].fast, &f[i], wrote ? ", " : sep);
        wrote += against_paper(r, t, p[i].slow, &s[i], wrote ? ", " : sep);
    }
    HW(r, ".");
    return 0;
}

/* Appends, where a claim that G beats H did not hold, the difference of this H from the
 * paper's that bears on it. */
static void hash_note(dm_claim_result *r)
{
    if (r->verdict == DM_BREAKS || r->verdict == DM_PARTLY)
        HW(r, " Besides the card: this H hashes the whole prefix of k - 1 ids where the "
              "paper's hashed the first id (docs/coloc.md), so from size 4 on a thread of the "
              "join reads only rows it may join, not the prefix groups whose load the paper "
              "blames for H (line 288).");
}

/* ---- the claims -------------------------------------------------------------------------- */

/* C1: the fastest of the paper's four GPU variants is more than 30 times faster than cpu on
 * the largest synthetic set. */
static int judge_c1(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    static const char *const v[4] = { "MG", "MH", "CG", "CH" };
    const cl_at a = synthetic(SW_FIG6A, 2000000, 1);
    dm_median cpu, g[4];
    int rc, best = 0;
    if ((rc = need(d, &a, "cpu", &cpu, r, err)))
        return stop(rc);
    for (int i = 0; i < 4; i++)
        if ((rc = need(d, &a, v[i], &g[i], r, err)))
            return stop(rc);
    EV(r, "%s: cpu %s", a.name, secs(cpu.median).s);
    for (int i = 0; i < 4; i++) {
        EV(r, "; %s %s, %.1fx", v[i], secs(g[i].median).s, cpu.median / g[i].median);
        if (g[i].median < g[best].median)
            best = i;
    }
    EV(r, ". Rule: holds when the fastest of the paper's four GPU variants (here %s) is more "
          "than 30 times faster than cpu on the largest synthetic set of the paper (millions "
          "of instances: Table 1's 2,000,000 at clumpiness 1).", v[best]);
    r->verdict = cpu.median / g[best].median > 30 ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS) {
        HW(r, "against the paper's machine (%s, a %s), this one ran ", CL_PAPER_CPU,
           CL_PAPER_CARD);
        against_paper(r, &TABLE1_C1, "cpu", &cpu, "");
        HW(r, ", and its fastest GPU variant took %s where the paper's, CG, took %.4g s: a "
              "speedup moves by the card's gain over the CPU's.", secs(g[best].median).s,
           paper_time(&TABLE1_C1, "CG"));
    }
    return 0;
}

/* The medians of cpu, CG and CH (t[0], t[1], t[2]) at lo and hi ([0], [1]), and the
 * speedups over cpu of CG and CH (sp[0], sp[1]) there, written into the evidence. Returns
 * as need() does. */
static int cg_ch_speedups(const dm_study_data *d, const cl_at *lo, const cl_at *hi,
                          dm_median t[3][2], double sp[2][2], dm_claim_result *r, dm_err *err)
{
    static const char *const v[3] = { "cpu", "CG", "CH" };
    int rc;
    for (int i = 0; i < 3; i++)
        if ((rc = need(d, lo, v[i], &t[i][0], r, err)) ||
            (rc = need(d, hi, v[i], &t[i][1], r, err)))
            return rc;
    EV(r, "%s, then %s: cpu %s and %s", lo->name, hi->name, secs(t[0][0].median).s,
       secs(t[0][1].median).s);
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 2; k++)
            sp[i][k] = t[0][k].median / t[i + 1][k].median;
        EV(r, "; %s %s and %s, %.1fx then %.1fx", v[i + 1], secs(t[i + 1][0].median).s,
           secs(t[i + 1][1].median).s, sp[i][0], sp[i][1]);
    }
    EV(r, ". ");
    return 0;
}

/* Appends to the hardware note how the times of cg_ch_speedups' t grew from lo to hi. */
static void growth_note(dm_claim_result *r, const cl_at *lo, const cl_at *hi,
                        const dm_median t[3][2])
{
    HW(r, "from %s to %s cpu's time grew %.3gx, CG's %.3gx and CH's %.3gx, on %s (compute "
          "capability %s, %d SMs).", lo->name, hi->name, t[0][1].median / t[0][0].median,
       t[1][1].median / t[1][0].median, t[2][1].median / t[2][0].median, t[1][1].gpu,
       t[1][1].cc, t[1][1].sms);
}

/* C2: on synthetic data at clumpiness 1, the speedups of CG and CH grow with the
 * instances. */
static int judge_c2(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at lo = synthetic(SW_FIG6A, 250000, 1), hi = synthetic(SW_FIG6A, 2000000, 1);
    dm_median t[3][2];
    double sp[2][2];
    int rc = cg_ch_speedups(d, &lo, &hi, t, sp, r, err);
    if (rc)
        return stop(rc);
    EV(r, "Rule: Fig. 6(a) plots the cell-aggregate filter's variants, CG and CH (line 284); "
          "holds when the speedup over cpu of both is at least 5 %% higher at 2,000,000 "
          "instances than at 250,000, partly holds when one's is.");
    r->verdict = tally((sp[0][1] >= CL_MARGIN * sp[0][0]) + (sp[1][1] >= CL_MARGIN * sp[1][0]),
                       2);
    if (r->verdict != DM_HOLDS)
        growth_note(r, &lo, &hi, t);
    return 0;
}

/* C3: on synthetic data at clumpiness 1, G overtakes H as the instances grow. */
static int judge_c3(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at lo = synthetic(SW_FIG6A, 500000, 1), hi = synthetic(SW_FIG6A, 2000000, 1);
    dm_median gl, hl, gh, hh;
    int rc;
    if ((rc = need(d, &lo, "CG", &gl, r, err)) || (rc = need(d, &lo, "CH", &hl, r, err)) ||
        (rc = need(d, &hi, "CG", &gh, r, err)) || (rc = need(d, &hi, "CH", &hh, r, err)))
        return stop(rc);
    double before = hl.median / gl.median, after = hh.median / gh.median;
    int ahead = after >= CL_MARGIN, grows = after >= CL_MARGIN * before;
    EV(r, "%s: CG %s, CH %s, CH/CG %.2f; %s: CG %s, CH %s, CH/CG %.2f. Rule: holds when CG "
          "is at least 5 %% faster than CH at 2,000,000 instances and CH/CG there is at least "
          "5 %% above its value at 500,000 (the paper calls the comparison at 250,000 "
          "inconclusive, line 286); partly holds when one of the two does.",
       lo.name, secs(gl.median).s, secs(hl.median).s, before, hi.name, secs(gh.median).s,
       secs(hh.median).s, after);
    r->verdict = tally(ahead + grows, 2);
    if (r->verdict != DM_HOLDS)
        HW(r, "CH/CG goes from %.2f at 500,000 instances to %.2f at 2,000,000 on %s (compute "
              "capability %s, %d SMs) against the paper's %s.", before, after, gh.gpu, gh.cc,
           gh.sms, CL_PAPER_CARD);
    hash_note(r);
    return 0;
}

/* C4: at clumpiness 20, G is faster than H at every number of instances of Fig. 6(b). */
static int judge_c4(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    cl_pair p[5];
    for (int i = 0; i < 5; i++)
        p[i] = (cl_pair){ synthetic(SW_FIG6B, 50000L * (i + 1), 20), "CG", "CH" };
    int rc = judge_pairs(d, p, 5, NULL, r, err);
    if (rc || r->verdict == DM_UNMEASURED)
        return rc;
    EV(r, "Rule: the figure's GPU variants are the cell-aggregate filter's (line 284); holds "
          "when CG is at least 5 %% faster than CH at every number of instances from 50,000 "
          "to 250,000, partly holds when at some. The paper's speedups, around 30 against 5, "
          "put CH about 6 times slower than CG.");
    hash_note(r);
    return 0;
}

/* C5: at 250,000 instances, G's speedup grows with the clumpiness and H's falls. */
static int judge_c5(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at lo = synthetic(SW_FIG6C, 250000, 1), hi = synthetic(SW_FIG6C, 250000, 20);
    dm_median t[3][2];
    double sp[2][2];
    int rc = cg_ch_speedups(d, &lo, &hi, t, sp, r, err);
    if (rc)
        return stop(rc);
    EV(r, "Rule: the performance Fig. 6 plots is the speedup over cpu (line 280) of the "
          "cell-aggregate filter's variants (line 293); holds when CG's is at least 5 %% "
          "higher at clumpiness 20 than at 1 and CH's at least 5 %% lower, partly holds when "
          "one of the two is.");
    r->verdict = tally((sp[0][1] >= CL_MARGIN * sp[0][0]) + (CL_MARGIN * sp[1][1] <= sp[1][0]),
                       2);
    if (r->verdict != DM_HOLDS)
        growth_note(r, &lo, &hi, t);
    hash_note(r);
    return 0;
}

/* C6: Table 1's speedups at clumpiness 1 (2,000,000 instances). */
static int judge_c6(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = synthetic(SW_FIG6A, 2000000, 1);
    return judge_speedups(d, &a, &TABLE1_C1, r, err);
}

/* C7: Table 1's speedups at clumpiness 20 (250,000 instances). */
static int judge_c7(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = synthetic(SW_CLUMPY, 250000, 20);
    return judge_speedups(d, &a, &TABLE1_C20, r, err);
}

/* C8: at clumpiness 1 the cell-aggregate filter makes the GPU variants faster than the
 * multi-resolution one, with either refinement. */
static int judge_c8(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = synthetic(SW_FIG6A, 2000000, 1);
    const cl_pair p[2] = { { a, "CH", "MH" }, { a, "CG", "MG" } };
    int rc = judge_pairs(d, p, 2, &TABLE1_C1, r, err);
    if (rc || r->verdict == DM_UNMEASURED)
        return rc;
    EV(r, "Rule: within a pair only the filter differs; holds when the cell-aggregate filter "
          "(C) makes both refinements at least 5 %% faster than the multi-resolution filter "
          "(M), partly holds when one. The paper's MH took %.4g s against CH's %.4g s "
          "(%.2fx), its filters 0.8 s against 0.2 s; a point's filter time is among its facts "
          "(filter_s), which this rule does not read.", paper_time(&TABLE1_C1, "MH"),
       paper_time(&TABLE1_C1, "CH"), paper_time(&TABLE1_C1, "MH") / paper_time(&TABLE1_C1, "CH"));
    return 0;
}

/* A claim that G beats H at one setting of the paper's table t (CG against CH). */
static int judge_g_over_h(const dm_study_data *d, const cl_at *a, const cl_table *t,
                          dm_claim_result *r, dm_err *err)
{
    const cl_pair p = { *a, "CG", "CH" };
    int rc = judge_pairs(d, &p, 1, t, r, err);
    if (rc || r->verdict == DM_UNMEASURED)
        return rc;
    EV(r, "Rule: holds when CG is at least 5 %% faster than CH (the paper's CH took %.4g s "
          "against CG's %.4g s, %.2fx).", paper_time(t, "CH"), paper_time(t, "CG"),
       paper_time(t, "CH") / paper_time(t, "CG"));
    hash_note(r);
    return 0;
}

/* C9: at clumpiness 20, G is faster than H (Table 1). */
static int judge_c9(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = synthetic(SW_CLUMPY, 250000, 20);
    return judge_g_over_h(d, &a, &TABLE1_C20, r, err);
}

/* C10: on the Seattle data, G is faster than H at every threshold of Fig. 7. */
static int judge_c10(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    cl_pair p[7];
    for (int i = 0; i < 7; i++)
        p[i] = (cl_pair){ seattle((3 + i) / 10.0), "CG", "CH" };
    int rc = judge_pairs(d, p, 7, NULL, r, err);
    if (rc || r->verdict == DM_UNMEASURED)
        return rc;
    EV(r, "Rule: the GPU variants of Fig. 7 are read as the cell-aggregate filter's, as in "
          "Table 2; holds when CG is at least 5 %% faster than CH at every threshold from 0.3 "
          "to 0.9, partly holds when at some.");
    hash_note(r);
    return 0;
}

/* C11: on the Seattle data at theta 0.3, G is faster than H (Table 2). */
static int judge_c11(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = seattle(0.3);
    return judge_g_over_h(d, &a, &TABLE2, r, err);
}

/* C12: Table 2's speedups (Seattle, theta 0.3). */
static int judge_c12(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const cl_at a = seattle(0.3);
    return judge_speedups(d, &a, &TABLE2, r, err);
}

static const char *const duration[] = { "duration", NULL };
static const char *const divergence[] = { "warp_exec_efficiency", "branch_uniformity", NULL };

#define CL_DURATION                                                                          \
    "gpu__time_duration.sum (duration): how much of a point's time its kernels take, the "   \
    "rest being the host's synchronisations per slice and candidate"
#define CL_DIVERGENCE                                                                        \
    "smsp__average_thread_inst_executed_per_inst_executed.pct (warp_exec_efficiency) and "   \
    "smsp__sass_average_branch_targets_threads_uniform.pct (branch_uniformity): how "        \
    "unevenly a warp's threads share the join, the load the paper blames for H (line 288)"

static const dm_claim coloc_claims[] = {
    { .id = "C1", .title = "Over 30 times speedup on up to millions of instances",
      .line = 11, .quote_line = 11, .judge = judge_c1, .metric = CL_DURATION,
      .shorts = duration,
      .wording = "Preliminary results on both real world data and synthetic data show that "
      "proposed GPU algorithms are promising with over 30 times speedup on up to millions of "
      "instances." },
    { .id = "C2", .title = "Effect of the number of instances: the speedup grows with them",
      .line = 284, .quote_line = 284, .judge = judge_c2, .metric = CL_DURATION,
      .shorts = duration,
      .wording = "We can see that the speedup of both GPU algorithms increases with the number "
      "of feature instances." },
    { .id = "C3", .title = "Effect of the number of instances: grid-based refinement gradually "
      "overtakes hash join", .line = 284, .quote_line = 284, .judge = judge_c3,
      .metric = CL_DIVERGENCE, .shorts = divergence,
      .wording = "The grid-based refinement gradually becomes superior over the hash join based "
      "refinement in GPU algorithms as the number of instances increases." },
    { .id = "C4", .title = "Clumpiness 20: grid-based refinement persistently better than hash "
      "join", .line = 284, .quote_line = 288, .judge = judge_c4, .metric = CL_DIVERGENCE,
      .shorts = divergence,
      .wording = "We can see that the grid based refinement is persistently better than "
      "hash-join based refinement (around 30 versus 5)." },
    { .id = "C5", .title = "Effect of Clumpiness: grid-based refinement gains, hash join loses",
      .line = 293, .quote_line = 293, .judge = judge_c5, .metric = CL_DIVERGENCE,
      .shorts = divergence,
      .wording = "Results in Figure 6(c) confirm with our analysis above that when clumpiness "
      "is higher, the performance of grid-based refinement gets better while the performance "
      "of hash-join based refinement gets worse." },
    { .id = "C6", .title = "Table 1, clumpiness 1: 17.9x, 37.9x and 28.4x over the CPU",
      .line = 295, .quote_line = 298, .judge = judge_c6, .metric = CL_DURATION,
      .shorts = duration,
      .wording = "1 CPU Baseline 15.3 18.8 34.1 - / GPU-Filter:M, Refine:H 0.8 1.1 1.9 17.9x / "
      "GPU-Filter:C, Refine:G 0.2 0.7 0.9 37.9x / GPU-Filter:C, Refine:H 0.2 1.0 1.2 28.4x" },
    { .id = "C7", .title = "Table 1, clumpiness 20: 4.2x, 29.4x and 4.2x over the CPU",
      .line = 295, .quote_line = 302, .judge = judge_c7, .metric = CL_DURATION,
      .shorts = duration,
      .wording = "20 CPU Baseline 0.9 407.5 408.4 - / GPU-Filter:M, Refine:H 0.1 97.3 97.4 "
      "4.2x / GPU-Filter:C, Refine:G 0.1 13.8 13.9 29.4x / GPU-Filter:C, Refine:H 0.1 96.9 97 "
      "4.2x" },
    { .id = "C8", .title = "Comparison on filter and refinement: the cell-aggregate filter "
      "beats multi-resolution at clumpiness 1", .line = 307, .quote_line = 307,
      .judge = judge_c8, .metric = CL_DURATION, .shorts = duration,
      .wording = "When clumpiness is 1, the grid-based filter is much faster than the "
      "multi-resolution filter in GPU algorithms (0.2 second versus 0.8 second), making the "
      "overall GPU speedup better (37.9 and 28.4 times versus 17.9 times)." },
    { .id = "C9", .title = "Comparison on filter and refinement: grid-based refinement beats "
      "hash join at clumpiness 20", .line = 307, .quote_line = 307, .judge = judge_c9,
      .metric = CL_DIVERGENCE, .shorts = divergence,
      .wording = "When clumpiness is 20, the refinement phase becomes the bottleneck. The "
      "grid-based refinement has a significantly higher speedup than the hash-join "
      "refinement (29.4 times versus 4.2 times)." },
    { .id = "C10", .title = "Effect of minimum participation index threshold: grid-based "
      "refinement much better than hash join", .line = 311, .quote_line = 311,
      .judge = judge_c10, .metric = CL_DIVERGENCE, .shorts = divergence,
      .wording = "The GPU algorithm with grid based refinement is much better than the GPU "
      "algorithm with hash join based refinement. This is consistent with the results on "
      "synthetic datasets when the clumpiness is high." },
    { .id = "C11", .title = "Comparison of filter and refinement: on the Seattle data "
      "grid-based refinement beats hash join", .line = 318, .quote_line = 318,
      .judge = judge_c11, .metric = CL_DIVERGENCE, .shorts = divergence,
      .wording = "Due to a high clumpiness, the refinement phase is the bottleneck, and the "
      "grid-based refinement is better than the hash-join based refinement (63.2 times "
      "overall speedup versus 12.7 times overall speedup)." },
    { .id = "C12", .title = "Table 2: 13x, 63.2x and 12.7x over the CPU on the Seattle data",
      .line = 320, .quote_line = 323, .judge = judge_c12, .metric = CL_DURATION,
      .shorts = duration,
      .wording = "CPU Baseline 6.5 340.9 347.4 - / GPU-Filter:M, Refine:H 0.2 26. 26.8 13x / "
      "GPU-Filter:C, Refine:G 0.5 5.0 5.5 63.2x / GPU-Filter:C, Refine:H 0.5 26.9 27.4 "
      "12.7x" },
    { 0 },
};

/* ---- reproduce targets ------------------------------------------------------------------ */

static const dm_paper coloc_papers[] = {
    { .file = CL_PAPER, .cite = "Sainju & Jiang, SSTD 2017" },
    { 0 },
};

/* Each target judges the claims its sweep measures: Fig. 6(a)'s and Table 1's clumpiness-1
 * row with colocation-table1; Table 1's clumpiness-20 row (250,000 instances) with both
 * figures that measure it. */
static const char *const table1_claims[] = { "C1", "C2", "C3", "C6", "C8", NULL };
/* The main job's coloc: Table 1's row, clumpiness 1 at 2,000,000 instances (Fig. 6(a)'s
 * largest), every variant; its headlines the table's speedups over the CPU baseline. */
static const char *const table1_main[] = { "instances=[2000000]", NULL };
static const dm_headline table1_headlines[] = {
    { .label = "CG (cell filter, grid refinement) over the CPU baseline",
      .row = "clumpiness=1;approach=GPU-Filter:C, Refine:G", .column = "Speedup" },
    { .label = "MH (multi-resolution filter, hash join) over the CPU baseline",
      .row = "clumpiness=1;approach=GPU-Filter:M, Refine:H", .column = "Speedup" },
    { 0 },
};
static const char *const table2_claims[] = { "C10", "C11", "C12", NULL };
static const char *const fig6b_claims[] = { "C4", "C7", "C9", NULL };
static const char *const fig6c_claims[] = { "C5", "C7", "C9", NULL };

/* Table 1 is the filter and refinement times at the largest point of Figs. 6(a) and 6(b);
 * the Fig. 6(a) sweep measures its clumpiness-1 half (2,000,000 instances), the Fig. 6(b)
 * sweep its clumpiness-20 half (250,000). Table 2 is
 * Fig. 7's point at theta = 0.3, which the Table 2 sweep runs with the rest of Fig. 7's
 * thresholds. A sweep measures one target (`dmbench reproduce` finds the target of a
 * run by its sweep), so Figs. 6(a) and 7 are read from these two targets' grids. */
/* ---- Tables 1 and 2 beside the measured -------------------------------------------------- */

/* dm_target.measured for Tables 1 and 2: a row "[clumpiness=C;]approach=A" (Table 1's
 * clumpiness 1 at 2,000,000 instances of Fig. 6(a), its clumpiness 20 at 250,000 of Figs.
 * 6(b)/(c); Table 2's Seattle at theta 0.3), approach the CPU baseline (cpu) or a GPU
 * filter and refinement (MH, CG, CH); its total time in seconds and its speedup over cpu.
 * The filter and refinement times are among a point's facts, not its median, so they have
 * no counterpart here. */
static int cl_measured(const dm_study_data *d, const char *row_key, const char *column,
                       double *value, char *how, size_t n, dm_err *err)
{
    static const struct {
        const char *approach, *variant;
    } approaches[] = {
        { "CPU Baseline", "cpu" },
        { "GPU-Filter:M, Refine:H", "MH" },
        { "GPU-Filter:C, Refine:G", "CG" },
        { "GPU-Filter:C, Refine:H", "CH" },
    };
    *value = NAN;
    how[0] = '\0';
    int clumpiness = 0;
    const char *approach = strstr(row_key, "approach=");
    if (!approach)
        return 0;
    approach += strlen("approach=");
    const char *variant = NULL;
    for (size_t i = 0; i < sizeof approaches / sizeof approaches[0]; i++)
        if (!strcmp(approach, approaches[i].approach))
            variant = approaches[i].variant;
    int total = !strcmp(column, "Total Time"), speedup = !strcmp(column, "Speedup");
    if (!variant || !(total || speedup))
        return 0;
    cl_at a = sscanf(row_key, "clumpiness=%d;", &clumpiness) != 1
                  ? seattle(0.3)
                  : synthetic(clumpiness == 1 ? SW_FIG6A : SW_CLUMPY,
                              clumpiness == 1 ? 2000000 : 250000, clumpiness);
    dm_median m, base = { 0 };
    if (study_newest_median(d, a.sweeps, variant, a.where, &m, err) ||
        (speedup && m.found && study_newest_median(d, a.sweeps, "cpu", a.where, &base, err)))
        return err->code;
    if (!m.found || (speedup && !base.found))
        return 0;
    *value = total ? m.median : base.median / m.median;
    snprintf(how, n, total ? "%s, %s" : "cpu over %s, %s", variant, a.name);
    return 0;
}

static const dm_target coloc_targets[] = {
    { .name = "colocation-table1", .paper = CL_PAPER, .item = "Table 1", .table = "Table 1",
      .measured = cl_measured, .caption = "filter and refinement times on synthetic data (theta = 0.5); measured: "
                 "clumpiness 1 at 250,000 to 2,000,000 instances, the table's row at 2M "
                 "(its clumpiness-20 row, at 250k, is the last row of colocation-fig6b); the "
                 "grid is Fig. 6(a)",
      .sweep = "coloc-fig6a", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "clumpiness", .claims = table1_claims, .small = table1_main,
      .headlines = table1_headlines },
    { .name = "colocation-table2", .paper = CL_PAPER, .item = "Table 2", .table = "Table 2",
      .measured = cl_measured, .caption = "filter and refinement times on the Seattle crime data (d = 10, theta = "
                 "0.3); measured with Fig. 7's thresholds 0.3 to 0.9, the grid is Fig. 7(b)'s "
                 "times",
      .sweep = "coloc-table2", .kind = DM_TARGET_FIGURE, .row_axis = "prevalence",
      .col_axis = "distance", .claims = table2_claims },
    { .name = "colocation-fig6b", .paper = CL_PAPER, .item = "Fig. 6(b)",
      .caption = "times on synthetic data at clumpiness 20, 50,000 to 250,000 instances (theta "
                 "= 0.5); the row at 250k is Table 1's clumpiness-20 row",
      .sweep = "coloc-fig6b", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "clumpiness", .claims = fig6b_claims },
    { .name = "colocation-fig6c", .paper = CL_PAPER, .item = "Fig. 6(c)",
      .caption = "times on synthetic data of 250,000 instances, clumpiness 1 to 20 (theta = "
                 "0.5)",
      .sweep = "coloc-fig6c", .kind = DM_TARGET_FIGURE, .row_axis = "clumpiness",
      .col_axis = "instances", .claims = fig6c_claims },
    { 0 },
};

/* The sweeps the claims read, Table 2's first (`dmbench characterize coloc` finds the card
 * by it); each rule reads the ones that measure its settings, whichever sweep is named. */
static const char *const coloc_claim_sweeps[] = { "coloc-table2", "coloc-fig6a", "coloc-fig6b",
                                                  "coloc-fig6c", NULL };

const dm_study coloc_study = {
    .papers = coloc_papers,
    .claims = coloc_claims,
    .claims_title = "the paper's twelve claims about its evaluation",
    .times_note = "Every time is the median of the samples of a point verified against the "
                  "CPU reference (hot: at least 3, unless 2 s of sampling ran out first); a "
                  "speedup is cpu's median (the paper's baseline, one core of the same "
                  "machine) over a GPU variant's. Each claim reads the sweeps that measure its "
                  "settings, named in its evidence: per variant and setting, the newest "
                  "complete run on the card that has the point.",
    .claim_sweeps = coloc_claim_sweeps,
    .group_axis = "prevalence",
    .group_prefix = "theta ",
    .best_axis = "block",
    .targets = coloc_targets,
    .default_sweep = "coloc-table2",
};
