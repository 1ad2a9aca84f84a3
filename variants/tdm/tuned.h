/* Generated on 2026-11-22 by `dmbench tune` --axis block (alpha 0.05, tolerance 0.01),
 * with this workload and one other tuned in one call, from
 * results/gpu-check-tune-h100-2026-11-22.sqlite, runs 1 2 4 5 6 (the two workloads'
 * runs together). These are the tdm rows of that one table, moved here unchanged when
 * it was split per workload; the thread-tex and thread-shared buckets end in
 * ",table=shared" since those variants gained the parameter `table` (its default,
 * shared, is the kernel they were tuned as), and the packed buckets in ",small=auto,
 * small_block=0" since packed gained those parameters: the default point's, which runs
 * the packed kernels the rows were tuned on (or block-tex, where packed's block is not
 * used). block-tex's rows are from a later run: `dmbench tune tdm --variant block-tex` over
 * results/tdm-packed-crossover-h100-2026-11-26.sqlite (sweeps/tdm-packed-crossover.yaml:
 * 15 database lengths x levels 1-3, blocks 32-1024), replacing its three rows of
 * 2026-11-22 (length 393,019 only), so packed's fallback to block-tex finds block-tex's
 * block at each length measured. The sweep expansion uses these values when a sweep of tdm
 * leaves the parameter open. Regenerate with `dmbench tune tdm --header` over one database
 * holding both runs rather than edit. */
#include "tuned_lookup.h"

static const dm_tuned dm_tuned_table[] = {
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,piece=64", 1024 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,piece=64", 384 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,piece=64", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,chunk=0,small=auto,small_block=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,chunk=0,small=auto,small_block=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "packed", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,chunk=0,small=auto,small_block=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,tile=4096,table=shared", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,tile=4096,table=shared", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-shared", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,tile=4096,table=shared", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0,table=shared", 16 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0,table=shared", 16 },
    { "NVIDIA H100 80GB HBM3", "9.0", "thread-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0,table=shared", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=24563,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=24563,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=24563,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=34738,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 512 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=34738,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=34738,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=49127,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 512 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=49127,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=49127,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=69476,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=69476,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=69476,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=98254,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=98254,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=98254,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=138953,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=138953,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=138953,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=196509,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=196509,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=196509,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=277906,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 1024 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=277906,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=277906,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=393019,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=555812,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=555812,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 256 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=555812,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=786038,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=786038,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=786038,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1111625,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 1024 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1111625,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1111625,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 64 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1572076,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1572076,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 224 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=1572076,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 32 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=2223251,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=2223251,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=2223251,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 64 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=3144152,seed=1,plant=ABC,plant_rate=0.001,level=1,episodes=all,count=0", 896 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=3144152,seed=1,plant=ABC,plant_rate=0.001,level=2,episodes=all,count=0", 128 },
    { "NVIDIA H100 80GB HBM3", "9.0", "block-tex", "block", "length=3144152,seed=1,plant=ABC,plant_rate=0.001,level=3,episodes=all,count=0", 64 },
    { 0 },
};
