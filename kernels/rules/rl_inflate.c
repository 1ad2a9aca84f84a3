/* rl_inflate.c - a DEFLATE decoder (RFC 1951) inside a gzip member reader (RFC 1952):
 * bits least significant first, Huffman codes decoded through one table indexed by the
 * next max-length bits, output grown by doubling; every malformed input is an error. */
#include <stdlib.h>
#include <string.h>

#include "rules/rl_inflate.h"

#define RL_MAXBITS 15   /* the longest DEFLATE code */
#define RL_NLITLEN 288  /* literal/length symbols, the two unused ones included */
#define RL_NDIST 32

/* A Huffman code as a lookup table: entry = symbol << 4 | length, 0 for bit patterns
 * no code starts with. */
typedef struct rl_huff {
    uint16_t *table;
    int bits; /* the table has 1 << bits entries */
} rl_huff;

typedef struct rl_inflater {
    const uint8_t *in;
    size_t n, pos;   /* input and the next byte to load */
    uint64_t buf;    /* loaded bits, the next one lowest */
    int cnt;         /* how many bits buf holds */
    size_t pad;      /* zero bytes loaded past the end of the input */
    uint8_t *out;
    size_t len, cap;
    const char *what;
    dm_err *err;
    uint16_t lit_table[1 << RL_MAXBITS], dist_table[1 << RL_MAXBITS];
} rl_inflater;

static const uint16_t rl_len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                         15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                         67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t rl_len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t rl_dist_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,
                                          17,   25,   33,   49,   65,   97,    129,   193,
                                          257,  385,  513,  769,  1025, 1537,  2049,  3073,
                                          4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t rl_dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                          6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

