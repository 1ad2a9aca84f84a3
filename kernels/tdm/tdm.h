/* tdm.h - the temporal data mining workload (Archuleta et al., IPDPS 2009): a database of
 * letters A-Z, episodes (ordered sequences of distinct letters), and for each episode its
 * count of non-overlapped occurrences. Data, episodes, CPU counting, the span tables the
 * block-parallel variants compose, and the CUDA launchers of the GPU variants. */
#ifndef DM_TDM_H
#define DM_TDM_H

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDM_ALPHABET 26         /* symbols are the letters A-Z, kept as codes 0..25 */
#define TDM_MAX_LEVEL 26        /* an episode's letters are distinct */
#define TDM_MAX_EPISODES (1 << 24) /* level 5 (7,893,600) fits; level 6 would not */
#define TDM_MAX_PLANTS 8
#define TDM_PAD 31              /* device padding symbol: equal to no letter */
#define TDM_THREAD_MAX_LEVEL 12 /* thread-* and block-* kernels (one 32-bit state word) */
#define TDM_PACKED_MAX_LEVEL 6  /* packed kernel: level^2 state masks in registers */
#define TDM_PACKED_MAX_BLOCK 512 /* packed kernel: compiled for at most 128 registers */
#define TDM_THREAD_CONST_EPISODES 512 /* thread-* table=constant: 32 masks each in 64 KiB */

/* ---- data (tdm_data.c) ---- */

/* The dataset's data (dm_dataset.data). */
typedef struct tdm_data {
    int64_t n;
    uint8_t *sym;                      /* n letter codes, 0..25 */
    int nplant;                        /* planted episodes ("planted" generator), else 0 */
    char plant[TDM_MAX_PLANTS][TDM_MAX_LEVEL + 1];
    int64_t planted[TDM_MAX_PLANTS];   /* copies of each planted episode */
} tdm_data;

/* Fills sym with n letters drawn uniformly and independently from seed (splitmix64,
 * multiply-shift to 26: a bias below 26/2^32). Equal seeds give equal databases. */
void tdm_generate_uniform(uint64_t seed, int64_t n, uint8_t *sym);

/* Parses plant text: episodes separated by commas ("ABC" or "ABC,XYZ"), each of
 * upper-case letters, no letter used twice in the whole text, at most TDM_MAX_PLANTS
 * and fewer than all 26 letters in all. Fills d->nplant and d->plant. Returns 0, or
 * DM_EINPUT naming the offending character. */
int tdm_plant_parse(const char *text, tdm_data *d, dm_err *err);

/* The "planted" generator, after tdm_plant_parse filled d: at each position where a copy
 * fits, with probability rate the next planted episode (in turn) is written there
 * contiguously; every other letter is drawn uniformly from the letters no plant uses.
 * A planted episode's letters therefore occur only in its own copies, so its count is
 * exactly d->planted[k]. Fills d->sym (n letters, allocated by the caller). */
void tdm_generate_planted(uint64_t seed, double rate, tdm_data *d);

/* Reads a database file: one letter A-Z per byte, whitespace ignored, and keeps its
 * first `length` letters in *sym (malloc'd). Returns 0, or DM_EINPUT naming the file
 * and, for a byte outside the alphabet, its offset; also for a file with no letters
 * (an empty database) or fewer than length; DM_ERUNTIME when reading fails. */
int tdm_load_file(const char *path, int64_t length, uint8_t **sym, dm_err *err);

/* The dm_workload dataset callbacks: generators "uniform" and "planted", or a file.
 * Errors as tdm_load_file and tdm_plant_parse; DM_EINPUT for an unknown generator. */
int tdm_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                     dm_err *err);
void tdm_dataset_close(dm_dataset *ds);

/* ---- episodes (tdm_episodes.c) ---- */

typedef struct tdm_episodes {
    int level;
    int64_t n;
    uint8_t *letters; /* n * level letter codes; episode i at letters + i * level */
} tdm_episodes;

