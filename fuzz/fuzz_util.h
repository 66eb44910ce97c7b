/* What the library's fuzz targets share: reading values from the input
 * bytes (each read takes bytes from the front; an exhausted input reads
 * zeros) and building memory descriptors and format tags from them. */
#ifndef TSR_FUZZ_FUZZ_UTIL_H
#define TSR_FUZZ_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tessera.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} fuzz_bytes_t;

uint8_t fuzz_u8(fuzz_bytes_t *b);
uint32_t fuzz_u32(fuzz_bytes_t *b);
uint64_t fuzz_u64(fuzz_bytes_t *b);
/* lo..hi, both included (hi >= lo). */
int fuzz_int(fuzz_bytes_t *b, int lo, int hi);
/* A dim, stride, padding or offset: mostly 1..max_small, sometimes a value
 * at an edge (0, -1, 2^31, 2^32, 2^58, 2^62, INT64_MAX, INT64_MIN...). */
tsr_dim_t fuzz_dim(fuzz_bytes_t *b, int max_small);
/* A float: small values, sometimes 0, NaN, infinities, huge or raw bits. */
float fuzz_float(fuzz_bytes_t *b);
/* Any data type, sometimes an undefined or out-of-range value. */
tsr_data_type_t fuzz_data_type(fuzz_bytes_t *b);

/* A format tag for `ndims` dims into buf: "any", a known alias, a
 * permutation of "abc..." with up to two inner blocks ("aBcd16b",
 * "ABcd16b16a") or, rarely, raw bytes. */
void fuzz_tag(fuzz_bytes_t *b, int ndims, char *buf, size_t len);

/* A descriptor of `ndims` dims `dims` and type `dt`: by tag (fuzz_tag),
 * by strides (dense, padded or made up) or "any". 0 on success, else what
 * the library returned (the caller may stop there). */
tsr_status_t fuzz_md(fuzz_bytes_t *b, tsr_memory_desc_t *md, int ndims,
                     const tsr_dim_t *dims, tsr_data_type_t dt);

/* The product of dims, or -1 when it overflows or a dim is not positive. */
tsr_dim_t fuzz_nelems(int ndims, const tsr_dim_t *dims);

#endif
