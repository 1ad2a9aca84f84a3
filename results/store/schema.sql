-- schema.sql - the results database, schema version 10 (compiled into dmbench). Each
-- section below opens with a marked line naming the version N it makes, and takes a
-- database from version N-1 to N: an empty file gets them all in order, an older
-- database the ones it lacks (store.c). Times are ISO-8601 UTC text; a real that was NaN (unknown) is NULL.
-- Long-form tables (point_params, metrics) keep every value.

-- ==== version 1: runs, datasets, points, samples, statistics, verification

CREATE TABLE schema_version (
    version    INTEGER NOT NULL,
    applied_at TEXT NOT NULL
);

-- One invocation of `dmbench run`, with the fingerprint that makes it reproducible.
CREATE TABLE runs (
    id                  INTEGER PRIMARY KEY,
    started_at          TEXT NOT NULL,
    ended_at            TEXT,
    status              TEXT NOT NULL
                        CHECK (status IN ('running', 'complete', 'failed', 'interrupted')),
    host                TEXT,
    gpu_name            TEXT,
    gpu_uuid            TEXT,
    gpu_cc              TEXT,     -- "9.0"
    gpu_sms             INTEGER,
    gpu_l2_bytes        INTEGER,
    gpu_mem_bytes       INTEGER,
    gpu_pci_bus_id      TEXT,
    driver_version      INTEGER,  -- CUDA's encoding: 13000 is 13.0
    runtime_version     INTEGER,
    sm_clock_mhz_start  REAL,
    mem_clock_mhz_start REAL,
    clock_source        TEXT,
    no_gpu_reason       TEXT,
    dmbench_version     TEXT,
    git_commit          TEXT,
    git_dirty           INTEGER,
    build_flags         TEXT,
    argv                TEXT,
    sweep_name          TEXT,
    sweep_path          TEXT,
    sweep_text          TEXT,
    workload            TEXT,
    baseline            TEXT,
    measure_mode        TEXT CHECK (measure_mode IN ('cold', 'hot')),
    min_samples         INTEGER,
    max_noise           REAL,
    max_time            REAL,
    max_samples         INTEGER,
    points_total        INTEGER,
    points_planned      INTEGER
);
CREATE INDEX runs_by_sweep ON runs (sweep_name, status);

CREATE TABLE run_notes (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT,
    PRIMARY KEY (run_id, key)
);

-- Datasets are shared between runs: a generated one is named by its generator and
-- parameters (path ''), a file by its base name and path; the hash tells versions apart.
CREATE TABLE datasets (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    params       TEXT NOT NULL,
    path         TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    size_bytes   INTEGER,
    UNIQUE (name, params, path, content_hash)
);

CREATE TABLE points (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,  -- position in the sweep's expansion
    variant       TEXT NOT NULL,
    dataset_id    INTEGER REFERENCES datasets (id),
    problem_key   TEXT NOT NULL,     -- dataset and problem parameters: equal keys compare
    params        TEXT NOT NULL,     -- every parameter, "name=value,..."
    status        TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'skipped', 'pruned')),
    reason        TEXT,
    started_at    TEXT,
    ended_at      TEXT,
    bytes_per_run REAL,
    ops_per_run   REAL,
    ops_unit      TEXT,
    UNIQUE (run_id, idx)
);
CREATE INDEX points_by_problem ON points (run_id, problem_key, variant);

CREATE TABLE point_params (
    point_id   INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    type       TEXT NOT NULL CHECK (type IN ('int', 'real', 'enum')),
    value_text TEXT NOT NULL,
    value_num  REAL,                 -- NULL for enums
    PRIMARY KEY (point_id, name)
);

