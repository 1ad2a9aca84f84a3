/* rules_study.c - the rules workload's study (Cano, Luna & Ventura 2013): the paper's claims
 * about its interpreter and evaluation model (Sect. 7), each quoted with its line and
 * judged by a rule on the medians of the sweeps that measure it; the tables `dmbench
 * reproduce` remakes and the default sweep. Table 4 (the interpreter's times over
 * instances x rules) is sweeps/rules-table4.yaml, its "2 GPUs" column multigpu in
 * sweeps/rules-multigpu.yaml; Table 5 (evaluation times on ten data sets x 25-200 rules) is
 * one sweep per data set, as a sweep reads one dataset, so one target each; Table 6 (serial
 * against concurrent) is sweeps/rules-table6.yaml. Table 6's time per stage is among each
 * point's facts, not its median, so no rule judges the stages' shares; Table 3 (occupancy
 * by block size) is listed from results/published only. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study.h"

#define RL_PAPER "rules-gpu-evaluation-cano2013"

#define EV(r, ...) dm_append((r)->evidence, sizeof (r)->evidence, __VA_ARGS__)
#define HW(r, ...) dm_append((r)->hardware, sizeof (r)->hardware, __VA_ARGS__)

/* A ratio of two medians that counts as a difference: 5 %, beyond the sweeps' noise. */
#define RL_MARGIN 1.05
/* Two GPUs "doubling" one: within 5 % of it, as the paper's 2.00x at Table 4's largest
 * cell is. */
#define RL_TWO_GPUS 1.9
/* Table 5's one-GPU speedups over the CPU "around 200" (line 1096). */
#define RL_TABLE5_SPEEDUP 200
/* Table 6: concurrent "about 27 % faster" than serial (line 1113): 27 % less time. */
#define RL_CONCURRENT_SAVING 0.27
/* The paper's machine (line 864), which its times were measured on. */
#define RL_PAPER_GPU "GeForce GTX 480 (15 SMs, 480 cores at 1.4 GHz)"
#define RL_PAPER_CPU "Intel Core i7 quad-core at 3.0 GHz"

/* ---- where the paper's settings are measured ------------------------------------------- */

/* Table 4's cells (a synthetic table of 10 attributes, generated rules of 58 symbols) are
 * points of each of these sweeps that has their instances and rules. */
static const char *const SW_TABLE4[] = { "rules-table4", "rules-multigpu", "rules-table6",
                                         "rules-interpreter", NULL };
static const char *const SW_SHUTTLE[] = { "rules-table5-shuttle", NULL };
static const char *const SW_KDDCUP[] = { "rules-table5-kddcup", NULL };
static const char *const SW_POKER[] = { "rules-table5-poker", NULL };

/* A setting of the paper's experiments: the sweeps that measure it (its medians come from
 * the newest complete run among them on the card), its points' parameters, and the GP
 * operations an evaluation interprets. */
typedef struct rl_at {
    const char *const *sweeps;
    char where[128];
    char name[128]; /* in the evidence */
    double ops;
} rl_at;

/* Text of a number, a time or a rate. */
typedef struct rl_text {
    char s[96];
} rl_text;

/* n with its thousands grouped: "1,000,000". */
static rl_text grouped(long n)
{
    rl_text t;
    if (n >= 1000000)
        snprintf(t.s, sizeof t.s, "%ld,%03ld,%03ld", n / 1000000, n / 1000 % 1000, n % 1000);
    else if (n >= 1000)
        snprintf(t.s, sizeof t.s, "%ld,%03ld", n / 1000, n % 1000);
    else
        snprintf(t.s, sizeof t.s, "%ld", n);
    return t;
}

/* Seconds in s from one second up, else in ms, below a millisecond in µs. */
static rl_text secs(double s)
{
    rl_text t;
    if (s >= 1)
        snprintf(t.s, sizeof t.s, "%.4g s", s);
    else if (s >= 1e-3)
        snprintf(t.s, sizeof t.s, "%.4g ms", s * 1e3);
    else
        snprintf(t.s, sizeof t.s, "%.4g µs", s * 1e6);
    return t;
}

/* A positive number in three digits and a power of ten: "1.14e12". */
static rl_text sci(double x)
{
    rl_text t;
    int e = (int)floor(log10(x));
    if (x / pow(10, e) >= 9.995) /* three digits round it up to 10 */
        e++;
    snprintf(t.s, sizeof t.s, "%.3ge%d", x / pow(10, e), e);
    return t;
}

/* GP operations a second: "1.14e12 GPops/s". */
static rl_text rate(double ops_per_s)
{
    rl_text t = sci(ops_per_s);
    dm_append(t.s, sizeof t.s, " GPops/s");
    return t;
}

/* A speedup: "3183x", "1.95x". */
static rl_text times(double x)
{
    rl_text t;
    snprintf(t.s, sizeof t.s, x >= 100 ? "%.0fx" : "%.3gx", x);
    return t;
}

