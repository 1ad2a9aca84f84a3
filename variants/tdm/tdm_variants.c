/* tdm_variants.c - the variants of the temporal data mining workload and its table.
 * cpu is the counting machine on one thread; cpu-mt the same across episodes on all
 * cores; thread-tex, thread-shared, block-tex and block-shared are the paper's four
 * algorithms (Archuleta et al., IPDPS 2009, §3.3); packed is ours: episodes sharing a
 * suffix as bits of one word, the database in chunks composed exactly (on databases
 * where the stored crossover fit of the two says block-tex is faster, block-tex);
 * hybrid runs block-tex or thread-tex, whichever the stored crossover fit says wins at
 * the point. Those two, which choose what they run per card, are in choosers.c; the GPU
 * state the GPU variants share is in gpu_state.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "card_choices.h"
#include "fits.h"
#include "gpu_state.h"
#include "tuned.h"

/* ---- cpu and cpu-mt ------------------------------------------------------------- */

typedef struct tdm_cpu_state {
    const tdm_data *d;
    tdm_episodes eps;
    uint32_t *counts;
    int mt;      /* 0: tdm_cpu_count; 1: tdm_cpu_count_mt on threads (0: every core) */
    int threads;
} tdm_cpu_state;

static void tdm_cpu_teardown(void *state)
{
    tdm_cpu_state *s = state;
    if (!s)
        return;
    tdm_episodes_free(&s->eps);
    free(s->counts);
    free(s);
}

static int tdm_cpu_setup_threads(const dm_dataset *ds, const dm_point *pt, int mt,
                                 int threads, void **state, dm_err *err)
{
    tdm_cpu_state *s = calloc(1, sizeof *s);
    int rc;
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "tdm cpu: out of memory");
    s->d = ds->data;
    s->mt = mt;
    s->threads = threads;
    if ((rc = tdm_episodes_for_point(pt, &s->eps, err)) != 0)
        goto fail;
    s->counts = malloc((size_t)s->eps.n * sizeof *s->counts);
    if (!s->counts) {
        rc = dm_err_set(err, DM_ERUNTIME, "tdm cpu: out of memory for %" PRId64 " counts",
                        s->eps.n);
        goto fail;
    }
    *state = s;
    return 0;
fail:
    tdm_cpu_teardown(s);
    return rc;
}

static int tdm_cpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                         void **state, dm_err *err)
{
    (void)ex;
    return tdm_cpu_setup_threads(ds, pt, 0, 1, state, err);
}

static int tdm_cpu_mt_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                            void **state, dm_err *err)
{
    (void)ex;
    return tdm_cpu_setup_threads(ds, pt, 1, (int)dm_point_int(pt, "threads"), state, err);
}

static int tdm_cpu_supports(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    (void)dev;
    return tdm_count_refuse(pt, why, n);
}

static int tdm_cpu_run(void *state, dm_err *err)
{
    tdm_cpu_state *s = state;
    if (!s->mt) {
        tdm_cpu_count(s->d->sym, s->d->n, &s->eps, s->counts);
        return 0;
    }
    return tdm_cpu_count_mt(s->d->sym, s->d->n, &s->eps, s->counts, s->threads, err);
}

static int tdm_cpu_output(void *state, const void **out, dm_err *err)
{
    (void)err;
    *out = ((tdm_cpu_state *)state)->counts;
    return 0;
}

/* ---- GPU state shared by the GPU variants (gpu_state.h) --------------------------- */

void tdm_gpu_teardown(void *state)
{
    tdm_gpu_state *s = state;
    if (!s)
        return;
    tdm_texture_destroy(s->tex);
    dm_gpu_free(s->stream, s->db);
    dm_gpu_free(s->stream, s->d_eps);
    dm_gpu_free(s->stream, s->d_out);
    dm_gpu_free(s->stream, s->d_masks);
    dm_gpu_free(s->stream, s->d_first);
    dm_gpu_free(s->stream, s->d_suffix);
    dm_gpu_free(s->stream, s->d_slot);
    dm_gpu_free(s->stream, s->d_bits);
    dm_gpu_free(s->stream, s->d_table);
    dm_gpu_free(s->stream, s->d_seg);
    tdm_groups_free(&s->groups);
    tdm_episodes_free(&s->eps);
    free(s->host_out);
    free(s);
}

/* Allocates and uploads count n bytes from host to a new device buffer *dev on s's
 * stream. Returns 0, or DM_ERUNTIME with err set. */