uint32_t rl_crc32(uint32_t crc, const uint8_t *data, size_t n)
{
    uint32_t table[256]; /* made per call: one call per member, and no shared state */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

int rl_is_gzip(const uint8_t *data, size_t n)
{
    return n >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/* Sets err to "what: gzip: message (at byte offset)"; returns DM_EINPUT. */
static int rl_bad(rl_inflater *z, const char *msg)
{
    size_t at = z->pos + z->pad - (size_t)z->cnt / 8; /* the byte being read */
    return dm_err_set(z->err, DM_EINPUT, "%s: gzip: %s (at byte %zu)", z->what, msg,
                      at > z->n ? z->n : at);
}

/* Loads bytes until buf holds at least 57 bits, zeros past the end (counted in pad). */
static void rl_refill(rl_inflater *z)
{
    while (z->cnt <= 56) {
        uint64_t b = 0;
        if (z->pos < z->n)
            b = z->in[z->pos++];
        else
            z->pad++;
        z->buf |= b << z->cnt;
        z->cnt += 8;
    }
}

/* 1 when more bits have been used than the input holds. */
static int rl_overrun(const rl_inflater *z)
{
    return z->pad * 8 > (size_t)z->cnt;
}

/* The next k bits (k <= 32), as a number. */
static uint32_t rl_bits(rl_inflater *z, int k)
{
    if (z->cnt < k)
        rl_refill(z);
    uint32_t v = (uint32_t)(z->buf & ((1ull << k) - 1));
    z->buf >>= k;
    z->cnt -= k;
    return v;
}

/* Builds h from n code lengths (0: symbol unused) into table. Returns 0, or DM_EINPUT
 * for an over-subscribed set of lengths. An incomplete code is allowed (a lone distance
 * code is legal); its unused patterns decode as errors. */
static int rl_huff_build(rl_inflater *z, rl_huff *h, uint16_t *table, const uint8_t *lens,
                         int n)
{
    int count[RL_MAXBITS + 1] = {0}, maxlen = 0;
    for (int s = 0; s < n; s++) {
        count[lens[s]]++;
        if (lens[s] > maxlen)
            maxlen = lens[s];
    }
    h->table = table;
    h->bits = maxlen ? maxlen : 1;
    int left = 1;
    for (int l = 1; l <= RL_MAXBITS; l++) {
        left = 2 * left - count[l];
        if (left < 0)
            return rl_bad(z, "over-subscribed Huffman code");
    }
    memset(table, 0, sizeof(uint16_t) << h->bits);
    int next[RL_MAXBITS + 2];
    next[1] = 0;
    count[0] = 0;
    for (int l = 1; l <= RL_MAXBITS; l++)
        next[l + 1] = (next[l] + count[l]) << 1;
    for (int s = 0; s < n; s++) {
        int l = lens[s];
        if (!l)
            continue;
        uint32_t code = (uint32_t)next[l]++, rev = 0;
        for (int b = 0; b < l; b++)
            rev |= ((code >> b) & 1u) << (l - 1 - b);
        for (uint32_t i = rev; i < (1u << h->bits); i += 1u << l)
            table[i] = (uint16_t)(s << 4 | l);
    }
    return 0;
}

/* The next symbol of h. Returns it, or -1 with err set to DM_EINPUT (no such code,
 * input cut short). */
static int rl_decode(rl_inflater *z, const rl_huff *h)
{
    if (z->cnt < h->bits)
        rl_refill(z);
    uint16_t e = h->table[z->buf & ((1u << h->bits) - 1)];
    if (!e) {
        rl_bad(z, "invalid Huffman code");
        return -1;
    }
    z->buf >>= e & 15;
    z->cnt -= e & 15;
    if (rl_overrun(z)) {
        rl_bad(z, "data cut short");
        return -1;
    }
    return e >> 4;
}

/* Makes room for k more output bytes. Returns 0, or DM_ERUNTIME without memory. */
static int rl_reserve(rl_inflater *z, size_t k)
{
    if (z->len + k + 1 <= z->cap)
        return 0;
    size_t cap = z->cap ? z->cap : 1 << 16;
    while (cap < z->len + k + 1)
        cap *= 2;
    uint8_t *o = realloc(z->out, cap);
    if (!o)
        return dm_err_set(z->err, DM_ERUNTIME, "%s: gzip: out of memory", z->what);
    z->out = o;
    z->cap = cap;
    return 0;
}

/* A stored block: LEN, NLEN, then LEN bytes from the byte boundary. Returns 0 or an
 * error code. */
static int rl_stored(rl_inflater *z)
{
    rl_bits(z, z->cnt & 7);
    uint32_t len = rl_bits(z, 16), nlen = rl_bits(z, 16);
    if (rl_overrun(z))
        return rl_bad(z, "data cut short");
    if ((len ^ 0xffffu) != nlen)
        return rl_bad(z, "stored block length does not match its complement");
    /* Give the whole bytes still in buf back to the input. */
    size_t back = (size_t)z->cnt / 8 - z->pad;
    z->pos -= back;
    z->buf = 0;
    z->cnt = 0;
    z->pad = 0;
    if (z->n - z->pos < len)
        return rl_bad(z, "data cut short");
    int rc = rl_reserve(z, len);
    if (rc)
        return rc;
    memcpy(z->out + z->len, z->in + z->pos, len);
    z->len += len;
    z->pos += len;
    return 0;
}

/* Decodes literals and copies with the codes lit and dist up to the end-of-block
 * symbol. Returns 0 or an error code. */
static int rl_codes(rl_inflater *z, const rl_huff *lit, const rl_huff *dist)
{
    for (;;) {
        int s = rl_decode(z, lit);
        if (s < 0)
            return DM_EINPUT;
        if (s < 256) {
            int rc = rl_reserve(z, 1);
            if (rc)
                return rc;
            z->out[z->len++] = (uint8_t)s;
            continue;
        }
        if (s == 256)
            return 0;
        s -= 257;
        if (s >= 29)
            return rl_bad(z, "invalid length symbol");
        size_t len = rl_len_base[s] + rl_bits(z, rl_len_extra[s]);
        int d = rl_decode(z, dist);
        if (d < 0)
            return DM_EINPUT;
        if (d >= 30)
            return rl_bad(z, "invalid distance symbol");
        size_t dist_back = rl_dist_base[d] + rl_bits(z, rl_dist_extra[d]);
        if (rl_overrun(z))
            return rl_bad(z, "data cut short");
        if (dist_back > z->len)
            return rl_bad(z, "distance too far back");
        int rc = rl_reserve(z, len);
        if (rc)
            return rc;
        uint8_t *o = z->out + z->len; /* byte by byte: copies may overlap themselves */
        for (size_t i = 0; i < len; i++)
            o[i] = o[(ptrdiff_t)i - (ptrdiff_t)dist_back];
        z->len += len;
    }
}

/* A block with the fixed codes of RFC 1951 3.2.6. Returns 0 or an error code. */
static int rl_fixed(rl_inflater *z)
{
    uint8_t lens[RL_NLITLEN];
    int s = 0;
    for (; s < 144; s++)
        lens[s] = 8;
    for (; s < 256; s++)
        lens[s] = 9;
    for (; s < 280; s++)
        lens[s] = 7;
    for (; s < RL_NLITLEN; s++)
        lens[s] = 8;
    uint8_t dlens[RL_NDIST];
    memset(dlens, 5, sizeof dlens);
    rl_huff lit, dist;
    int rc = rl_huff_build(z, &lit, z->lit_table, lens, RL_NLITLEN);
    if (!rc)
        rc = rl_huff_build(z, &dist, z->dist_table, dlens, RL_NDIST);
    return rc ? rc : rl_codes(z, &lit, &dist);
}

/* A block with codes described in its header (RFC 1951 3.2.7). Returns 0 or an error
 * code. */
static int rl_dynamic(rl_inflater *z)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                      11, 4,  12, 3, 13, 2, 14, 1, 15};
    int nlen = (int)rl_bits(z, 5) + 257, ndist = (int)rl_bits(z, 5) + 1,
        ncode = (int)rl_bits(z, 4) + 4;
    if (nlen > 286 || ndist > 30)
        return rl_bad(z, "too many length or distance codes");
    uint8_t lens[RL_NLITLEN + RL_NDIST] = {0};
    for (int i = 0; i < ncode; i++)
        lens[order[i]] = (uint8_t)rl_bits(z, 3);
    if (rl_overrun(z))
        return rl_bad(z, "data cut short");
    rl_huff code;
    int rc = rl_huff_build(z, &code, z->lit_table, lens, 19);
    if (rc)
        return rc;
    memset(lens, 0, sizeof lens);
    for (int i = 0; i < nlen + ndist;) {
        int s = rl_decode(z, &code);
        if (s < 0)
            return DM_EINPUT;
        if (s < 16) {
            lens[i++] = (uint8_t)s;
            continue;
        }
        int rep, val = 0;
        if (s == 16) {
            if (i == 0)
                return rl_bad(z, "repeated length with no length before it");
            val = lens[i - 1];
            rep = 3 + (int)rl_bits(z, 2);
        } else if (s == 17) {
            rep = 3 + (int)rl_bits(z, 3);
        } else {
            rep = 11 + (int)rl_bits(z, 7);
        }
        if (i + rep > nlen + ndist)
            return rl_bad(z, "code lengths run past their count");
        while (rep--)
            lens[i++] = (uint8_t)val;
    }
    if (lens[256] == 0)
        return rl_bad(z, "no end-of-block code");
    /* Move the distance lengths past the full literal/length range. */
    uint8_t dlens[RL_NDIST] = {0};
    memcpy(dlens, lens + nlen, (size_t)ndist);
    memset(lens + nlen, 0, (size_t)(RL_NLITLEN - nlen));
    rl_huff lit, dist;
    rc = rl_huff_build(z, &lit, z->lit_table, lens, RL_NLITLEN);
    if (!rc)
        rc = rl_huff_build(z, &dist, z->dist_table, dlens, RL_NDIST);
    return rc ? rc : rl_codes(z, &lit, &dist);
}

