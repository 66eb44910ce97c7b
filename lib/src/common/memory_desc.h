/* Internal memory-descriptor helpers: the one offset function every
 * reference implementation and reorder uses, and layout construction from
 * parsed format tags. */
#ifndef TSR_COMMON_MEMORY_DESC_H
#define TSR_COMMON_MEMORY_DESC_H

#include "checked_math.h"
#include "tessera.h"

/* Buffers larger than this many elements are refused: it keeps every
 * offset and byte size far from int64 / size_t overflow. Counts of values
 * derived from a descriptor's dims (scales, zero points) share the limit. */
#define TSR_MAX_ELEMS ((tsr_dim_t)1 << 58)

/* a * b when both are non-negative and the product stays within
 * TSR_MAX_ELEMS, else -1 (so a -1 factor passes the failure on). */
static inline tsr_dim_t md_mul_elems(tsr_dim_t a, tsr_dim_t b) {
    tsr_dim_t r;
    if (a < 0 || b < 0 || !tsr_mul_i64(a, b, &r) || r > TSR_MAX_ELEMS)
        return -1;
    return r;
}

static inline int md_is_any(const tsr_memory_desc_t *md) {
    return md->format_kind == tsr_format_kind_any;
}
static inline int md_is_zero(const tsr_memory_desc_t *md) {
    return md->ndims == 0 || md->format_kind == tsr_format_kind_undef;
}

/* The one validation of a descriptor that enters through the API,
 * however it was made: a rank of 1 to TSR_MAX_NDIMS, positive dims, a
 * library data type, supported extra data and the product of the dims
 * within the library's element limit (2^58); then for a blocked layout:
 * inner blocks on existing dims with positive sizes, padded dims that
 * cover the dims in whole blocks with zero padded offsets, non-negative
 * strides under which no two points share an offset (sorted by stride,
 * each dim steps over everything inside it), offset0 >= 0, and the whole
 * buffer, offset0 included, within the element limit. 1 when valid
 * ("any" and blocked only). */
int md_is_valid(const tsr_memory_desc_t *md);

/* The structure of a blocked descriptor may be walked without reading
 * out of bounds, dividing by zero or overflowing: rank and inner blocks
 * within bounds, block sizes positive and their product within
 * TSR_MAX_ELEMS (a cheaper check than md_is_valid, for queries). */
int md_blocking_in_bounds(const tsr_memory_desc_t *md);

/* Element offset of logical point `pos` (no range checks): the hot form of
 * tsr_memory_desc_offset. */
tsr_dim_t md_off_v(const tsr_memory_desc_t *md, const tsr_dim_t *pos);

/* Element offset of the `l`-th logical point in row-major order over dims. */
tsr_dim_t md_off_l(const tsr_memory_desc_t *md, tsr_dim_t l);

/* Logical point of the `l`-th element in row-major order over dims. */
void md_l2pos(const tsr_memory_desc_t *md, tsr_dim_t l, tsr_dim_t *pos);

/* Number of elements in the padded physical buffer (size / dt size). */
tsr_dim_t md_nelems_padded(const tsr_memory_desc_t *md);

/* 1 when the layout has padded dims (padded_dims != dims somewhere). */
int md_has_padding(const tsr_memory_desc_t *md);

/* Writes zeros into every padded (outside dims, inside padded_dims) element
 * of `data`, so blocked tails stay zero. */
void md_zero_pad(const tsr_memory_desc_t *md, void *data);

/* Product of the inner blocks on each dim (1 for unblocked dims), ndims
 * entries. */
void md_dim_blocks(const tsr_memory_desc_t *md, tsr_dim_t *blocks);

/* 1 when both blocked descriptors place every padded logical point at the
 * same offset relative to offset0 (data type and offset0 not compared;
 * strides of dims with a single outer index do not matter). */
int md_same_layout(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b);

/* Extra data (memory_extra.c). The values take md_values_size bytes; the
 * extra data starts at md_extra_offset, the next 64-byte boundary. */
size_t md_values_size(const tsr_memory_desc_t *md);
size_t md_extra_offset(const tsr_memory_desc_t *md);
/* Compensation sums the descriptor carries (0 without the flag). */
tsr_dim_t md_extra_comp_count(const tsr_memory_desc_t *md);
/* 1 when the extra description is one the library supports: none, or the
 * compensation flag alone on s8 with a mask over the leading one or two
 * dims. */
int md_extra_ok(const tsr_memory_desc_t *md);
int md_extra_equal(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b);
/* The compensation sums of a buffer of md; NULL when md has none. */
const int32_t *md_extra_comp(const tsr_memory_desc_t *md, const void *data);
/* Bytes of extra data after md_extra_offset (0: none). */
size_t md_extra_size(const tsr_memory_desc_t *md);
/* 1 when the extra data of a buffer of md says its s8 values are "pair
 * narrow": every pair at bytes (2j, 2j + 1), padding included, has
 * |a| + |b| <= 128 (the precondition of the AVX2 int8 quad kernel on
 * weights packed in K quads); 0 otherwise or without extra data. */
int md_extra_pairs_narrow(const tsr_memory_desc_t *md, const void *data);
/* Writes the extra data of `data` from its values. */
void md_extra_compute(const tsr_memory_desc_t *md, void *data);

/* Fills `md` (dims, dt already known) with a dense layout given the order
 * of outer dims (perm[0] outermost) and inner blocks. Used by format tag
 * parsing and by implementations choosing a layout for "any". */
tsr_status_t md_init_blocked(tsr_memory_desc_t *md, int ndims,
                             const tsr_dim_t *dims, tsr_data_type_t dt,
                             const int *outer_order, int inner_nblks,
                             const tsr_dim_t *inner_blks,
                             const int *inner_idxs);

#endif