/* 26! / (26 - level)!: 26, 650, 15,600, 358,800 at levels 1..4; 0 when level is
 * outside 1..26. */
int64_t tdm_episodes_count(int level);

/* All ordered sequences of level distinct letters, in lexicographic order (first
 * letter slowest); with count > 0 only the first count of them: the enumeration stops
 * there, so a prefix of level 6's 165,765,600 episodes costs what the prefix does.
 * Returns 0, DM_EINPUT for a level outside 1..26, a count above the level's episodes
 * or more than TDM_MAX_EPISODES episodes to keep, DM_ERUNTIME when memory runs out. */
int tdm_episodes_enumerate(int level, int64_t count, tdm_episodes *e, dm_err *err);

/* Episodes from a file: one per line (blank lines and lines starting with '#' are
 * skipped), each `level` distinct letters A-Z, no episode twice; with count > 0 only
 * the first count in lexicographic order, in that order. Returns 0, or DM_EINPUT
 * naming the file (and line), also for a count above the file's episodes. */
int tdm_episodes_load(const char *path, int level, int64_t count, tdm_episodes *e,
                      dm_err *err);

/* The episodes of pt's problem: "episodes" all (tdm_episodes_enumerate of "level") or
 * a file path (tdm_episodes_load), the first "count" of them when it is not 0. Errors
 * as those. */
int tdm_episodes_for_point(const dm_point *pt, tdm_episodes *e, dm_err *err);

/* The number of episodes pt's problem counts, in *n: "count" when set, else the
 * level's, else (a file) the file's, read to count them. Returns 0, or the errors of
 * tdm_episodes_for_point. */
int tdm_problem_size(const dm_point *pt, int64_t *n, dm_err *err);

/* 1 with why set ("count 20000 exceeds the 15600 episodes of level 3") when pt's count
 * asks for more episodes than its level has; 0 otherwise (a file's episodes are
 * checked when it is read). */
int tdm_count_refuse(const dm_point *pt, char *why, size_t n);

void tdm_episodes_free(tdm_episodes *e);

/* Writes episode i as letters ("ABC") into buf. */
void tdm_episode_format(const tdm_episodes *e, int64_t i, char *buf, size_t n);

/* ---- CPU counting (tdm_cpu.c) ---- */

/* The count of non-overlapped occurrences of the episode ep (level letter codes) in
 * sym[0..n), by the counting machine (see tdm_cpu.c for why it has no reset edge). */
uint32_t tdm_fsm_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level);

/* counts[i] = tdm_fsm_count of every episode, on one thread. */
void tdm_cpu_count(const uint8_t *sym, int64_t n, const tdm_episodes *e, uint32_t *counts);

/* The same on threads threads (0: every online core), episodes split into contiguous
 * ranges; the result does not depend on threads. Returns 0, or DM_ERUNTIME when a
 * thread cannot be started. */
int tdm_cpu_count_mt(const uint8_t *sym, int64_t n, const tdm_episodes *e, uint32_t *counts,
                     int threads, dm_err *err);

/* The largest number of occurrences of ep whose spans [first, last letter] are pairwise
 * disjoint, straight from the definition (O(n^3): for tests on small inputs). */
uint32_t tdm_brute_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level);

/* ---- span tables (tdm_span.c): how block-parallel counting stays exact ---- */

/* What a stretch of the database does to one episode's machine, for every state the
 * machine may enter it in: entered in state s, it counts count[s] and leaves in
 * exit[s]. */
typedef struct tdm_span {
    uint32_t count[TDM_MAX_LEVEL];
    uint8_t exit[TDM_MAX_LEVEL];
} tdm_span;

/* The span table of sym[0..n) (n may be 0: the identity) for episode ep. */
void tdm_span_of(const uint8_t *sym, int64_t n, const uint8_t *ep, int level, tdm_span *out);

