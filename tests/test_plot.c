/* test_plot.c - `dmbench plot` end to end on fixture databases: each plot's .dat has the
 * expected blocks, titles and values, and gnuplot renders it to a PNG and an SVG; the
 * --where filter, --by, the crossover plot with its fits, stage times from planted
 * timelines, and the errors (unknown plot, axis or parameter, no gnuplot, no scripts,
 * no timelines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "tmpdir.h"

#define DMBENCH DM_BINARY_DIR "/dmbench"
#define NS 15
#define MAX_BLOCKS 16
#define MAX_ROWS 128

typedef struct fixture {
    afx db;
    char dir[64];
    char out[128], errf[128];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    if (!f || afx_open(&f->db) != 0)
        return -1;
    if (tmpdir_make(f->dir, sizeof f->dir, "plot") != 0)
        return -1;
    snprintf(f->out, sizeof f->out, "%s/stdout", f->dir);
    snprintf(f->errf, sizeof f->errf, "%s/stderr", f->dir);
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    afx_close(&f->db);
    int rc = tmpdir_remove(f->dir);
    free(f);
    return rc;
}

/* Runs "ENV dmbench plot ARGS --db DB --out DIR" (env may be ""); returns the exit status. */
static int plot(fixture *f, const char *env, const char *fmt, ...)
{
    char args[1024], cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s plot %s --db %s --out %s >%s 2>%s </dev/null", env, DMBENCH,
             args, f->db.path, f->dir, f->out, f->errf);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The whole of a file (static buffer; "" when missing). */
static const char *slurp(const char *path, size_t *len)
{
    static char buf[1 << 20];
    FILE *fp = fopen(path, "rb");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    buf[n] = '\0';
    if (fp)
        fclose(fp);
    if (len)
        *len = n;
    return buf;
}

/* Runs a plot that must succeed with nothing on stderr: gnuplot's warnings (an empty
 * series, a bad range) come through there. */
#define plot_ok(f, ...)                                                                     \
    do {                                                                                    \
        assert_int_equal(plot((f), "", __VA_ARGS__), 0);                                    \
        assert_string_equal(slurp((f)->errf, NULL), "");                                    \
    } while (0)

/* ---- the .dat file as gnuplot reads it ---- */

typedef struct block {
    char title[256];
    int rows;
    double v[MAX_ROWS][5];
} block;

typedef struct datfile {
    block b[MAX_BLOCKS];
    int blocks;
    int separators; /* two blank lines before a title line */
} datfile;

/* Parses DIR/NAME.dat: blocks open with a quoted title line; rows are numbers. */
static void read_dat(fixture *f, const char *name, datfile *d)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.dat", f->dir, name);
    const char *text = slurp(path, NULL);
    assert_true(text[0] == '#');
    memset(d, 0, sizeof *d);
    d->separators = 0;
    for (const char *p = strstr(text, "\n\n\n\""); p; p = strstr(p + 1, "\n\n\n\""))
        d->separators++;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] == '"') {
            assert_true(d->blocks < MAX_BLOCKS);
            block *b = &d->b[d->blocks++];
            snprintf(b->title, sizeof b->title, "%.*s", (int)len - 2, line + 1);
        } else if (len && line[0] != '#') {
            assert_true(d->blocks > 0);
            block *b = &d->b[d->blocks - 1];
            assert_true(b->rows < MAX_ROWS);
            char *q = (char *)line;
            for (int i = 0; i < 5 && q < line + len; i++)
                b->v[b->rows][i] = strtod(q, &q);
            b->rows++;
        }
        line = end ? end + 1 : line + len;
    }
}

/* DIR/NAME.png is a PNG and DIR/NAME.svg an SVG, both of some size. */
static void assert_rendered(fixture *f, const char *name)
{
    char path[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s.png", f->dir, name);
    const char *png = slurp(path, &len);
    assert_true(len > 2000);
    assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
    snprintf(path, sizeof path, "%s/%s.svg", f->dir, name);
    const char *svg = slurp(path, &len);
    assert_true(len > 2000);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "</svg>"));
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-7 * fabs(b);
}

/* ---- fixture data ---- */

static const int64_t sizes[] = { 1024, 4096, 16384 };
static const char *const ops[] = { "copy", "triad" };
static const int64_t blocks[] = { 128, 256, 512 };

