/* cmd_calibrate.c - `dmbench calibrate`: checks the measurement engine against a plain
 * cudaMemcpy loop timed with CUDA events in the same process. The membw copy bandwidth
 * the engine measures (cudaMemcpy variant and copy kernel) must agree within 5 %. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "device.h"
#include "membw/membw.h"
#include "query.h"
#include "runner.h"

#define TOLERANCE 0.05
#define PLAIN_ITERS 100

/* The calibration sweep: one large copy, beyond any L2, with the copy kernel at several
 * block sizes and cudaMemcpyAsync, measured cold. */
static const char calibration_sweep[] =
    "name: calibrate\n"
    "description: membw copy bandwidth, checked against a plain cudaMemcpy loop\n"
    "workload: membw\n"
    "dataset: { generator: random }\n"
    "variants: [kernel, memcpy]\n"
    "axes:\n"
    "  n: %lld\n"
    "  op: copy\n"
    "  block: [128, 256, 512, 1024]\n"
    "measure: { mode: cold, min_samples: 20, max_noise: 0.005, max_time: 2.0 }\n";

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench calibrate [--db PATH] [--mib N] [--device N] [--quiet]\n\n"
                 "Measures membw copy bandwidth through the engine (copy kernel and cudaMemcpyAsync,\n"
                 "%d MiB per array by default) and with a plain loop of %d cudaMemcpy calls timed by\n"
                 "one pair of CUDA events, stores both in the run, and fails (exit 1) unless they\n"
                 "agree within %.0f %%.\n",
            256, PLAIN_ITERS, TOLERANCE * 100);
}

static int report(const char *what, double gbps, double plain, const char *params)
{
    double ratio = gbps / plain;
    int ok = isfinite(ratio) && fabs(ratio - 1) <= TOLERANCE;
    printf("  %-34s %9.1f GB/s   ratio %.3f   %s   %s\n", what, gbps, ratio,
           ok ? "within 5%" : "OUTSIDE 5%", params);
    return ok;
}

int cmd_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        { "db", required_argument, NULL, 'd' },  { "mib", required_argument, NULL, 'm' },
        { "device", required_argument, NULL, 'D' }, { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },      { 0 },
    };
    const char *db = NULL;
    long mib = 256, device_index = 0;
    int quiet = 0, c, status = DM_EXIT_FAIL;
    char *end;
    dm_err err = { 0 };
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hq", opts, NULL)) != -1) {
        switch (c) {
        case 'd': db = optarg; break;
        case 'm':
            mib = strtol(optarg, &end, 10);
            if (end == optarg || *end || mib < 1 || mib > 65536)
                return cli_usage_error("calibrate", "--mib %s: expected 1..65536", optarg);
            break;
        case 'D':
            device_index = strtol(optarg, &end, 10);
            if (end == optarg || *end || device_index < 0)
                return cli_usage_error("calibrate", "--device %s: expected a GPU index", optarg);
            break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return DM_EXIT_OK;
        case ':': return cli_usage_error("calibrate", "option %s needs a value", argv[optind - 1]);
        default: return cli_usage_error("calibrate", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'", argv[optind]);

    int ndev = 0;
    char why[512] = "";
    device_count(&ndev, why, sizeof why);
    if (ndev == 0) {
        cli_error("calibration needs a GPU: %s", why);
        return DM_EXIT_FAIL;
    }
    if (device_index >= ndev)
        return cli_usage_error("calibrate", "--device %ld: there are %d GPUs", device_index, ndev);
    dm_device dev;
    if (device_query((int)device_index, &dev, &err) != 0)
        return cli_fail(&err);

    long long n = mib * 1024 * 1024 / 4;
    char text[sizeof calibration_sweep + 32];
    snprintf(text, sizeof text, calibration_sweep, n);
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    dm_store *st = NULL;
    if (sweep_parse_string(text, "calibrate (built in)", &s, &err) != 0 ||
        sweep_expand(s, &dev, &e, &err) != 0)
        goto fail;
    dm_sink sink;
    if (store_sink_make(cli_db_path(db), &sink, &err) != 0)
        goto fail;
    dm_run_opts ro = {
        .sink = &sink,
        .progress = quiet ? DM_PROGRESS_QUIET : DM_PROGRESS_AUTO,
        .argv_text = "dmbench calibrate",
        .sweep_key = text,
        .device = &dev,
    };
    dm_run_result res;
    if (runner_run(s, &e, &ro, &res, &err) != 0)
        goto fail;
    if (res.failed || res.ok == 0) {
        cli_error("calibration run %lld: %zu points failed", (long long)res.run_id, res.failed);
        goto out;
    }

    double plain, kernel, memcpy_gbps;
    char kparams[512], mparams[512];
    int64_t kn, mn;
    if (membw_plain_memcpy((int64_t)n * 4, PLAIN_ITERS, &plain, &err) != 0 ||
        store_open(cli_db_path(db), &st, &err) != 0 ||
        query_best_gbps(st, res.run_id, "kernel", "op=copy", &kernel, kparams, sizeof kparams, &kn, &err) != 0 ||
        query_best_gbps(st, res.run_id, "memcpy", "op=copy", &memcpy_gbps, mparams, sizeof mparams, &mn, &err) != 0)
        goto fail;

    printf("calibration on %s (device %d), run %lld in %s, %ld MiB per copy\n", dev.name,
           dev.index, (long long)res.run_id, cli_db_path(db), mib);
    printf("  %-34s %9.1f GB/s\n", "plain cudaMemcpy loop (events)", plain);
    int ok = report("engine: memcpy variant (median)", memcpy_gbps, plain, "") &
             report("engine: copy kernel, best block", kernel, plain, kparams);

    char buf[64];
    const struct { const char *key; double v; } notes[] = {
        { "plain_memcpy_gbps", plain }, { "engine_memcpy_gbps", memcpy_gbps },
        { "engine_kernel_copy_gbps", kernel },
    };
    for (size_t i = 0; i < sizeof notes / sizeof *notes; i++) {
        snprintf(buf, sizeof buf, "%.2f", notes[i].v);
        if (store_run_note(st, res.run_id, notes[i].key, buf, &err) != 0)
            goto fail;
    }
    if (store_run_note(st, res.run_id, "calibration", ok ? "within 5%" : "outside 5%", &err) != 0)
        goto fail;
    status = ok ? DM_EXIT_OK : DM_EXIT_FAIL;
    goto out;
fail:
    status = cli_fail(&err);
out:
    store_close(st);
    sweep_expansion_free(&e);
    sweep_free(s);
    return status;
}
