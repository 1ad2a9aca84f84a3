/* store_sink.c - the results database as the runner's sink (sink.h): each method is the
 * store function of the same name on a database opened when the run first needs it. */
#include <stdlib.h>
#include <string.h>

#include "store.h"

typedef struct store_sink {
    char *path;
    dm_store *st;
} store_sink;

static int sink_open(void *ctx, dm_err *err)
{
    store_sink *s = ctx;
    return s->st ? 0 : store_open(s->path, &s->st, err);
}

static int sink_find_resumable(void *ctx, const char *name, const char *text, dm_shard shard,
                               int64_t *run_id, dm_run_origin *origin, dm_err *err)
{
    return store_find_resumable(((store_sink *)ctx)->st, name, text, shard, run_id, origin,
                                err);
}

static int sink_run_reopen(void *ctx, int64_t run_id, dm_err *err)
{
    return store_run_reopen(((store_sink *)ctx)->st, run_id, err);
}

static int sink_point_done(void *ctx, int64_t run_id, int64_t idx, int *done, dm_err *err)
{
    return store_point_done(((store_sink *)ctx)->st, run_id, idx, done, err);
}

static int sink_run_begin(void *ctx, const dm_run_info *info, int64_t *run_id, dm_err *err)
{
    return store_run_begin(((store_sink *)ctx)->st, info, run_id, err);
}

static int sink_run_note(void *ctx, int64_t run_id, const char *key, const char *value,
                         dm_err *err)
{
    return store_run_note(((store_sink *)ctx)->st, run_id, key, value, err);
}

static int sink_dataset(void *ctx, const dm_dataset *ds, int64_t *id, dm_err *err)
{
    return store_dataset(((store_sink *)ctx)->st, ds, id, err);
}

static int sink_point(void *ctx, const dm_point_result *r, dm_err *err)
{
    return store_point(((store_sink *)ctx)->st, r, NULL, err);
}

static int sink_run_end(void *ctx, int64_t run_id, const char *status, dm_err *err)
{
    return store_run_end(((store_sink *)ctx)->st, run_id, status, err);
}

static int sink_run_discard(void *ctx, int64_t run_id, dm_err *err)
{
    return store_run_discard(((store_sink *)ctx)->st, run_id, err);
}

static int sink_abandon(void *ctx, const dm_point_result *r, dm_err *err)
{
    dm_store *st = NULL;
    int rc = store_open(((store_sink *)ctx)->path, &st, err);
    if (rc == 0)
        rc = store_point(st, r, NULL, err);
    if (rc == 0)
        rc = store_run_end(st, r->run_id, "interrupted", err);
    store_close(st);
    return rc;
}

static void sink_close(void *ctx)
{
    store_sink *s = ctx;
    if (!s)
        return;
    store_close(s->st);
    free(s->path);
    free(s);
}

static const dm_sink_ops store_sink_ops = {
    .open = sink_open,
    .find_resumable = sink_find_resumable,
    .run_reopen = sink_run_reopen,
    .point_done = sink_point_done,
    .run_begin = sink_run_begin,
    .run_note = sink_run_note,
    .dataset = sink_dataset,
    .point = sink_point,
    .run_end = sink_run_end,
    .run_discard = sink_run_discard,
    .abandon = sink_abandon,
    .close = sink_close,
};

int store_sink_make(const char *path, dm_sink *out, dm_err *err)
{
    store_sink *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return dm_err_set(err, DM_ERUNTIME, "out of memory making the sink for %s", path);
    }
    out->ops = &store_sink_ops;
    out->ctx = s;
    return 0;
}
