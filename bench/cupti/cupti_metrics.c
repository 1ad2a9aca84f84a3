/* cupti_metrics.c - the table of built-in metric traits (perfworks name, short column name,
 * unit, description; after nvbench's measure_cupti), the named sets over it, and turning
 * what a sweep or the command line names into a list of metrics to collect. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cupti_dm.h"

/* Checked valid for GH100 with CUDA 13.0's host API (tests/test_cupti.c does it again). */
static const cupti_trait cupti_trait_table[] = {
    {.name = "sm__warps_active.avg.pct_of_peak_sustained_active",
     .short_name = "achieved_occupancy", .unit = "%",
     .description = "active warps per active cycle, as a share of the SM's warp slots"},
    {.name = "smsp__sass_branch_targets_threads_divergent.sum",
     .short_name = "branch_divergent", .unit = "branch targets",
     .description = "branch targets where active threads of a warp went different ways"},
    {.name = "smsp__sass_average_branch_targets_threads_uniform.pct",
     .short_name = "branch_uniformity", .unit = "%",
     .description = "share of branch targets where all active threads went the same way"},
    {.name = "smsp__average_thread_inst_executed_per_inst_executed.pct",
     .short_name = "warp_exec_efficiency", .unit = "%",
     .description = "active threads per executed instruction, as a share of the warp"},
    {.name = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
     .short_name = "local_load_sectors", .unit = "sectors",
     .description = "sectors requested by local-memory loads (register spills)"},
    {.name = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
     .short_name = "local_store_sectors", .unit = "sectors",
     .description = "sectors requested by local-memory stores (register spills)"},
    {.name = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     .short_name = "shared_load_bank_conflicts", .unit = "conflicts",
     .description = "shared-memory bank conflicts of loads"},
    {.name = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     .short_name = "shared_store_bank_conflicts", .unit = "conflicts",
     .description = "shared-memory bank conflicts of stores"},
    {.name = "dram__bytes_read.sum", .short_name = "dram_read_bytes", .unit = "bytes",
     .description = "bytes read from device memory"},
    {.name = "dram__bytes_write.sum", .short_name = "dram_write_bytes", .unit = "bytes",
     .description = "bytes written to device memory"},
    {.name = "lts__t_sector_hit_rate.pct", .short_name = "l2_hit_rate", .unit = "%",
     .description = "share of L2 sector lookups that hit"},
    {.name = "l1tex__t_sector_hit_rate.pct", .short_name = "l1_hit_rate", .unit = "%",
     .description = "share of L1/texture sector lookups that hit"},
    {.name = "gpu__time_duration.sum", .short_name = "duration", .unit = "ns",
     .description = "kernel duration (under replay: not a timing)"},
    /* Issue and pipes: an SM sub-partition issues one warp instruction a cycle; on
     * Hopper the ALU pipe (integer logic, compares, selects) takes half a warp
     * instruction a cycle, the FMA pipe (IMAD included) one. */
    {.name = "smsp__inst_executed.sum", .short_name = "inst_executed", .unit = "warp instructions",
     .description = "warp instructions executed"},
    {.name = "smsp__issue_active.avg.pct_of_peak_sustained_active", .short_name = "issue_active",
     .unit = "%", .description = "cycles with an instruction issued, as a share of active cycles"},
    {.name = "smsp__inst_executed_pipe_alu.sum", .short_name = "inst_alu",
     .unit = "warp instructions", .description = "warp instructions executed on the ALU pipe"},
    {.name = "smsp__inst_executed_pipe_fma.sum", .short_name = "inst_fma",
     .unit = "warp instructions", .description = "warp instructions executed on the FMA pipe"},
    {.name = "smsp__inst_executed_pipe_cbu.sum", .short_name = "inst_branch",
     .unit = "warp instructions",
     .description = "warp instructions executed on the branch unit (branches, convergence)"},
    {.name = "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
     .short_name = "alu_active", .unit = "%",
     .description = "cycles the ALU pipe was busy, as a share of active cycles"},
    {.name = "smsp__cycles_active.avg", .short_name = "smsp_cycles", .unit = "cycles",
     .description = "cycles a sub-partition had work, averaged over sub-partitions"},
    {0},
};

static const char *const set_occupancy[] = {"achieved_occupancy", NULL};
static const char *const set_divergence[] = {"branch_divergent", "branch_uniformity",
                                             "warp_exec_efficiency", NULL};
static const char *const set_local[] = {"local_load_sectors", "local_store_sectors", NULL};
static const char *const set_bank[] = {"shared_load_bank_conflicts",
                                       "shared_store_bank_conflicts", NULL};
static const char *const set_dram[] = {"dram_read_bytes", "dram_write_bytes", NULL};
static const char *const set_cache[] = {"l2_hit_rate", "l1_hit_rate", NULL};
static const char *const set_duration[] = {"duration", NULL};
static const char *const set_issue[] = {"inst_executed", "issue_active", "inst_alu", "inst_fma",
                                        "inst_branch", "alu_active", "smsp_cycles", NULL};