/* Table 4's cell of instances x rules. */
static rl_at cell(long instances, int rules)
{
    rl_at a = { .sweeps = SW_TABLE4, .ops = 58.0 * (double)instances * rules };
    snprintf(a.where, sizeof a.where,
             "instances=%ld,attributes=10,rules=%d,symbols=58,rules_file=-", instances, rules);
    snprintf(a.name, sizeof a.name, "%s instances x %d rules", grouped(instances).s, rules);
    return a;
}

/* A data set of Table 5 (its sweeps and name) at 200 rules. */
static rl_at dataset(const char *const *sweeps, const char *name)
{
    rl_at a = { .sweeps = sweeps, .ops = NAN };
    snprintf(a.where, sizeof a.where, "rules=200");
    snprintf(a.name, sizeof a.name, "%s at 200 rules", name);
    return a;
}

/* A row of the paper's Table 4 or 5: its times in ms of the CPU (one thread), 4 CPUs, one
 * and two GTX 480s. */
typedef struct rl_row {
    double cpu, cpu4, gpu1, gpu2;
} rl_row;

/* Table 4 (lines 1001, 1004, 1021, 1024). */
static const rl_row T4_25K_25 = { 3528, 1318, 1.099, 0.581 };
static const rl_row T4_25K_200 = { 28006, 8983, 8.699, 4.367 };
static const rl_row T4_1M_25 = { 144987, 43357, 43.001, 22.396 };
static const rl_row T4_1M_200 = { 1097670, 332387, 344.908, 172.681 };

/* ---- reading the medians ------------------------------------------------------------------ */

/* A median and the variant that gave it. */
typedef struct rl_time {
    dm_median m;
    char how[64]; /* "concurrent", "multigpu on 2 GPUs, serial pipeline" */
} rl_time;

/* "concurrent at block 256, 4 instances a thread": how t was measured. */
static rl_text detail(const rl_time *t)
{
    rl_text x;
    double block = study_param(t->m.params, "block");
    double per_thread = study_param(t->m.params, "per_thread");
    snprintf(x.s, sizeof x.s, "%s", t->how);
    if (!isnan(block))
        dm_append(x.s, sizeof x.s, " at block %g, %g instances a thread", block, per_thread);
    return x;
}

/* The median of variant at a into *t. Returns 0; 1 when no complete run has an ok point of
 * it (r marked not measurable, naming what is missing); or DM_ERUNTIME. */
static int need(const dm_study_data *d, const rl_at *a, const char *variant, rl_time *t,
                dm_claim_result *r, dm_err *err)
{
    if (study_newest_median(d, a->sweeps, variant, a->where, &t->m, err))
        return err->code;
    snprintf(t->how, sizeof t->how, "%s", variant);
    if (t->m.found)
        return 0;
    study_unmeasured(d, a->sweeps, variant, a->name, a->where, r);
    return 1;
}

/* The GPU evaluation of pipeline p ("serial" or "concurrent") at a on gpus GPUs into *t:
 * multigpu on that many with pipeline p, or on one GPU the variant p if faster; t->m.found
 * is 0 when neither is measured. Returns 0 or DM_ERUNTIME. */
static int pipeline_time(const dm_study_data *d, const rl_at *a, int gpus, const char *p,
                         rl_time *t, dm_err *err)
{
    dm_median multi;
    char where[192];
    snprintf(where, sizeof where, "%s,gpus=%d,pipeline=%s", a->where, gpus, p);
    if (study_newest_median(d, a->sweeps, "multigpu", where, &multi, err))
        return err->code;
    t->m.found = 0;
    if (gpus == 1 && study_newest_median(d, a->sweeps, p, a->where, &t->m, err))
        return err->code;
    snprintf(t->how, sizeof t->how, "%s", p);
    if (multi.found && (!t->m.found || multi.median < t->m.median)) {
        t->m = multi;
        snprintf(t->how, sizeof t->how, "multigpu on %d GPU%s, %s pipeline", gpus,
                 gpus > 1 ? "s" : "", p);
    }
    return 0;
}

/* The fastest GPU evaluation at a on gpus GPUs, either pipeline, into *t. Returns 0; 1 when
 * there is none (r marked not measurable); or DM_ERUNTIME. */
static int gpu_time(const dm_study_data *d, const rl_at *a, int gpus, rl_time *t,
                    dm_claim_result *r, dm_err *err)
{
    rl_time c;
    char where[192];
    if (pipeline_time(d, a, gpus, "serial", t, err) ||
        pipeline_time(d, a, gpus, "concurrent", &c, err))
        return err->code;
    if (c.m.found && (!t->m.found || c.m.median < t->m.median))
        *t = c;
    if (t->m.found)
        return 0;
    if (gpus == 1) {
        study_unmeasured(d, a->sweeps, "serial, concurrent or multigpu on 1 GPU", a->name,
                         a->where, r);
    } else {
        snprintf(where, sizeof where, "%s,gpus=%d", a->where, gpus);
        study_unmeasured(d, a->sweeps, "multigpu", a->name, where, r);
    }
    return 1;
}

