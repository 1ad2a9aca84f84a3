/* choosers.c - tdm's variants that choose, per card, what they run: hybrid (block-tex or
 * thread-tex, the faster at the point by the crossover fit f(level) for the card) and
 * packed (its own kernels, or block-tex on databases where the fit of the two has
 * block-tex faster), each kernel at the block chosen for the card; the values chosen,
 * and the rule that chose each, noted in the point at expansion. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossover_lookup.h"
#include "gpu_state.h"
#include "registry.h"
#include "tuned_lookup.h"

/* ---- hybrid -------------------------------------------------------------------------- */

/* The point of kernel that hybrid's pt stands for, in kp: kernel's parameters at their
 * defaults but those pt also has, at pt's values. */
static void tdm_kernel_point(const dm_point *pt, const char *kernel, dm_point *kp)
{
    const dm_variant *v = registry_variant(pt->workload, kernel, NULL);
    /* kernel is a variant of pt's workload, whose defaults parse (test_registry) */
    int rc = v ? registry_point_defaults(pt->workload, v, kp, NULL) : DM_EINPUT;
    assert(rc == 0);
    (void)rc;
    for (int i = 0; i < kp->nparams; i++) {
        const dm_value *own = dm_point_get(pt, kp->specs[i]->name);
        if (own)
            kp->values[i] = *own;
    }
}

/* The block kernel runs at for pt: tuned for dev (NULL: none) at kernel's point for pt
 * (tdm_kernel_point), else the kernel's default; how it was chosen written into how (of
 * size hown). */
static int64_t tdm_kernel_block(const dm_point *pt, const dm_device *dev, const char *kernel,
                                char *how, size_t hown)
{
    int64_t block = strtoll(TDM_BLOCK_DEFAULT, NULL, 10), tuned;
    dm_point kp;
    snprintf(how, hown, "%s's default: no tuning of it for this problem on this card or its "
             "architecture", kernel);
    if (dev) {
        tdm_kernel_point(pt, kernel, &kp);
        if (tuned_lookup(&kp, NULL, dev, "block", &tuned, how, hown)) /* resolve() sees no file */
            block = tuned;
    }
    return block;
}

/* Gives an open block (0) of pt the block of kernel (tdm_kernel_block), noting why. */
static void tdm_hybrid_block(dm_point *pt, const dm_device *dev, const char *kernel)
{
    char how[DM_HOW_MAX];
    if (dm_point_int(pt, "block") != 0)
        return;
    int64_t block = tdm_kernel_block(pt, dev, kernel, how, sizeof how);
    dm_point_set_int(pt, "block", block);
    dm_point_note_choice(pt, "block", "%lld, %s's block: %s", (long long)block, kernel, how);
}

/* Why a point that leaves its switch point open cannot run on dev. */
static void tdm_no_fit(const dm_device *dev, char *why, size_t n)
{
    snprintf(why, n,
             "no crossover fit for tdm thread-tex/block-tex on %s or compute capability "
             "%d.%d; run dmbench crossover --store (or dmbench tune --card), or set switch_at",
             dev->name, dev->cc_major, dev->cc_minor);
}

/* The kernel hybrid runs at pt on dev (NULL: no fit to use), or NULL when the switch
 * point is open with no fit or the problem's size is unknown (a bad episodes file). */
static const char *tdm_hybrid_kernel(const dm_point *pt, const dm_device *dev)
{
    int64_t episodes;
    if (tdm_problem_size(pt, &episodes, NULL) != 0)
        return NULL;
    return tdm_hybrid_choose((int)dm_point_int(pt, "level"), episodes,
                             dev ? tdm_hybrid_fit(pt->workload, dev, NULL, 0) : NULL,
                             dm_point_int(pt, "switch_at"), dm_point_str(pt, "below"));
}

/* At expansion: an open switch point becomes the fit's f(level), an open side (below
 * auto) the fit's, and an open block the chosen kernel's; so the stored parameters say
 * which kernel ran. */