static double cpu_time(int64_t n, int op) { return (double)n * 1e-9 * (op ? 2 : 1); }
static double kernel_time(int64_t n, int64_t block) { return (double)n * 1e-11 * (1 + block / 1024.0); }

/* A run on an H100 with baseline cpu: toy cpu points and kernel points at three block
 * sizes, for three sizes and both ops, each moving 8 bytes per element. */
static int64_t fill_sweep(fixture *f)
{
    int64_t run = afx_run(&f->db, "NVIDIA H100 80GB HBM3", 9, 0), idx = 0;
    const dm_param_spec *specs[] = { &toy_dataset_params[0], &toy_problem_params[0] };
    double x[NS];
    for (int s = 0; s < 3; s++)
        for (int o = 0; o < 2; o++) {
            dm_value vals[2] = { { .type = DM_P_INT, .i = sizes[s] },
                                 { .type = DM_P_ENUM, .s = dm_intern(ops[o], strlen(ops[o])) } };
            afx_samples(x, NS, cpu_time(sizes[s], o), 0.02);
            afx_point_params(&f->db, run, idx++, 0, specs, vals, 2, x, NS);
            for (int b = 0; b < 3; b++) {
                afx_samples(x, NS, kernel_time(sizes[s], blocks[b]), 0.02);
                afx_point(&f->db, run, idx++, sizes[s], ops[o], blocks[b], x, NS);
            }
        }
    sqlite3 *db = store_db(f->db.st);
    assert_int_equal(sqlite3_exec(db, "UPDATE runs SET baseline = 'cpu';"
                                      "UPDATE points SET bytes_per_run = 8.0 * (SELECT value_num"
                                      " FROM point_params WHERE point_id = points.id AND name = 'n')",
                                  NULL, NULL, NULL), SQLITE_OK);
    return run;
}

/* ---- the plots ---- */

static void time_vs_block_has_a_block_per_kernel_problem(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    plot_ok(f, "time-vs-block");
    datfile d;
    read_dat(f, "time-vs-block-run1", &d);
    assert_int_equal(d.blocks, 6); /* cpu has no block: only the kernel's 3 sizes x 2 ops */
    assert_int_equal(d.separators, 5);
    assert_string_equal(d.b[0].title, "kernel n=1024 op=copy");
    assert_string_equal(d.b[5].title, "kernel n=16384 op=triad");
    for (int i = 0; i < 6; i++) {
        assert_int_equal(d.b[i].rows, 3);
        for (int b = 0; b < 3; b++) {
            double want = kernel_time(sizes[i / 2], blocks[b]);
            assert_true(d.b[i].v[b][0] == blocks[b]);
            assert_true(close_to(d.b[i].v[b][1], want));
            assert_true(d.b[i].v[b][2] < want && want < d.b[i].v[b][3]); /* Q1 < median < Q3 */
        }
    }
    const char *text = slurp(f->out, NULL);
    assert_non_null(strstr(text, "6 series, 18 rows"));
    char path[256];
    snprintf(path, sizeof path, "%s/time-vs-block-run1.dat", f->dir);
    text = slurp(path, NULL);
    assert_non_null(strstr(text, "# card: NVIDIA H100 80GB HBM3 (cc 9.0)"));
    assert_non_null(strstr(text, "# run 1: sweep fixture, workload toy"));
    assert_non_null(strstr(text, "# columns: block median_s q1_s q3_s"));
    /* blocks span a factor of 4 (linear), times one of 21 (log) */
    assert_non_null(strstr(text, "# gnuplot settings: series=6; fits=0; logx=0; logy=10;"));
    assert_non_null(strstr(text, "constant: scale=0.5"));
    assert_rendered(f, "time-vs-block-run1");
}

static void where_keeps_the_selected_points(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    plot_ok(f, "time-vs-block 1 --where op=triad --where n=4096 --format png");
    datfile d;
    read_dat(f, "time-vs-block-run1-op-triad-n-4096", &d);
    assert_int_equal(d.blocks, 1);
    assert_string_equal(d.b[0].title, "kernel");
    assert_int_equal(d.b[0].rows, 3);
    char path[256];
    snprintf(path, sizeof path, "%s/time-vs-block-run1-op-triad-n-4096.svg", f->dir);
    assert_int_equal(access(path, F_OK), -1); /* --format png only */
}

