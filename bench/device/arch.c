/* arch.c - which of the binary's GPU code a GPU runs (arch.h), by the CUDA driver's
 * rules: SASS for sm_XY runs on compute capability X.Z with Z >= Y (sm_XYa on X.Y only,
 * sm_XYf on X.Z too); PTX of compute_XY is JIT-compiled for any compute capability at or
 * after X.Y (compute_XYa for X.Y only, compute_XYf for X.Z). The driver takes the newest
 * SASS that runs, and PTX only when no SASS does. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"

/* One entry of an architecture list: 90a-real is arch 90, suffix 'a', SASS only. */
typedef struct arch_entry {
    int arch;
    char suffix;
    int sass, ptx;
} arch_entry;

/* Reads the entry at *p (up to the next comma) into e and moves *p past it, to NULL after
 * the last. Returns 1 with e set, 0 at the end of the list (*p NULL), or DM_EINPUT with
 * err naming an entry it cannot read (an empty one too). */
static int arch_next(const char **p, arch_entry *e, dm_err *err)
{
    const char *s = *p;
    if (!s)
        return 0;
    const size_t len = strcspn(s, ",");
    *p = s[len] == ',' ? s + len + 1 : NULL;
    size_t i = 0;
    e->arch = 0;
    while (i < len && i < 3 && isdigit((unsigned char)s[i]))
        e->arch = e->arch * 10 + (s[i++] - '0');
    e->suffix = i < len && (s[i] == 'a' || s[i] == 'f') ? s[i++] : 0;
    const char *kind = s + i;
    const size_t klen = len - i;
    e->sass = klen == 0 || (klen == 5 && strncmp(kind, "-real", 5) == 0);
    e->ptx = klen == 0 || (klen == 8 && strncmp(kind, "-virtual", 8) == 0);
    if (e->arch < 10 || (!e->sass && !e->ptx))
        return dm_err_set(err, DM_EINPUT,
                          "CUDA architecture '%.*s' is not NN[a|f][-real|-virtual]", (int)len,
                          s);
    return 1;
}

/* 1 when code built for e runs on compute capability cc (major * 10 + minor): as SASS
 * when sass, else through PTX. */
static int arch_runs(const arch_entry *e, int sass, int cc)
{
    if (e->suffix == 'a')
        return e->arch == cc;
    if (sass || e->suffix == 'f')
        return e->arch / 10 == cc / 10 && e->arch <= cc;
    return e->arch <= cc;
}

int arch_choose(const char *archs, int major, int minor, dm_arch_choice *c, dm_err *err)
{
    const int cc = major * 10 + minor;
    const char *p = archs;
    arch_entry e, sass = {0}, ptx = {0};
    int rc;
    memset(c, 0, sizeof *c);
    while ((rc = arch_next(&p, &e, err)) == 1) {
        if (e.sass && arch_runs(&e, 1, cc) && e.arch > sass.arch)
            sass = e;
        if (e.ptx && arch_runs(&e, 0, cc) && e.arch > ptx.arch)
            ptx = e;
    }
    if (rc < 0)
        return rc;
    const arch_entry *pick = sass.arch ? &sass : ptx.arch ? &ptx : NULL;
    if (pick) {
        c->code = pick == &sass ? DM_ARCH_SASS : DM_ARCH_PTX;
        c->arch = pick->arch;
        c->suffix = pick->suffix;
        c->exact = pick == &sass && sass.arch == cc;
    }
    return 0;
}

/* "sm_90a" or "compute_120" (prefix sm or compute) into buf. */
static void arch_format(const char *prefix, int arch, char suffix, char *buf, size_t n)
{
    const char sfx[2] = {suffix, '\0'};
    snprintf(buf, n, "%s_%d%s", prefix, arch, sfx);
}

void arch_name(const dm_arch_choice *c, char *buf, size_t n)
{
    if (c->code == DM_ARCH_NONE && n > 0)
        buf[0] = '\0';
    else if (c->code != DM_ARCH_NONE)
        arch_format(c->code == DM_ARCH_SASS ? "sm" : "compute", c->arch, c->suffix, buf, n);
}

void arch_describe(const dm_arch_choice *c, const char *archs, int major, int minor,
                   char *buf, size_t n)
{
    char name[32];
    arch_name(c, name, sizeof name);
    if (c->code == DM_ARCH_SASS && c->exact) {
        snprintf(buf, n, "SASS %s (exact)", name);
    } else if (c->code == DM_ARCH_SASS) {
        snprintf(buf, n, "SASS %s (runs on %d.%d)", name, major, minor);
    } else if (c->code == DM_ARCH_PTX) {
        snprintf(buf, n, "PTX %s, JIT-compiled at first launch", name);
    } else {
        const char *p = archs, *sep = " ";
        arch_entry e;
        snprintf(buf, n, "none: built for");
        while (arch_next(&p, &e, NULL) == 1) {
            for (int ptx = 0; ptx < 2; ptx++) {
                if (!(ptx ? e.ptx : e.sass))
                    continue;
                arch_format(ptx ? "compute" : "sm", e.arch, e.suffix, name, sizeof name);
                dm_append(buf, n, "%s%s", sep, name);
                sep = ", ";
            }
        }
        dm_append(buf, n, "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d%d", major, minor);
    }
}

const char *arch_code_name(dm_arch_code code)
{
    return code == DM_ARCH_SASS ? "sass" : code == DM_ARCH_PTX ? "ptx" : "none";
}
