/* test_gpu_episodes.c - the episodes workload's GPU variants against Algorithm 1, count
 * for count: Sym26 and (when the shared folder is there) the recorded sim-64 stream,
 * levels 1 to 5, both interval kinds and wide and narrow gaps, block sizes 32 to 1024,
 * reading the whole stream or only each episode's types,
 * MTPE cut into 1 to 1024 segments (or as many as fill the card) with 1 to 16 machines,
 * hybrid at its own switch point and at each extreme, PreElim on the relaxed problem
 * (and the others there too), prefix (counting a batch from each episode's first node,
 * or mining, each level from the one before; its kernels for rounds of few and of many
 * steps at each block size and switch point); multigpu on one GPU and, where the machine has two or
 * more, on every GPU, mining Sym26 with PTPE, hybrid, two-pass and by prefix on each GPU, its facts
 * giving each GPU's share; counting by prefix over parts on one GPU with prefixes moved
 * between them. Exits 77 (skip) without a GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "ep_prefix_dev.h"
#include "episodes/ep_prefix_split.h"
#include "episodes/ep_workload.h"
#include "gpu_fixture.h"
#include "point_set.h"
#include "registry.h"

extern const dm_workload episodes_workload;

/* MTPE's (segments, machines) tried: one segment, a prime count with one machine (every
 * chain entering mid-occurrence read afresh), the automatic choice, and many. */
static const int64_t cuts[][2] = {{1, 1}, {7, 1}, {64, 2}, {0, 0}, {1024, 16}};

/* hybrid's and prefix's switch points tried: its own (resolved for the card), and each
 * kernel everywhere (prefix at 1: a round of one step runs the kernel for few). */
static const int64_t switches[] = {0, 1, (int64_t)1 << 40};

/* Every GPU variant at each block size (MTPE at each cut, hybrid at each switch point)
 * on pt's problem over ds. */
static void check_all(gpu_fixture *f, check_cases *c, const dm_point *pt,
                      const dm_dataset *ds)
{
    static const int blocks[] = {32, 128, 1024};
    static const char *const reads[] = {"stream", "types", "auto"}; /* auto: hybrid's */
    dm_err err = {0};
    void *ref;
    if (episodes_workload.reference(ds, pt, &ref, &err))
        fail_msg("reference: %s", err.msg);
    for (const dm_variant *v = episodes_workload.variants; v->name; v++) {
        if (!v->needs_gpu || v->multi_gpu) /* multigpu: test_multigpu_* */
            continue;
        int prefix = registry_param(&episodes_workload, v, "block_few") != NULL;
        int hybrid = !prefix && registry_param(&episodes_workload, v, "switch_at") != NULL;
        int mtpe = !hybrid && registry_param(&episodes_workload, v, "segments") != NULL;
        size_t extras = mtpe ? sizeof cuts / sizeof *cuts : hybrid || prefix ? 3 : 1;
        /* prefix has no way of reading to choose */
        int nreads = !registry_param(&episodes_workload, v, "read") ? 1 : hybrid ? 3 : 2;
        for (int b = 0; b < 3; b++)
            for (size_t x = 0; x < extras; x++)
                for (int r = 0; r < nreads; r++) {
                    dm_point vp;
                    assert_int_equal(
                        registry_point_defaults(&episodes_workload, v, &vp, &err), 0);
                    copy_problem(&vp, pt);
                    set_int(&vp, "block", blocks[b]);
                    set_str(&vp, "read", reads[r]);
                    if (mtpe) {
                        set_int(&vp, "segments", cuts[x][0]);
                        set_int(&vp, "machines", cuts[x][1]);
                    }
                    if (hybrid || prefix)
                        set_int(&vp, "switch_at", switches[x]);
                    if (prefix) /* both kernels at each block size */
                        set_int(&vp, "block_few", blocks[b]);
                    if (hybrid) {
                        v->resolve(&vp, &f->dev);
                        assert_true(dm_point_int(&vp, "switch_at") > 0 ||
                                    dm_point_int(&vp, "support") > 0);
                    }
                    check_variant(c, &f->ex, &episodes_workload, v, &vp, ds, ref);
                }
    }
    episodes_workload.reference_free(ref);
}

