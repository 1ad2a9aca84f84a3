/* fuzz_csv.c - libFuzzer target: the common reader of delimited text (csv.h) over the
 * input in memory, its separator picked by the first byte (comma, tab or detected), and
 * over the input as a file (gunzipped when it is gzip). Every record must hold: fields
 * in order of position, unquoted ones free of the separator, line breaks and NUL bytes,
 * lines that never go back, no more records than the text has lines; an error must be
 * one line naming the input. */
#include "csv.h"
#include "fuzz_loader.h"

/* Reads every record of c, checking them. Returns the reader's last status. */
static int fuzz_read(dm_csv *c, dm_err *err)
{
    int64_t max = dm_csv_max_records(c), n = 0, last_end = 0;
    int rc;
    while ((rc = dm_csv_next(c, err)) == 1) {
        if (++n > max || c->nf < 1 || c->rec_line <= last_end || c->end_line < c->rec_line)
            abort();
        int64_t line = c->rec_line;
        for (int k = 0; k < c->nf; k++) {
            const dm_csv_field *f = &c->f[k];
            if (f->b > f->e || f->line < line || f->col < 1 || f->line > c->end_line ||
                memchr(f->b, '\0', (size_t)(f->e - f->b)))
                abort();
            if (!f->quoted && (memchr(f->b, c->sep, (size_t)(f->e - f->b)) ||
                               memchr(f->b, '\n', (size_t)(f->e - f->b))))
                abort();
            line = f->line;
        }
        last_end = c->end_line;
        (void)dm_csv_blank(c);
    }
    if (rc < 0 && rc != DM_EINPUT && rc != DM_ERUNTIME)
        abort();
    return rc < 0 ? rc : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    static const char seps[3] = {',', '\t', 0};
    dm_csv c;
    dm_err err = {0};
    dm_csv_text(&c, (const char *)data, n, "fuzz", seps[n ? data[0] % 3 : 0]);
    int rc = fuzz_read(&c, &err);
    fuzz_check(rc, &err);
    if (rc && strncmp(err.msg, "fuzz:", 5) != 0)
        abort();
    dm_csv_free(&c);
    dm_err err2 = {0};
    rc = dm_csv_open(&c, fuzz_file(data, n, ".csv"), 0, &err2);
    if (rc == 0) {
        rc = fuzz_read(&c, &err2);
        dm_csv_free(&c);
    }
    fuzz_check(rc, &err2);
    return 0;
}