/* What a rule returns after need() or gpu_time(): 0 when a point was missing, else the
 * error. */
static int stop(int rc)
{
    return rc < 0 ? rc : 0;
}

/* The verdict of n speedups x against the factor want: holds when each is at least want;
 * partly holds when each is at least RL_MARGIN (the direction holds, not the factor); does
 * not hold when some is not. */
static dm_verdict against(const double *x, int n, double want)
{
    int held = 0, faster = 0;
    for (int i = 0; i < n; i++) {
        held += x[i] >= want;
        faster += x[i] >= RL_MARGIN;
    }
    return held == n ? DM_HOLDS : faster == n ? DM_PARTLY : DM_BREAKS;
}

/* Appends to the hardware note the card of m. */
static void card_note(dm_claim_result *r, const dm_median *m)
{
    HW(r, "%s (compute capability %s, %d SMs)", m->gpu, m->cc, m->sms);
}

/* ---- the claims ----------------------------------------------------------------------- */

/* The four corners of Table 4 that claim C1 reads: 25,000 and 1,000,000 instances x 25 and
 * 200 rules, with the paper's rows. */
#define RL_CORNERS 4
static const struct {
    long instances;
    int rules;
    const rl_row *paper;
} CORNERS[RL_CORNERS] = {
    { 25000, 25, &T4_25K_25 },
    { 1000000, 25, &T4_1M_25 },
    { 25000, 200, &T4_25K_200 },
    { 1000000, 200, &T4_1M_200 },
};

/* The steps of C1 between corners: from one to another, along what. */
#define RL_STEPS 4
static const struct {
    int from, to;
    const char *what;
} STEPS[RL_STEPS] = {
    { 0, 1, "from 25,000 to 1,000,000 instances at 25 rules" },
    { 2, 3, "from 25,000 to 1,000,000 instances at 200 rules" },
    { 0, 2, "from 25 to 200 rules at 25,000 instances" },
    { 1, 3, "from 25 to 200 rules at 1,000,000 instances" },
};

/* C1: the GPU's rate does not fall as instances and rules grow: it grows while the card
 * fills, then stays at its limit. */
static int judge_c1(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    rl_time t[RL_CORNERS];
    double got[RL_CORNERS], paper[RL_CORNERS];
    int rc, held = 0;
    for (int i = 0; i < RL_CORNERS; i++) {
        const rl_at a = cell(CORNERS[i].instances, CORNERS[i].rules);
        if ((rc = gpu_time(d, &a, 1, &t[i], r, err)))
            return stop(rc);
        got[i] = a.ops / t[i].m.median;
        paper[i] = a.ops / (CORNERS[i].paper->gpu1 / 1e3);
    }
    EV(r, "One GPU (the fastest of serial, concurrent and multigpu on 1 GPU):");
    for (int i = 0; i < RL_CORNERS; i++)
        EV(r, "%s %s x %d rules %s (%s, %s; the paper's %s)", i ? ";" : "",
           grouped(CORNERS[i].instances).s, CORNERS[i].rules, rate(got[i]).s,
           secs(t[i].m.median).s, t[i].how, rate(paper[i]).s);
    EV(r, ".");
    for (int k = 0; k < RL_STEPS; k++) {
        double x = got[STEPS[k].to] / got[STEPS[k].from];
        held += x * RL_MARGIN >= 1;
        EV(r, " GPops/s %s: x%.2f (the paper's x%.2f).", STEPS[k].what, x,
           paper[STEPS[k].to] / paper[STEPS[k].from]);
    }
    EV(r, " Rule: holds when the GPops/s does not fall by more than 5 %% along any of the four "
          "steps: it grows while more blocks fill the card and then stays at the card's limit, "
          "as the paper's GTX 480 had reached its limit by 25,000 instances; partly holds when "
          "it falls along some.");
    r->verdict = held == RL_STEPS ? DM_HOLDS : held ? DM_PARTLY : DM_BREAKS;
    if (r->verdict == DM_HOLDS)
        return 0;
    for (int k = 0, first = 1; k < RL_STEPS; k++)
        if (got[STEPS[k].to] * RL_MARGIN < got[STEPS[k].from]) {
            HW(r, "%sthe rate falls %s", first ? "" : "; ", STEPS[k].what);
            first = 0;
        }
    HW(r, ", on ");
    card_note(r, &t[3].m);
    HW(r, " against the paper's " RL_PAPER_GPU ".");
    return 0;
}

/* The rate on gpus GPUs at Table 4's largest cell against the paper's time there (ms):
 * holds when at least the paper's. */
