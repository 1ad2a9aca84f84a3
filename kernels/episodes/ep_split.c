/* ep_split.c - a level's candidates in even contiguous slices over the GPUs, and the
 * per-level maxima of what the GPUs did with them. */
#include "episodes/ep_split.h"

void ep_split(int64_t n, int parts, int part, int64_t *first, int64_t *count)
{
    const int64_t base = n / parts, extra = n % parts;
    *first = part * base + (part < extra ? part : extra);
    *count = base + (part < extra);
}

void ep_split_pass_merge(ep_split_pass *level, const ep_split_pass *gpu)
{
    level->per_gpu = gpu->per_gpu > level->per_gpu ? gpu->per_gpu : level->per_gpu;
    level->wall_s = gpu->wall_s > level->wall_s ? gpu->wall_s : level->wall_s;
    level->timed |= gpu->timed;
    level->transfer_s = gpu->transfer_s > level->transfer_s ? gpu->transfer_s
                                                            : level->transfer_s;
    level->kernel_s = gpu->kernel_s > level->kernel_s ? gpu->kernel_s : level->kernel_s;
}
