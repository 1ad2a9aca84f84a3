/* cli_run.c - running a sweep as `dmbench run` does, for the commands that run one (run,
 * reproduce): its options parsed into cli_run_args, then the sweep loaded, expanded and
 * shown (--dry-run) or handed to the runner, and the run's summary printed. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cupti_dm.h"
#include "device.h"
#include "runner.h"
#include "store.h"

#define DRY_RUN_SHOWN 20
#define CLI_SHARDS_MAX 100000

void cli_run_usage(FILE *out)
{
    fprintf(out,
            "usage: dmbench run SWEEP.yaml [options]\n\n"
            "Expands the sweep matrix, verifies every point against the workload's CPU\n"
            "reference, measures it and stores everything in the results database.\n\n"
            "options:\n"
            "  --db PATH            results database (default $DMBENCH_DB or results/dmbench.sqlite)\n"
            "  -a, --axis AXIS=VALUES\n"
            "                       replace or add an axis, e.g. -a block=[64,128] or\n"
            "                       -a 'n={pow2: [1024, 65536]}' (repeatable)\n"
            "  --variants LIST      run only these of the sweep's variants, comma-separated\n"
            "                       (e.g. --variants cpu-mt,CG); the run keeps the sweep's\n"
            "                       name, so characterize and reproduce read it with the\n"
            "                       sweep's other runs, each point from the newest that has it\n"
            "  --dry-run            print the points before and after pruning; run nothing\n"
            "  --card NAME --cc X.Y with --dry-run: the points as they would be made on that\n"
            "                       card (its block sizes and switch points from the per-card\n"
            "                       store, with the rule that chose each), here without it\n"
            "  --resume             continue the newest unfinished run of this sweep (one\n"
            "                       measured on this card by this build; else refused)\n"
            "  --force-new-run      with --resume: start a new run where that one's card\n"
            "                       or build differs, instead of refusing\n"
            "  --quiet              no progress and no summary\n"
            "  --device N           the GPU to use (default 0)\n"
            "  --devices all|0,1,...\n"
            "                       one worker per GPU (all of one model), taking points from\n"
            "                       one queue; each point runs on one GPU, which it records;\n"
            "                       no --metrics or --timeline (docs/scale-out.md)\n"
            "  --mode cold|hot      override the sweep's measurement mode\n"
            "  --min-samples N, --max-noise FRACTION, --max-time SECONDS\n"
            "                       override the sweep's stopping rule\n"
            "  --point-timeout SECONDS\n"
            "                       a point still running after this long (dataset, reference,\n"
            "                       verification, samples) is stored as failed, the run as\n"
            "                       interrupted, and dmbench exits 1 (--resume goes on\n"
            "                       without it); default: no limit\n"
            "  --criterion median|stdrel\n"
            "                       the noise the rule judges: the median's 95%% confidence\n"
            "                       interval's half-width (default) or the relative\n"
            "                       standard deviation, each over the median or mean\n"
            "  --metrics LIST       hardware metrics per kernel launch, in a profiling pass\n"
            "                       after each GPU point is timed: sets (occupancy,\n"
            "                       divergence, local_memory, bank_conflicts, dram, cache,\n"
            "                       duration, issue, all), short or perfworks names,\n"
            "                       comma-separated; replaces the sweep's 'metrics'\n"
            "  --timeline           trace each GPU point's kernels and copies per stream in an\n"
            "                       unprofiled pass after it is timed\n"
            "  --chip NAME          check metrics against this chip (default: the GPU's, or\n"
            "                       " CUPTI_DEFAULT_CHIP " without one)\n"
            "  --shard I/N          run only shard I of N: the points whose position idx in\n"
            "                       the expansion has idx %% N = I - 1 (docs/scale-out.md)\n"
            "  -h, --help           this text\n");
}

/* Appends s to buf shell-quoted when it needs it. */
static void append_quoted(char *buf, size_t n, const char *s)
{
    size_t used = strlen(buf);
    int plain = s[0] != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./=:,+@") == strlen(s);
    if (used && used + 1 < n)
        buf[used++] = ' ', buf[used] = '\0';
    if (plain) {
        snprintf(buf + used, n - used, "%s", s);
        return;
    }
    for (size_t i = 0; used + 5 < n; i++) {
        if (i == 0)
            buf[used++] = '\'';
        if (s[i] == '\0') {
            buf[used++] = '\'';
            break;
        }
        if (s[i] == '\'') {
            memcpy(buf + used, "'\\''", 4);
            used += 4;
        } else {
            buf[used++] = s[i];
        }
    }
    buf[used] = '\0';
}