static int judge_rate(const dm_study_data *d, int gpus, double paper_ms, dm_claim_result *r,
                      dm_err *err)
{
    const rl_at a = cell(1000000, 200);
    rl_time t;
    int rc = gpu_time(d, &a, gpus, &t, r, err);
    if (rc)
        return stop(rc);
    double got = a.ops / t.m.median, paper = a.ops / (paper_ms / 1e3);
    EV(r, "%s (%s GP operations): %s (%s) %s, %s; the paper's %s %s, %s: %.3gx its rate.",
       a.name, sci(a.ops).s, gpus > 1 ? "two GPUs" : "one GPU", detail(&t).s,
       secs(t.m.median).s, rate(got).s, gpus > 1 ? "two GTX 480s" : "GTX 480",
       secs(paper_ms / 1e3).s, rate(paper).s, got / paper);
    EV(r, " Rule: holds when %s interpret%s at least the paper's %s at Table 4's largest "
          "cell, where the paper's card%s had reached the limit.",
       gpus > 1 ? "two GPUs" : "one GPU", gpus > 1 ? "" : "s", rate(paper).s,
       gpus > 1 ? "s" : "");
    r->verdict = got >= paper ? DM_HOLDS : DM_BREAKS;
    if (r->verdict == DM_BREAKS) {
        HW(r, "%s of ", gpus > 1 ? "two GPUs" : "one GPU");
        card_note(r, &t.m);
        HW(r, " ran %.3gx the rate of the paper's %s" RL_PAPER_GPU ".", got / paper,
           gpus > 1 ? "two " : "");
    }
    return 0;
}

/* C2: one GPU reaches the paper's one-GPU limit at Table 4's largest cell. */
static int judge_c2(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    return judge_rate(d, 1, T4_1M_200.gpu1, r, err);
}

/* C3: two GPUs reach the paper's two-GPU limit at Table 4's largest cell. */
static int judge_c3(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    return judge_rate(d, 2, T4_1M_200.gpu2, r, err);
}

/* C4: two GPUs about double one at Table 4's largest cell. */
static int judge_c4(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    const rl_at a = cell(1000000, 200);
    rl_time one, two;
    int rc;
    if ((rc = gpu_time(d, &a, 1, &one, r, err)) || (rc = gpu_time(d, &a, 2, &two, r, err)))
        return stop(rc);
    double x = one.m.median / two.m.median;
    EV(r, "%s: one GPU %s (%s), two %s (%s): %.2fx; the paper's %s against %s, %.2fx.",
       a.name, secs(one.m.median).s, detail(&one).s, secs(two.m.median).s, detail(&two).s, x,
       secs(T4_1M_200.gpu1 / 1e3).s, secs(T4_1M_200.gpu2 / 1e3).s,
       T4_1M_200.gpu1 / T4_1M_200.gpu2);
    EV(r, " Rule: holds when two GPUs evaluate Table 4's largest cell at least %g times as "
          "fast as one (within 5 %% of doubling, as the paper's did), partly holds when at "
          "least 5 %% faster.", RL_TWO_GPUS);
    r->verdict = against(&x, 1, RL_TWO_GPUS);
    if (r->verdict != DM_HOLDS) {
        HW(r, "on ");
        card_note(r, &two.m);
        HW(r, " one GPU took %s where the paper's " RL_PAPER_GPU " took %s (%.3gx as fast); "
              "each GPU copies the whole rule set in and its results out whatever its slice, "
              "and that share of the time does not halve.", secs(one.m.median).s,
           secs(T4_1M_200.gpu1 / 1e3).s, T4_1M_200.gpu1 / 1e3 / one.m.median);
    }
    return 0;
}

/* Appends to the hardware note how this machine's CPU variant and GPU ran against the
 * paper's at one of its settings, where they took paper_cpu and paper_gpu ms. */
static void machine_note(dm_claim_result *r, const rl_time *cpu, double paper_cpu,
                         const rl_time *gpu, double paper_gpu)
{
    HW(r, "%s %s as fast (%s against %s) and the GPU, ", cpu->how,
       times(paper_cpu / 1e3 / cpu->m.median).s, secs(cpu->m.median).s, secs(paper_cpu / 1e3).s);
    card_note(r, &gpu->m);
    HW(r, ", %s (%s against %s)", times(paper_gpu / 1e3 / gpu->m.median).s,
       secs(gpu->m.median).s, secs(paper_gpu / 1e3).s);
}

/* One GPU's speedup over the CPU variant (cpu or cpu-mt) at Table 4's largest cell against
 * the paper's over its column paper_cpu (ms), named paper_name. */
