/* Generated on 2026-11-22 by `dmbench tune` --axis block (alpha 0.05, tolerance 0.01),
 * with this workload and one other tuned in one call, from
 * results/gpu-check-tune-h100-2026-11-22.sqlite, runs 1 2 4 5 6 (the two workloads'
 * runs together). These are the tdm rows of that one table, moved here unchanged when
 * it was split per workload; the thread-tex and thread-shared buckets end in
 * ",table=shared" since those variants gained the parameter `table` (its default,
 * shared, is the kernel they were tuned as), and the packed buckets in ",small=auto,
 * small_block=0" since packed gained those parameters: the default point's, which runs
 * the packed kernels the rows were tuned on (or block-tex, where packed's block is not
 * used). The sweep expansion uses these values when a sweep of tdm leaves the parameter
 * open. Regenerate with `dmbench tune tdm --header` rather than edit. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,piece=64", 1024 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,piece=64", 384 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,piece=64", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,chunk=0,small=auto,small_block=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,chunk=0,small=auto,small_block=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,chunk=0,small=auto,small_block=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,tile=4096,table=shared", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,tile=4096,table=shared", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,tile=4096,table=shared", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,table=shared", 16 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,table=shared", 16 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,table=shared", 32 },
    { 0 },
};
