/* tdm_fixture.h - fixture runs of the tdm claims' sweeps for the characterize and report
 * tests: a tdm-shaped workload (level, block) and cards whose medians follow a time model
 * (shaped like the paper's cards, a modern card, or flat). Static functions, included by
 * one test file each, after cmocka.h and store_fixture.h. */
#ifndef DM_TEST_TDM_FIXTURE_H
#define DM_TEST_TDM_FIXTURE_H

#include <sqlite3.h>

#include "store_fixture.h"
#include "characterize.h"
#include "registry.h"

static const dm_param_spec tdmfx_dataset_params[] = {
    { .name = "length", .type = DM_P_INT, .def = "393019" },
    { 0 },
};
static const dm_param_spec tdmfx_problem_params[] = {
    { .name = "level", .type = DM_P_INT, .def = "1" },
    { 0 },
};
static const dm_param_spec tdmfx_kernel_params[] = {
    { .name = "block", .type = DM_P_INT, .def = "128" },
    { 0 },
};
static const dm_variant tdmfx_variants[] = {
    { .name = "thread-tex", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "thread-shared", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "block-tex", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { .name = "block-shared", .needs_gpu = 1, .params = tdmfx_kernel_params },
    { 0 },
};
static const dm_workload tdmfx = {
    .name = "tdm",
    .dataset_params = tdmfx_dataset_params,
    .problem_params = tdmfx_problem_params,
    .variants = tdmfx_variants,
};
static const int fx_blocks[] = { 16, 32, 64, 128, 256, 512, 1024 };

/* tdm's study, as registered. */
static inline const dm_study *fx_study(void)
{
    const dm_workload *w = registry_workload("tdm", &(dm_err){ 0 });
    assert_non_null(w);
    assert_non_null(w->study);
    return w->study;
}

/* The memory bus every fixture run notes (an H100's); fx_bus changes a card's. */
#define FX_BUS_BITS "5120"

/* A complete run of sweep on card with the given clocks at start, noting the memory
 * clock and FX_BUS_BITS as its device's; returns its id. */
static inline int64_t fx_run(afx *f, const char *sweep, const char *card, double sm_mhz,
                             double mem_mhz)
{
    dm_device dev = { .cc_major = 9, .cc_minor = 0, .sms = 132, .l2_bytes = 50 << 20 };
    snprintf(dev.name, sizeof dev.name, "%s", card);
    dm_measure_opts mo;
    sweep_measure_defaults(&mo);
    dm_run_info info = { .device = &dev, .workload = "tdm", .sweep_name = sweep,
                         .sweep_text = "fixture", .measure = &mo, .sm_clock_mhz_start = sm_mhz,
                         .mem_clock_mhz_start = mem_mhz };
    int64_t id = 0;
    dm_err err = { 0 };
    char clock[32];
    snprintf(clock, sizeof clock, "%.17g", mem_mhz);
    assert_int_equal(store_run_begin(f->st, &info, &id, &err), 0);
    assert_int_equal(store_run_note(f->st, id, "device.mem_clock_mhz", clock, &err), 0);
    assert_int_equal(store_run_note(f->st, id, "device.mem_bus_bits", FX_BUS_BITS, &err), 0);
    assert_int_equal(store_run_end(f->st, id, "complete", &err), 0);
    return id;
}

/* Sets the memory bus width noted by the runs of card (NULL: removes the note). */
static inline void fx_bus(afx *f, const char *card, const char *bits)
{
    char sql[256];
    if (bits)
        snprintf(sql, sizeof sql, "UPDATE run_notes SET value = '%s' WHERE key = "
                 "'device.mem_bus_bits' AND run_id IN (SELECT id FROM runs WHERE gpu_name = "
                 "'%s')", bits, card);
    else
        snprintf(sql, sizeof sql, "DELETE FROM run_notes WHERE key = 'device.mem_bus_bits' "
                 "AND run_id IN (SELECT id FROM runs WHERE gpu_name = '%s')", card);
    assert_int_equal(sqlite3_exec(store_db(f->st), sql, NULL, NULL, NULL), SQLITE_OK);
}

/* Stores an ok point of variant v at level and block whose samples centre on ms. */
static inline void fx_point(afx *f, int64_t run, int64_t idx, int v, int level, int block, double ms)
{
    const dm_param_spec *specs[] = { &tdmfx_dataset_params[0], &tdmfx_problem_params[0],
                                     &tdmfx_kernel_params[0] };
    dm_point pt = { .workload = &tdmfx, .variant = &tdmfx_variants[v], .nparams = 3 };
    for (int i = 0; i < 3; i++)
        pt.specs[i] = specs[i];
    pt.values[0] = (dm_value){ .type = DM_P_INT, .i = 393019 };
    pt.values[1] = (dm_value){ .type = DM_P_INT, .i = level };
    pt.values[2] = (dm_value){ .type = DM_P_INT, .i = block };
    double x[10];
    dm_sample s[10];
    afx_samples(x, 10, ms * 1e-3, 0.002);
    for (int i = 0; i < 10; i++)
        s[i] = (dm_sample){ .seconds = x[i], .batch = 1, .sm_mhz = NAN };
    dm_measurement m = { .samples = s, .n = 10, .stop_reason = "noise", .batch = 1,
                         .clock_source = "nvml", .sm_mhz_before = NAN, .sm_mhz_after = NAN };
    stats_compute(x, 10, &m.stats);
    dm_point_result r = { .run_id = run, .index = idx, .point = &pt, .status = "ok",
                          .verify = "match", .m = &m, .started = 1.7e9, .ended = 1.7e9 + 1 };
    int64_t id = 0;
    dm_err err = { 0 };
    assert_int_equal(store_point(f->st, &r, &id, &err), 0);
}

/* The time model of a fixture card: ms for variant v at level and block. */
typedef double (*fx_model)(int v, int level, int block, double clk, double mem);

/* Like the paper's GTX 280: thread-parallel constant over levels and set by the clock,
 * thread-shared falling steeply with block size (by two thirds from block 16, each
 * doubling's drop half the one before), block-parallel rising with block size, growing
 * with the level and set by memory bandwidth. */
static inline double paper_card(int v, int level, int block, double clk, double mem)
{
    if (v == 0)
        return 3.2 * clk;
    if (v == 1)
        return clk * (2.0 + 4.0 * 16.0 / block);
    return (v == 2 ? 1.0 : 1.5) * 0.1 * level * level * level * (1 + block / 64.0) * mem;
}

/* Like an H200: block-parallel falling with block size and deaf to memory bandwidth. */
static inline double modern_card(int v, int level, int block, double clk, double mem)
{
    (void)mem;
    if (v < 2)
        return paper_card(v, level, block, clk, 1);
    return (v == 2 ? 1.0 : 1.5) * 0.1 * level * level * (16.0 / block + 0.05);
}

/* A card where nothing depends on block size: thread-parallel time grows with the level,
 * thread-shared is slower than thread-tex, and block-parallel is barely faster. */
static inline double flat_card(int v, int level, int block, double clk, double mem)
{
    (void)block, (void)clk, (void)mem;
    return (v == 0 ? 1.0 : v == 1 ? 1.2 : v == 2 ? 0.6 : 0.9) * level;
}

/* Plants a run of sweep on card of every variant, the levels up to max_level and every
 * block. */
static inline void fx_sweep_card(afx *f, const char *sweep, const char *card, double sm_mhz,
                                 double mem_mhz, fx_model model, double clk, double mem,
                                 int max_level)
{
    int64_t run = fx_run(f, sweep, card, sm_mhz, mem_mhz), idx = 0;
    for (int v = 0; v < 4; v++)
        for (int l = 1; l <= max_level; l++)
            for (int b = 0; b < 7; b++)
                fx_point(f, run, idx++, v, l, fx_blocks[b], model(v, l, fx_blocks[b], clk, mem));
}

/* fx_sweep_card of tdm-fig7, the sweep the claims read by default. */
static inline void fx_card(afx *f, const char *card, double sm_mhz, double mem_mhz,
                           fx_model model, double clk, double mem, int max_level)
{
    fx_sweep_card(f, fx_study()->claim_sweeps[0], card, sm_mhz, mem_mhz, model, clk, mem,
                  max_level);
}

#endif