static int judge_cpu_speedup(const dm_study_data *d, const char *variant, double paper_cpu,
                             const char *paper_name, dm_claim_result *r, dm_err *err)
{
    const rl_at a = cell(1000000, 200);
    rl_time cpu, gpu;
    int rc;
    if ((rc = need(d, &a, variant, &cpu, r, err)) ||
        (rc = gpu_time(d, &a, 1, &gpu, r, err)))
        return stop(rc);
    double x = cpu.m.median / gpu.m.median, want = paper_cpu / T4_1M_200.gpu1;
    EV(r, "%s: %s %s (%s), one GPU %s (%s): %s; the paper's %s %s (%s) and GTX 480 %s, "
          "%s.", a.name, variant, secs(cpu.m.median).s, rate(a.ops / cpu.m.median).s,
       secs(gpu.m.median).s, detail(&gpu).s, times(x).s, paper_name, secs(paper_cpu / 1e3).s,
       rate(a.ops / (paper_cpu / 1e3)).s, secs(T4_1M_200.gpu1 / 1e3).s, times(want).s);
    EV(r, " Rule: holds when one GPU is at least as many times faster than %s as the paper's "
          "was than its %s (%s), partly holds when it is at least 5 %% faster but by less.",
       variant, paper_name, times(want).s);
    r->verdict = against(&x, 1, want);
    if (r->verdict != DM_HOLDS) {
        HW(r, "against the paper's machine (an " RL_PAPER_CPU ", a " RL_PAPER_GPU "), this "
              "one ran ");
        machine_note(r, &cpu, paper_cpu, &gpu, T4_1M_200.gpu1);
        HW(r, ": a speedup moves by the card's gain over the CPU's. The paper's interpreter "
              "took one token on one instance at a time (about 10 million GP operations a "
              "second on a core, line 971); this one applies a token to 1024 instances at "
              "once.");
    }
    return 0;
}

/* C5: Table 4's largest cell, one GPU against the single-threaded CPU. */
static int judge_c5(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    return judge_cpu_speedup(d, "cpu", T4_1M_200.cpu, "CPU", r, err);
}

/* C6: Table 4's largest cell, one GPU against every core (the paper's four). */
static int judge_c6(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    return judge_cpu_speedup(d, "cpu-mt", T4_1M_200.cpu4, "4 CPUs", r, err);
}

/* C7: on Table 5's data sets of more than 50 thousand instances, at 200 rules, one GPU is
 * about 200 times faster than the CPU. */
static int judge_c7(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    /* Table 5 at 200 rules (lines 1080, 1084, 1088) */
    static const struct {
        const char *const *sweeps;
        const char *name;
        rl_row paper;
    } sets[3] = {
        { SW_SHUTTLE, "Shuttle (58,000 instances)", { 78674, 23916, 301, 173 } },
        { SW_KDDCUP, "Kddcup (494,020 instances)", { 622942, 152385, 2815, 1550 } },
        { SW_POKER, "Poker (1,025,010 instances)", { 1465010, 414267, 6180, 3397 } },
    };
    rl_time cpu[3], gpu[3];
    double x[3];
    int rc;
    for (int i = 0; i < 3; i++) {
        const rl_at a = dataset(sets[i].sweeps, sets[i].name);
        if ((rc = need(d, &a, "cpu", &cpu[i], r, err)) ||
            (rc = gpu_time(d, &a, 1, &gpu[i], r, err)))
            return stop(rc);
        x[i] = cpu[i].m.median / gpu[i].m.median;
    }
    for (int i = 0; i < 3; i++)
        EV(r, "%s%s at 200 rules: cpu %s, one GPU %s (%s), %s (the paper's %s).", i ? " " : "",
           sets[i].name, secs(cpu[i].m.median).s, secs(gpu[i].m.median).s, detail(&gpu[i]).s,
           times(x[i]).s, times(sets[i].paper.cpu / sets[i].paper.gpu1).s);
    EV(r, " Rule: holds when one GPU is at least %d times faster than cpu at 200 rules on each "
          "of the paper's data sets of more than 50 thousand instances, partly holds when it "
          "is at least 5 %% faster on each but less than that on some.", RL_TABLE5_SPEEDUP);
    r->verdict = against(x, 3, RL_TABLE5_SPEEDUP);
    if (r->verdict != DM_HOLDS) {
        HW(r, "against the paper's machine (an " RL_PAPER_CPU ", a " RL_PAPER_GPU "), this "
              "one ran ");
        for (int i = 0; i < 3; i++) {
            HW(r, "%s%s: ", i ? "; " : "", sets[i].name);
            machine_note(r, &cpu[i], sets[i].paper.cpu, &gpu[i], sets[i].paper.gpu1);
        }
        HW(r, ": a speedup moves by the card's gain over the CPU's.");
    }
    return 0;
}

/* C8: concurrent takes about 27 % less time than serial, at some size of Table 6's sweep
 * (the paper does not say which it profiled), and is nowhere slower. */
