/* The permuting shuffle's tables (permute_shuffle.c) and its AVX-512
 * kernel (permute_shuffle_avx512.c). */
#ifndef TSR_CPU_SHUFFLE_PERMUTE_SHUFFLE_H
#define TSR_CPU_SHUFFLE_PERMUTE_SHUFFLE_H

#include <stdint.h>

#include "shuffle.h"

/* Output vectors built from more input vectors than this are left to
 * simple:gather. */
enum { PERMUTE_MAX_ENTRIES = 8 };

/* One input vector's part in an output vector: output lane l (bit l of
 * `take`) gets input lane idx[l] (in the lane width: 4, 2 or 1 bytes). */
typedef struct {
    _Alignas(64) uint8_t idx[64];
    int64_t in_off; /* the input vector's offset from its point, elements */
    uint64_t take;
    uint64_t load; /* the input lanes that exist */
} permute_entry_t;

typedef struct {
    int64_t first, count; /* its entries */
    uint64_t store;       /* the output lanes that exist */
} permute_vector_t;

/* A point's channels are `nvec` vectors of `lanes` elements, vec_stride
 * elements apart; points are `lanes` elements apart, outer indices
 * outer_stride. */
typedef struct {
    size_t esize;
    tsr_dim_t lanes, nvec, vec_stride, outer_stride;
    const permute_vector_t *vectors;
    const permute_entry_t *entries;
    int stream; /* non-temporal stores for whole aligned vectors */
    /* Work item i: points [i % tiles * tile, + tile) of outer indices
     * [i / tiles * outer_per_item, + outer_per_item), clipped. */
    tsr_dim_t outer, points, tile, tiles, outer_per_item;
} permute_plan_t;

/* Work items [begin, end). AVX-512 machines only. */
void permute_items_avx512(const permute_plan_t *p, const char *in, char *out,
                          tsr_dim_t begin, tsr_dim_t end);

#endif
