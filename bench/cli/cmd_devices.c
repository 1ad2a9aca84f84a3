/* cmd_devices.c - `dmbench devices`: the GPUs this machine has, the properties runs
 * record and sweep constraints test, and which of this binary's GPU code each runs (SASS,
 * PTX or none, and what the driver loads), as text or JSON. No GPU is reported, not an
 * error. */
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "cli.h"
#include "device.h"
#include "gpu_probe.h"
#include "version.h"

/* Which of this binary's GPU code a GPU runs: worked out from the architectures it was
 * built for (arch_choose), and the driver's own answer for the clock probe kernel. */
typedef struct devices_code {
    int known;                  /* arch_choose read dm_cuda_archs; else line says why not */
    dm_arch_choice c;
    char arch[32];              /* the code chosen: "sm_90"; "" for none */
    char line[DM_ERR_MAX + 16]; /* as the text output says it */
    int loaded;                 /* the driver loaded the probe: binary and ptx say as what */
    int binary, ptx;
    dm_err why;                 /* loaded 0: why not */
} devices_code;

static void devices_code_of(const dm_device *d, devices_code *k)
{
    dm_err err = {0};
    k->known = arch_choose(dm_cuda_archs, d->cc_major, d->cc_minor, &k->c, &err) == 0;
    arch_name(&k->c, k->arch, sizeof k->arch);
    if (k->known)
        arch_describe(&k->c, dm_cuda_archs, d->cc_major, d->cc_minor, k->line, sizeof k->line);
    else
        snprintf(k->line, sizeof k->line, "unknown: %s", err.msg);
    k->loaded = gpu_probe_code(d->index, &k->binary, &k->ptx, &k->why) == 0;
}

static void devices_usage(FILE *out)
{
    fprintf(out, "usage: dmbench devices [--json] [--help]\n\n"
                 "Lists the GPUs and their properties: name, UUID, PCI bus id, compute\n"
                 "capability, SMs, memory, L2, thread and shared-memory limits, maximum\n"
                 "clocks, memory bus width, driver and runtime versions, and which of this\n"
                 "binary's GPU code each runs: SASS of its architecture, PTX the driver\n"
                 "JIT-compiles, or none (with the rebuild that adds it), beside what the\n"
                 "driver loads. Without a GPU it says why and exits 0.\n\n"
                 "options:\n"
                 "  --json      print JSON: {\"devices\": [...], \"no_gpu_reason\": ...}\n"
                 "  -h, --help  print this help\n");
}

/* A CUDA version number (13000) as "13.0". */
static void devices_version(int v, char *buf, size_t n)
{
    snprintf(buf, n, "%d.%d", v / 1000, v % 1000 / 10);
}

static void devices_print_text(const dm_device *d, const devices_code *k)
{
    char driver[16], runtime[16];
    devices_version(d->driver_version, driver, sizeof driver);
    devices_version(d->runtime_version, runtime, sizeof runtime);
    printf("GPU %d: %s\n", d->index, d->name);
    printf("  uuid                %s\n", d->uuid);
    printf("  pci bus id          %s\n", d->pci_bus_id);
    printf("  compute capability  %d.%d\n", d->cc_major, d->cc_minor);
    printf("  SMs                 %d\n", d->sms);
    printf("  memory              %.1f GiB\n", d->mem_bytes / 1073741824.0);
    printf("  L2                  %.1f MiB\n", d->l2_bytes / 1048576.0);
    printf("  max threads         %d per block, %d per SM\n", d->max_threads_per_block,
           d->max_threads_per_sm);
    printf("  shared memory       %d KiB per block, %d KiB opt-in, %d KiB per SM\n",
           d->smem_per_block / 1024, d->smem_per_block_optin / 1024, d->smem_per_sm / 1024);
    printf("  registers           %d per block\n", d->regs_per_block);
    printf("  warp size           %d\n", d->warp_size);
    printf("  max clocks          %d MHz SM, %d MHz memory\n", d->sm_clock_khz / 1000,
           d->mem_clock_khz / 1000);
    printf("  memory bus          %d bits\n", d->mem_bus_bits);
    printf("  driver / runtime    %s / %s\n", driver, runtime);
    printf("  kernels             %s\n", k->line);
    if (k->loaded)
        printf("  driver loads        sm_%d (from compute_%d)\n", k->binary, k->ptx);
    else
        printf("  driver loads        nothing: %s\n", k->why.msg);
}