static void open_dataset(const char *path, dm_point *pt, dm_dataset *ds)
{
    dm_err err = {0};
    dm_data_source src = {0};
    snprintf(src.generator, sizeof src.generator, "sym26");
    if (path)
        snprintf(src.path, sizeof src.path, "%s", path);
    if (episodes_workload.dataset_open(&src, pt, ds, &err))
        fail_msg("dataset: %s", err.msg);
}

/* How much of the grid a dataset gets: levels 1 to `levels` (the first 3000 episodes of
 * levels 3 and up) at the first `gaps` intervals, the relaxed problem beside the first,
 * then level-wise mining to level 5 at `support`, exact and (when relaxed_mining) relaxed. */
typedef struct scope {
    int levels;
    size_t gaps;
    int64_t support;
    int relaxed_mining;
} scope;

/* The problems tried on one dataset (path, or Sym26 when NULL): gap (4, 6] and [4, 6] ms,
 * a wide (0, 20] and a narrow (5, 6] ms, as far as sc says, with the relaxed problem,
 * where preelim runs too, beside the first; then level-wise mining (twopass, mining with
 * PreElim first, among the variants). */
static void check_problems(gpu_fixture *f, const char *path, const scope *sc, check_cases *c)
{
    static const struct {
        double lo, hi;
        const char *interval;
    } gaps[] = {{4, 6, "open-closed"}, {4, 6, "closed"}, {0, 20, "open-closed"},
                {5, 6, "closed"}};
    dm_err err = {0};
    dm_point pt;
    dm_dataset ds;
    const dm_variant *cpu = registry_variant(&episodes_workload, "cpu", &err);
    assert_int_equal(registry_point_defaults(&episodes_workload, cpu, &pt, &err), 0);
    set_real(&pt, "seconds", 10);
    open_dataset(path, &pt, &ds);
    for (int level = 1; level <= sc->levels; level++)
        for (size_t g = 0; g < sc->gaps && g < sizeof gaps / sizeof *gaps; g++) {
            set_int(&pt, "level", level);
            set_int(&pt, "count", level >= 3 ? 3000 : 0);
            set_real(&pt, "gap_lo_ms", gaps[g].lo);
            set_real(&pt, "gap_hi_ms", gaps[g].hi);
            set_str(&pt, "interval", gaps[g].interval);
            for (int relax = 0; relax <= (g == 0); relax++) {
                set_int(&pt, "relax", relax);
                check_all(f, c, &pt, &ds);
            }
        }
    set_int(&pt, "count", 0);
    set_int(&pt, "level", 5);
    set_int(&pt, "support", sc->support);
    set_real(&pt, "gap_lo_ms", 4);
    set_real(&pt, "gap_hi_ms", 6);
    set_str(&pt, "interval", "open-closed");
    for (int relax = 0; relax <= sc->relaxed_mining; relax++) {
        set_int(&pt, "relax", relax);
        check_all(f, c, &pt, &ds);
    }
    episodes_workload.dataset_close(&ds);
}

/* preelim refuses the exact problem; the other kernels refuse blocks of 1024 whose lists
 * do not fit the shared memory of a block (level 5 at runs of 4 or 8, and level 4 at
 * runs of 8); nothing else is refused. */
static const check_skip expected_skips[] = {
    {.variant = "preelim", .params = "relax=0", .reason = "relaxed problem"},
    {.variant = "ptpe", .params = "block=1024", .reason = "shared memory"},
    {.variant = "mtpe", .params = "block=1024", .reason = "shared memory"},
    {.variant = "hybrid", .params = "block=1024", .reason = "shared memory"},
    {.variant = "twopass", .params = "block=1024", .reason = "shared memory"},
    {0},
};

static void test_sym26(void **state)
{
    check_cases c;
    check_begin(&c, expected_skips);
    /* The whole grid; mining at a support that keeps dozens of episodes a level. */
    static const scope all = {.levels = 5, .gaps = 4, .support = 20, .relaxed_mining = 1};
    check_problems(*state, NULL, &all, &c);
    check_end(&c, "sym26");
}

static void test_recorded_stream(void **state)
{
    const char *path = DM_SOURCE_DIR "/../shared/datasets/episodes/sim-64-size20.csv";
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "test_recorded_stream: %s not there, skipped\n", path);
        skip();
    }
    check_cases c;
    check_begin(&c, expected_skips);
    /* 65,428 events over 64 types, eight times Sym26's ten seconds: levels 1 to 4 at
     * (4, 6] ms, and exact mining at a support that keeps 13,452 candidates at level 3
     * (relaxed mining there keeps hundreds of thousands a level, minutes of checks). */
    static const scope some = {.levels = 4, .gaps = 1, .support = 200, .relaxed_mining = 0};
    check_problems(*state, path, &some, &c);
    check_end(&c, "sim-64-size20");
}

