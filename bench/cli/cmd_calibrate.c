/* cmd_calibrate.c - `dmbench calibrate`: checks the measurement engine against a plain
 * measurement outside it, for each registered workload that brings a calibration (say, a
 * copy bandwidth against a cudaMemcpy loop timed with CUDA events). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "cli.h"
#include "device.h"
#include "registry.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench calibrate [WORKLOAD] [--db PATH] [--mib N] [--device N] [--quiet]\n\n"
                 "Runs each workload's calibration (or WORKLOAD's): a measurement taken through the\n"
                 "engine (%d MiB per array by default) and the same quantity measured plainly\n"
                 "beside it, both stored in the run; fails (exit 1) unless they agree within the\n"
                 "calibration's tolerance. Workloads with one:",
            256);
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        if ((*w)->calibration)
            fprintf(out, " %s", (*w)->name);
    fprintf(out, ".\n");
}

/* Runs w's calibration and prints it; returns the exit status. */
static int calibrate_one(const dm_workload *w, const dm_device *dev, const char *db, long mib,
                         int quiet)
{
    calibrate_opts o = {
        .w = w, .device = dev, .db_path = db, .bytes = (int64_t)mib * 1024 * 1024,
        .progress = quiet ? DM_PROGRESS_QUIET : DM_PROGRESS_AUTO,
    };
    calibrate_result r;
    dm_err err = { 0 };
    if (calibrate_run(&o, &r, &err) != 0)
        return cli_fail(&err);
    if (r.failed) {
        cli_error("%s calibration run %lld: %zu points failed", w->name, (long long)r.run_id,
                  r.failed);
        return DM_EXIT_FAIL;
    }
    const dm_calibration *c = w->calibration;
    printf("%s calibration on %s (device %d), run %lld in %s, %ld MiB per array\n", w->name,
           dev->name, dev->index, (long long)r.run_id, db, mib);
    printf("  %-34s %9.1f GB/s\n", c->plain_name, r.plain);
    for (int i = 0; i < r.n; i++) {
        const calibrate_line *l = &r.lines[i];
        char what[64];
        snprintf(what, sizeof what, "engine: %s, best point", l->variant);
        printf("  %-34s %9.1f GB/s   ratio %.3f   %s %.0f%%   %s\n", what, l->gbps, l->ratio,
               l->within ? "within" : "OUTSIDE", c->tolerance * 100, l->params);
    }
    return r.ok ? DM_EXIT_OK : DM_EXIT_FAIL;
}

int cmd_calibrate(int argc, char **argv)
{
    const char *db = NULL;
    long mib = 256, device_index = 0;
    int quiet = 0;
    dm_err err = { 0 };
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &db),
        CLI_OPT_INT("mib", &mib, 1, 65536),
        CLI_OPT_INT("device", &device_index, 0, 1024),
        { .name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .dest = &quiet, .value = 1 },
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    const dm_workload *only = NULL;
    if (first < argc && !(only = registry_workload(argv[first++], &err)))
        return cli_fail(&err);
    if (first != argc)
        return cli_usage_error("calibrate", "unexpected argument '%s'", argv[first]);
    if (only && !only->calibration)
        return cli_usage_error("calibrate", "workload '%s' has no calibration", only->name);

    char why[512] = "";
    dm_device dev;
    const dm_device *devp;
    if (device_pick((int)device_index, &dev, &devp, why, sizeof why, &err) != 0)
        return cli_fail(&err);
    if (!devp) {
        cli_error("calibration needs a GPU: %s", why);
        return DM_EXIT_FAIL;
    }

    int status = DM_EXIT_OK;
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        if (!(*w)->calibration || (only && *w != only))
            continue;
        int s = calibrate_one(*w, devp, cli_db_path(db), mib, quiet);
        if (s > status)
            status = s;
    }
    return status;
}
