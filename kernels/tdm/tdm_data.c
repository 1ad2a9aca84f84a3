/* tdm_data.c - the letter databases of the tdm workload: the uniform and planted
 * generators, the file loader (one letter per byte, whitespace ignored), and the
 * dataset callbacks that pick between them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "rng.h"
#include "tdm/tdm.h"

void tdm_generate_uniform(uint64_t seed, int64_t n, uint8_t *sym)
{
    uint64_t state = seed;
    for (int64_t i = 0; i < n; i++)
        sym[i] = (uint8_t)dm_rng_below_of(dm_splitmix64(&state), TDM_ALPHABET);
}

int tdm_plant_parse(const char *text, tdm_data *d, dm_err *err)
{
    int used[TDM_ALPHABET] = {0}, nused = 0, len = 0;
    d->nplant = 0;
    for (const char *p = text;; p++) {
        if (*p == ',' || *p == '\0') {
            if (len == 0)
                return dm_err_set(err, DM_EINPUT, "plant='%s': empty episode at character %d",
                                  text, (int)(p - text) + 1);
            d->plant[d->nplant][len] = '\0';
            d->planted[d->nplant++] = 0;
            len = 0;
            if (*p == '\0')
                break;
            if (d->nplant == TDM_MAX_PLANTS)
                return dm_err_set(err, DM_EINPUT, "plant='%s': more than %d episodes", text,
                                  TDM_MAX_PLANTS);
            continue;
        }
        if (*p < 'A' || *p > 'Z')
            return dm_err_set(err, DM_EINPUT,
                              "plant='%s': character %d ('%c') is not a letter A-Z", text,
                              (int)(p - text) + 1, *p);
        if (used[*p - 'A']++)
            return dm_err_set(err, DM_EINPUT,
                              "plant='%s': letter %c is used twice (planted counts are exact "
                              "only when no plant shares a letter)",
                              text, *p);
        nused++;
        d->plant[d->nplant][len++] = *p;
    }
    if (nused == TDM_ALPHABET)
        return dm_err_set(err, DM_EINPUT,
                          "plant='%s' uses all 26 letters, leaving none for the background",
                          text);
    return 0;
}

void tdm_generate_planted(uint64_t seed, double rate, tdm_data *d)
{
    uint8_t background[TDM_ALPHABET];
    int used[TDM_ALPHABET] = {0}, nback = 0, next = 0;
    for (int k = 0; k < d->nplant; k++) {
        d->planted[k] = 0;
        for (const char *c = d->plant[k]; *c; c++)
            used[*c - 'A'] = 1;
    }
    for (int c = 0; c < TDM_ALPHABET; c++)
        if (!used[c])
            background[nback++] = (uint8_t)c;
    uint64_t state = seed;
    for (int64_t i = 0; i < d->n;) {
        const char *ep = d->plant[next];
        int64_t len = (int64_t)strlen(ep);
        double u = dm_rng_unit_of(dm_splitmix64(&state));
        if (i + len <= d->n && u < rate) {
            for (int64_t k = 0; k < len; k++)
                d->sym[i + k] = (uint8_t)(ep[k] - 'A');
            d->planted[next]++;
            next = (next + 1) % d->nplant;
            i += len;
        } else {
            d->sym[i++] = background[dm_rng_below_of(dm_splitmix64(&state), (uint32_t)nback)];
        }
    }
}

static int tdm_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int tdm_load_file(const char *path, int64_t length, uint8_t **sym, dm_err *err)
{
    uint8_t buf[1 << 16];
    uint8_t *out = NULL;
    int64_t offset = 0, n = 0;
    int rc = DM_ERUNTIME;
    *sym = NULL;
    FILE *f;
    int opened = dm_open_input(path, &f, err);
    if (opened != 0)
        return opened;
    out = malloc((size_t)length);
    if (!out) {
        dm_err_set(err, DM_ERUNTIME, "%s: out of memory for %" PRId64 " letters", path, length);
        goto fail;
    }
    size_t got;
    /* The whole file is checked, though only its first length letters are kept. */
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++, offset++) {
            if (buf[i] >= 'A' && buf[i] <= 'Z') {
                if (n < length)
                    out[n] = (uint8_t)(buf[i] - 'A');
                n++;
            } else if (!tdm_is_space(buf[i])) {
                rc = dm_err_set(err, DM_EINPUT,
                                "%s: byte 0x%02x at offset %" PRId64
                                " is not a letter A-Z or whitespace",
                                path, buf[i], offset);
                goto fail;
            }
        }
    }
    if (ferror(f)) {
        dm_err_set(err, DM_ERUNTIME, "%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    if (n == 0) {
        rc = dm_err_set(err, DM_EINPUT, "%s: no letters (an empty database)", path);
        goto fail;
    }
    if (n < length) {
        rc = dm_err_set(err, DM_EINPUT,
                        "%s: has %" PRId64 " letters, fewer than length=%" PRId64
                        " (set the length axis to at most %" PRId64 ")",
                        path, n, length, n);
        goto fail;
    }
    fclose(f);
    *sym = out;
    return 0;
fail:
    fclose(f);
    free(out);
    return rc;
}

int tdm_dataset_open(const dm_data_source *src, const dm_point *pt, dm_dataset *ds,
                     dm_err *err)
{
    int64_t length = dm_point_int(pt, "length");
    int rc = DM_ERUNTIME;
    tdm_data *d = calloc(1, sizeof *d);
    if (!d)
        return dm_err_set(err, DM_ERUNTIME, "tdm: out of memory");
    d->n = length;
    memset(ds, 0, sizeof *ds);
    if (src->path[0]) {
        if ((rc = tdm_load_file(src->path, length, &d->sym, err)) != 0)
            goto fail;
        dm_dataset_file(ds, src->path);
    } else {
        int planted = strcmp(src->generator, "planted") == 0;
        if (!planted && strcmp(src->generator, "uniform") != 0) {
            rc = dm_err_set(err, DM_EINPUT,
                            "tdm has no generator '%s'; the generators are: uniform, planted",
                            src->generator);
            goto fail;
        }
        if (planted && (rc = tdm_plant_parse(dm_point_str(pt, "plant"), d, err)) != 0)
            goto fail;
        d->sym = malloc((size_t)length);
        if (!d->sym) {
            rc = dm_err_set(err, DM_ERUNTIME, "tdm: out of memory for %" PRId64 " letters",
                            length);
            goto fail;
        }
        uint64_t seed = (uint64_t)dm_point_int(pt, "seed");
        if (planted)
            tdm_generate_planted(seed, dm_point_real(pt, "plant_rate"), d);
        else
            tdm_generate_uniform(seed, length, d->sym);
        snprintf(ds->name, sizeof ds->name, "%s", src->generator);
    }
    dm_point_dataset_key(pt, ds->params, sizeof ds->params);
    snprintf(ds->shape, sizeof ds->shape, "%" PRId64 " letters", length);
    snprintf(ds->hash, sizeof ds->hash, "%016" PRIx64,
             dm_hash_bytes(DM_HASH_INIT, d->sym, (size_t)length));
    ds->size_bytes = length;
    ds->data = d;
    return 0;
fail:
    free(d->sym);
    free(d);
    return rc;
}

void tdm_dataset_close(dm_dataset *ds)
{
    tdm_data *d = ds->data;
    if (d)
        free(d->sym);
    free(d);
    ds->data = NULL;
}