/* The value of fact name of level `level` among f[0..n), or NAN when there is none. */
static double level_fact(const dm_fact *f, int n, int level, const char *name)
{
    char group[32];
    snprintf(group, sizeof group, "level %d", level);
    for (int i = 0; i < n; i++)
        if (strcmp(f[i].group, group) == 0 && strcmp(f[i].name, name) == 0)
            return f[i].value;
    return NAN;
}

/* Mines pt with multigpu on ex, checks the answer against ref, and checks the facts of
 * every level counted: each GPU was given its even share of the candidates (of the
 * survivors, after a bound; by prefix, no more than all and no less than an even share)
 * and its part, transfers and kernel took time. */
static void check_multigpu_facts(const dm_exec *ex, const dm_point *pt, const dm_dataset *ds,
                                 const void *ref)
{
    dm_err err = {0};
    char why[512], where[512];
    void *st;
    const void *out;
    dm_fact f[DM_MAX_FACTS];
    const int64_t gpus = dm_point_int(pt, "gpus");
    dm_point_format(pt, where, sizeof where);
    if (pt->variant->setup(ex, ds, pt, &st, &err) || pt->variant->run(st, &err) ||
        pt->variant->output(st, &out, &err))
        fail_msg("multigpu %s: %s", where, err.msg);
    if (episodes_workload.compare(ref, out, pt, why, sizeof why))
        fail_msg("multigpu %s: %s", where, why);
    const int n = episodes_workload.facts(out, pt, f, DM_MAX_FACTS);
    const int twopass = strcmp(dm_point_str(pt, "counting"), "twopass") == 0;
    const int prefix = strcmp(dm_point_str(pt, "counting"), "prefix") == 0;
    /* every level recorded but one whose generation gave no candidate */
    for (int level = 1; level_fact(f, n, level, "candidates") > 0; level++) {
        double counted = level_fact(f, n, level, twopass ? "survivors" : "candidates");
        double busiest = level_fact(f, n, level, "count_per_gpu");
        /* by prefix: every GPU keeps level 1, a later level goes by its prefixes' owners */
        if (prefix ? busiest < ceil(counted / (double)gpus) || busiest > counted ||
                         (level == 1 && busiest != counted)
                   : busiest != ceil(counted / (double)gpus))
            fail_msg("multigpu %s: level %d counted %g over %lld GPUs, %g on the busiest",
                     where, level, counted, (long long)gpus, busiest);
        assert_true(counted == 0 || level_fact(f, n, level, "count_wall_s") > 0);
        if (prefix) { /* not timed on the streams */
            assert_true(isnan(level_fact(f, n, level, "count_kernel_s")));
            continue;
        }
        assert_true(counted == 0 || level_fact(f, n, level, "count_kernel_s") > 0);
        assert_true(counted == 0 || level_fact(f, n, level, "count_transfer_s") > 0);
        if (twopass)
            assert_true(level_fact(f, n, level, "bound_kernel_s") > 0);
    }
    pt->variant->teardown(st);
}

/* multigpu at gpus on ex (whose run has those GPUs) against Algorithm 1 on Sym26 (10 s):
 * mining to level 5 at support 20 (as test_sym26), exact and relaxed, with PTPE, hybrid,
 * two-pass and by prefix on each GPU at blocks 32 and 128; every level-3 episode
 * counted; and one episode, so that some GPUs get none. */