static void speedup_vs_size_is_against_the_baseline(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    plot_ok(f, "speedup-vs-size latest");
    datfile d;
    read_dat(f, "speedup-vs-size-run1", &d);
    assert_int_equal(d.blocks, 2); /* the baseline is the dashed line, not a series */
    assert_string_equal(d.b[0].title, "kernel op=copy");
    assert_string_equal(d.b[1].title, "kernel op=triad");
    for (int i = 0; i < 2; i++) {
        assert_int_equal(d.b[i].rows, 3);
        for (int s = 0; s < 3; s++) {
            /* the fastest kernel configuration is block 128 */
            double want = cpu_time(sizes[s], i) / kernel_time(sizes[s], 128);
            assert_true(d.b[i].v[s][0] == sizes[s]);
            assert_true(close_to(d.b[i].v[s][1], want));
        }
    }
    assert_rendered(f, "speedup-vs-size-run1");
}

static void throughput_vs_size_is_in_gb_per_s(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    plot_ok(f, "throughput-vs-size --axis n");
    datfile d;
    read_dat(f, "throughput-vs-size-run1", &d);
    assert_int_equal(d.blocks, 4);
    assert_string_equal(d.b[0].title, "cpu op=copy");
    assert_string_equal(d.b[3].title, "kernel op=triad");
    for (int s = 0; s < 3; s++) {
        assert_true(close_to(d.b[0].v[s][1], 8.0 * sizes[s] / cpu_time(sizes[s], 0) / 1e9));
        assert_true(close_to(d.b[3].v[s][1], 8.0 * sizes[s] / kernel_time(sizes[s], 128) / 1e9));
    }
    assert_rendered(f, "throughput-vs-size-run1");
}