/* The table of `first` followed by `then`. out may alias either. */
void tdm_span_compose(const tdm_span *first, const tdm_span *then, int level, tdm_span *out);

/* The count over sym[0..n) from state 0, cutting it into chunks of chunk letters (the
 * last may be shorter), one table each, composed as a tree in the order the block
 * kernels use (pairs at distance 1, 2, 4, ...). Equals tdm_fsm_count for every chunk
 * >= 1. Returns UINT32_MAX when memory runs out. */
uint32_t tdm_span_count(const uint8_t *sym, int64_t n, const uint8_t *ep, int level,
                        int64_t chunk);

/* ---- packed groups (tdm_groups.c): the host side of the packed variant ---- */

/* Episodes grouped by their letters after the first: a group is one suffix and the set
 * of first letters it occurs with, one bit each, so one 32-bit word holds the machine
 * state of the whole group. Groups are ordered by last letter, so the threads of a warp
 * mostly share it. */
typedef struct tdm_groups {
    int level;
    int64_t n;          /* groups */
    uint32_t *first;    /* n masks: bit f set when episode (f, suffix) is counted */
    uint32_t *suffix;   /* n suffixes: letter k+2 of the episode in bits 5k..5k+4 */
    int32_t *slot;      /* n * 26: episode index of (group, first letter f), or -1 */
} tdm_groups;

/* Groups e's episodes. Returns 0, or DM_ERUNTIME when memory runs out. */
int tdm_groups_build(const tdm_episodes *e, tdm_groups *g, dm_err *err);
void tdm_groups_free(tdm_groups *g);

/* ---- reference, comparison, work (tdm_reference.c) ---- */

/* The reference answer: the episodes and their counts. */
typedef struct tdm_ref {
    tdm_episodes eps;
    uint32_t *counts;
} tdm_ref;

/* The CPU reference (tdm_cpu_count_mt on every core) for pt's episodes. Returns 0,
 * DM_EINPUT for bad episodes (a level above 26, a bad episodes file), DM_ERUNTIME. */
int tdm_reference(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err);
void tdm_reference_free(void *ref);
/* 0 when out (one uint32 count per episode) equals ref; else 1 with why naming the
 * first differing episode, its expected and its actual count. */
int tdm_compare(const void *ref, const void *out, const dm_point *pt, char *why, size_t n);
/* ops = length x episodes machine steps; bytes = the database read once. */
void tdm_work(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w);
/* Writes out (one uint32 count per episode of pt, as from a variant's output) to f as
 * CSV: the header "episode,count", then "ABC,17" per episode in pt's episode order.
 * Returns 0, the errors of tdm_episodes_for_point, or DM_ERUNTIME when a write fails. */
int tdm_write_result(const void *out, const dm_point *pt, FILE *f, dm_err *err);

/* ---- GPU plans (tdm_plan.c): sizes the variants' supports() and launchers share ---- */

/* Bytes of the database on the device: n rounded up to 16 (one uint4) and one more
 * uint4 that the kernels may prefetch, padded with TDM_PAD. */
int64_t tdm_padded_bytes(int64_t n);
/* Where the thread-* kernels keep each episode's 32 transition masks (tdm_fsm.cuh).
 * SHARED: each thread builds its own in shared memory, [letter][thread] (128 bytes a
 * thread). CONSTANT and READONLY: one table of every episode, [letter][episode] with
 * tdm_thread_table_pitch columns, built once at setup and read from constant memory
 * (at most TDM_THREAD_CONST_EPISODES episodes) or from device memory through the
 * read-only (texture) cache, as the paper's Algorithm 1 reads its episode. */
typedef enum tdm_table { TDM_TABLE_SHARED, TDM_TABLE_CONSTANT, TDM_TABLE_READONLY } tdm_table;

/* Dynamic shared memory of thread-tex (tile 0) and thread-shared: the tile of letters
 * and, with table TDM_TABLE_SHARED, each thread's 32-row table of transition masks. */