static int judge_c8(const dm_study_data *d, dm_claim_result *r, dm_err *err)
{
    static const long instances[3] = { 25000, 250000, 1000000 };
    static const int rules[2] = { 25, 200 };
    double best = -INFINITY;
    int judged = 0, faster = 0, slower = 0;
    rl_time s, c, at_best = { .how = "" };
    char best_name[128] = "";
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            const rl_at a = cell(instances[i], rules[k]);
            if (pipeline_time(d, &a, 1, "serial", &s, err) ||
                pipeline_time(d, &a, 1, "concurrent", &c, err))
                return err->code;
            if (!s.m.found || !c.m.found)
                continue;
            double saving = 1 - c.m.median / s.m.median;
            faster += s.m.median >= RL_MARGIN * c.m.median;
            slower += c.m.median > RL_MARGIN * s.m.median;
            EV(r, "%s%s: serial %s (%s), concurrent %s (%s), %.1f %% less time.",
               judged++ ? " " : "", a.name, secs(s.m.median).s, s.how, secs(c.m.median).s,
               c.how, 100 * saving);
            if (saving > best) {
                best = saving;
                at_best = c;
                snprintf(best_name, sizeof best_name, "%s", a.name);
            }
        }
    if (!judged) {
        study_unmeasured(d, SW_TABLE4, "serial and concurrent alike (each as its variant or "
                         "as multigpu on 1 GPU with that pipeline)", "one size of Table 6's "
                         "sweep", "25,000, 250,000 or 1,000,000 instances x 25 or 200 rules", r);
        return 0;
    }
    EV(r, " Rule: the paper profiled one size it does not name (1.49 ms serial against 1.08 ms "
          "concurrent, 27.5 %% less time); holds when concurrent takes at least %.0f %% less "
          "time than serial at some measured size of Table 6's sweep and is not 5 %% slower "
          "at any, partly holds when it is at least 5 %% faster at some.",
       100 * RL_CONCURRENT_SAVING);
    r->verdict = best >= RL_CONCURRENT_SAVING && !slower ? DM_HOLDS
                 : faster                               ? DM_PARTLY
                                                        : DM_BREAKS;
    if (r->verdict != DM_HOLDS) {
        if (best > 0)
            HW(r, "concurrent saves at most %.1f %% (at %s)%s on ", 100 * best, best_name,
               slower ? " and is slower at some size" : "");
        else
            HW(r, "concurrent saves no time at any size on ");
        card_note(r, &at_best.m);
        HW(r, ", against the paper's 27 %% on a " RL_PAPER_GPU ": overlapping the streams "
              "saves no more than the stages that do not bound the evaluation (each point's "
              "stage times are among its facts).");
    }
    return 0;
}

#define RL_ISSUE                                                                             \
    "smsp__inst_executed.sum (inst_executed), smsp__issue_active.avg.pct_of_peak_sustained_" \
    "active (issue_active) and sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active " \
    "(alu_active): what bounds the interpreter (the coverage kernel, most of an evaluation)"
#define RL_DURATION                                                                          \
    "gpu__time_duration.sum (duration): how much of a point's time its kernels take, the "   \
    "rest being the copies of rules and results and the host"

static const char *const issue[] = { "inst_executed", "issue_active", "alu_active", NULL };
static const char *const duration[] = { "duration", NULL };

static const dm_claim rules_claims[] = {
    { .id = "C1", .title = "High performance regardless of the instances and rules, growing "
      "with them to the card's limit", .line = 967, .quote_line = 1030, .judge = judge_c1,
      .metric = RL_ISSUE, .shorts = issue,
      .wording = "The GPU implementation achieves high performance regardless of the number "
      "of rules and instances to be evaluated. The larger the number of rules and instances, "
      "the larger the number of thread blocks to compute consequently, the higher occupancy "
      "of the GPU multiprocessors." },
    { .id = "C2", .title = "One GPU: the limit at 33 billion GPops/s", .line = 967,
      .quote_line = 1030, .judge = judge_c2, .metric = RL_ISSUE, .shorts = issue,
      .wording = "Using one 480 GPU, the limit is reached at 33 billion GPops/s." },
    { .id = "C3", .title = "Two GPUs: the limit at 67 billion GPops/s", .line = 967,
      .quote_line = 1030, .judge = judge_c3, .metric = RL_ISSUE, .shorts = issue,
      .wording = "On the other hand, working with two 480 GPUs, the limit is reached at 67 "
      "billion GPops/s" },
    { .id = "C4", .title = "Scalability in the number of GPUs: two about double one",
      .line = 967, .quote_line = 1030, .judge = judge_c4, .metric = RL_DURATION,
      .shorts = duration,
      .wording = "demonstrating the great scalability of the model in the number of GPU "
      "devices and the complexity of the problem." },
    { .id = "C5", .title = "Table 4, 10^6 instances x 200 rules: one GPU 3,183x the "
      "single-threaded CPU", .line = 973, .quote_line = 1024, .judge = judge_c5,
      .metric = RL_ISSUE, .shorts = issue,
      .wording = "$1.0 \\times 10^6$ 200 $1.16 \\times 10^{10}$ 1,097,670 332,387 344.908 "
      "172.681 10.57 34.90 33.63 67.18" },
    { .id = "C6", .title = "Table 4, 10^6 instances x 200 rules: one GPU 964x the four CPU "
      "cores", .line = 973, .quote_line = 1024, .judge = judge_c6, .metric = RL_ISSUE,
      .shorts = issue,
      .wording = "$1.0 \\times 10^6$ 200 $1.16 \\times 10^{10}$ 1,097,670 332,387 344.908 "
      "172.681 10.57 34.90 33.63 67.18" },
    { .id = "C7", .title = "Table 5: one GPU's speedup about 200 on data sets of more than 50 "
      "thousand instances", .line = 1032, .quote_line = 1096, .judge = judge_c7,
      .metric = RL_ISSUE, .shorts = issue,
      .wording = "Finally, focusing on the speed-up achieved when working with one 480 GPU "
      "(see Table 5), it is shown that the speed-up reaches its maximum at values of around "
      "200. This maximum speed-up is obtained for data sets having more than 50 thousand "
      "instances." },
    { .id = "C8", .title = "Serial vs. concurrent kernels: concurrent about 27 % faster",
      .line = 1100, .quote_line = 1113, .judge = judge_c8, .metric = RL_DURATION,
      .shorts = duration,
      .wording = "The concurrent kernels and asynchronous transfers model reduces runtime "
      "significantly from 1.49 ms to 1.08 ms, which is about 27 % faster." },
    { 0 },
};