int tdm_upload(tdm_gpu_state *s, const void *host, size_t n, void **dev, dm_err *err)
{
    if (dm_gpu_alloc(s->stream, n, dev, err) ||
        DM_CUDA(err, cudaMemcpyAsync(*dev, host, n, cudaMemcpyHostToDevice, s->stream)))
        return DM_ERUNTIME;
    return 0;
}

/* What every GPU variant needs: the episodes, the padded database on the device and an
 * output poisoned with 0xFF bytes (so a kernel that writes nothing fails verification).
 * Returns 0, DM_EINPUT for bad episodes, or DM_ERUNTIME with err set. */
int tdm_gpu_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                  tdm_kind kind, tdm_gpu_state **out, dm_err *err)
{
    const tdm_data *d = ds->data;
    int64_t padded = tdm_padded_bytes(d->n);
    uint8_t *host_db = NULL;
    int rc = DM_ERUNTIME;
    tdm_gpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory");
    s->kind = kind;
    s->stream = (cudaStream_t)ex->stream;
    if ((rc = tdm_episodes_for_point(pt, &s->eps, err)) != 0)
        goto fail;
    rc = DM_ERUNTIME;
    s->host_out = malloc((size_t)s->eps.n * sizeof *s->host_out);
    host_db = malloc((size_t)padded);
    if (!s->host_out || !host_db) {
        dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %" PRId64 " counts",
                   s->eps.n);
        goto fail;
    }
    memcpy(host_db, d->sym, (size_t)d->n);
    memset(host_db + d->n, TDM_PAD, (size_t)(padded - d->n));
    /* On the variant's stream: a non-blocking stream does not wait for the legacy
     * default stream. The host copy of the database is freed after the sync. */
    if (tdm_upload(s, host_db, (size_t)padded, &s->db, err) ||
        dm_gpu_alloc(s->stream, (size_t)s->eps.n * sizeof *s->d_out, (void **)&s->d_out,
                     err) ||
        DM_CUDA(err, cudaMemsetAsync(s->d_out, 0xFF, (size_t)s->eps.n * sizeof *s->d_out,
                                     s->stream)))
        goto fail;
    if (kind != TDM_PACKED &&
        tdm_upload(s, s->eps.letters, (size_t)(s->eps.n * s->eps.level), (void **)&s->d_eps,
                   err))
        goto fail;
    if (DM_CUDA(err, cudaStreamSynchronize(s->stream)))
        goto fail;
    free(host_db);
    s->la = (tdm_launch){
        .db = s->db,
        .nvec = padded / 16 - 1,
        .eps = s->d_eps,
        .neps = s->eps.n,
        .level = s->eps.level,
        .block = (int)dm_point_int(pt, "block"),
        .out = s->d_out,
        .stream = s->stream,
    };
    *out = s;
    return 0;
fail:
    free(host_db);
    tdm_gpu_teardown(s);
    return rc;
}

/* One execution of the kernel s was set up for (a variant that chooses a kernel, hybrid
 * or packed, runs what its setup chose). */
int tdm_gpu_run(void *state, dm_err *err)
{
    tdm_gpu_state *s = state;
    if (s->kind == TDM_PACKED)
        return tdm_packed_run(&s->pl, err);
    return s->kind == TDM_THREAD ? tdm_thread_launch(&s->la, err)
                                 : tdm_block_launch(&s->la, err);
}

int tdm_gpu_output(void *state, const void **out, dm_err *err)
{
    tdm_gpu_state *s = state;
    if (DM_CUDA(err, cudaMemcpyAsync(s->host_out, s->d_out, (size_t)s->eps.n * sizeof *s->d_out,
                                     cudaMemcpyDeviceToHost, s->stream)) ||
        DM_CUDA(err, cudaStreamSynchronize(s->stream)))
        return DM_ERUNTIME;
    *out = s->host_out;
    return 0;
}

/* ---- supports(): the pruning reasons ------------------------------------------------ */

/* 1 with why set when the count is over the level's episodes, the block over the
 * device's limit, the level over max_level, or smem over the device's shared memory per
 * block (dev NULL: the count and the level only). */