int64_t tdm_thread_smem(int block, int64_t tile, tdm_table table);
/* Columns of the CONSTANT and READONLY tables for neps episodes: neps rounded up to a
 * warp (32), so a warp's 32 masks of a letter are one aligned 128-byte line. */
int64_t tdm_thread_table_pitch(int64_t neps);
/* Dynamic shared memory of block-tex (piece 0) and block-shared: the episode's
 * transition masks, each thread's span table, and the tile (block pieces of piece
 * letters, each padded to an odd number of 16-byte vectors against bank conflicts). */
int64_t tdm_block_smem(int block, int64_t piece, int level);
/* The packed kernel's chunk for chunk_param (0: enough chunks of the database to give
 * about 32 warps per SM to sms SMs, but at least 64 letters) in letters, a multiple of
 * 16 in 16..32768. */
int64_t tdm_packed_chunk(int64_t n, int64_t groups, int sms, int64_t chunk_param);

/* ---- crossover choices (tdm_hybrid.c): which paper kernel the hybrid variant runs, and
 * whether packed runs its own kernels or block-tex ---- */

struct dm_crossover_fit; /* bench/core/crossover_lookup.h */

#define TDM_MAX_SWITCH 1000000000000000LL /* a fit's switch point at most */

/* The switch point fit gives at level (crossover_switch_at: f(level), or what was measured
 * at level) rounded to the nearest whole value of its axis (episodes, letters), in
 * 1..TDM_MAX_SWITCH (a fit below 1, or not a number, gives 1: the kernel above the
 * crossover always). */
int64_t tdm_switch_at(const struct dm_crossover_fit *fit, int level);

/* The kernel, "block-tex" or "thread-tex", that hybrid runs for `episodes` episodes of
 * level letters: below the switch point the `below` kernel, from the switch point on the
 * other. below is "block-tex" or "thread-tex", or "auto" (or NULL): the fit's `below`
 * variant, else block-tex (the one that wins on few episodes). The switch point is
 * switch_at, or with switch_at 0 the fit's (tdm_switch_at). NULL when switch_at
 * is 0 and fit is NULL. */
const char *tdm_hybrid_choose(int level, int64_t episodes, const struct dm_crossover_fit *fit,
                              int64_t switch_at, const char *below);

/* The fit of the block-tex and thread-tex crossover over count grouped by level among
 * w's stored fits and the table it compiles in (tdm's: variants/tdm/fits.h) for dev (its
 * card, else its architecture family; crossover_lookup), or NULL when there is none; the
 * rule that found it written into how (of size hown) unless how is NULL. */
const struct dm_crossover_fit *tdm_hybrid_fit(const dm_workload *w, const dm_device *dev,
                                              char *how, size_t hown);

/* The kernels packed runs over a database of length letters at level: "packed" (its
 * own) or "block-tex". small is "packed" or "block-tex" (that one), or "auto" (or NULL):
 * block-tex where fit, of block-tex and packed over length by level (NULL: none), has
 * block-tex faster below its crossover and length is below its switch point at level
 * (tdm_switch_at); else packed. */
const char *tdm_packed_choose(int level, int64_t length, const struct dm_crossover_fit *fit,
                              const char *small);

/* The fit of the block-tex and packed crossover over length grouped by level in w's
 * table for dev, as tdm_hybrid_fit finds its own; NULL when there is none. */
const struct dm_crossover_fit *tdm_packed_fit(const dm_workload *w, const dm_device *dev,
                                              char *how, size_t hown);

/* ---- CUDA launchers (tdm_thread.cu, tdm_block.cu, tdm_packed.cu) ---- */

/* A texture object (unsigned 32-bit x4 texels) over bytes of device memory (a multiple
 * of 16). Returns 0, or DM_EINPUT when the texels exceed the device's limit for linear
 * textures, or DM_ERUNTIME on a CUDA failure. */