void tdm_hybrid_resolve(dm_point *pt, const dm_device *dev)
{
    char how[DM_HOW_MAX];
    const char *kernel;
    const dm_crossover_fit *fit = tdm_hybrid_fit(pt->workload, dev, how, sizeof how);
    int64_t level = dm_point_int(pt, "level");
    if (level < 1 || level > TDM_MAX_LEVEL)
        return;
    if (fit && dm_point_int(pt, "switch_at") == 0) {
        int64_t at = tdm_switch_at(fit, (int)level);
        dm_point_set_int(pt, "switch_at", at);
        dm_point_note_choice(pt, "switch_at", "%lld, %s", (long long)at, how);
    }
    if (fit && strcmp(dm_point_str(pt, "below"), "auto") == 0) {
        dm_point_set_str(pt, "below", fit->below ? fit->below : "block-tex");
        dm_point_note_choice(pt, "below", "%s, %s", dm_point_str(pt, "below"), how);
    }
    if ((kernel = tdm_hybrid_kernel(pt, dev)) != NULL)
        tdm_hybrid_block(pt, dev, kernel);
}

int tdm_hybrid_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    const char *kernel;
    if (tdm_count_refuse(pt, why, n))
        return 1;
    if (dev && dm_point_int(pt, "switch_at") == 0 && !tdm_hybrid_fit(pt->workload, dev, NULL, 0)) {
        tdm_no_fit(dev, why, n);
        return 1;
    }
    if ((kernel = tdm_hybrid_kernel(pt, dev)) == NULL)
        return tdm_refuse(pt, dev, TDM_THREAD_MAX_LEVEL, 0, why, n);
    dm_point kp = *pt;
    tdm_hybrid_block(&kp, dev, kernel);
    return strcmp(kernel, "thread-tex") == 0 ? tdm_thread_tex_supports(&kp, dev, why, n)
                                             : tdm_block_tex_supports(&kp, dev, why, n);
}

/* Sets up the kernel tdm_hybrid_choose picks, through that kernel's own setup; its
 * run, output and teardown then serve. */
int tdm_hybrid_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                     void **state, dm_err *err)
{
    const char *kernel;
    char why[512];
    int64_t episodes;
    int rc;
    if ((rc = tdm_problem_size(pt, &episodes, err)) != 0)
        return rc;
    kernel = tdm_hybrid_choose((int)dm_point_int(pt, "level"), episodes,
                               tdm_hybrid_fit(pt->workload, ex->device, NULL, 0),
                               dm_point_int(pt, "switch_at"), dm_point_str(pt, "below"));
    if (!kernel) {
        tdm_no_fit(ex->device, why, sizeof why);
        return dm_err_set(err, DM_EINPUT, "%s", why);
    }
    dm_point kp = *pt;
    tdm_hybrid_block(&kp, ex->device, kernel);
    return strcmp(kernel, "thread-tex") == 0 ? tdm_thread_tex_setup(ex, ds, &kp, state, err)
                                             : tdm_block_tex_setup(ex, ds, &kp, state, err);
}

/* ---- packed -------------------------------------------------------------------------- */

/* The kernels packed runs at pt on dev (NULL: no fit to use), "packed" or "block-tex":
 * its small parameter's, or with small auto the one the stored fit picks
 * (tdm_packed_choose). */
static const char *tdm_packed_kernel(const dm_point *pt, const dm_device *dev)
{
    return tdm_packed_choose((int)dm_point_int(pt, "level"), dm_point_int(pt, "length"),
                             dev ? tdm_packed_fit(pt->workload, dev, NULL, 0) : NULL,
                             dm_point_str(pt, "small"));
}

/* The block block-tex runs at where packed runs it: small_block, or with small_block 0
 * block-tex's own (tdm_kernel_block, how it was chosen written into how unless NULL). */
static int64_t tdm_packed_small_block(const dm_point *pt, const dm_device *dev, char *how,
                                      size_t hown)
{
    char own[DM_HOW_MAX];
    int64_t block = dm_point_int(pt, "small_block");
    return block ? block : tdm_kernel_block(pt, dev, "block-tex", how ? how : own,
                                            how ? hown : sizeof own);
}

/* pt as the point block-tex runs where packed runs it on dev: its block
 * tdm_packed_small_block. */
static void tdm_packed_as_block_tex(const dm_point *pt, const dm_device *dev, dm_point *kp)
{
    *kp = *pt;
    dm_point_set_int(kp, "block", tdm_packed_small_block(pt, dev, NULL, 0));
}

/* At expansion: small_block becomes the block block-tex runs at where packed runs it on
 * dev (the rule that chose it and the fit that hands off noted), and 0 where its own
 * kernels run; so the stored parameters say which ran. small stays as set (auto, say):
 * the tuned blocks of packed's own kernels are found by it before this runs, and the
 * buckets `dmbench tune` makes of stored points carry it. */
