/* run_record.c - a run's record in the sink: begun, or an unfinished one resumed where
 * this process may continue it (the same card, commit and build), and its notes on the
 * device and on what CUPTI was asked for and can give (runner.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "measure.h"
#include "runner.h"
#include "version.h"

int runner_has_gpu_variants(const dm_sweep *s)
{
    for (int i = 0; i < sweep_nvariants(s); i++)
        if (sweep_variant(s, i)->needs_gpu)
            return 1;
    return 0;
}

/* 1 when the run measured at was is not this process's to continue: another card (or a
 * card where there was none, or the other way round), another commit or a tree dirty on
 * one side only, other build flags; why says which. (Two builds of one commit's dirty
 * tree cannot be told apart.) */
static int origin_differs(const dm_run_origin *was, const dm_device *dev, char *why, size_t n)
{
    const char *uuid = dev ? dev->uuid : "";
    if (strcmp(was->gpu_uuid, uuid) != 0)
        snprintf(why, n, "it was measured on %s, this is %s",
                 was->gpu_uuid[0] ? was->gpu_uuid : "no GPU", uuid[0] ? uuid : "no GPU");
    else if (strcmp(was->git_commit, dm_git_commit) != 0 || was->git_dirty != dm_git_dirty)
        snprintf(why, n, "it was built from %s%s, this dmbench from %s%s", was->git_commit,
                 was->git_dirty ? " (dirty)" : "", dm_git_commit, dm_git_dirty ? " (dirty)" : "");
    else if (strcmp(was->build_flags, dm_build_flags) != 0)
        snprintf(why, n, "it was built with '%s', this dmbench with '%s'", was->build_flags,
                 dm_build_flags);
    else
        return 0;
    return 1;
}

int runner_record_begin(const dm_sink *sink, const dm_sweep *s, const dm_workload *w,
                        dm_progress *progress, dm_measure_ctx *mc, const dm_expansion *e,
                        const dm_run_opts *o, int64_t *run_id, dm_err *err)
{
    if (o->resume) {
        dm_run_origin was;
        char why[512];
        if (DM_SINK_CALL(sink, find_resumable, sweep_name(s), o->sweep_key, o->shard, run_id, &was,
                 err) != 0)
            return err->code;
        if (*run_id && origin_differs(&was, o->device, why, sizeof why)) {
            if (!o->force_new_run)
                return dm_err_set(err, DM_EINPUT, "run %lld of sweep '%s' cannot be resumed "
                                  "here: %s; --force-new-run starts a new run",
                                  (long long)*run_id, sweep_name(s), why);
            progress_note(progress, 0, "not resuming run %lld (%s); starting a new one",
                          (long long)*run_id, why);
            *run_id = 0;
        }
        if (*run_id) {
            progress_note(progress, 0, "resuming run %lld", (long long)*run_id);
            return DM_SINK_CALL(sink, run_reopen, *run_id, err);
        }
        progress_note(progress, 0, "no unfinished run of sweep '%s' to resume; starting a new one",
                      sweep_name(s));
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    const dm_variant *base = sweep_baseline(s);
    dm_run_info info = {
        .host = host,
        .device = o->device,
        .no_gpu_reason = o->no_gpu_reason,
        .sm_clock_mhz_start = measure_sm_clock(mc),
        .mem_clock_mhz_start = measure_mem_clock(mc),
        .clock_source = measure_clock_source(mc),
        .dmbench_version = dm_version,
        .git_commit = dm_git_commit,
        .git_dirty = dm_git_dirty,
        .build_flags = dm_build_flags,
        .argv = o->argv_text,
        .sweep_name = sweep_name(s),
        .sweep_path = sweep_path(s),
        .sweep_text = o->sweep_key,
        .workload = w->name,
        .baseline = base ? base->name : NULL,
        .measure = sweep_measure(s),
        .points_total = (int64_t)e->n,
        .points_planned = (int64_t)runner_shard_planned(e, o->shard),
        .shard = o->shard,
    };
    return DM_SINK_CALL(sink, run_begin, &info, run_id, err);
}

int runner_note_device(const dm_sink *sink, int64_t run_id, const dm_device *dev, dm_err *err)
{
    char key[64], value[32];
    double v;
    for (const char *const *p = device_prop_names(); *p; p++) {
        if (device_prop(dev, *p, &v) != 0)
            continue;
        snprintf(key, sizeof key, "device.%s", *p);
        dm_format_double(v, value, sizeof value);
        if (DM_SINK_CALL(sink, run_note, run_id, key, value, err))
            return err->code;
    }
    return 0;
}

int runner_note_cupti(const dm_sink *sink, int64_t run_id, dm_cupti *cupti, int profile,
                      int trace, const cupti_metric_list *metrics, dm_err *err)
{
    char list[2048], passes[16];
    const char *problem = cupti_counters_problem(cupti);
    if (profile) {
        cupti_metrics_format(metrics, list, sizeof list);
        snprintf(passes, sizeof passes, "%d", cupti_passes(cupti));
        if (DM_SINK_CALL(sink, run_note, run_id, "cupti.metrics", list, err) ||
            DM_SINK_CALL(sink, run_note, run_id, "cupti.counters",
                           problem[0] ? problem : "available", err) ||
            (!problem[0] &&
             (DM_SINK_CALL(sink, run_note, run_id, "cupti.chip", cupti_chip(cupti), err) ||
              DM_SINK_CALL(sink, run_note, run_id, "cupti.passes", passes, err))))
            return err->code;
    }
    if (cupti_attrs_problem(cupti)[0] &&
        DM_SINK_CALL(sink, run_note, run_id, "cupti.launches", cupti_attrs_problem(cupti),
                       err))
        return err->code;
    return trace ? DM_SINK_CALL(sink, run_note, run_id, "cupti.timeline", "traced", err) : 0;
}

