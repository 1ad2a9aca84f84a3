/* file.c - a whole file read into memory, for the loaders of text files (sweeps,
 * published tables, the plots a report inlines), or gunzipped through zlib when it is
 * gzip, for the workloads' datasets; and a dataset named after its file. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "dm.h"
#include "path.h"

int dm_read_file(const char *path, char **data, size_t *len, dm_err *err)
{
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *data = NULL;
    int rc = dm_open_input(path, &f, err);
    if (rc != 0)
        return rc;
    for (;;) {
        if (cap - n < 4096) {
            char *b = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!b) {
                dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
                goto fail;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        dm_err_set(err, DM_ERUNTIME, "%s: cannot read: %s", path, strerror(errno));
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    if (len)
        *len = n;
    return 0;
fail:
    free(buf);
    fclose(f);
    return err ? err->code : DM_ERUNTIME;
}

static int dm_is_gzip(const unsigned char *data, size_t n)
{
    return n >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/* Decompresses the gzip members in [in, in + n) into *out (malloc'd, NUL after the
 * bytes) and *outlen. Returns 0, DM_EINPUT naming path, zlib's reason and the byte
 * offset for a damaged stream, or DM_ERUNTIME. */
static int dm_gunzip(const char *path, const unsigned char *in, size_t n, char **out,
                     size_t *outlen, dm_err *err)
{
    z_stream z = {0};
    if (inflateInit2(&z, 15 + 16) != Z_OK) /* 16: gzip wrapping only */
        return dm_err_set(err, DM_ERUNTIME, "%s: gzip: zlib did not start", path);
    size_t cap = n < (1u << 16) ? 1u << 17 : 4 * n, len = 0;
    char *buf = malloc(cap);
    int rc = buf ? 0 : dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
    z.next_in = (unsigned char *)in;
    while (!rc) {
        if (cap - len < 2) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
                break;
            }
            buf = b;
        }
        size_t at = (size_t)(z.next_in - in), room = cap - len - 1; /* 1: the NUL */
        z.avail_in = (uInt)(n - at < UINT_MAX ? n - at : UINT_MAX);
        z.next_out = (unsigned char *)buf + len;
        z.avail_out = (uInt)(room < UINT_MAX ? room : UINT_MAX);
        int zr = inflate(&z, Z_NO_FLUSH);
        len = (size_t)((char *)z.next_out - buf);
        at = (size_t)(z.next_in - in);
        if (zr == Z_STREAM_END) {
            if (at == n)
                break;
            if (!dm_is_gzip(in + at, n - at))
                rc = dm_err_set(err, DM_EINPUT, "%s: gzip: bytes after the last member "
                                "(at byte %zu)", path, at);
            else if (inflateReset(&z) != Z_OK)
                rc = dm_err_set(err, DM_ERUNTIME, "%s: gzip: zlib did not restart", path);
        } else if (zr == Z_BUF_ERROR && at == n) {
            rc = dm_err_set(err, DM_EINPUT, "%s: gzip: data cut short (after byte %zu)",
                            path, n);
        } else if (zr == Z_MEM_ERROR) {
            rc = dm_err_set(err, DM_ERUNTIME, "%s: out of memory", path);
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            rc = dm_err_set(err, DM_EINPUT, "%s: gzip: %s (near byte %zu)", path,
                            z.msg ? z.msg : "damaged data", at);
        }
    }
    inflateEnd(&z);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *out = buf;
    *outlen = len;
    return 0;
}

int dm_read_text(const char *path, char **data, size_t *len, dm_err *err)
{
    size_t n;
    int rc = dm_read_file(path, data, &n, err);
    if (rc || !dm_is_gzip((const unsigned char *)*data, n)) {
        *len = rc ? 0 : n;
        return rc;
    }
    char *plain = NULL;
    rc = dm_gunzip(path, (const unsigned char *)*data, n, &plain, len, err);
    free(*data);
    *data = plain;
    return rc;
}

const char *dm_path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void dm_dataset_file(dm_dataset *ds, const char *path)
{
    snprintf(ds->name, sizeof ds->name, "%.*s", (int)sizeof ds->name - 1, dm_path_base(path));
    snprintf(ds->path, sizeof ds->path, "%s", path);
}
