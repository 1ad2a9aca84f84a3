/* Generated on 2026-11-22 by `dmbench tune` --axis block (alpha 0.05, tolerance 0.01),
 * with this workload and one other tuned in one call, from
 * results/gpu-check-tune-h100-2026-11-22.sqlite, runs 1 2 4 5 6 (the two workloads'
 * runs together). These are the membw rows of that one table, moved here unchanged when
 * it was split per workload. The sweep expansion uses these values when a sweep of
 * membw leaves the parameter open. Regenerate with `dmbench tune membw --header` rather
 * than edit. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=1", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=2", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=3", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=4", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4096,seed=1,op=copy,blocks_per_sm=5", 96 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=1048576,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=1048576,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=2097152,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=2097152,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4194304,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=4194304,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=8388608,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=8388608,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=16777216,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=16777216,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=33554432,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=33554432,seed=1,op=triad,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=67108864,seed=1,op=copy,blocks_per_sm=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "kernel", "block", "n=67108864,seed=1,op=triad,blocks_per_sm=0", 128 },
    { 0 },
};