/* ---- reproduce targets ------------------------------------------------------------------ */

static const dm_paper rules_papers[] = {
    { .file = RL_PAPER, .cite = "Cano, Luna & Ventura, Springer 2013" },
    { 0 },
};

/* ---- Tables 4 and 5 beside the measured ------------------------------------------------- */

/* The time of who (a column's "CPU", "4 CPUs", "1 GPU" or "2 GPUs") at a into *t; t->m.found
 * 0 when it is not measured or who is none of these. Returns 0 or DM_ERUNTIME. */
static int who_time(const dm_study_data *d, const rl_at *a, const char *who, rl_time *t,
                    dm_err *err)
{
    dm_claim_result scratch;
    int rc;
    t->m.found = 0;
    if (!strcmp(who, "CPU") || !strcmp(who, "4 CPUs"))
        rc = need(d, a, who[0] == 'C' ? "cpu" : "cpu-mt", t, &scratch, err);
    else if (!strcmp(who, "1 GPU") || !strcmp(who, "2 GPUs"))
        rc = gpu_time(d, a, who[0] == '1' ? 1 : 2, t, &scratch, err);
    else
        return 0;
    return rc < 0 ? rc : 0;
}

/* dm_target.measured for Tables 4 and 5: a row "instances=N;rules=R" (Table 4's cells,
 * SW_TABLE4) or "dataset=NAME;rules=R" (its data set's sweep); a column
 * "QUANTITY/WHO": times in ms, GPops/s in millions (M) or billions (B), and "Speedup vs. A"
 * as A's time over WHO's. The paper's GPops count, instances and attributes have no
 * measured counterpart. */
static int rl_measured(const dm_study_data *d, const char *row_key, const char *column,
                       double *value, char *how, size_t n, dm_err *err)
{
    *value = NAN;
    how[0] = '\0';
    const char *slash = strrchr(column, '/');
    long instances = 0;
    int rules = 0;
    char ds[64] = "", sweep[96];
    const char *sweeps[] = { sweep, NULL };
    rl_at a = { .ops = NAN };
    if (!slash || (sscanf(row_key, "instances=%ld;rules=%d", &instances, &rules) != 2 &&
                   sscanf(row_key, "dataset=%63[^;];rules=%d", ds, &rules) != 2))
        return 0;
    if (ds[0]) {
        snprintf(sweep, sizeof sweep, "rules-table5-");
        for (const char *p = ds; *p; p++) /* House_16H: rules-table5-house-16h */
            dm_append(sweep, sizeof sweep, "%c", *p == '_' ? '-' : (char)tolower(*p));
        a.sweeps = sweeps;
        snprintf(a.where, sizeof a.where, "rules=%d", rules);
    } else {
        a.sweeps = SW_TABLE4;
        snprintf(a.where, sizeof a.where, "instances=%ld,rules=%d", instances, rules);
        a.ops = 58.0 * (double)instances * rules;
    }
    rl_time t, base;
    if (who_time(d, &a, slash + 1, &t, err))
        return err->code;
    if (!t.m.found)
        return 0;
    if (strstr(column, "time (ms)") || strstr(column, "Time (ms)")) {
        *value = t.m.median * 1e3;
        snprintf(how, n, "%s", detail(&t).s);
    } else if (strstr(column, "GPops/s") && !isnan(a.ops)) {
        *value = a.ops / t.m.median / (strstr(column, "(B)") ? 1e9 : 1e6);
        snprintf(how, n, "%s", detail(&t).s);
    } else if (!strncmp(column, "Speedup vs. ", 12)) {
        char who[32];
        snprintf(who, sizeof who, "%.*s", (int)(slash - column - 12), column + 12);
        if (who_time(d, &a, who, &base, err))
            return err->code;
        if (base.m.found) {
            *value = base.m.median / t.m.median;
            snprintf(how, n, "%s over %s", base.how, detail(&t).s);
        }
    }
    return 0;
}

static const char *const table4_claims[] = { "C1", "C2", "C3", "C4", "C5", "C6", NULL };
/* The main job's rules: Table 4's corners, which its claims read (25,000 and 1,000,000
 * instances x 25 and 200 rules), at block 256 and 4 instances a thread; its headlines are
 * C5's and C6's cell, 10^6 instances x 200 rules. */
static const char *const table4_main[] = { "instances=[25000,1000000]", "rules=[25,200]",
                                           "block=256", "per_thread=4", NULL };