int tdm_texture_create(const void *db, int64_t bytes, uint64_t *tex, dm_err *err);
void tdm_texture_destroy(uint64_t tex);

/* Arguments of the thread- and block-parallel kernels. */
typedef struct tdm_launch {
    const void *db;         /* padded database, tdm_padded_bytes(n) bytes */
    uint64_t tex;           /* texture over db (the *-tex variants), else 0 */
    int64_t nvec;           /* 16-letter vectors in db */
    const uint8_t *eps;     /* episodes, level letter codes each */
    int64_t neps;
    int level;
    int block;              /* threads per block */
    int64_t tile;           /* thread-shared: letters per tile; block-shared: per thread */
    tdm_table table;        /* thread-*: where the transition masks are */
    uint32_t *masks;        /* thread-* table CONSTANT or READONLY: 32 rows of
                             * tdm_thread_table_pitch(neps) words, filled by prepare */
    uint32_t *out;          /* neps counts */
    void *stream;
} tdm_launch;

/* Lets the kernel the launch names use its dynamic shared memory (above 48 KiB needs an
 * opt-in). Call once at setup. Returns 0, or -1 with err set. */
int tdm_block_prepare(const tdm_launch *a, dm_err *err);
/* The same for the thread-* kernels, and with table CONSTANT or READONLY fills
 * a->masks from a->eps on a->stream (and copies it to constant memory for CONSTANT).
 * Call once at setup. Returns 0, DM_EINPUT when a CONSTANT table would hold more than
 * TDM_THREAD_CONST_EPISODES episodes, or -1 with err set on a CUDA failure. */
int tdm_thread_prepare(const tdm_launch *a, dm_err *err);
/* thread-tex (a->tile 0: read a->tex) or thread-shared (tile letters staged per block):
 * one thread per episode, its masks where a->table says (constant memory holds one
 * table at a time: a launch whose table is not there copies it first). Returns 0, or
 * -1 with err set when the launch fails. */
int tdm_thread_launch(const tdm_launch *a, dm_err *err);
/* block-tex (a->tile 0: read a->tex) or block-shared: one block per episode, span tables
 * composed in shared memory. Returns 0, or -1 with err set. */
int tdm_block_launch(const tdm_launch *a, dm_err *err);

/* Arguments of the packed kernels. */
typedef struct tdm_packed_launch {
    const void *db;           /* padded database */
    void *bits;               /* 4 bytes per byte of db: each letter x as 1 << x */
    int64_t nvec;
    int level;
    int64_t ngroups, gpad;    /* groups, and rounded up to a warp */
    const uint32_t *first, *suffix;
    const int32_t *slot;      /* gpad * 26 */
    int64_t chunk;            /* letters, multiple of 16 */
    int64_t nchunks;
    void *table;              /* nchunks * 26 * gpad entries of tdm_packed_entry_bytes */
    int64_t seglen, nseg;     /* chunks per segment, segments (tdm_packed_plan_segments) */
    void *seg;                /* nseg * 26 * gpad entries of 8 bytes; unused if nseg <= 1 */
    uint32_t *out;
    int block;
    void *stream;
} tdm_packed_launch;

/* Bytes of one packed span entry at level: 4 up to level 4, else 8. */
int tdm_packed_entry_bytes(int level);
/* How the packed compose splits nchunks chunks: *seglen chunks a segment, *nseg segments
 * (about the square root of nchunks each, so the segments' pass and the walk over them
 * are both short); *nseg is 1 when there are too few chunks to split (32 or fewer). */
void tdm_packed_plan_segments(int64_t nchunks, int64_t *seglen, int64_t *nseg);
/* packed: expand the letters to bits, map (chunk x group threads), compose segments of
 * chunks (segment x episode threads) when there are several, then compose (one thread
 * per episode). Returns 0, or -1 with err set when a launch fails. */
int tdm_packed_run(const tdm_packed_launch *a, dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