/* The metrics to collect: --metrics (csv) when given, else the sweep's list, each name
 * checked against chip with CUPTI's host API (no GPU needed), and the passes kernel replay
 * needs for them. Returns 0, or DM_EINPUT naming the bad name and where it was written. */
static int resolve_metrics(const dm_sweep *s, const char *csv, const char *chip,
                           cupti_metric_list *l, int *passes, dm_err *err)
{
    int rc;
    memset(l, 0, sizeof *l);
    *passes = 0;
    if (csv) {
        if ((rc = cupti_metrics_parse(l, csv, err)) ||
            (l->n && (rc = cupti_metrics_check(chip, l, passes, err))))
            return dm_err_prefix(err, "--metrics %s", csv);
        return 0;
    }
    for (int i = 0; i < sweep_nmetrics(s); i++) {
        int line = 0, col = 0, unused;
        const char *name = sweep_metric(s, i, &line, &col);
        cupti_metric_list one = {0};
        if ((rc = cupti_metrics_add(&one, name, err)) ||
            (rc = cupti_metrics_check(chip, &one, &unused, err)))
            return dm_err_prefix(err, "%s:%d:%d", sweep_path(s), line, col);
        for (int k = 0; k < one.n; k++)
            if ((rc = cupti_metrics_add(l, one.m[k].name, err)))
                return dm_err_prefix(err, "%s:%d:%d", sweep_path(s), line, col);
    }
    if (l->n && (rc = cupti_metrics_check(chip, l, passes, err)))
        return dm_err_prefix(err, "%s", sweep_path(s));
    return 0;
}

/* The chip metrics are checked against: chip when given, else the GPU's, else the
 * default (named as assumed in why). */
static void metrics_chip(const char *chip, const dm_device *dev, char *buf, size_t n,
                         char *why, size_t wn)
{
    dm_err err = {0};
    snprintf(why, wn, "%s", chip ? "from --chip" : "");
    if (chip) {
        snprintf(buf, n, "%s", chip);
        return;
    }
    if (dev && cupti_chip_name(dev->index, buf, n, &err) == 0) {
        snprintf(why, wn, "GPU %d's", dev->index);
        return;
    }
    snprintf(buf, n, "%s", CUPTI_DEFAULT_CHIP);
    snprintf(why, wn, "assumed: %s", dev ? err.msg : "no GPU");
}

static void print_dry_run_cupti(const cupti_metric_list *l, int passes, const char *chip,
                                const char *chip_why, int timeline)
{
    if (l->n == 0)
        printf("metrics: none\n");
    else
        printf("metrics: %d on chip %s (%s), %d pass%s under kernel replay:\n", l->n, chip,
               chip_why, passes, passes == 1 ? "" : "es");
    for (int i = 0; i < l->n; i++)
        printf("  %-28s %-56s %s\n", l->m[i].short_name, l->m[i].name, l->m[i].unit);
    printf("timeline: %s\n", timeline ? "traced after each GPU point" : "no");
}

