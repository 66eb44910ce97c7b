/* Concat implementations and what they share. */
#ifndef TSR_CPU_CONCAT_CONCAT_H
#define TSR_CPU_CONCAT_CONCAT_H

#include "common/primitive.h"

extern const tsr_impl_t tsr_ref_concat_impl;
extern const tsr_impl_t tsr_simple_concat_impl;

/* Below this many dst elements one thread does the whole concat. */
enum { CONCAT_PARALLEL_MIN = 1 << 15 };

/* The checks and choices every concat implementation makes first: default
 * attributes (scratchpad mode aside); dst "any" resolved to source 0's
 * plain layout, or abcd... when source 0 is blocked. */
tsr_status_t concat_init_common(struct tsr_primitive_desc *pd);

/* Copies n elements of type src_dt into dst_dt, converting (rounding to
 * nearest even and saturating) when the types differ. */
void concat_copy_elems(tsr_data_type_t src_dt, const void *src,
                       tsr_data_type_t dst_dt, void *dst, tsr_dim_t n);

#endif
