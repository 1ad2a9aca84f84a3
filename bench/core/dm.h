/* dm.h - the core types every stage of dmbench shares: errors, parameter values,
 * sweep points, datasets, devices, variants and workloads.
 * Data flows dataset -> variant -> runner (verify, then time) -> store -> analysis. */
#ifndef DM_H
#define DM_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---------------------------------------------------------------------- */

/* Status codes returned by every fallible host function (0 is success). */
enum {
    DM_OK = 0,
    DM_ERUNTIME = -1, /* something failed while running (CUDA, I/O, SQLite) */
    DM_EINPUT = -2,   /* the user's input is wrong: sweep file, dataset, flag */
    DM_ENOGPU = -3,   /* the operation needs a GPU and there is none */
    DM_ENOMEM = -4,   /* the device has not the memory a point asks (dm_gpu_alloc): the
                       * point is skipped with the reason, the context left working */
};

#define DM_ERR_MAX 1024

/* The message of the last failure, kept by the caller (SQLite-style). */
typedef struct dm_err {
    int code;
    char msg[DM_ERR_MAX];
} dm_err;

/* Sets err->code and err->msg (printf format); returns code. err may be NULL. */
int dm_err_set(dm_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prefixes err->msg with "prefix: " (printf format); returns err->code. */
int dm_err_prefix(dm_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Seconds on the host's monotonic clock, which never steps back when the wall clock is
 * adjusted (now.c): what the engine times CPU variants with, and the miners their phases. */
double dm_now(void);
void dm_err_clear(dm_err *err);

/* Checks a CUDA runtime status. Returns 0 on cudaSuccess; otherwise -1 with err set to
 * "file:line: call: CUDA error name: message". Use through DM_CUDA. */
int dm_cuda_check(dm_err *err, int status, const char *call, const char *file, int line);
#define DM_CUDA(err, call) dm_cuda_check((err), (int)(call), #call, __FILE__, __LINE__)
/* For calls whose failure nothing can act on (frees and destroys on cleanup paths):
 * prints "dmbench: warning: file:line: call: CUDA error" on stderr when one fails. */
void dm_cuda_warn(int status, const char *call, const char *file, int line);
#define DM_CUDA_WARN(call) dm_cuda_warn((int)(call), #call, __FILE__, __LINE__)

/* ---- parameters and values ------------------------------------------------------- */

typedef enum dm_ptype { DM_P_INT = 1, DM_P_REAL, DM_P_ENUM } dm_ptype;

/* How the per-card lookup of a tuned value (tuned_lookup.h) treats a parameter when no
 * tuning was measured for the point's own problem and it looks for the nearest one. */
typedef enum dm_tune_role {
    DM_TUNE_MATCH = 0, /* the nearest problem must have the same value (level, say) */
    DM_TUNE_SIZE = 1,  /* a problem size: the nearest by ratio (length, instances) */
    DM_TUNE_ANY = 2,   /* picks one instance of a problem, not its shape (a seed), or a
                          choice that leaves the tuned kernel's problem as it is: any */
} dm_tune_role;

/* One parameter of a dataset, problem or variant. Arrays end with a zeroed entry. */
typedef struct dm_param_spec {
    const char *name;
    dm_ptype type;
    const char *def;     /* default value, as text ("256", "0.5", "tex") */
    const char *allowed; /* INT/REAL: "min..max" (either side may be empty);
                            ENUM: "a|b|c"; NULL: anything of the type */
    const char *help;
    int generated;       /* a dataset parameter that describes generated data only: a
                            point whose data is a file has none (registry_point_on_file) */
    dm_tune_role tune;   /* how the nearest tuned problem is found (DM_TUNE_MATCH: equal) */
    const char *bound;   /* an INT problem parameter whose nonzero value makes the answer a
                            bound of the exact one rather than it (a relaxed count): what the
                            answer then is, said once where it is written ("upper bounds:
                            ..."); NULL for any other (dm_point_bound) */
} dm_param_spec;

/* The longest text of a free-text parameter (an ENUM without `allowed`: a file's path),
 * its terminating NUL included: the system's PATH_MAX. */
#define DM_TEXT_MAX PATH_MAX
/* Room for a point's "name=value,..." text (dm_point_format) and its keys: a workload's
 * free-text parameters, at most two a point, at DM_TEXT_MAX each, and every other
 * parameter's name and value besides (test_registry checks each variant's fit). */
#define DM_KEY_MAX (2 * DM_TEXT_MAX + 4096)

typedef struct dm_value {
    dm_ptype type;
    int64_t i;     /* DM_P_INT */
    double r;      /* DM_P_REAL */
    const char *s; /* DM_P_ENUM: the text, interned (dm_intern): it lives as long as the
                      process, so values copy and compare without owning it */
} dm_value;

/* The pool's copy of text[0..len) (NUL-terminated), the same pointer for equal texts
 * (intern.c); thread-safe. NULL without memory. */
const char *dm_intern(const char *text, size_t len);

/* Parses text as a value of spec's type and checks spec->allowed. Returns 0, or
 * DM_EINPUT with err saying what was expected. */
int dm_value_parse(const dm_param_spec *spec, const char *text, dm_value *out, dm_err *err);
/* Appends printf-style text to the string in buf (of size n), truncating, keeping it
 * terminated (strbuf.c). */
void dm_append(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Writes a double as the shortest %g text that reads back as the same double. */
void dm_format_double(double v, char *buf, size_t n);
/* Writes the value as text (integers exactly, reals by dm_format_double). */
void dm_value_format(const dm_value *v, char *buf, size_t n);
/* The value as a number (INT and REAL); NAN for ENUM. */
double dm_value_num(const dm_value *v);
int dm_value_equal(const dm_value *a, const dm_value *b);

/* ---- devices --------------------------------------------------------------------- */

typedef struct dm_device {
    int index;
    char name[256];
    char uuid[48];      /* "GPU-xxxxxxxx-xxxx-..." */
    char pci_bus_id[32];
    int cc_major, cc_minor;
    int sms;
    int64_t mem_bytes;
    int l2_bytes;
    int max_threads_per_block;
    int max_threads_per_sm;
    int warp_size;
    int regs_per_block;
    int regs_per_sm;
    int max_blocks_per_sm;
    int smem_per_block;       /* default per-block limit, bytes */
    int smem_per_block_optin; /* with cudaFuncSetAttribute, bytes */
    int smem_per_sm;
    int sm_clock_khz;  /* maximum SM clock the runtime reports */
    int mem_clock_khz; /* maximum memory clock */
    int mem_bus_bits;
    int driver_version;  /* e.g. 13000 */
    int runtime_version; /* e.g. 13000 */
} dm_device;

/* ---- points ---------------------------------------------------------------------- */

#define DM_MAX_PARAMS 24
/* The notes of how a point's open parameters were chosen, at most. */
#define DM_CHOSEN_MAX 1024
/* One rule that chose a value, as the per-card lookups write it, at most. */
#define DM_HOW_MAX 384

typedef struct dm_variant dm_variant;
typedef struct dm_workload dm_workload;
typedef struct dm_tuned dm_tuned;
typedef struct dm_crossover_fit dm_crossover_fit;
typedef struct dm_study dm_study;
typedef struct dm_calibration dm_calibration;
typedef struct dm_card_tuning dm_card_tuning;

/* One point of a sweep: a variant and a value for each of its parameters (dataset,
 * problem and variant parameters, in that order; defaults filled in). */
typedef struct dm_point {
    const dm_workload *workload;
    const dm_variant *variant;
    int nparams;
    const dm_param_spec *specs[DM_MAX_PARAMS];
    dm_value values[DM_MAX_PARAMS];
    /* How the values the sweep left open were chosen for the card, "name: rule" joined
     * by "; " ("block: this card, this bucket (stored)"); "" when none was open. Not a
     * parameter: no key or bucket includes it. */
    char chosen[DM_CHOSEN_MAX];
} dm_point;

/* The value of the named parameter, or NULL when the point has none. */
const dm_value *dm_point_get(const dm_point *pt, const char *name);
/* Typed getters; they assert that the parameter exists with that type (a variant asks
 * only for parameters it declared, so a miss is a programming error). */
int64_t dm_point_int(const dm_point *pt, const char *name);
double dm_point_real(const dm_point *pt, const char *name);
const char *dm_point_str(const dm_point *pt, const char *name);
/* 1 (why set, n bytes) when the point's "block" is not whole warps, exceeds dev's
 * threads per block (dev NULL: not judged), or exceeds kernel_max (0: no such limit;
 * what the kernels' registers allow a block); 0 when the block can run. */
int dm_point_block_refused(const dm_point *pt, const dm_device *dev, int kernel_max,
                           char *why, size_t n);
/* The same for the block-size parameter `name` (a variant with two kernels' blocks). */
int dm_point_block_param_refused(const dm_point *pt, const char *name, const dm_device *dev,
                                 int kernel_max, char *why, size_t n);
/* Typed setters, for variants that resolve their own open parameters at expansion (the
 * same rule: the parameter exists with that type). The text is interned whole; without
 * memory for it the process stops, as on a programming error. */
void dm_point_set_int(dm_point *pt, const char *name, int64_t v);
void dm_point_set_str(dm_point *pt, const char *name, const char *text);
/* Notes in pt->chosen how parameter name's value was chosen (printf format), replacing
 * an earlier note of name. */
void dm_point_note_choice(dm_point *pt, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "name=value,name=value" over all parameters, in point order. */
void dm_point_format(const dm_point *pt, char *buf, size_t n);
/* The problem key: "name=value,..." over the workload's dataset and problem parameters
 * only. Points of different variants with equal keys solve the same problem, so their
 * times compare (speedups) and their outputs must agree (verification). */
void dm_point_problem_key(const dm_point *pt, char *buf, size_t n);
/* The dataset key: the same over the dataset parameters only. */
void dm_point_dataset_key(const dm_point *pt, char *buf, size_t n);
/* What pt's answer is when a parameter of it makes that a bound of the exact answer (the
 * first such parameter's spec->bound), or NULL when the answer is exact. */
const char *dm_point_bound(const dm_point *pt);

/* Copies a "name=value,..." list without the entry of the named parameter. */
void dm_params_without(const char *params, const char *name, char *out, size_t n);

/* ---- datasets -------------------------------------------------------------------- */

/* Where a sweep's data come from: a named generator of the workload, or a file. */
typedef struct dm_data_source {
    char generator[64];     /* "" when path is set */
    char path[DM_TEXT_MAX]; /* "" when generated */
} dm_data_source;

typedef struct dm_dataset {
    char name[128];         /* generator name or the file's base name */
    char params[DM_KEY_MAX]; /* dataset key (see dm_point_dataset_key) */
    char path[DM_TEXT_MAX]; /* "" when generated */
    char hash[32];          /* content hash, 16 hex digits (dm_hash_bytes) */
    int64_t size_bytes;
    char shape[128];        /* what the data hold as made or loaded, for people ("4177
                               instances, 9 attributes"): a file's points have no
                               parameters that say it (dm_param_spec.generated) */
    void *data;             /* the workload's own representation */
} dm_dataset;

/* Names a dataset read from the file at path: its base name in ds->name, the path in
 * ds->path (file.c). */
void dm_dataset_file(dm_dataset *ds, const char *path);
/* The base name of path (after its last '/'), as dm_dataset_file names a file's data. */
const char *dm_path_base(const char *path);

/* Reads the whole file at path into *data (malloc'd, NUL-terminated; its length in *len
 * when len is not NULL). Returns 0, DM_EINPUT when the path is wrong (missing, a
 * directory, not allowed: path.h says, naming it and why), or DM_ERUNTIME on a read error
 * or without memory (file.c). */
int dm_read_file(const char *path, char **data, size_t *len, dm_err *err);
/* The same for a dataset: the text gunzipped when the file is gzip (its first bytes
 * 1f 8b; one member or several, concatenated), its length in *len. Returns as
 * dm_read_file, or DM_EINPUT naming path, "gzip:" and the byte for a damaged stream
 * (cut short, a bad header, block or check, bytes after the last member). */
int dm_read_text(const char *path, char **data, size_t *len, dm_err *err);

/* FNV-1a 64 over bytes, eight at a time then the tail bytewise, continuing from h
 * (start with DM_HASH_INIT). */
#define DM_HASH_INIT 0xcbf29ce484222325ULL
uint64_t dm_hash_bytes(uint64_t h, const void *data, size_t n);

/* ---- execution context handed to variants ----------------------------------------- */

/* The most GPUs one run uses (`run --devices`). */
#define DM_MAX_GPUS 64
typedef struct dm_exec {
    const dm_device *device; /* NULL when running without a GPU */
    void *stream;            /* cudaStream_t the variant must launch on (GPU variants) */
    /* The run's GPUs (`run --devices`; the one GPU otherwise), device first: a multi_gpu
     * variant's point uses gpus[0 .. its "gpus" parameter). ngpus 0 without a GPU. */
    const dm_device *const *gpus;
    int ngpus;
} dm_exec;

/* Device memory for variants (gpumem.c): stream-ordered allocations from the device's
 * pool, which the runner tells to keep freed blocks, so a point's setup and teardown
 * cost microseconds rather than the milliseconds of cudaMalloc and cudaFree. A request
 * the card cannot hold sets err's code to DM_ENOMEM (what was asked, what is free),
 * whatever code the variant then returns, so the runner skips the point. */
int dm_gpu_alloc(void *stream, size_t bytes, void **ptr, dm_err *err);
/* Frees p (NULL is fine) in stream order; cannot fail short of a dead context, which
 * the next checked CUDA call reports. */
void dm_gpu_free(void *stream, void *p);
/* Lets device's default pool keep up to keep_bytes of freed memory for reuse. */
int dm_gpu_pool_keep(int device, uint64_t keep_bytes, dm_err *err);
/* on: gives each GPU of devs[0..n) read and write access to the memory the others
 * allocate from their default pools (dm_gpu_alloc), where every pair of them can access
 * each other's memory (cudaDeviceCanAccessPeer; else nothing is changed); off: takes it
 * back. Returns 1 when done, 0 when some pair cannot (on), -1 with err set. */
int dm_gpu_pools_share(const int *devs, int n, int on, dm_err *err);

/* Work done by one execution of a point, for throughput figures (0 when unknown). */
typedef struct dm_work {
    double bytes;        /* bytes a perfect implementation must move */
    double ops;          /* operations, in ops_unit */
    const char *ops_unit; /* e.g. "steps", "flop"; NULL when ops is 0 */
} dm_work;

/* A figure about how one execution went, besides its answer and its time: the size or
 * the wall time of one of its phases, say {"level 3", "candidates", 1234, NULL}. */
#define DM_MAX_FACTS 256
typedef struct dm_fact {
    char group[32];   /* what part of the execution it is about ("level 3") */
    char name[32];    /* what it counts or times ("candidates", "count_s") */
    double value;
    const char *unit; /* "s", or NULL for a count */
} dm_fact;

/* Appends the fact (group, name, value, unit) to f[0..*n), a workload's facts() list of
 * room max, counting it in *n; nothing when the list is full (strbuf.c). */
void dm_fact_add(dm_fact *f, int max, int *n, const char *group, const char *name,
                 double value, const char *unit);

/* ---- variants and workloads -------------------------------------------------------- */

/* A flag of `dmbench mine WORKLOAD` that sets one of the workload's dataset or problem
 * parameters: `--flag VALUE` is `-p param=VALUE`. A repeatable flag's values are joined
 * with DM_MINE_JOIN (';': a ',' would split the "name=value,..." lists points are kept
 * as). Tables end with a zeroed entry. */
#define DM_MINE_JOIN ";"
typedef struct dm_mine_option {
    const char *flag;    /* the long flag, without "--" */
    const char *param;   /* the parameter it sets */
    int repeatable;
    const char *metavar; /* its value in the help text ("LO:HI") */
    const char *help;
} dm_mine_option;

/* One implementation of a workload. Tables of these end with a zeroed entry. */
struct dm_variant {
    const char *name;
    const char *description;
    int needs_gpu;
    /* 1: each point uses as many of the run's GPUs (dm_exec.gpus) as its integer
     * parameter "gpus" says, which the variant must declare (at least 1), making its own
     * host thread, streams and memory on each beyond the first; run() returns when every
     * GPU is done. A point asking more GPUs than the run has is pruned; with several
     * workers (`run --devices`) such a point runs while no other point does. */
    int multi_gpu;
    const dm_param_spec *params; /* execution parameters (block size, ...); may be NULL */
    /* Optional: "name=value,..." of problem parameters the variant only counts with (a
     * relaxed problem, say); a point made from defaults for it takes them, and its
     * supports() refuses other values. */
    const char *fixed;
    /* Optional: 0 when the variant can run pt on dev (dev NULL without a GPU), else
     * nonzero with why filled ("block 2048 exceeds the device's 1024"). */
    int (*supports)(const dm_point *pt, const dm_device *dev, char *why, size_t n);
    /* Optional: gives pt's open parameters (those at a value that means "what dmbench
     * measured for this card", such as 0) the values compiled in for dev (tuned block
     * sizes, crossover fits). Called at sweep expansion, before supports(), so the
     * values used are stored with the point; dev is never NULL. */
    void (*resolve)(dm_point *pt, const dm_device *dev);
    /* Allocates and uploads what the point needs; *state is handed to the others. */
    int (*setup)(const dm_exec *ex, const dm_dataset *ds, const dm_point *pt, void **state,
                 dm_err *err);
    /* One execution. GPU variants enqueue on ex->stream and return without
     * synchronising; CPU variants run to completion. */
    int (*run)(void *state, dm_err *err);
    /* The result of the last run, in the workload's result form, on the host (GPU
     * variants synchronise and copy back). Valid until the next run or teardown. */
    int (*output)(void *state, const void **out, dm_err *err);
    void (*teardown)(void *state);
};

struct dm_workload {
    const char *name;
    const char *description;
    const char *const *generators;        /* generator names, NULL-terminated */
    const dm_param_spec *dataset_params;  /* parameters that define the data */
    const dm_param_spec *problem_params;  /* other parameters that define the answer */
    /* Makes the dataset: from generator with pt's dataset parameters, or loads src->path.
     * Bad files are DM_EINPUT naming the file and the offending place. */
    int (*dataset_open)(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                        dm_err *err);
    void (*dataset_close)(dm_dataset *ds);
    /* The CPU reference answer for pt's problem on ds. */
    int (*reference)(const dm_dataset *ds, const dm_point *pt, void **ref, dm_err *err);
    void (*reference_free)(void *ref);
    /* 0 when out equals ref (exactly for counts; floats within the workload's stated
     * tolerance); else nonzero with why naming the first difference. */
    int (*compare)(const void *ref, const void *out, const dm_point *pt, char *why, size_t n);
    /* The work of one execution of pt on ds, whose reference answer is ref (optional). */
    void (*work)(const dm_point *pt, const dm_dataset *ds, const void *ref, dm_work *w);
    /* Writes the mining result out (in the workload's result form, as a variant's
     * output() gives it) as CSV with a header line, for `dmbench mine` (counts per
     * episode, rules with their measures, patterns with their indexes). Returns 0, or DM_ERUNTIME with err set (a write failed). */
    int (*write_result)(const void *out, const dm_point *pt, FILE *f, dm_err *err);
    /* Optional: the facts of the execution that gave out (a variant's output(), or the
     * reference), at most max of them into f. Returns how many. The runner stores those
     * of each point's last timed execution; `dmbench mine` prints them. */
    int (*facts)(const void *out, const dm_point *pt, dm_fact *f, int max);
    const dm_variant *variants; /* ends with a zeroed entry */
    /* What the workload brings from its own folder, read by the generic commands. */
    const dm_tuned *tuned;          /* variants/<w>/tuned.h (tuned_lookup.h), zero-ended */
    const dm_crossover_fit *fits;   /* variants/<w>/fits.h (crossover_lookup.h), zero-ended */
    const dm_study *study;          /* variants/<w>/<w>_study.c (study.h): claims, targets */
    const dm_calibration *calibration; /* a check of the engine itself; NULL: none */
    const dm_mine_option *mine_options; /* `dmbench mine`'s flags of its own; NULL: none */
    const dm_card_tuning *card_tuning; /* what `dmbench tune --card` runs (card_choices.h);
                                          NULL: nothing to tune per card */
};

/* A check of the measurement engine against the same quantity measured outside it (say,
 * a copy bandwidth against a loop of cudaMemcpy calls timed by one pair of CUDA events). `dmbench calibrate` runs sweep, takes each listed variant's best bandwidth and
 * fails unless each is within tolerance of plain(). */
struct dm_calibration {
    const char *sweep;           /* sweep text; one %lld, the size axis's value */
    int item_bytes;              /* bytes per item of the size axis */
    const char *const *variants; /* the engine's measurements compared, NULL-ended */
    const char *key_part;        /* only points whose problem key contains this */
    const char *plain_name;      /* what plain() measures, for the printout */
    int plain_iters;
    /* The bandwidth, GB/s, of iters plain repetitions over bytes. Returns 0, or
     * DM_ERUNTIME with err set (a CUDA failure). */
    int (*plain)(int64_t bytes, int iters, double *gbps, dm_err *err);
    double tolerance;            /* relative, e.g. 0.05 */
};

#ifdef __cplusplus
}
#endif

#endif
