/* Dense layouts seen as an order of outer dims plus inner blocks: what sum,
 * concat and shuffle use to choose a layout for "any" (the layout of a
 * source) and to walk their tensors as rows of contiguous memory. */
#ifndef TSR_COMMON_DENSE_LAYOUT_H
#define TSR_COMMON_DENSE_LAYOUT_H

#include "tessera.h"

/* The outer dims of blocked `md` from outermost to innermost: descending
 * stride; on a tie the dim with more outer indices first, then the lower
 * dim index (a size-1 dim's stride means nothing). */
void md_outer_order(const tsr_memory_desc_t *md, int *order);

/* 1 when `md` is exactly the dense layout of its dims in outer `order`
 * with its own inner blocks (offset0 not compared). */
int md_is_dense_in_order(const tsr_memory_desc_t *md, const int *order);

/* The dense layout of (ndims, dims, dt) in the outer order of `like`, with
 * `like`'s inner blocks when keep_blocks is set (and `like` has any),
 * otherwise plain. */
tsr_status_t md_init_dense_like(tsr_memory_desc_t *md,
                                const tsr_memory_desc_t *like,
                                const tsr_dim_t *dims, tsr_data_type_t dt,
                                int keep_blocks);

/* 1 for a blocked descriptor a primitive can take as given: a valid one
 * (md_is_valid). */
int md_is_usable_blocked(const tsr_memory_desc_t *md);

/* Extent of dim d in units of its inner blocks (padded_dims / blocks). */
tsr_dim_t md_outer_extent(const tsr_memory_desc_t *md, int d);

/* Product of the inner blocks (elements of one innermost block). */
tsr_dim_t md_inner_block_elems(const tsr_memory_desc_t *md);

#endif