static void print_dry_run(const dm_sweep *s, const dm_expansion *e, dm_shard shard,
                          const dm_device *dev, const char *no_gpu)
{
    const dm_measure_opts *mo = sweep_measure(s);
    const dm_variant *base = sweep_baseline(s);
    size_t by_constraint = 0, by_support = 0, shown = 0;
    printf("sweep %s (%s): workload %s, %d variant%s, baseline %s\n", sweep_name(s),
           sweep_path(s), sweep_workload(s)->name, sweep_nvariants(s),
           sweep_nvariants(s) == 1 ? "" : "s", base ? base->name : "none");
    if (dev && dev->sms == 0)
        printf("stand-in GPU: %s (cc %d.%d; the limits of every card from 7.5 on: 1024 "
               "threads and 48 KiB of shared memory a block)\n",
               dev->name, dev->cc_major, dev->cc_minor);
    else if (dev)
        printf("device %d: %s (cc %d.%d, %d SMs)\n", dev->index, dev->name, dev->cc_major,
               dev->cc_minor, dev->sms);
    else
        printf("no GPU (%s): constraints on device.* are not evaluated; GPU points would be skipped\n",
               no_gpu);
    for (size_t i = 0; i < e->n; i++) {
        by_constraint += e->points[i].pruned == 1;
        by_support += e->points[i].pruned == 2;
    }
    printf("points: %zu before pruning, %zu after (%zu pruned by constraints, %zu unsupported)\n",
           e->n, e->n - e->n_pruned, by_constraint, by_support);
    if (shard.count)
        printf("shard %d/%d: %zu of the points after pruning (position %% %d = %d); "
               "only they are listed\n", shard.index, shard.count, runner_shard_planned(e, shard),
               shard.count, shard.index - 1);
    printf("measurement: %s, min_samples %d, max_noise %.2f%% (%s), max_time %g s, "
           "max_samples %d, outliers above %g robust sd\n",
           mo->mode == DM_MODE_HOT ? "hot" : "cold", mo->min_samples, mo->max_noise * 100,
           criterion_name(mo->criterion), mo->max_time, mo->max_samples,
           mo->outlier_k > 0 ? mo->outlier_k : DM_OUTLIER_K_DEFAULT);
    for (int pass = 0; pass < 2; pass++) {
        shown = 0;
        for (size_t i = 0; i < e->n && shown < DRY_RUN_SHOWN; i++) {
            const dm_sweep_point *sp = &e->points[i];
            if ((pass == 0) != (sp->pruned == 0) || !runner_in_shard(shard, i))
                continue;
            if (shown++ == 0)
                printf(pass == 0 ? "first points:\n" : "first pruned points:\n");
            char params[DM_KEY_MAX];
            dm_point_format(&sp->point, params, sizeof params);
            printf("  #%-5zu %-10s %s%s%s\n", i, sp->point.variant->name, params,
                   pass ? ": " : "", pass ? sp->reason : "");
            if (sp->point.chosen[0])
                printf("         chosen: %s\n", sp->point.chosen);
        }
    }
}

/* Parses --devices' text, "all" or GPU indices "0,1,..." each once, into a. Returns
 * DM_EXIT_OK, or DM_EXIT_USAGE after the error. */
static int parse_devices(const char *text, cli_run_args *a)
{
    if (strcmp(text, "all") == 0) {
        a->all_devices = 1;
        return DM_EXIT_OK;
    }
    for (const char *p = text;;) {
        char *end = (char *)p;
        long v = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
        if (v < 0 || v > 1023 || (*end && *end != ','))
            return cli_usage_error("run", "--devices %s: expected 'all' or GPU indices such "
                                   "as 0,1", text);
        for (int k = 0; k < a->ndevices; k++)
            if (a->devices[k] == v)
                return cli_usage_error("run", "--devices %s: GPU %ld given twice", text, v);
        if (a->ndevices == CLI_RUN_MAX_DEVICES)
            return cli_usage_error("run", "--devices %s: more than %d GPUs", text,
                                   CLI_RUN_MAX_DEVICES);
        a->devices[a->ndevices++] = (int)v;
        if (!*end)
            return DM_EXIT_OK;
        p = end + 1;
    }
}

/* The GPUs --devices names (a), queried into devs[0..*n): all of one model, since the
 * sweep's constraints are judged on the first. Returns 0, or DM_EINPUT naming
 * --devices. */
