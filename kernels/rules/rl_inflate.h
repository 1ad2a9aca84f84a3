/* rl_inflate.h - gzip decompression from memory (RFC 1952 members holding RFC 1951
 * DEFLATE data: stored, fixed and dynamic Huffman blocks), CRC32 and length checked, so
 * the rules workload reads .gz datasets without zlib. */
#ifndef DM_RL_INFLATE_H
#define DM_RL_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "dm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when data starts with the gzip magic bytes 1f 8b. */
int rl_is_gzip(const uint8_t *data, size_t n);

/* The CRC32 (ISO-HDLC, as gzip uses it) of n bytes, continuing from crc (start at 0). */
uint32_t rl_crc32(uint32_t crc, const uint8_t *data, size_t n);

/* Decompresses the gzip data in [in, in + n): one member or several concatenated.
 * *out gets the bytes (malloc'd, with a NUL after them so text can be read in place)
 * and *outlen their count. Returns 0; DM_EINPUT with err naming what (a path) and the
 * byte offset for: no gzip magic, an unknown method or reserved flags, a bad block type,
 * an invalid Huffman code, a distance too far back, a stored length that does not match
 * its complement, a CRC32 or length that does not match the trailer, data cut short,
 * bytes after the last member; DM_ERUNTIME without memory. */
int rl_gunzip(const uint8_t *in, size_t n, const char *what, uint8_t **out, size_t *outlen,
              dm_err *err);

#ifdef __cplusplus
}
#endif

#endif