int tdm_refuse(const dm_point *pt, const dm_device *dev, int max_level, int64_t smem,
               char *why, size_t n)
{
    int64_t block = dm_point_int(pt, "block"), level = dm_point_int(pt, "level");
    if (tdm_count_refuse(pt, why, n))
        return 1;
    if (level > max_level) {
        snprintf(why, n, "level %" PRId64 " exceeds the %d letters %s counts", level,
                 max_level, pt->variant->name);
        return 1;
    }
    if (dev && block > dev->max_threads_per_block) {
        snprintf(why, n, "block %" PRId64 " exceeds the device's %d threads per block", block,
                 dev->max_threads_per_block);
        return 1;
    }
    if (dev && smem > dev->smem_per_block_optin) {
        snprintf(why, n,
                 "needs %" PRId64 " bytes of shared memory per block; the device allows %d",
                 smem, dev->smem_per_block_optin);
        return 1;
    }
    return 0;
}

/* 1 with why set when the named length parameter is not a multiple of 16 letters. */
static int tdm_refuse_unaligned(const dm_point *pt, const char *name, char *why, size_t n)
{
    int64_t v = dm_point_int(pt, name);
    if (v % 16 != 0) {
        snprintf(why, n, "%s %" PRId64 " is not a multiple of 16 letters (one 16-byte load)",
                 name, v);
        return 1;
    }
    return 0;
}

static const char *const tdm_table_names[] = {
    [TDM_TABLE_SHARED] = "shared", [TDM_TABLE_CONSTANT] = "constant",
    [TDM_TABLE_READONLY] = "readonly"};

/* Where the thread-* kernels keep their masks at pt: its table parameter, or shared
 * memory when it has none (hybrid's point runs thread-tex as its crossover fit was
 * measured: the masks in shared memory). */
static tdm_table tdm_table_of(const dm_point *pt)
{
    const dm_value *v = dm_point_get(pt, "table");
    for (int t = 0; v && t < (int)(sizeof tdm_table_names / sizeof *tdm_table_names); t++)
        if (strcmp(v->s, tdm_table_names[t]) == 0)
            return (tdm_table)t;
    return TDM_TABLE_SHARED;
}

/* 1 with why set when pt's table is constant and its episodes do not fit in constant
 * memory (a problem whose size cannot be read, a bad episodes file, is left to setup to
 * report). */
static int tdm_refuse_table(const dm_point *pt, char *why, size_t n)
{
    int64_t episodes;
    if (tdm_table_of(pt) != TDM_TABLE_CONSTANT || tdm_problem_size(pt, &episodes, NULL) != 0 ||
        tdm_thread_table_pitch(episodes) <= TDM_THREAD_CONST_EPISODES)
        return 0;
    snprintf(why, n,
             "table constant holds at most %d episodes (64 KiB of constant memory, 128 bytes "
             "each); the problem has %" PRId64,
             TDM_THREAD_CONST_EPISODES, episodes);
    return 1;
}

int tdm_thread_tex_supports(const dm_point *pt, const dm_device *dev, char *why,
                            size_t n)
{
    int block = (int)dm_point_int(pt, "block");
    int64_t smem = tdm_thread_smem(block, 0, tdm_table_of(pt));
    return tdm_refuse(pt, dev, TDM_THREAD_MAX_LEVEL, smem, why, n) ||
           tdm_refuse_table(pt, why, n);
}

static int tdm_thread_shared_supports(const dm_point *pt, const dm_device *dev, char *why,
                                      size_t n)
{
    int block = (int)dm_point_int(pt, "block");
    int64_t smem = tdm_thread_smem(block, dm_point_int(pt, "tile"), tdm_table_of(pt));
    return tdm_refuse_unaligned(pt, "tile", why, n) ||
           tdm_refuse(pt, dev, TDM_THREAD_MAX_LEVEL, smem, why, n) ||
           tdm_refuse_table(pt, why, n);
}

int tdm_block_tex_supports(const dm_point *pt, const dm_device *dev, char *why,
                           size_t n)
{
    int block = (int)dm_point_int(pt, "block");
    int64_t level = dm_point_int(pt, "level");
    int lv = level > TDM_THREAD_MAX_LEVEL ? TDM_THREAD_MAX_LEVEL : (int)level;
    return tdm_refuse(pt, dev, TDM_THREAD_MAX_LEVEL, tdm_block_smem(block, 0, lv), why, n);
}

static int tdm_block_shared_supports(const dm_point *pt, const dm_device *dev, char *why,
                                     size_t n)
{
    int block = (int)dm_point_int(pt, "block");
    int64_t level = dm_point_int(pt, "level");
    int lv = level > TDM_THREAD_MAX_LEVEL ? TDM_THREAD_MAX_LEVEL : (int)level;
    return tdm_refuse_unaligned(pt, "piece", why, n) ||
           tdm_refuse(pt, dev, TDM_THREAD_MAX_LEVEL,
                      tdm_block_smem(block, dm_point_int(pt, "piece"), lv), why, n);
}