static int pick_devices(const cli_run_args *a, dm_device *devs, int *n, dm_err *err)
{
    char why[512] = "";
    int count = 0, rc;
    if ((rc = device_count(&count, why, sizeof why)) != 0)
        return rc;
    if (count == 0)
        return dm_err_set(err, DM_EINPUT, "--devices: no GPU here (%s)", why);
    *n = a->all_devices ? (count < CLI_RUN_MAX_DEVICES ? count : CLI_RUN_MAX_DEVICES)
                        : a->ndevices;
    for (int i = 0; i < *n; i++) {
        int index = a->all_devices ? i : a->devices[i];
        if (index >= count)
            return dm_err_set(err, DM_EINPUT, "--devices: there is no GPU %d (GPUs 0 to %d "
                              "here)", index, count - 1);
        if ((rc = device_query(index, &devs[i], err)) != 0)
            return rc;
        if (strcmp(devs[i].name, devs[0].name) != 0)
            return dm_err_set(err, DM_EINPUT, "--devices: GPU %d is %s and GPU %d is %s; a "
                              "run measures one model of card (run each on its own)",
                              devs[0].index, devs[0].name, index, devs[i].name);
    }
    return 0;
}

/* Parses --shard's text "I/N" (1 <= I <= N) into *shard. Returns DM_EXIT_OK, or
 * DM_EXIT_USAGE after the error. */
static int parse_shard(const char *text, dm_shard *shard)
{
    char *end;
    long i = 0, n = 0;
    if (isdigit((unsigned char)text[0])) {
        i = strtol(text, &end, 10);
        if (*end == '/' && isdigit((unsigned char)end[1]))
            n = strtol(end + 1, &end, 10);
    }
    if (n < 1 || n > CLI_SHARDS_MAX || i < 1 || i > n || *end)
        return cli_usage_error("run", "--shard %s: expected I/N with 1 <= I <= N <= %d, "
                               "e.g. --shard 2/8", text, CLI_SHARDS_MAX);
    *shard = (dm_shard){ .index = (int)i, .count = (int)n };
    return DM_EXIT_OK;
}

int cli_run_parse(int argc, char **argv, int want_sweep, cli_run_args *a)
{
    const char *shard = NULL, *devices = NULL;
    *a = (cli_run_args){ .min_samples = -1, .max_noise = -1, .max_time = -1, .argc = argc,
                         .argv = argv, .device_index = -1 };
    const cli_opt opts[] = {
        CLI_OPT_STR("db", &a->db),
        { .name = "axis", .short_name = 'a', .kind = CLI_LIST, .dest = a->overrides,
          .count = &a->noverrides, .max = CLI_RUN_MAX_OVERRIDES },
        CLI_OPT_STR("variants", &a->variants),
        CLI_OPT_FLAG("dry-run", &a->dry_run),
        CLI_OPT_FLAG("resume", &a->resume),
        CLI_OPT_FLAG("force-new-run", &a->force_new_run),
        { .name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .dest = &a->quiet, .value = 1 },
        CLI_OPT_INT("device", &a->device_index, 0, 1023),
        CLI_OPT_CHOICE("mode", &a->mode, "cold|hot"),
        CLI_OPT_CHOICE("criterion", &a->criterion, "median|stdrel"),
        CLI_OPT_INT("min-samples", &a->min_samples, 1, INT_MAX),
        CLI_OPT_REAL("max-noise", &a->max_noise, 0, 1),
        CLI_OPT_REAL("max-time", &a->max_time, 1e-6, 86400), /* a day per point at most */
        CLI_OPT_REAL("point-timeout", &a->point_timeout, 1e-3, 7 * 86400),
        CLI_OPT_STR("metrics", &a->metrics_csv),
        CLI_OPT_FLAG("timeline", &a->timeline),
        CLI_OPT_STR("chip", &a->chip),
        CLI_OPT_STR("card", &a->card),
        CLI_OPT_STR("cc", &a->cc),
        CLI_OPT_STR("shard", &shard),
        CLI_OPT_STR("devices", &devices),
        { 0 },
    };
    int first, rc = cli_parse(argc, argv, opts, cli_run_usage, &first);
    a->help = rc == DM_EXIT_OK;
    if (rc >= 0)
        return rc;
    if (shard && parse_shard(shard, &a->shard) != DM_EXIT_OK)
        return DM_EXIT_USAGE;
    if (devices && a->device_index >= 0)
        return cli_usage_error("run", "--device and --devices both given; --devices %s names "
                               "every GPU to use", devices);
    if (devices && parse_devices(devices, a) != DM_EXIT_OK)
        return DM_EXIT_USAGE;
    if ((a->card || a->cc) && (!a->card || !a->cc || !a->dry_run || devices ||
                               a->device_index >= 0))
        return cli_usage_error("run", "--card and --cc go together, with --dry-run, and "
                               "without --device or --devices: they stand in for a GPU");
    if (!want_sweep)
        return first == argc ? DM_EXIT_OK
                             : cli_usage_error("run", "unexpected argument '%s'", argv[first]);
    if (first != argc - 1)
        return cli_usage_error("run", first == argc ? "no sweep file given" : "more than one sweep file given");
    a->sweep = argv[first];
    return DM_EXIT_OK;
}