static const char *const set_all[] = {
    "achieved_occupancy", "branch_divergent", "branch_uniformity", "warp_exec_efficiency",
    "local_load_sectors", "local_store_sectors", "shared_load_bank_conflicts",
    "shared_store_bank_conflicts", "dram_read_bytes", "dram_write_bytes", "l2_hit_rate",
    "l1_hit_rate", "duration", "inst_executed", "issue_active", "inst_alu", "inst_fma",
    "inst_branch", "alu_active", "smsp_cycles", NULL,
};

static const cupti_set cupti_set_table[] = {
    {.name = "occupancy", .description = "achieved occupancy", .metrics = set_occupancy},
    {.name = "divergence", .description = "branch divergence and uniformity, warp "
     "execution efficiency", .metrics = set_divergence},
    {.name = "local_memory", .description = "local-memory load and store sectors",
     .metrics = set_local},
    {.name = "bank_conflicts", .description = "shared-memory bank conflicts",
     .metrics = set_bank},
    {.name = "dram", .description = "device-memory bytes read and written",
     .metrics = set_dram},
    {.name = "cache", .description = "L2 and L1 hit rates", .metrics = set_cache},
    {.name = "duration", .description = "kernel duration under replay",
     .metrics = set_duration},
    {.name = "issue", .description = "warp instructions executed, in all and per pipe (ALU, "
     "FMA, branch), issue and ALU-pipe activity, active cycles", .metrics = set_issue},
    {.name = "all", .description = "every built-in metric", .metrics = set_all},
    {0},
};

const cupti_trait *cupti_traits(void)
{
    return cupti_trait_table;
}

const cupti_set *cupti_sets(void)
{
    return cupti_set_table;
}

/* The built-in metric called name (short or perfworks), or NULL. */
static const cupti_trait *cupti_trait_find(const char *name)
{
    for (const cupti_trait *t = cupti_trait_table; t->name; t++)
        if (strcmp(t->short_name, name) == 0 || strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* 1 when name looks like a perfworks metric: lower-case unit, "__", counter, and a
 * rollup or submetric after a dot (dram__bytes_read.sum). */
static int cupti_perfworks_shaped(const char *name)
{
    const char *sep = strstr(name, "__");
    const char *dot = strchr(name, '.');
    if (!sep || sep == name || !dot || dot < sep + 2 || !dot[1])
        return 0;
    for (const char *p = name; *p; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' ||
              *p == '.'))
            return 0;
    return 1;
}

/* Appends a metric unless l has it. Returns 0, or DM_EINPUT when l is full. */
static int cupti_list_put(cupti_metric_list *l, const char *name, const char *short_name,
                          const char *unit, dm_err *err)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->m[i].name, name) == 0)
            return 0;
    if (l->n == CUPTI_MAX_METRICS)
        return dm_err_set(err, DM_EINPUT, "more than %d metrics; expected at most %d",
                          CUPTI_MAX_METRICS, CUPTI_MAX_METRICS);
    cupti_metric *m = &l->m[l->n++];
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->short_name, sizeof m->short_name, "%s", short_name);
    snprintf(m->unit, sizeof m->unit, "%s", unit);
    return 0;
}

int cupti_metrics_add(cupti_metric_list *l, const char *item, dm_err *err)
{
    for (const cupti_set *s = cupti_set_table; s->name; s++) {
        if (strcmp(s->name, item) != 0)
            continue;
        for (const char *const *m = s->metrics; *m; m++) {
            const cupti_trait *t = cupti_trait_find(*m);
            int rc = cupti_list_put(l, t->name, t->short_name, t->unit, err);
            if (rc)
                return rc;
        }
        return 0;
    }
    const cupti_trait *t = cupti_trait_find(item);
    if (t)
        return cupti_list_put(l, t->name, t->short_name, t->unit, err);
    if (strlen(item) < CUPTI_NAME_MAX && cupti_perfworks_shaped(item))
        return cupti_list_put(l, item, item, "", err);
    char sets[256] = "";
    for (const cupti_set *s = cupti_set_table; s->name; s++)
        snprintf(sets + strlen(sets), sizeof sets - strlen(sets), "%s%s",
                 s == cupti_set_table ? "" : ", ", s->name);
    return dm_err_set(err, DM_EINPUT, "unknown metric '%s'; expected a set (%s), a short "
                      "name such as achieved_occupancy, or a perfworks name such as "
                      "dram__bytes_read.sum", item, sets);
}

int cupti_metrics_parse(cupti_metric_list *l, const char *csv, dm_err *err)
{
    const char *p = csv;
    for (;;) {
        char item[CUPTI_NAME_MAX + 1];
        size_t len = strcspn(p, ",");
        while (len && isspace((unsigned char)*p))
            p++, len--;
        size_t end = len;
        while (end && isspace((unsigned char)p[end - 1]))
            end--;
        if (end == 0)
            return dm_err_set(err, DM_EINPUT, "empty name in metric list '%s'; expected "
                              "names separated by commas", csv);
        if (end > CUPTI_NAME_MAX)
            return dm_err_set(err, DM_EINPUT, "metric name '%.*s...' is longer than %d "
                              "characters", 32, p, CUPTI_NAME_MAX);
        memcpy(item, p, end);
        item[end] = '\0';
        int rc = cupti_metrics_add(l, item, err);
        if (rc)
            return rc;
        p += len;
        if (*p != ',')
            return 0;
        p++;
    }
}

void cupti_metrics_format(const cupti_metric_list *l, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->n && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", l->m[i].short_name);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}