static void throughput_by_a_second_axis_splits_the_series(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    /* one op per element: ops are preferred to bytes, in the unit's SI multiple */
    assert_int_equal(sqlite3_exec(store_db(f->db.st), "UPDATE points SET ops_unit = 'pops',"
                                  " ops_per_run = bytes_per_run / 8", NULL, NULL, NULL), SQLITE_OK);
    plot_ok(f, "throughput-vs-size --axis n --by block");
    datfile d;
    read_dat(f, "throughput-vs-size-run1-by-block", &d);
    assert_int_equal(d.blocks, 8); /* cpu (no block) per op, the kernel per op and block */
    assert_string_equal(d.b[0].title, "cpu op=copy");
    assert_string_equal(d.b[1].title, "cpu op=triad");
    for (int o = 0; o < 2; o++)
        for (int b = 0; b < 3; b++) {
            block *k = &d.b[2 + 3 * o + b];
            char want[64];
            snprintf(want, sizeof want, "kernel op=%s block=%lld", ops[o], (long long)blocks[b]);
            assert_string_equal(k->title, want);
            assert_int_equal(k->rows, 3);
            for (int s = 0; s < 3; s++) {
                assert_true(k->v[s][0] == sizes[s]);
                assert_true(close_to(k->v[s][1], sizes[s] / kernel_time(sizes[s], blocks[b]) / 1e9));
            }
        }
    assert_true(close_to(d.b[1].v[0][1], sizes[0] / cpu_time(sizes[0], 1) / 1e9));
    assert_non_null(strstr(slurp(f->out, NULL), "8 series, 24 rows"));
    char path[256];
    snprintf(path, sizeof path, "%s/throughput-vs-size-run1-by-block.dat", f->dir);
    const char *text = slurp(path, NULL);
    assert_non_null(strstr(text, "# y: throughput, Gpops/s (pops per median time)"));
    assert_non_null(strstr(text, "# columns: n Gpops_per_s median_s"));
    assert_non_null(strstr(text, "fastest configuration for each block"));
    assert_rendered(f, "throughput-vs-size-run1-by-block");

    /* speedups split the same way; the other plots, the axis and unknown names refuse */
    plot_ok(f, "speedup-vs-size --by block --format svg");
    read_dat(f, "speedup-vs-size-run1-by-block", &d);
    assert_int_equal(d.blocks, 6);
    assert_int_equal(plot(f, "", "time-vs-block --by n"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "plots that do: speedup-vs-size, throughput-vs-size"));
    assert_int_equal(plot(f, "", "throughput-vs-size --by n"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--by n: that is the x axis"));
    assert_int_equal(plot(f, "", "throughput-vs-size --by blok"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--by blok: no ok point of run 1"));
}

/* A point of variant (0 cpu, 1 kernel) at n and level with samples around t. */
static void put_level(fixture *f, int64_t run, int64_t idx, int variant, int64_t n, int64_t level,
                      double t)
{
    static const dm_param_spec level_spec = { .name = "level", .type = DM_P_INT, .def = "1" };
    const dm_param_spec *specs[] = { &toy_dataset_params[0], &toy_problem_params[0], &level_spec };
    dm_value vals[3] = { { .type = DM_P_INT, .i = n }, { .type = DM_P_ENUM, .s = "copy" },
                         { .type = DM_P_INT, .i = level } };
    double x[NS];
    afx_samples(x, NS, t, 0.01);
    afx_point_params(&f->db, run, idx, variant, specs, vals, 3, x, NS);
}

static void crossover_has_points_and_both_fits(void **state)
{
    fixture *f = *state;
    int64_t run = afx_run(&f->db, "NVIDIA H100 80GB HBM3", 9, 0), idx = 0;
    const int levels[] = { 1, 2, 4, 8 };
    for (int l = 0; l < 4; l++) {
        /* cpu: n ns; kernel: n/2 ns + c, crossing at 2c = 100000/N + 5000 */
        double c = (100000.0 / levels[l] + 5000) / 2 * 1e-9;
        for (int64_t n = 10000; n <= 200000; n += 10000) {
            put_level(f, run, idx++, 0, n, levels[l], (double)n * 1e-9);
            put_level(f, run, idx++, 1, n, levels[l], (double)n * 0.5e-9 + c);
        }
    }
    plot_ok(f, "crossover --group level --axis n --variants cpu,kernel");
    datfile d;
    read_dat(f, "crossover-run1", &d);
    assert_int_equal(d.blocks, 3); /* the crossovers, then a/N + b and a*N + b */
    assert_string_equal(d.b[0].title, "crossover");
    assert_int_equal(d.b[0].rows, 4);
    for (int l = 0; l < 4; l++) {
        double want = 100000.0 / levels[l] + 5000;
        assert_true(d.b[0].v[l][0] == levels[l]);
        assert_true(fabs(d.b[0].v[l][1] - want) < 1e-6 * want);
        assert_true(d.b[0].v[l][2] <= want && want <= d.b[0].v[l][3]);
    }
    assert_non_null(strstr(d.b[1].title, "fit n = a/level + b: a = 100000, b = 5000, R^2 = 1.0000 (better)"));
    assert_null(strstr(d.b[2].title, "(better)"));
    assert_int_equal(d.b[1].rows, 100);
    assert_int_equal(d.b[2].rows, 100);
    /* the a/N + b curve passes through the planted crossovers at its ends */
    assert_true(close_to(d.b[1].v[0][1], 105000));
    assert_true(close_to(d.b[1].v[99][1], 100000.0 / 8 + 5000));
    assert_rendered(f, "crossover-run1");

    /* the run's two variants are the default pair; without --group there is no plot */
    plot_ok(f, "crossover --group level --format svg");
    assert_int_equal(plot(f, "", "crossover"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--group"));
}

/* ---- errors ---- */

/* CUPTI rows for the kernel points of fill_sweep: one launch each, achieved occupancy
 * 40 % + block / 32 and a predicted one of 50 % + block / 32. */
static void fill_cupti(fixture *f)
{
    sqlite3 *db = store_db(f->db.st);
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO launches SELECT p.id, 0, 'membw_copy', 64, 1, 1, b.value_num, 1, 1, 0"
        " FROM points p JOIN point_params b ON b.point_id = p.id AND b.name = 'block';"
        "INSERT INTO metrics (point_id, kernel, launch_index, metric, value, unit)"
        " SELECT point_id, kernel, 0, 'achieved_occupancy', 40 + block_x / 32.0, '%' FROM launches;"
        "INSERT INTO kernel_attrs (point_id, kernel, block_threads, dynamic_smem, regs_per_thread,"
        " predicted_occupancy) SELECT point_id, kernel, block_x, 0, 16, 50 + block_x / 32.0"
        " FROM launches;", NULL, NULL, NULL), SQLITE_OK);
}

static void occupancy_vs_block_shows_achieved_and_predicted(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    fill_cupti(f);
    plot_ok(f, "occupancy-vs-block --where n=4096");
    datfile d;
    read_dat(f, "occupancy-vs-block-run1-n-4096", &d);
    assert_int_equal(d.blocks, 2); /* the kernel, per op */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(d.b[i].rows, 3);
        for (int b = 0; b < 3; b++) {
            assert_true(d.b[i].v[b][0] == blocks[b]);
            assert_true(close_to(d.b[i].v[b][1], 40 + blocks[b] / 32.0));
            assert_true(close_to(d.b[i].v[b][2], 50 + blocks[b] / 32.0));
        }
    }
    assert_rendered(f, "occupancy-vs-block-run1-n-4096");
    /* a run without counters says what to do */
    sqlite3_exec(store_db(f->db.st), "DELETE FROM metrics", NULL, NULL, NULL);
    assert_int_equal(plot(f, "", "occupancy-vs-block"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--metrics occupancy"));
}

static void metric_vs_axis_plots_the_named_metric(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    fill_cupti(f);
    assert_int_equal(plot(f, "", "metric-vs-axis --axis block"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "needs --metric NAME (run 1 has: achieved_occupancy)"));
    assert_int_equal(plot(f, "", "metric-vs-axis --axis block --metric nope"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "no values of metric 'nope'"));
    plot_ok(f, "metric-vs-axis --axis block --metric achieved_occupancy --where op=copy");
    datfile d;
    read_dat(f, "metric-vs-axis-run1-op-copy", &d);
    assert_int_equal(d.blocks, 3); /* the kernel at each n */
    for (int b = 0; b < 3; b++)
        assert_true(close_to(d.b[0].v[b][1], 40 + blocks[b] / 32.0));
    char path[256];
    snprintf(path, sizeof path, "%s/metric-vs-axis-run1-op-copy.dat", f->dir);
    assert_non_null(strstr(slurp(path, NULL), "achieved_occupancy (%, per launch)"));
    assert_rendered(f, "metric-vs-axis-run1-op-copy");
}

static void timeline_draws_one_row_per_stream(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    sqlite3 *db = store_db(f->db.st);
    /* point 3 (a kernel point): two kernels on streams 13 and 14 overlapping by 2 us, and
     * a copy on stream 13 */
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO timelines VALUES (4, 3, 2, 9000, 2000, 0.2222, NULL);"
        "INSERT INTO activities (point_id, idx, kind, name, stream, start_ns, end_ns) VALUES"
        " (4, 0, 'kernel', 'half_a', 13, 0, 5000), (4, 1, 'kernel', 'half_b', 14, 3000, 8000);"
        "INSERT INTO activities (point_id, idx, kind, name, stream, start_ns, end_ns, bytes)"
        " VALUES (4, 2, 'memcpy', 'DtoH', 13, 8000, 9000, 4096);", NULL, NULL, NULL), SQLITE_OK);
    plot_ok(f, "timeline");
    datfile d;
    read_dat(f, "timeline-run1", &d);
    assert_int_equal(d.blocks, 2);
    assert_string_equal(d.b[0].title, "kernels");
    assert_string_equal(d.b[1].title, "copies");
    assert_int_equal(d.b[0].rows, 2);
    assert_true(d.b[0].v[0][0] == 0 && d.b[0].v[1][0] == 1); /* streams 13, 14 -> rows 0, 1 */
    assert_true(d.b[0].v[1][1] == 3 && d.b[0].v[1][2] == 8);  /* microseconds */
    assert_true(d.b[1].v[0][0] == 0);
    char path[256];
    snprintf(path, sizeof path, "%s/timeline-run1.dat", f->dir);
    assert_non_null(strstr(slurp(path, NULL), "overlap 22.2%"));
    assert_rendered(f, "timeline-run1");
    assert_int_equal(plot(f, "", "timeline --where n=999"), 2);
    assert_int_equal(plot(f, "", "timeline --variants cpu"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "no traced ok point of the named variant"));
    plot_ok(f, "timeline --variants kernel --format png");
    assert_int_equal(plot(f, "", "crossover --variants cpu --group n"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "names one variant"));
}

/* Activities of fill_sweep's kernel points at n=1024 (ids 2, 3, 4 and 6), one traced
 * execution each: point 2 serial (a copy in, two launches of k_a, a copy out), point 3
 * the same on two streams, overlapping, point 4 a failed trace, point 6 one k_a only. */
static const char stage_rows[] =
    "INSERT INTO timelines VALUES (2, 4, 1, 9000, 0, 0, NULL), (3, 6, 2, 6500, 4000, 0.6154, NULL),"
    " (4, 0, 0, NULL, NULL, NULL, 'CUPTI_ERROR_NOT_INITIALIZED'), (6, 1, 1, 3000, 0, 0, NULL);"
    "INSERT INTO activities (point_id, idx, kind, name, stream, start_ns, end_ns) VALUES"
    " (2, 0, 'memcpy', 'memcpy HtoD', 7, 0, 2000), (2, 1, 'kernel', 'k_a', 7, 2000, 5000),"
    " (2, 2, 'kernel', 'k_a', 7, 5000, 8000), (2, 3, 'memcpy', 'memcpy DtoH', 7, 8000, 9000),"
    " (3, 0, 'memcpy', 'memcpy HtoD', 7, 0, 2000), (3, 1, 'memcpy', 'memcpy HtoD', 8, 500, 2500),"
    " (3, 2, 'kernel', 'k_a', 7, 2000, 5000), (3, 3, 'kernel', 'k_a', 8, 2500, 5500),"
    " (3, 4, 'memcpy', 'memcpy DtoH', 7, 5000, 6000), (3, 5, 'memcpy', 'memcpy DtoH', 8, 5500, 6500),"
    " (6, 0, 'kernel', 'k_a', 7, 0, 3000);";

static void stage_times_sum_each_stage_beside_the_wall_time(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    assert_int_equal(plot(f, "", "stage-times"), 2); /* nothing traced yet */
    const char *err = slurp(f->errf, NULL);
    assert_string_equal(err, "dmbench: error: run 1 has no stream timelines, so no stage times "
                             "(run it with --timeline)\n");
    assert_int_equal(sqlite3_exec(store_db(f->db.st), stage_rows, NULL, NULL, NULL), SQLITE_OK);
    plot_ok(f, "stage-times");
    char path[256];
    snprintf(path, sizeof path, "%s/stage-times-run1.dat", f->dir);
    const char *text = slurp(path, NULL);
    assert_non_null(strstr(text, "# columns: point seconds activities label\n"));
    assert_non_null(strstr(text, "series=5; fits=0; logx=0; logy=0;"));
    assert_non_null(strstr(text, "constant: n=1024, scale=0.5"));
    /* stages in pipeline order; seconds per execution, summed over a stage's activities */
    static const char body[] =
        "\n\"memcpy HtoD\"\n"
        "0 2e-06 1 \"kernel op=copy block=128\"\n"
        "1 4e-06 2 \"kernel op=copy block=256\"\n"
        "2 NaN 0 \"kernel op=triad block=128\"\n"
        "\n\n\"k_a\"\n"
        "0 6e-06 2 \"kernel op=copy block=128\"\n"
        "1 6e-06 2 \"kernel op=copy block=256\"\n"
        "2 3e-06 1 \"kernel op=triad block=128\"\n"
        "\n\n\"memcpy DtoH\"\n"
        "0 1e-06 1 \"kernel op=copy block=128\"\n"
        "1 2e-06 2 \"kernel op=copy block=256\"\n"
        "2 NaN 0 \"kernel op=triad block=128\"\n"
        "\n\n\"sum of stages\"\n"
        "0 9e-06 4 \"kernel op=copy block=128\"\n"
        "1 1.2e-05 6 \"kernel op=copy block=256\"\n"
        "2 3e-06 1 \"kernel op=triad block=128\"\n"
        "\n\n\"wall (first start to last end)\"\n"
        "0 9e-06 4 \"kernel op=copy block=128\"\n"
        "1 6.5e-06 6 \"kernel op=copy block=256\"\n"
        "2 3e-06 1 \"kernel op=triad block=128\"\n";
    const char *start = strstr(text, "\n\n\"memcpy HtoD\"");
    assert_non_null(start);
    assert_string_equal(start + 1, body);
    assert_non_null(strstr(slurp(f->out, NULL), "5 series, 15 rows"));
    assert_rendered(f, "stage-times-run1");

    plot_ok(f, "stage-times --where block=256 --format png");
    assert_non_null(strstr(slurp(f->out, NULL), "5 series, 5 rows"));
    assert_int_equal(plot(f, "", "stage-times --variants cpu"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "no traced ok point of run 1 passes"));
    sqlite3_exec(store_db(f->db.st), "DELETE FROM timelines WHERE reason IS NULL", NULL, NULL, NULL);
    assert_int_equal(plot(f, "", "stage-times"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "every trace of run 1 failed "
                                                 "(CUPTI_ERROR_NOT_INITIALIZED)"));
}

static void list_names_every_plot(void **state)
{
    fixture *f = *state;
    plot_ok(f, "--list");
    const char *text = slurp(f->out, NULL);
    for (const char *const *name = (const char *const[]){ "time-vs-block", "speedup-vs-size",
                                                          "throughput-vs-size", "crossover",
                                                          "occupancy-vs-block", "metric-vs-axis",
                                                          "timeline", "stage-times", NULL };
         *name; name++)
        assert_non_null(strstr(text, *name));
}

static void bad_names_are_usage_errors(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    assert_int_equal(plot(f, "", "time-vs-blok"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "unknown plot 'time-vs-blok'"));
    assert_int_equal(plot(f, "", "speedup-vs-size --axis size"), 2);
    const char *err = slurp(f->errf, NULL);
    assert_non_null(strstr(err, "no numeric parameter 'size'"));
    assert_non_null(strstr(err, "n, block, scale"));
    assert_int_equal(plot(f, "", "speedup-vs-size --axis op"), 2);
    /* an axis every point has at one value: nothing to draw against it */
    assert_int_equal(plot(f, "", "speedup-vs-size --axis scale"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--axis scale: every ok point of run 1 has "
                                                 "the same scale"));
    assert_int_equal(plot(f, "", "time-vs-block --where blok=128"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "--where blok=128"));
    assert_int_equal(plot(f, "", "time-vs-block --where op=scatter"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "no ok points"));
    assert_int_equal(plot(f, "", "time-vs-block 7"), 2);
    assert_non_null(strstr(slurp(f->errf, NULL), "no run 7"));
}

static void missing_gnuplot_or_scripts_fail_in_one_line(void **state)
{
    fixture *f = *state;
    fill_sweep(f);
    assert_int_equal(plot(f, "PATH=/nonexistent", "time-vs-block"), 1);
    const char *err = slurp(f->errf, NULL);
    assert_non_null(strstr(err, "gnuplot not found"));
    assert_ptr_equal(strchr(err, '\n'), strrchr(err, '\n'));
    /* the user's setting names a folder without the scripts: bad input */
    assert_int_equal(plot(f, "DMBENCH_PLOTS=/nonexistent", "time-vs-block"), 2);
    err = slurp(f->errf, NULL);
    assert_non_null(strstr(err, "DMBENCH_PLOTS"));
    assert_ptr_equal(strchr(err, '\n'), strrchr(err, '\n'));
    assert_int_equal(plot(f, "DMBENCH_PLOTS=" DM_SOURCE_DIR "/plots", "time-vs-block"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(time_vs_block_has_a_block_per_kernel_problem, setup, teardown),
        cmocka_unit_test_setup_teardown(where_keeps_the_selected_points, setup, teardown),
        cmocka_unit_test_setup_teardown(speedup_vs_size_is_against_the_baseline, setup, teardown),
        cmocka_unit_test_setup_teardown(throughput_vs_size_is_in_gb_per_s, setup, teardown),
        cmocka_unit_test_setup_teardown(throughput_by_a_second_axis_splits_the_series, setup, teardown),
        cmocka_unit_test_setup_teardown(crossover_has_points_and_both_fits, setup, teardown),
        cmocka_unit_test_setup_teardown(occupancy_vs_block_shows_achieved_and_predicted, setup, teardown),
        cmocka_unit_test_setup_teardown(metric_vs_axis_plots_the_named_metric, setup, teardown),
        cmocka_unit_test_setup_teardown(timeline_draws_one_row_per_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(stage_times_sum_each_stage_beside_the_wall_time, setup, teardown),
        cmocka_unit_test_setup_teardown(list_names_every_plot, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_names_are_usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_gnuplot_or_scripts_fail_in_one_line, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
