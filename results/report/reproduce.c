/* reproduce.c - what `dmbench reproduce` can reproduce (the registered workloads'
 * studies' targets, then the published tables results/published lists for workloads
 * still to come), and the writer's frame: what the target is, which run measured it,
 * then its kind's body. */
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "reproduce.h"

/* The study target called name (sweep NULL) or measured by sweep (name NULL) into *out.
 * Returns 1, or 0 when no study has one. */
static int find_in_studies(const char *name, const char *sweep, repro_target *out)
{
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        for (const dm_target *t = (*w)->study ? (*w)->study->targets : NULL; t && t->name; t++)
            if (name ? strcmp(t->name, name) == 0 : t->sweep && strcmp(t->sweep, sweep) == 0) {
                *out = (repro_target){ .t = t, .workload = (*w)->name, .study = (*w)->study };
                return 1;
            }
    return 0;
}

size_t repro_targets(const dm_pub_table *pub, repro_target *out, size_t max)
{
    size_t n = 0;
    for (const dm_workload *const *w = registry_workloads(); *w; w++)
        for (const dm_target *t = (*w)->study ? (*w)->study->targets : NULL;
             t && t->name && n < max; t++)
            out[n++] = (repro_target){ .t = t, .workload = (*w)->name, .study = (*w)->study };
    repro_target seen;
    for (size_t i = 0; i < pub->ntargets && n < max; i++)
        if (!find_in_studies(pub->targets[i].target.name, NULL, &seen))
            out[n++] = (repro_target){ .t = &pub->targets[i].target,
                                       .workload = pub->targets[i].workload };
    return n;
}

int repro_find(const dm_pub_table *pub, const char *name, repro_target *out)
{
    if (find_in_studies(name, NULL, out))
        return 1;
    for (size_t i = 0; i < pub->ntargets; i++)
        if (strcmp(pub->targets[i].target.name, name) == 0) {
            *out = (repro_target){ .t = &pub->targets[i].target,
                                   .workload = pub->targets[i].workload };
            return 1;
        }
    return 0;
}

int repro_find_sweep(const char *sweep, repro_target *out)
{
    return find_in_studies(NULL, sweep, out);
}

int repro_write(const chz_ctx *c, const dm_pub_table *pub, const repro_target *rt,
                const chz_run *run, dm_report_doc *d, dm_err *err)
{
    const dm_target *t = rt->t;
    char head[256], anchor[96];
    snprintf(head, sizeof head, "%s: %s", t->name, t->item);
    snprintf(anchor, sizeof anchor, "%s-run%lld", t->name, (long long)(run ? run->id : 0));
    report_heading(d, 3, run && run->id ? anchor : t->name, head);
    report_para(d, "%s, %s (papers/%s.txt): %s.", t->paper, t->item, t->paper, t->caption);
    if (!t->sweep) {
        if (registry_workload(rt->workload, &(dm_err){ 0 }))
            report_para(d, "Not measurable here: the %s workload's study has no sweep for "
                           "it yet. The published values are listed so that measured ones "
                           "can be set beside them when it has.", rt->workload);
        else
            report_para(d, "Not measurable here: this build has no %s workload, so nothing "
                           "measures it yet. The published values are listed so that "
                           "measured ones can be set beside them when it comes.",
                        rt->workload);
        repro_write_published(pub, t, 1, d);
        return 0;
    }
    if (!run || !run->id) {
        report_para(d, "Not measured: the database holds no complete run of sweeps/%s.yaml "
                       "on this card; `dmbench reproduce %s` runs it.", t->sweep, t->name);
        if (t->table)
            repro_write_published(pub, t, 1, d);
        return 0;
    }
    report_para(d, "Measured: run %lld of sweeps/%s.yaml in %s, started %s, commit %.12s, "
                   "on %s.", (long long)run->id, t->sweep, store_path(c->st[run->store]),
                run->started, run->commit[0] ? run->commit : "unknown",
                run->gpu[0] ? run->gpu : "no GPU");
    if (!run->gpu[0]) {
        report_para(d, "Not measurable here: the run had no GPU (%s).",
                    run->no_gpu[0] ? run->no_gpu : "no reason recorded");
        if (t->table)
            repro_write_published(pub, t, 1, d);
        return 0;
    }
    return t->kind == DM_TARGET_CARDS ? repro_write_cards(c, pub, t, run, d, err)
                                      : repro_write_figure(c, pub, rt, run, d, err);
}
