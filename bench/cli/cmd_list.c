/* cmd_list.c - `dmbench list [WORKLOAD]`: the workloads, their data generators, their
 * variants, and every parameter with its type, default and allowed values. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "registry.h"
#include "study.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: dmbench list [WORKLOAD]\n\n"
                 "Lists the workloads (or one), their data generators, default sweep and variants,\n"
                 "whether each variant needs a GPU, and every parameter: name, type, default,\n"
                 "allowed values.\n"
                 "Any parameter can be a sweep axis.\n");
}

static const char *type_name(dm_ptype t)
{
    return t == DM_P_INT ? "int" : t == DM_P_REAL ? "real" : "enum";
}

static void print_params(const char *title, const dm_param_spec *p, const char *indent)
{
    if (!p || !p->name)
        return;
    printf("%s%s:\n", indent, title);
    for (; p->name; p++)
        printf("%s  %-14s %-4s  default %-10s allowed %-12s %s\n", indent, p->name,
               type_name(p->type), p->def, p->allowed ? p->allowed : "any", p->help ? p->help : "");
}

static void print_workload(const dm_workload *w)
{
    printf("%s: %s\n", w->name, w->description);
    printf("  generators:");
    for (const char *const *g = w->generators; g && *g; g++)
        printf(" %s", *g);
    printf(" (or a file: dataset: { path: FILE })\n");
    if (w->study && w->study->default_sweep)
        printf("  default sweep: sweeps/%s.yaml\n", w->study->default_sweep);
    print_params("dataset parameters", w->dataset_params, "  ");
    print_params("problem parameters", w->problem_params, "  ");
    printf("  variants:\n");
    for (const dm_variant *v = w->variants; v->name; v++) {
        printf("    %-14s %-3s  %s\n", v->name, v->needs_gpu ? "GPU" : "CPU", v->description);
        print_params("parameters", v->params, "      ");
    }
}

int cmd_list(int argc, char **argv)
{
    const cli_opt opts[] = { { 0 } };
    int first, rc = cli_parse(argc, argv, opts, usage, &first);
    if (rc >= 0)
        return rc;
    if (argc - first > 1)
        return cli_usage_error("list", "expected at most one workload name");
    if (first < argc) {
        dm_err err = { 0 };
        const dm_workload *w = registry_workload(argv[first], &err);
        if (!w)
            return cli_fail(&err);
        print_workload(w);
        return DM_EXIT_OK;
    }
    for (const dm_workload *const *w = registry_workloads(); *w; w++) {
        print_workload(*w);
        if (w[1])
            printf("\n");
    }
    return DM_EXIT_OK;
}