static void check_multigpu(const dm_exec *ex, int gpus, const char *what)
{
    static const char *const countings[] = {"ptpe", "hybrid", "twopass", "prefix"};
    static const int blocks[] = {32, 128};
    dm_err err = {0};
    dm_point pt;
    dm_dataset ds;
    check_cases c;
    const dm_variant *v = registry_variant(&episodes_workload, "multigpu", &err);
    assert_non_null(v);
    assert_true(v->multi_gpu);
    assert_int_equal(registry_point_defaults(&episodes_workload, v, &pt, &err), 0);
    set_real(&pt, "seconds", 10);
    set_int(&pt, "gpus", gpus);
    open_dataset(NULL, &pt, &ds);
    check_begin(&c, NULL);
    const struct {
        int level;
        int64_t support, count;
        int relax;
    } problems[] = {{5, 20, 0, 0}, {5, 20, 0, 1}, {3, 0, 0, 0}, {1, 0, 1, 0}};
    for (size_t p = 0; p < sizeof problems / sizeof *problems; p++) {
        void *ref;
        set_int(&pt, "level", problems[p].level);
        set_int(&pt, "support", problems[p].support);
        set_int(&pt, "count", problems[p].count);
        set_int(&pt, "relax", problems[p].relax);
        if (episodes_workload.reference(&ds, &pt, &ref, &err))
            fail_msg("reference: %s", err.msg);
        for (int k = 0; k < 4; k++)
            for (int b = 0; b < 2; b++) {
                set_str(&pt, "counting", countings[k]);
                set_int(&pt, "block", blocks[b]);
                check_variant(&c, ex, &episodes_workload, v, &pt, &ds, ref);
                if (problems[p].support > 0)
                    check_multigpu_facts(ex, &pt, &ds, ref);
            }
        episodes_workload.reference_free(ref);
    }
    episodes_workload.dataset_close(&ds);
    check_end(&c, what);
}

/* multigpu on the fixture's GPU, as `dmbench mine` and a run without --devices give it
 * (no list of GPUs: the one device). */
static void test_multigpu_one_gpu(void **state)
{
    gpu_fixture *f = *state;
    check_multigpu(&f->ex, 1, "multigpu gpus=1");
}

/* multigpu on every GPU of the machine (at most 16, as gpus allows), as `dmbench run
 * --devices all` gives them, on two of them where there are more, and on the first;
 * skipped where the machine has one. */
static void test_multigpu_every_gpu(void **state)
{
    gpu_fixture *f = *state;
    int n = 0;
    dm_device devs[16];
    const dm_device *gpus[16] = {&f->dev};
    dm_err err = {0};
    char what[64];
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
        fprintf(stderr, "test_multigpu_every_gpu: %d GPU here, two needed: skipped\n", n);
        skip();
    }
    n = n < 16 ? n : 16;
    for (int i = 1; i < n; i++) {
        if (device_query(i, &devs[i], &err))
            fail_msg("%s", err.msg);
        gpus[i] = &devs[i];
    }
    const dm_exec ex = {.device = &f->dev, .stream = f->stream, .gpus = gpus, .ngpus = n};
    snprintf(what, sizeof what, "multigpu gpus=%d (every GPU)", n);
    check_multigpu(&ex, n, what);
    if (n > 2)
        check_multigpu(&ex, 2, "multigpu gpus=2");
    snprintf(what, sizeof what, "multigpu gpus=1 of %d", n);
    check_multigpu(&ex, 1, what);
}

/* Parts of a split counted one after the other on this GPU (ep_prefix_parts_fn), each
 * an ep_prefix_dev of its own, as multigpu's GPUs; how many prefixes were moved to a part
 * (made again there from their first node, or their starts fetched from the part keeping
 * them), and how many batches fetched starts. */
typedef struct dev_parts {
    ep_prefix_split sp;
    ep_prefix_dev d[3];
    int64_t moved, fetching;
} dev_parts;

static int count_dev_parts(void *ctx, dm_err *err)
{
    dev_parts *p = ctx;
    for (int i = 0; i < p->sp.parts; i++) {
        if (ep_prefix_split_count(&p->sp, i, &p->d[i].st, err))
            return err->code;
        const ep_prefix_share *sh = &p->sp.share[i];
        p->fetching += p->d[i].st.plan.nfetch > 0;
        for (int64_t j = 0; !p->sp.eps && sh->held && j < sh->nfreq; j++)
            p->moved += sh->held[j] < 0;
    }
    return 0;
}

/* Counting by prefix over three parts on this GPU, every level free to move prefixes
 * (wave 1, where multigpu waits for a wave a GPU), so that the GPU's kernels run plans
 * whose moved prefixes are made from their first node before their extensions take
 * their step, and, fetching, plans whose moved prefixes' starts are copied from the
 * part keeping them (ep_prefix_gpu_fetch) into round 0: mining Sym26 (10 s) to level 5
 * at support 20, both interval kinds, at blocks 32 and 256, gives mining on one host
 * counter's episodes and counts. */
