/* cmd_devices.c - `dmbench devices`: the GPUs this machine has and the properties runs
 * record and sweep constraints test, as text or JSON. No GPU is reported, not an error. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "device.h"

static void devices_usage(FILE *out)
{
    fprintf(out, "usage: dmbench devices [--json] [--help]\n\n"
                 "Lists the GPUs and their properties: name, UUID, PCI bus id, compute\n"
                 "capability, SMs, memory, L2, thread and shared-memory limits, maximum\n"
                 "clocks, memory bus width, driver and runtime versions. Without a GPU it\n"
                 "says why and exits 0.\n\n"
                 "options:\n"
                 "  --json      print JSON: {\"devices\": [...], \"no_gpu_reason\": ...}\n"
                 "  -h, --help  print this help\n");
}

/* A CUDA version number (13000) as "13.0". */
static void devices_version(int v, char *buf, size_t n)
{
    snprintf(buf, n, "%d.%d", v / 1000, v % 1000 / 10);
}

static void devices_print_text(const dm_device *d)
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

static void devices_print_json(const dm_device *d, int first)
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
    printf("     \"driver_version\": \"%s\", \"runtime_version\": \"%s\"}", driver, runtime);
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
    if (!devs) {
        cli_error("out of memory");
        return DM_EXIT_FAIL;
    }
    for (int i = 0; i < n; i++) {
        if (device_query(i, &devs[i], &err)) {
            free(devs);
            return cli_fail(&err);
        }
    }
    if (json) {
        printf("{\"devices\": [");
        for (int i = 0; i < n; i++)
            devices_print_json(&devs[i], i == 0);
        printf("\n  ], \"no_gpu_reason\": null}\n");
    } else {
        for (int i = 0; i < n; i++) {
            if (i > 0)
                putchar('\n');
            devices_print_text(&devs[i]);
        }
    }
    free(devs);
    return DM_EXIT_OK;
}