/* Reads one gzip member's header from z->pos. Returns 0 or DM_EINPUT. */
static int rl_header(rl_inflater *z)
{
    const uint8_t *p = z->in + z->pos;
    size_t left = z->n - z->pos;
    if (left < 10)
        return rl_bad(z, left && rl_is_gzip(p, left) ? "header cut short" : "not gzip data");
    if (!rl_is_gzip(p, left))
        return rl_bad(z, "not gzip data (no 1f 8b magic)");
    if (p[2] != 8)
        return rl_bad(z, "unknown compression method");
    int flags = p[3];
    if (flags & 0xe0)
        return rl_bad(z, "reserved header flags set");
    size_t i = 10;
    if (flags & 4) { /* FEXTRA */
        if (left < i + 2)
            return rl_bad(z, "header cut short");
        i += 2 + (size_t)(p[i] | p[i + 1] << 8);
    }
    for (int f = 8; f <= 16; f += 8) /* FNAME, FCOMMENT: zero-terminated */
        if (flags & f) {
            while (i < left && p[i])
                i++;
            i++;
        }
    if (flags & 2) /* FHCRC */
        i += 2;
    if (i > left)
        return rl_bad(z, "header cut short");
    z->pos += i;
    return 0;
}

/* Decodes one member at z->pos: header, blocks, trailer. Returns 0 or an error code. */
static int rl_member(rl_inflater *z)
{
    int rc = rl_header(z);
    if (rc)
        return rc;
    size_t start = z->len;
    for (int last = 0; !last;) {
        last = (int)rl_bits(z, 1);
        int type = (int)rl_bits(z, 2);
        if (rl_overrun(z))
            return rl_bad(z, "data cut short");
        if (type == 0)
            rc = rl_stored(z);
        else if (type == 1)
            rc = rl_fixed(z);
        else if (type == 2)
            rc = rl_dynamic(z);
        else
            rc = rl_bad(z, "invalid block type 3");
        if (rc)
            return rc;
    }
    rl_bits(z, z->cnt & 7);
    uint32_t crc = rl_bits(z, 16);
    crc |= rl_bits(z, 16) << 16;
    uint32_t size = rl_bits(z, 16);
    size |= rl_bits(z, 16) << 16;
    if (rl_overrun(z))
        return rl_bad(z, "data cut short");
    if (crc != rl_crc32(0, z->out ? z->out + start : NULL, z->len - start))
        return rl_bad(z, "CRC32 does not match the data");
    if (size != (uint32_t)(z->len - start))
        return rl_bad(z, "length does not match the data");
    /* Give back the whole unused bytes, so the next member starts at z->pos. */
    z->pos -= (size_t)z->cnt / 8 - z->pad;
    z->buf = 0;
    z->cnt = 0;
    z->pad = 0;
    return 0;
}

int rl_gunzip(const uint8_t *in, size_t n, const char *what, uint8_t **out, size_t *outlen,
              dm_err *err)
{
    *out = NULL;
    *outlen = 0;
    rl_inflater *z = calloc(1, sizeof *z);
    if (!z)
        return dm_err_set(err, DM_ERUNTIME, "%s: gzip: out of memory", what);
    z->in = in;
    z->n = n;
    z->what = what;
    z->err = err;
    int rc = rl_reserve(z, 0);
    if (!rc && n == 0)
        rc = dm_err_set(err, DM_EINPUT, "%s: gzip: empty input", what);
    for (int members = 0; !rc && z->pos < n; members++) {
        if (members && !rl_is_gzip(in + z->pos, n - z->pos))
            rc = rl_bad(z, "bytes after the last member");
        else
            rc = rl_member(z);
    }
    if (rc) {
        free(z->out);
    } else {
        z->out[z->len] = 0;
        *out = z->out;
        *outlen = z->len;
    }
    free(z);
    return rc;
}
