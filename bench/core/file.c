/* file.c - a whole file read into memory, for the loaders of text files (sweeps,
 * published tables, the plots a report inlines); and a dataset named after its file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