int cli_run_sweep(const cli_run_args *a)
{
    dm_err err = { 0 };
    dm_sweep *s = NULL;
    dm_expansion e = { 0 };
    char *argv_text = NULL, *key = NULL;
    int status = DM_EXIT_USAGE;
    int timeline = a->timeline;

    if (sweep_load(a->sweep, &s, &err) != 0 ||
        (a->variants && sweep_keep_variants(s, a->variants, &err) != 0))
        goto fail;
    for (int i = 0; i < a->noverrides; i++)
        if (sweep_override(s, a->overrides[i], &err) != 0)
            goto fail;
    dm_measure_opts mo = *sweep_measure(s);
    if (a->mode)
        mo.mode = strcmp(a->mode, "hot") == 0 ? DM_MODE_HOT : DM_MODE_COLD;
    if (a->criterion)
        mo.criterion = strcmp(a->criterion, "stdrel") == 0 ? DM_CRIT_STDREL : DM_CRIT_MEDIAN;
    if (a->min_samples > 0)
        mo.min_samples = (int)a->min_samples;
    if (a->max_noise >= 0)
        mo.max_noise = a->max_noise;
    if (a->max_time > 0)
        mo.max_time = a->max_time;
    if (mo.max_samples < mo.min_samples)
        mo.max_samples = mo.min_samples;
    sweep_set_measure(s, &mo);

    dm_device devs[CLI_RUN_MAX_DEVICES];
    const dm_device *devp, *devps[CLI_RUN_MAX_DEVICES];
    char no_gpu[512] = "";
    int ndev = 0;
    if (a->card) {
        if (cli_standin_device(a->card, a->cc, &devs[0], &err) != 0)
            goto fail;
        devp = &devs[0];
    } else if (a->all_devices || a->ndevices) {
        if (pick_devices(a, devs, &ndev, &err) != 0)
            goto fail;
        for (int i = 0; i < ndev; i++)
            devps[i] = &devs[i];
        devp = devps[0];
    } else if (device_pick(a->device_index < 0 ? 0 : (int)a->device_index, &devs[0], &devp,
                           no_gpu, sizeof no_gpu, &err) != 0) {
        goto fail;
    }
    /* Metric names are checked before anything runs. */
    cupti_metric_list metrics;
    char chip[64] = "", chip_why[DM_ERR_MAX + 16] = "";
    int passes = 0;
    timeline = timeline || sweep_timeline(s);
    if (a->metrics_csv || sweep_nmetrics(s) > 0)
        metrics_chip(a->chip, devp, chip, sizeof chip, chip_why, sizeof chip_why);
    if (resolve_metrics(s, a->metrics_csv, chip, &metrics, &passes, &err) != 0)
        goto fail;
    if (a->chip && metrics.n == 0) { /* nothing would check it, so nothing would say it is wrong */
        dm_err_set(&err, DM_EINPUT, "--chip %s: names the chip metrics are checked against, "
                   "and no metrics are asked (--metrics, or the sweep's metrics)", a->chip);
        goto fail;
    }
    if (ndev > 1 && (metrics.n > 0 || timeline)) { /* CUPTI profiles one GPU at a time */
        dm_err_set(&err, DM_EINPUT, "--devices: %d GPUs, and %s asked; profiling runs on one "
                   "GPU (--device N)", ndev, metrics.n > 0 ? "metrics are" : "a timeline is");
        goto fail;
    }
    if (cli_load_card_choices(a->db, devp, &err) != 0 || sweep_expand(s, devp, &e, &err) != 0)
        goto fail;
    sweep_limit_gpus(&e, ndev ? ndev : devp != NULL);
    if (a->dry_run) {
        print_dry_run(s, &e, a->shard, devp, no_gpu);
        for (int i = 1; i < ndev; i++)
            printf("device %d: %s, a worker of its own\n", devs[i].index, devs[i].name);
        print_dry_run_cupti(&metrics, passes, chip, chip_why, timeline);
        status = DM_EXIT_OK;
        goto out;
    }
    if (e.n > 0 && e.n_pruned == e.n) { /* contradictory constraints, or nothing supported */
        dm_err_set(&err, DM_EINPUT, "%s: every point (%zu) is pruned, so nothing would run "
                   "(point #0: %s); --dry-run lists them", sweep_path(s), e.n,
                   e.points[0].reason);
        goto fail;
    }

    size_t alen = 64, klen = strlen(sweep_text(s)) + 64;
    for (int i = 0; i < a->argc; i++)
        alen += strlen(a->argv[i]) * 4 + 3;
    for (int i = 0; i < a->noverrides; i++)
        klen += strlen(a->overrides[i]) + 8;
    if (a->variants)
        klen += strlen(a->variants) + 16;
    argv_text = calloc(1, alen);
    key = calloc(1, klen);
    if (!argv_text || !key) {
        dm_err_set(&err, DM_ERUNTIME, "out of memory");
        goto fail;
    }
    append_quoted(argv_text, alen, "dmbench");
    for (int i = 0; i < a->argc; i++)
        append_quoted(argv_text, alen, a->argv[i]);
    /* --resume matches on what defines the points: the file, the variants kept and the
     * axis overrides. */
    strcpy(key, sweep_text(s));
    if (a->variants)
        snprintf(key + strlen(key), klen - strlen(key), "\n# --variants %s", a->variants);
    for (int i = 0; i < a->noverrides; i++)
        snprintf(key + strlen(key), klen - strlen(key), "\n# -a %s", a->overrides[i]);

    dm_sink sink;
    const char *db = cli_db_path(a->db);
    int db_was_there = access(db, F_OK) == 0;
    if (store_sink_make(db, &sink, &err) != 0)
        goto fail;
    dm_run_opts ro = {
        .sink = &sink,
        .resume = a->resume,
        .force_new_run = a->force_new_run,
        .progress = a->quiet ? DM_PROGRESS_QUIET : DM_PROGRESS_AUTO,
        .argv_text = argv_text,
        .sweep_key = key,
        .device = devp,
        .no_gpu_reason = devp ? NULL : no_gpu,
        .metrics = &metrics,
        .timeline = timeline,
        .shard = a->shard,
        .point_timeout = a->point_timeout,
        .devices = devps,
        .ndevices = ndev,
    };
    dm_run_result res;
    if (runner_run(s, &e, &ro, &res, &err) != 0) {
        /* Bad input discarded the run; a database it made for nothing goes with it. */
        if (err.code == DM_EINPUT && !db_was_there)
            cli_remove_db(db);
        goto fail;
    }
    if (!a->quiet) {
        dm_store *st = NULL;
        if (store_open(cli_db_path(a->db), &st, &err) != 0 || store_show_run(st, res.run_id, stdout, &err) != 0) {
            store_close(st);
            goto fail;
        }
        store_close(st);
        fprintf(stderr, "dmbench: run %lld in %s: %zu ok, %zu failed, %zu skipped, %zu pruned%s\n",
                (long long)res.run_id, cli_db_path(a->db), res.ok, res.failed, res.skipped, res.pruned,
                res.interrupted ? " (interrupted; --resume continues it)" : "");
    }
    if (res.context_lost[0]) {
        fprintf(stderr, "dmbench: error: a GPU point lost the CUDA context (%s); run %lld "
                "stopped there, and `dmbench run --resume` continues it in a new process\n",
                res.context_lost, (long long)res.run_id);
        status = DM_EXIT_FAIL;
        goto out;
    }
    status = res.interrupted ? 130 : res.failed ? DM_EXIT_FAIL : DM_EXIT_OK;
    goto out;
fail:
    status = cli_fail(&err);
out:
    free(argv_text);
    free(key);
    sweep_expansion_free(&e);
    sweep_free(s);
    return status;
}