-- One row per sample: seconds per execution (a hot batch's time divided by batch).
CREATE TABLE samples (
    point_id  INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,
    seconds   REAL NOT NULL,
    batch     INTEGER NOT NULL,
    throttled INTEGER NOT NULL,
    sm_mhz    REAL,
    PRIMARY KEY (point_id, idx)
);

CREATE TABLE point_stats (
    point_id         INTEGER PRIMARY KEY REFERENCES points (id) ON DELETE CASCADE,
    n                INTEGER NOT NULL,
    min              REAL,
    q1               REAL,
    median           REAL,
    mean             REAL,
    q3               REAL,
    max              REAL,
    stdev            REAL,
    noise            REAL,
    stop_reason      TEXT,
    mode             TEXT CHECK (mode IN ('cold', 'hot')),
    batch            INTEGER,
    warmup_seconds   REAL,
    elapsed          REAL,
    clock_source     TEXT,
    sm_mhz_before    REAL,
    sm_mhz_after     REAL,
    n_throttled      INTEGER,
    throttle_reasons TEXT
);

CREATE TABLE verifications (
    point_id INTEGER PRIMARY KEY REFERENCES points (id) ON DELETE CASCADE,
    outcome  TEXT NOT NULL CHECK (outcome IN ('match', 'mismatch', 'error', 'not-run')),
    detail   TEXT
);

-- Hardware counters per kernel launch (CUPTI), by their short names. value is NULL with
-- a reason when the counters were unavailable.
CREATE TABLE metrics (
    point_id     INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    kernel       TEXT NOT NULL,
    launch_index INTEGER NOT NULL,
    metric       TEXT NOT NULL,
    value        REAL,
    reason       TEXT,
    CHECK (value IS NOT NULL OR reason IS NOT NULL),
    PRIMARY KEY (point_id, kernel, launch_index, metric)
);

-- Every point with its statistics, verification and throughput (GB/s from the bytes a
-- perfect implementation moves; ops/s in the workload's ops_unit), where known.
CREATE VIEW v_point_summary AS
SELECT p.run_id, p.id AS point_id, p.idx, p.variant, p.problem_key, p.params, p.status,
       p.reason, s.n, s.min, s.q1, s.median, s.mean, s.q3, s.max, s.stdev, s.noise,
       s.mode, s.batch, s.stop_reason, s.n_throttled,
       p.bytes_per_run, p.ops_per_run, p.ops_unit,
       CASE WHEN p.bytes_per_run > 0 AND s.median > 0
            THEN p.bytes_per_run / s.median / 1e9 END AS gb_per_s,
       CASE WHEN p.ops_per_run > 0 AND s.median > 0
            THEN p.ops_per_run / s.median END AS ops_per_s,
       v.outcome AS verification, v.detail AS verification_detail
FROM points p
LEFT JOIN point_stats s ON s.point_id = p.id
LEFT JOIN verifications v ON v.point_id = p.id;

-- Every ok point against the ok point of its run's baseline variant that solves the
-- same problem: speedup = baseline_median / median. NULL when the run has no baseline
-- or no such point. Where the baseline has several such points (its own parameters
-- vary), the fastest is the baseline.
CREATE VIEW v_speedup AS
SELECT run_id, point_id, idx, variant, problem_key, baseline, median, baseline_median,
       baseline_median / median AS speedup
FROM (SELECT p.run_id, p.id AS point_id, p.idx, p.variant, p.problem_key, r.baseline,
             s.median,
             (SELECT MIN(bs.median)
              FROM points b JOIN point_stats bs ON bs.point_id = b.id
              WHERE b.run_id = p.run_id AND b.problem_key = p.problem_key
                AND b.variant = r.baseline AND b.status = 'ok') AS baseline_median
      FROM points p
      JOIN runs r ON r.id = p.run_id
      LEFT JOIN point_stats s ON s.point_id = p.id
      WHERE p.status = 'ok');

-- ==== version 2: CUPTI - launches, metric units, kernel attributes, stream timelines

-- Every kernel launch of a profiled point, in the order its profiling pass made them;
-- launch_index is the metrics' launch_index.
CREATE TABLE launches (
    point_id     INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    launch_index INTEGER NOT NULL,
    kernel       TEXT NOT NULL,
    grid_x       INTEGER NOT NULL,
    grid_y       INTEGER NOT NULL,
    grid_z       INTEGER NOT NULL,
    block_x      INTEGER NOT NULL,
    block_y      INTEGER NOT NULL,
    block_z      INTEGER NOT NULL,
    dynamic_smem INTEGER NOT NULL,
    PRIMARY KEY (point_id, launch_index)
);

-- The unit of each metric value ("%", "bytes", "ns", ...; the traits table's).
ALTER TABLE metrics ADD COLUMN unit TEXT;

-- Static attributes of each kernel a GPU point launched, profiled or not, per launch
-- shape, with the occupancy the runtime's calculator predicts for it.
CREATE TABLE kernel_attrs (
    point_id               INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    kernel                 TEXT NOT NULL,
    block_threads          INTEGER NOT NULL,
    dynamic_smem           INTEGER NOT NULL,
    regs_per_thread        INTEGER,
    static_smem            INTEGER,
    local_bytes_per_thread INTEGER,
    max_threads_per_block  INTEGER,
    predicted_blocks_per_sm INTEGER,
    predicted_occupancy    REAL,     -- percent of the SM's warp slots
    PRIMARY KEY (point_id, kernel, block_threads, dynamic_smem)
);

-- The unprofiled trace pass of a point: every kernel and copy with its stream, in ns from
-- the first activity's start.
CREATE TABLE activities (
    point_id INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    idx      INTEGER NOT NULL,   -- by start time
    kind     TEXT NOT NULL CHECK (kind IN ('kernel', 'memcpy')),
    name     TEXT NOT NULL,
    stream   INTEGER NOT NULL,
    start_ns INTEGER NOT NULL,
    end_ns   INTEGER NOT NULL,
    bytes    INTEGER,            -- copies
    grid_x   INTEGER,            -- kernels
    grid_y   INTEGER,
    grid_z   INTEGER,
    block_x  INTEGER,
    block_y  INTEGER,
    block_z  INTEGER,
    PRIMARY KEY (point_id, idx)
);

-- Per traced point: the span from the first start to the last end, the time with two or
-- more activities in flight, and overlap = that time / span. reason says why the trace
-- failed (NULLs) or what it missed.
CREATE TABLE timelines (
    point_id   INTEGER PRIMARY KEY REFERENCES points (id) ON DELETE CASCADE,
    activities INTEGER,
    streams    INTEGER,
    span_ns    INTEGER,
    overlap_ns INTEGER,
    overlap    REAL,
    reason     TEXT,
    CHECK (overlap IS NOT NULL OR reason IS NOT NULL)
);

-- Every metric value with its launch and point: for a metric against a sweep axis, join
-- point_params on point_id and the axis' name.
CREATE VIEW v_launch_metrics AS
SELECT p.run_id, p.id AS point_id, p.idx, p.variant, p.params, m.kernel, m.launch_index,
       l.grid_x * l.grid_y * l.grid_z AS grid_blocks,
       l.block_x * l.block_y * l.block_z AS block_threads,
       m.metric, m.unit, m.value, m.reason
FROM metrics m
JOIN points p ON p.id = m.point_id
LEFT JOIN launches l ON l.point_id = m.point_id AND l.launch_index = m.launch_index;

-- Achieved occupancy of each profiled launch against the calculator's prediction.
CREATE VIEW v_occupancy AS
SELECT v.run_id, v.point_id, v.idx, v.variant, v.kernel, v.launch_index, v.block_threads,
       v.value AS achieved_occupancy, a.predicted_occupancy, a.predicted_blocks_per_sm,
       a.regs_per_thread
FROM v_launch_metrics v
LEFT JOIN launches l ON l.point_id = v.point_id AND l.launch_index = v.launch_index
LEFT JOIN kernel_attrs a ON a.point_id = v.point_id AND a.kernel = v.kernel
     AND a.block_threads = v.block_threads AND a.dynamic_smem = l.dynamic_smem
WHERE v.metric = 'achieved_occupancy';

-- ==== version 3: crossover fits per card, for hybrid variants to switch kernels by
-- Written by `dmbench crossover --store`: both forms of the fit of crossover against the
-- group axis, the better one marked.
CREATE TABLE crossover_fits (
    id         INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    card       TEXT NOT NULL,    -- '' for runs without a GPU
    workload   TEXT NOT NULL,
    variant_a  TEXT NOT NULL,
    variant_b  TEXT NOT NULL,
    axis       TEXT NOT NULL,
    grp        TEXT NOT NULL,
    form       TEXT NOT NULL CHECK (form IN ('a/N + b', 'a*N + b')),
    a          REAL NOT NULL,
    b          REAL NOT NULL,
    se_a       REAL,
    se_b       REAL,
    r2         REAL,
    n          INTEGER NOT NULL, -- crossovers fitted
    better     INTEGER NOT NULL CHECK (better IN (0, 1))
);
CREATE INDEX crossover_fits_by_pair ON crossover_fits (workload, variant_a, variant_b, card);

-- ==== version 4: which variant of a crossover fit wins below the crossover
-- The variant faster at the smallest axis value, when that was the same in every group
-- (a hybrid runs it below the crossover and the other one above); NULL when the groups
-- disagreed, and for fits stored before version 4. Fits stored by later builds (the
-- schema is the same): the variant faster below the crossover in every group that
-- crosses, groups without a crossover left out.
ALTER TABLE crossover_fits ADD COLUMN below TEXT;

-- ==== version 5: facts of a point's last timed execution
-- Figures a workload reports about how an execution went, besides its answer and time
-- (dm_workload.facts): per level of a mining run, say, its candidates, survivors and
-- frequent episodes and the wall time of each phase. unit is 's' for times, NULL for counts.
CREATE TABLE point_facts (
    point_id INTEGER NOT NULL REFERENCES points (id) ON DELETE CASCADE,
    idx      INTEGER NOT NULL,   -- the order the workload gave them in
    grp      TEXT NOT NULL,
    name     TEXT NOT NULL,
    value    REAL,
    unit     TEXT,
    PRIMARY KEY (point_id, idx)
);

-- ==== version 6: the stopping rule's noise figure and the outliers of each point; the
-- process of a run
-- criterion: 'median' (the noise judged is half the width of the median's 95 %
-- confidence interval over the median) or 'stdrel' (stdev over mean, kept in noise for
-- every point). A sample is an outlier above median + outlier_k x 1.4826 x MAD.
-- Points and runs from before version 6 have NULL here (stdrel was the rule then).
-- pid: the process running the run (on runs.host); a 'running' run whose process is gone
-- was killed, and the next writing dmbench on that host marks it 'interrupted'.
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN criterion TEXT;
ALTER TABLE runs ADD COLUMN outlier_k REAL;
ALTER TABLE samples ADD COLUMN outlier INTEGER NOT NULL DEFAULT 0;
ALTER TABLE point_stats ADD COLUMN criterion TEXT;
ALTER TABLE point_stats ADD COLUMN criterion_value REAL;
ALTER TABLE point_stats ADD COLUMN median_lo REAL;
ALTER TABLE point_stats ADD COLUMN median_hi REAL;
ALTER TABLE point_stats ADD COLUMN mad REAL;
ALTER TABLE point_stats ADD COLUMN outlier_k REAL;
ALTER TABLE point_stats ADD COLUMN n_outliers INTEGER;

DROP VIEW v_point_summary;
CREATE VIEW v_point_summary AS
SELECT p.run_id, p.id AS point_id, p.idx, p.variant, p.problem_key, p.params, p.status,
       p.reason, s.n, s.min, s.q1, s.median, s.mean, s.q3, s.max, s.stdev, s.noise,
       s.mode, s.batch, s.stop_reason, s.n_throttled,
       p.bytes_per_run, p.ops_per_run, p.ops_unit,
       CASE WHEN p.bytes_per_run > 0 AND s.median > 0
            THEN p.bytes_per_run / s.median / 1e9 END AS gb_per_s,
       CASE WHEN p.ops_per_run > 0 AND s.median > 0
            THEN p.ops_per_run / s.median END AS ops_per_s,
       v.outcome AS verification, v.detail AS verification_detail,
       s.criterion, s.criterion_value, s.median_lo, s.median_hi, s.n_outliers
FROM points p
LEFT JOIN point_stats s ON s.point_id = p.id
LEFT JOIN verifications v ON v.point_id = p.id;

-- ==== version 7: a run's stable identity, and the shard of a sweep it ran
-- uid: 128 random bits in hex, made when the run begins (runs from before version 7 get
-- theirs here); `dmbench merge` knows a run by it, so merging twice copies nothing twice.
-- shard_index/shard_count: `dmbench run --shard I/N` ran the points whose expansion index
-- idx has idx % N = I - 1; NULL for a run of the whole sweep.
-- points.device: the index of the GPU the point ran on (`run --devices` spreads a run's
-- points over several); NULL without a GPU, and for points from before version 7.
ALTER TABLE runs ADD COLUMN uid TEXT;
ALTER TABLE runs ADD COLUMN shard_index INTEGER;
ALTER TABLE runs ADD COLUMN shard_count INTEGER;
UPDATE runs SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
CREATE UNIQUE INDEX runs_by_uid ON runs (uid);
ALTER TABLE points ADD COLUMN device INTEGER;

-- ==== version 8: what each group of a stored crossover fit measured
-- One row per group (problem) of the computation `crossover --store` made the fit from,
-- tied to the better form's row: x where the two curves crossed first, with `faster` the
-- variant faster below it; x NULL where they did not cross, `faster` then the variant
-- faster at every axis value measured, axis_lo to axis_hi. Compiled into variants/<w>/
-- fits.h beside the fit, so that a hybrid switches at the crossover measured for its
-- group and never against what a group measured (bench/core/crossover_lookup.h).
CREATE TABLE crossover_groups (
    fit_id    INTEGER NOT NULL REFERENCES crossover_fits (id) ON DELETE CASCADE,
    grp_value REAL NOT NULL,
    x         REAL,
    axis_lo   REAL NOT NULL,
    axis_hi   REAL NOT NULL,
    faster    TEXT NOT NULL
);
CREATE INDEX crossover_groups_by_fit ON crossover_groups (fit_id);

-- ==== version 9: the host core's clock around each point's samples
-- host_mhz_before/after: the timing thread's core clock just before the first sample and
-- just after the last, measured by a chain of dependent adds (dm_host_mhz); NULL for
-- points from before version 9. On a virtual machine the host's turbo comes and goes
-- with its other tenants, and the host's share of a GPU variant's time moves with it.
ALTER TABLE point_stats ADD COLUMN host_mhz_before REAL;
ALTER TABLE point_stats ADD COLUMN host_mhz_after REAL;

-- ==== version 10: block sizes tuned per card, read by every run; how each point's open values were chosen
-- Written by `dmbench tune --store` (and `tune --card`): per workload, card, variant, axis
-- and bucket (the point's other parameters), the value chosen and the runs it was chosen
-- from; a later choice of the same key replaces the earlier. `run` and `mine` read these
-- and the stored crossover fits when they start, before the compiled-in defaults of
-- variants/<w>/tuned.h and fits.h, so tuning a card needs no rebuild
-- (bench/core/card_choices.h).
CREATE TABLE tuned_choices (
    id         INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    workload   TEXT NOT NULL,
    card       TEXT NOT NULL,
    cc         TEXT NOT NULL,    -- "9.0"
    variant    TEXT NOT NULL,
    axis       TEXT NOT NULL,
    bucket     TEXT NOT NULL,
    value      INTEGER NOT NULL,
    runs       TEXT NOT NULL,    -- the runs its candidates came from, "3 4"
    UNIQUE (workload, card, variant, axis, bucket)
);
-- chosen: how the values the sweep left open were chosen for the card, and by which rule
-- ("block: 256, this card, this bucket (stored)"); NULL when none was open, and for points
-- from before version 10.
ALTER TABLE points ADD COLUMN chosen TEXT;