/* Prints s as a JSON string literal. */
static void devices_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void devices_print_json(const dm_device *d, const devices_code *k, int first)
{
    char driver[16], runtime[16];
    devices_version(d->driver_version, driver, sizeof driver);
    devices_version(d->runtime_version, runtime, sizeof runtime);
    printf("%s\n    {\"index\": %d, \"name\": ", first ? "" : ",", d->index);
    devices_json_string(d->name);
    printf(", \"uuid\": ");
    devices_json_string(d->uuid);
    printf(", \"pci_bus_id\": ");
    devices_json_string(d->pci_bus_id);
    printf(",\n     \"cc\": \"%d.%d\", \"sms\": %d, \"mem_bytes\": %lld, \"l2_bytes\": %d,\n",
           d->cc_major, d->cc_minor, d->sms, (long long)d->mem_bytes, d->l2_bytes);
    printf("     \"max_threads_per_block\": %d, \"max_threads_per_sm\": %d, "
           "\"regs_per_block\": %d, \"warp_size\": %d,\n",
           d->max_threads_per_block, d->max_threads_per_sm, d->regs_per_block, d->warp_size);
    printf("     \"smem_per_block\": %d, \"smem_per_block_optin\": %d, \"smem_per_sm\": %d,\n",
           d->smem_per_block, d->smem_per_block_optin, d->smem_per_sm);
    printf("     \"sm_clock_mhz\": %d, \"mem_clock_mhz\": %d, \"mem_bus_bits\": %d,\n",
           d->sm_clock_khz / 1000, d->mem_clock_khz / 1000, d->mem_bus_bits);
    printf("     \"driver_version\": \"%s\", \"runtime_version\": \"%s\",\n", driver, runtime);
    printf("     \"kernels\": {\"code\": \"%s\", \"arch\": ",
           k->known ? arch_code_name(k->c.code) : "unknown");
    if (k->arch[0])
        devices_json_string(k->arch);
    else
        printf("null");
    printf(", \"exact\": %s, \"text\": ", k->c.exact ? "true" : "false");
    devices_json_string(k->line);
    if (k->loaded)
        printf(",\n                 \"driver_binary\": %d, \"driver_ptx\": %d, "
               "\"driver_error\": null}}", k->binary, k->ptx);
    else {
        printf(",\n                 \"driver_binary\": null, \"driver_ptx\": null, "
               "\"driver_error\": ");
        devices_json_string(k->why.msg);
        printf("}}");
    }
}

int cmd_devices(int argc, char **argv)
{
    int json = 0;
    const cli_opt opts[] = { CLI_OPT_FLAG("json", &json), { 0 } };
    int first, rc = cli_parse(argc, argv, opts, devices_usage, &first);
    if (rc >= 0)
        return rc;
    if (first < argc)
        return cli_usage_error("devices", "unexpected argument '%s'", argv[first]);

    int n;
    char why[512] = "";
    dm_err err = {0};
    device_count(&n, why, sizeof why);
    if (n == 0) {
        if (json) {
            printf("{\"devices\": [], \"no_gpu_reason\": ");
            devices_json_string(why);
            printf("}\n");
        } else {
            printf("no GPU: %s\n", why);
        }
        return DM_EXIT_OK;
    }
    /* Query them all first, so a failure prints no partial listing. */
    dm_device *devs = calloc((size_t)n, sizeof *devs);
    devices_code *codes = calloc((size_t)n, sizeof *codes);
    if (!devs || !codes) {
        free(devs);
        free(codes);
        cli_error("out of memory");
        return DM_EXIT_FAIL;
    }
    for (int i = 0; i < n; i++) {
        if (device_query(i, &devs[i], &err)) {
            free(devs);
            free(codes);
            return cli_fail(&err);
        }
        devices_code_of(&devs[i], &codes[i]);
    }
    if (json) {
        printf("{\"devices\": [");
        for (int i = 0; i < n; i++)
            devices_print_json(&devs[i], &codes[i], i == 0);
        printf("\n  ], \"no_gpu_reason\": null}\n");
    } else {
        for (int i = 0; i < n; i++) {
            if (i > 0)
                putchar('\n');
            devices_print_text(&devs[i], &codes[i]);
        }
    }
    free(devs);
    free(codes);
    return DM_EXIT_OK;
}