void tdm_packed_resolve(dm_point *pt, const dm_device *dev)
{
    char how[DM_HOW_MAX], fit[DM_HOW_MAX];
    if (strcmp(tdm_packed_kernel(pt, dev), "block-tex") != 0) {
        dm_point_set_int(pt, "small_block", 0);
        return;
    }
    int open = dm_point_int(pt, "small_block") == 0;
    int64_t block = tdm_packed_small_block(pt, dev, how, sizeof how);
    dm_point_set_int(pt, "small_block", block);
    if (strcmp(dm_point_str(pt, "small"), "auto") == 0 &&
        tdm_packed_fit(pt->workload, dev, fit, sizeof fit))
        dm_point_note_choice(pt, "small", "block-tex below the crossover, %s", fit);
    if (open)
        dm_point_note_choice(pt, "small_block", "%lld, block-tex's block: %s",
                             (long long)block, how);
}

/* The packed kernels' limits always, and block-tex's where packed runs it. */
int tdm_packed_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    dm_point kp;
    if (tdm_packed_refuse(pt, dev, why, n))
        return 1;
    if (strcmp(tdm_packed_kernel(pt, dev), "block-tex") != 0)
        return 0;
    tdm_packed_as_block_tex(pt, dev, &kp);
    return tdm_block_tex_supports(&kp, dev, why, n);
}

/* Sets up block-tex through its own setup where packed runs it (its run, output and
 * teardown then serve), else the packed kernels. */
int tdm_packed_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                     void **state, dm_err *err)
{
    const tdm_data *d = ds->data;
    tdm_gpu_state *s;
    dm_point kp;
    int rc;
    if (strcmp(tdm_packed_kernel(pt, ex->device), "block-tex") == 0) {
        tdm_packed_as_block_tex(pt, ex->device, &kp);
        return tdm_block_tex_setup(ex, ds, &kp, state, err);
    }
    if ((rc = tdm_gpu_setup(ex, ds, pt, TDM_PACKED, &s, err)) != 0)
        return rc;
    if ((rc = tdm_groups_build(&s->eps, &s->groups, err)) != 0)
        goto fail;
    rc = DM_ERUNTIME;
    const tdm_groups *g = &s->groups;
    int64_t gpad = (g->n + 31) / 32 * 32;
    int64_t chunk = tdm_packed_chunk(d->n, gpad, ex->device->sms, dm_point_int(pt, "chunk"));
    int64_t nchunks = (s->la.nvec * 16 + chunk - 1) / chunk;
    size_t table = (size_t)(nchunks * TDM_ALPHABET * gpad * tdm_packed_entry_bytes(g->level));
    int64_t seglen, nseg;
    tdm_packed_plan_segments(nchunks, &seglen, &nseg);
    if (tdm_upload(s, g->first, (size_t)g->n * sizeof *g->first, (void **)&s->d_first, err) ||
        tdm_upload(s, g->suffix, (size_t)g->n * sizeof *g->suffix, (void **)&s->d_suffix,
                   err) ||
        tdm_upload(s, g->slot, (size_t)g->n * TDM_ALPHABET * sizeof *g->slot,
                   (void **)&s->d_slot, err) ||
        dm_gpu_alloc(s->stream, (size_t)tdm_padded_bytes(d->n) * 4, &s->d_bits, err) ||
        dm_gpu_alloc(s->stream, table, &s->d_table, err) ||
        (nseg > 1 && dm_gpu_alloc(s->stream, (size_t)(nseg * TDM_ALPHABET * gpad) * 8,
                                  &s->d_seg, err)) ||
        DM_CUDA(err, cudaStreamSynchronize(s->stream)))
        goto fail;
    s->pl = (tdm_packed_launch){
        .db = s->db,
        .bits = s->d_bits,
        .nvec = s->la.nvec,
        .level = g->level,
        .ngroups = g->n,
        .gpad = gpad,
        .first = s->d_first,
        .suffix = s->d_suffix,
        .slot = s->d_slot,
        .chunk = chunk,
        .nchunks = nchunks,
        .table = s->d_table,
        .seglen = seglen,
        .nseg = nseg,
        .seg = s->d_seg,
        .out = s->d_out,
        .block = s->la.block,
        .stream = s->stream,
    };
    *state = s;
    return 0;
fail:
    tdm_gpu_teardown(s);
    return rc;
}