static void test_prefix_moved_over_parts(void **state)
{
    gpu_fixture *f = *state;
    static const char *const intervals[] = {"open-closed", "closed"};
    static const int blocks[] = {32, 256};
    const dm_variant *v;
    dm_point pt;
    dm_dataset ds;
    dm_err err = {0};
    assert_non_null(v = registry_variant(&episodes_workload, "multigpu", &err));
    assert_int_equal(registry_point_defaults(&episodes_workload, v, &pt, &err), 0);
    set_real(&pt, "seconds", 10);
    set_int(&pt, "level", 5);
    set_int(&pt, "support", 20);
    set_str(&pt, "counting", "prefix");
    open_dataset(NULL, &pt, &ds);
    const ep_stream *s = &((const ep_data *)ds.data)->s;
    for (int k = 0; k < 2; k++)
        for (int q = 0; q < 4; q++) {
            const int b = q / 2, fetch = q % 2;
            int mine;
            ep_mine_spec spec;
            ep_mine_result want = {0}, got = {0}, none = {0};
            ep_prefix_cpu one;
            set_str(&pt, "interval", intervals[k]);
            const ep_interval iv = ep_point_interval(&pt);
            assert_int_equal(ep_point_work(s, &pt, &mine, &spec, &none, &err), 0);
            assert_true(mine);
            ep_mine_result_free(&none);
            assert_int_equal(ep_prefix_cpu_open(&one, s, iv, spec.support, 0, &err), 0);
            spec.extend = ep_prefix_ext_cb;
            spec.extend_ctx = &one.st;
            assert_int_equal(ep_mine(s, &spec, ep_prefix_cb, &one.st, &want, &err), 0);
            ep_prefix_cpu_close(&one);
            dev_parts *dp = calloc(1, sizeof *dp);
            assert_non_null(dp);
            assert_int_equal(ep_prefix_split_init(&dp->sp, 3, spec.support, s, 1,
                                                  count_dev_parts, dp, &err), 0);
            ep_prefix_state *states[3];
            for (int i = 0; i < 3; i++) {
                if (ep_prefix_dev_open(&dp->d[i], f->stream, s, iv, spec.support, blocks[b],
                                       512, 0, &err))
                    fail_msg("part %d: %s", i, err.msg);
                states[i] = &dp->d[i].st;
            }
            if (fetch)
                ep_prefix_split_fetching(&dp->sp, states);
            spec.extend = ep_prefix_split_ext_cb;
            spec.extend_ctx = &dp->sp;
            const char *how = fetch ? "fetched" : "made again";
            if (ep_mine(s, &spec, ep_prefix_split_cb, &dp->sp, &got, &err))
                fail_msg("%s, block %d, %s: %s", intervals[k], blocks[b], how, err.msg);
            assert_int_equal(got.n, want.n);
            for (int64_t i = 0; i < want.n; i++)
                if (ep_episode_cmp(&got.eps[i], &want.eps[i]) != 0 ||
                    got.counts[i] != want.counts[i])
                    fail_msg("%s, block %d, %s: episode %lld of %d nodes counted %lld, on "
                             "the host %lld", intervals[k], blocks[b], how, (long long)i,
                             want.eps[i].n, (long long)got.counts[i],
                             (long long)want.counts[i]);
            fprintf(stderr, "prefix over 3 parts, %s, block %d: %lld episodes, %lld "
                    "prefixes moved (%s; %lld batches fetched)\n", intervals[k], blocks[b],
                    (long long)want.n, (long long)dp->moved, how, (long long)dp->fetching);
            assert_true(dp->moved > 0);
            assert_true(fetch ? dp->fetching > 0 : dp->fetching == 0);
            for (int i = 0; i < 3; i++)
                ep_prefix_dev_close(&dp->d[i]);
            ep_prefix_split_free(&dp->sp);
            free(dp);
            ep_mine_result_free(&want);
            ep_mine_result_free(&got);
        }
    episodes_workload.dataset_close(&ds);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        fprintf(stderr, "test_gpu_episodes: no GPU, skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sym26),
        cmocka_unit_test(test_recorded_stream),
        cmocka_unit_test(test_multigpu_one_gpu),
        cmocka_unit_test(test_multigpu_every_gpu),
        cmocka_unit_test(test_prefix_moved_over_parts),
    };
    gpu_test_filter();
    return cmocka_run_group_tests(tests, setup, teardown);
}