/* The packed kernels' limits on pt's parameters (held whichever kernels packed runs). */
int tdm_packed_refuse(const dm_point *pt, const dm_device *dev, char *why, size_t n)
{
    int64_t block = dm_point_int(pt, "block");
    if (block % 32 != 0) {
        snprintf(why, n,
                 "block %" PRId64 " is not a multiple of 32 (packed votes over whole warps)",
                 block);
        return 1;
    }
    if (tdm_refuse_unaligned(pt, "chunk", why, n) ||
        tdm_refuse(pt, dev, TDM_PACKED_MAX_LEVEL, 0, why, n))
        return 1;
    if (block > TDM_PACKED_MAX_BLOCK) {
        snprintf(why, n,
                 "block %" PRId64 " exceeds the %d threads per block packed is compiled for",
                 block, TDM_PACKED_MAX_BLOCK);
        return 1;
    }
    return 0;
}

/* ---- thread-tex, thread-shared, block-tex, block-shared -------------------------------- */

/* Sets up a paper variant: kind, read through a texture (tex) or staged in tiles of
 * the named parameter. */
static int tdm_paper_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                           tdm_kind kind, int tex, const char *tile_param, void **state,
                           dm_err *err)
{
    tdm_gpu_state *s;
    int rc;
    if ((rc = tdm_gpu_setup(ex, ds, pt, kind, &s, err)) != 0)
        return rc;
    if (tex && (rc = tdm_texture_create(s->db, tdm_padded_bytes(((const tdm_data *)ds->data)->n),
                                        &s->tex, err)) != 0)
        goto fail;
    s->la.tex = s->tex;
    s->la.tile = tile_param ? dm_point_int(pt, tile_param) : 0;
    s->la.table = kind == TDM_THREAD ? tdm_table_of(pt) : TDM_TABLE_SHARED;
    rc = DM_ERUNTIME;
    if (s->la.table != TDM_TABLE_SHARED &&
        dm_gpu_alloc(s->stream,
                     (size_t)(32 * tdm_thread_table_pitch(s->eps.n)) * sizeof *s->d_masks,
                     (void **)&s->d_masks, err))
        goto fail;
    s->la.masks = s->d_masks;
    if ((rc = kind == TDM_THREAD ? tdm_thread_prepare(&s->la, err)
                                 : tdm_block_prepare(&s->la, err)) != 0)
        goto fail;
    *state = s;
    return 0;
fail:
    tdm_gpu_teardown(s);
    return rc;
}

int tdm_thread_tex_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                         void **state, dm_err *err)
{
    return tdm_paper_setup(ex, ds, pt, TDM_THREAD, 1, NULL, state, err);
}

static int tdm_thread_shared_setup(const dm_exec *ex, const dm_dataset *ds,
                                   const dm_point *pt, void **state, dm_err *err)
{
    return tdm_paper_setup(ex, ds, pt, TDM_THREAD, 0, "tile", state, err);
}

int tdm_block_tex_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                        void **state, dm_err *err)
{
    return tdm_paper_setup(ex, ds, pt, TDM_BLOCK, 1, NULL, state, err);
}

static int tdm_block_shared_setup(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt,
                                  void **state, dm_err *err)
{
    return tdm_paper_setup(ex, ds, pt, TDM_BLOCK, 0, "piece", state, err);
}

/* ---- the table ---------------------------------------------------------------------- */

static const char *const tdm_generators[] = {"uniform", "planted", NULL};

static const dm_param_spec tdm_dataset_params[] = {
    {.name = "length", .type = DM_P_INT, .def = "393019", .allowed = "1..1073741824",
     .help = "letters in the database (a file: its first length letters)", .tune = DM_TUNE_SIZE },
    {.name = "seed", .type = DM_P_INT, .def = "1", .allowed = "0..",
     .help = "seed of the generator", .generated = 1, .tune = DM_TUNE_ANY },
    {.name = "plant", .type = DM_P_ENUM, .def = "ABC", .allowed = NULL,
     .help = "planted: episodes to plant, comma-separated, no letter twice (\"ABC,XYZ\")",
     .generated = 1},
    {.name = "plant_rate", .type = DM_P_REAL, .def = "0.001", .allowed = "0..1",
     .help = "planted: chance that a copy starts at a letter", .generated = 1},
    {0},
};

