/* hash.c - the content fingerprint of datasets: FNV-1a, 64 bits, taking eight bytes a
 * step (then the last bytes one at a time), so hashing a dataset of hundreds of MB
 * costs little next to making it. Stable across machines; not cryptographic. */
#include <string.h>

#include "dm.h"

#define FNV_PRIME 0x100000001b3ULL

uint64_t dm_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h ^= w;
        h *= FNV_PRIME;
    }
    for (; i < n; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}