static const dm_headline table4_headlines[] = {
    { .label = "1 GPU over 1 CPU core", .row = "instances=1000000;rules=200",
      .column = "Time (ms)/1 GPU", .base = "Time (ms)/CPU" },
    { .label = "every CPU core over one (the paper's 4)", .row = "instances=1000000;rules=200",
      .column = "Time (ms)/4 CPUs", .base = "Time (ms)/CPU" },
    { 0 },
};
static const char *const table5_claims[] = { "C7", NULL };
static const char *const table6_claims[] = { "C8", NULL };

/* Table 5's rows of one data set (ds, as the paper names it: pub): a row per number of
 * rules, a column per variant; the claims judged with it (NULL: none). */
#define RL_TABLE5(ds, pub, cap, cl)                                                        \
    {.name = "rules-table5-" ds, .paper = RL_PAPER, .item = "Table 5", .table = "Table 5", \
     .rows = "dataset=" pub ";", .measured = rl_measured, .caption = cap,                  \
     .sweep = "rules-table5-" ds, .kind = DM_TARGET_FIGURE, .row_axis = "rules",            \
     .col_axis = "symbols", .claims = cl}

static const dm_target rules_targets[] = {
    { .name = "rules-table4", .paper = RL_PAPER, .item = "Table 4", .table = "Table 4",
      .measured = rl_measured, .caption = "RPN interpreter performance: times over instances and rules (GPops/s is "
                 "58 x instances x rules over the time)",
      .sweep = "rules-table4", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "rules", .claims = table4_claims, .small = table4_main,
      .headlines = table4_headlines },
    RL_TABLE5("wdbc", "WDBC", "evaluation time on WDBC (569 instances, 31 attributes) over 25-200 "
                      "rules", NULL),
    RL_TABLE5("abalone", "Abalone", "evaluation time on Abalone (4,177 instances, 9 attributes) over "
                         "25-200 rules", NULL),
    RL_TABLE5("spambase", "Spambase", "evaluation time on Spambase (4,601 instances, 58 attributes) "
                          "over 25-200 rules", NULL),
    RL_TABLE5("page-blocks", "Page-blocks", "evaluation time on Page-blocks (5,473 instances, 11 "
                             "attributes) over 25-200 rules", NULL),
    RL_TABLE5("thyroid", "Thyroid", "evaluation time on Thyroid (7,200 instances, 22 attributes) over "
                         "25-200 rules", NULL),
    RL_TABLE5("magic", "Magic", "evaluation time on Magic (19,020 instances, 11 attributes) over "
                       "25-200 rules", NULL),
    RL_TABLE5("house-16h", "House_16H", "evaluation time on House_16H (22,784 instances, 17 attributes) "
                           "over 25-200 rules", NULL),
    RL_TABLE5("shuttle", "Shuttle", "evaluation time on Shuttle (58,000 instances, 10 attributes) "
                         "over 25-200 rules", table5_claims),
    RL_TABLE5("kddcup", "Kddcup", "evaluation time on Kddcup (494,020 instances, 42 attributes) over "
                        "25-200 rules", table5_claims),
    RL_TABLE5("poker", "Poker", "evaluation time on Poker (1,025,010 generated hands, 11 "
                       "attributes) over 25-200 rules", table5_claims),
    { .name = "rules-table6", .paper = RL_PAPER, .item = "Table 6", .table = "Table 6",
      .caption = "serial against concurrent GPU evaluation (the paper's Fig. 3): times over "
                 "instances and rules; each point's time per stage is among its facts",
      .sweep = "rules-table6", .kind = DM_TARGET_FIGURE, .row_axis = "instances",
      .col_axis = "rules", .claims = table6_claims },
    { 0 },
};

/* The sweeps the claims read, Table 4's first (`dmbench characterize rules` finds the card
 * by it); each rule reads the ones that measure its settings, whichever is named. */
static const char *const rules_claim_sweeps[] = {
    "rules-table4",         "rules-multigpu",      "rules-table6",       "rules-interpreter",
    "rules-table5-shuttle", "rules-table5-kddcup", "rules-table5-poker", NULL,
};

const dm_study rules_study = {
    .papers = rules_papers,
    .claims = rules_claims,
    .claims_title = "the paper's eight claims about its interpreter and evaluation model",
    .times_note = "Every time is the median of the hot samples of a point verified against "
                  "the CPU reference; GPops/s is 58 x instances x rules over it. "
                  "One GPU is the fastest of serial, concurrent and multigpu on 1 GPU at a "
                  "setting, two GPUs multigpu on 2 with either pipeline; a speedup is a CPU "
                  "variant's median over one GPU's. Each claim reads the sweeps that measure "
                  "its settings, named in its evidence: per variant and setting, the newest "
                  "complete run on the card that has the point, its fastest block.",
    .claim_sweeps = rules_claim_sweeps,
    .group_axis = "per_thread",
    .group_prefix = "per_thread ",
    .best_axis = "block",
    .targets = rules_targets,
    .default_sweep = "rules-table4",
};