static const dm_param_spec tdm_problem_params[] = {
    {.name = "level", .type = DM_P_INT, .def = "3", .allowed = "1..26",
     .help = "episode length: 26, 650, 15600, 358800 episodes at levels 1-4"},
    {.name = "episodes", .type = DM_P_ENUM, .def = "all", .allowed = NULL,
     .help = "all: every sequence of level distinct letters; else a file, one per line"},
    {.name = "count", .type = DM_P_INT, .def = "0", .allowed = "0..16777216",
     .help = "episodes counted: the first N in lexicographic order (0: all)"},
    {0},
};

static const dm_param_spec tdm_cpu_mt_params[] = {
    {.name = "threads", .type = DM_P_INT, .def = "0", .allowed = "0..4096",
     .help = "threads (0: every online core)"},
    {0},
};

#define TDM_BLOCK_PARAM                                                                      \
    {.name = "block", .type = DM_P_INT, .def = TDM_BLOCK_DEFAULT, .allowed = "1..",        \
     .help = "threads per block"}

/* thread-*: where the masks are (tdm_table; the names in tdm_table_names). */
#define TDM_TABLE_PARAM                                                                      \
    {.name = "table", .type = DM_P_ENUM, .def = "shared",                                  \
     .allowed = "shared|constant|readonly",                                                 \
     .help = "transition masks: shared (each thread's, 128 B of shared memory), constant " \
             "(one table in constant memory, <= 512 episodes), readonly (one table read "    \
             "through the read-only cache)"}

static const dm_param_spec tdm_tex_params[] = {
    TDM_BLOCK_PARAM,
    {0},
};

static const dm_param_spec tdm_thread_tex_params[] = {
    TDM_BLOCK_PARAM,
    TDM_TABLE_PARAM,
    {0},
};

static const dm_param_spec tdm_thread_shared_params[] = {
    TDM_BLOCK_PARAM,
    {.name = "tile", .type = DM_P_INT, .def = "4096", .allowed = "16..",
     .help = "letters staged in shared memory per tile (multiple of 16)"},
    TDM_TABLE_PARAM,
    {0},
};

static const dm_param_spec tdm_block_shared_params[] = {
    TDM_BLOCK_PARAM,
    {.name = "piece", .type = DM_P_INT, .def = "64", .allowed = "16..",
     .help = "letters each thread takes from every tile (multiple of 16)"},
    {0},
};

static const dm_param_spec tdm_hybrid_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "0", .allowed = "0..",
     .help = "threads per block (0: the tuned block of the kernel it runs, for the card; "
             "else that kernel's default)"},
    {.name = "switch_at", .type = DM_P_INT, .def = "0", .allowed = "0..",
     .help = "episodes from which it runs the kernel that wins above the crossover "
             "(0: f(level) of the stored crossover fit for the card)"},
    {.name = "below", .type = DM_P_ENUM, .def = "auto", .allowed = "auto|block-tex|thread-tex",
     .help = "the kernel it runs below switch_at (auto: the one the stored fit says wins "
             "there, else block-tex)"},
    {0},
};

static const dm_param_spec tdm_packed_params[] = {
    {.name = "block", .type = DM_P_INT, .def = "128", .allowed = "1..",
     .help = "threads per block (multiple of 32, at most 512)"},
    {.name = "chunk", .type = DM_P_INT, .def = "0", .allowed = "0..32768",
     .help = "letters per chunk (multiple of 16; 0: about 32 warps per SM, >= 64)"},
    {.name = "small", .type = DM_P_ENUM, .def = "auto", .allowed = "auto|packed|block-tex",
     .help = "the kernels it runs: auto: block-tex below f(level) letters where the stored "
             "crossover fit of block-tex and packed for the card (over length, by level) has "
             "block-tex faster there, else its own; packed: its own; block-tex: block-tex",
     .tune = DM_TUNE_ANY}, /* packed's own kernels' best block is the same whoever picks them */
    {.name = "small_block", .type = DM_P_INT, .def = "0", .allowed = "0..",
     .help = "threads per block of block-tex where it runs it (0: block-tex's tuned block "
             "for the card, else its default); resolved per point: 0 where its own "
             "kernels run, so the point says which ran"},
    {0},
};

