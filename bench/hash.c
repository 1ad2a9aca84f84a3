/* hash.c - the content fingerprint of datasets (FNV-1a, 64 bits): cheap, stable across
 * machines, and enough to tell two datasets apart; not a cryptographic hash. */
#include "dm.h"

uint64_t dm_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