static const dm_variant tdm_variants[] = {
    {.name = "cpu", .description = "counting machine, one thread (the reference's algorithm)",
     .needs_gpu = 0, .supports = tdm_cpu_supports, .setup = tdm_cpu_setup,
     .run = tdm_cpu_run, .output = tdm_cpu_output, .teardown = tdm_cpu_teardown},
    {.name = "cpu-mt", .description = "counting machine across episodes on all cores (pthreads)",
     .needs_gpu = 0, .params = tdm_cpu_mt_params, .supports = tdm_cpu_supports,
     .setup = tdm_cpu_mt_setup, .run = tdm_cpu_run, .output = tdm_cpu_output,
     .teardown = tdm_cpu_teardown},
    {.name = "thread-tex", .description = "Algorithm 1: a thread per episode, texture reads",
     .needs_gpu = 1, .params = tdm_thread_tex_params, .supports = tdm_thread_tex_supports,
     .setup = tdm_thread_tex_setup, .run = tdm_gpu_run, .output = tdm_gpu_output,
     .teardown = tdm_gpu_teardown},
    {.name = "thread-shared",
     .description = "Algorithm 2: a thread per episode, tiles staged in shared memory",
     .needs_gpu = 1, .params = tdm_thread_shared_params, .supports = tdm_thread_shared_supports,
     .setup = tdm_thread_shared_setup, .run = tdm_gpu_run, .output = tdm_gpu_output,
     .teardown = tdm_gpu_teardown},
    {.name = "block-tex",
     .description = "Algorithm 3: a block per episode, a chunk per thread, texture reads",
     .needs_gpu = 1, .params = tdm_tex_params, .supports = tdm_block_tex_supports,
     .setup = tdm_block_tex_setup, .run = tdm_gpu_run, .output = tdm_gpu_output,
     .teardown = tdm_gpu_teardown},
    {.name = "block-shared",
     .description = "Algorithm 4: a block per episode, pieces of shared-memory tiles",
     .needs_gpu = 1, .params = tdm_block_shared_params, .supports = tdm_block_shared_supports,
     .setup = tdm_block_shared_setup, .run = tdm_gpu_run, .output = tdm_gpu_output,
     .teardown = tdm_gpu_teardown},
    {.name = "packed",
     .description = "ours: a suffix's episodes as bits of one word, chunks composed "
                    "exactly; block-tex where the stored crossover fit has it faster",
     .needs_gpu = 1, .params = tdm_packed_params, .supports = tdm_packed_supports,
     .resolve = tdm_packed_resolve, .setup = tdm_packed_setup, .run = tdm_gpu_run,
     .output = tdm_gpu_output, .teardown = tdm_gpu_teardown},
    {.name = "hybrid",
     .description = "block-tex or thread-tex, the faster at the point by the stored "
                    "crossover fit f(level)",
     .needs_gpu = 1, .params = tdm_hybrid_params, .supports = tdm_hybrid_supports,
     .resolve = tdm_hybrid_resolve, .setup = tdm_hybrid_setup, .run = tdm_gpu_run,
     .output = tdm_gpu_output, .teardown = tdm_gpu_teardown},
    {0},
};

/* `dmbench tune --card`: every block of the paper's problem at levels 1-3, and the two
 * crossovers the hybrid and packed switch by (about 3 minutes on an H200). */
static const char *const tdm_tune_sweeps[] = { "tdm-tune", "tdm-crossover",
                                               "tdm-packed-crossover", NULL };
static const dm_card_crossover tdm_tune_crossovers[] = {
    { "block-tex", "thread-tex", "count", "level" },
    { "block-tex", "packed", "length", "level" },
    { 0 },
};
static const dm_card_tuning tdm_card_tuning = { tdm_tune_sweeps, tdm_tune_crossovers };

extern const dm_study tdm_study; /* tdm_study.c */
const dm_workload tdm_workload = {
    .name = "tdm",
    .description = "temporal data mining: non-overlapped episode counts (Archuleta et al. 2009)",
    .generators = tdm_generators,
    .dataset_params = tdm_dataset_params,
    .problem_params = tdm_problem_params,
    .dataset_open = tdm_dataset_open,
    .dataset_close = tdm_dataset_close,
    .reference = tdm_reference,
    .reference_free = tdm_reference_free,
    .compare = tdm_compare,
    .work = tdm_work,
    .write_result = tdm_write_result,
    .variants = tdm_variants,
    .tuned = dm_tuned_table,
    .fits = dm_crossover_fit_table,
    .study = &tdm_study,
    .card_tuning = &tdm_card_tuning,
};
