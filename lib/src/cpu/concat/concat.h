/* Concat implementations and what they share. */
#ifndef TSR_CPU_CONCAT_CONCAT_H
#define TSR_CPU_CONCAT_CONCAT_H

#include <stdint.h>

#include "common/primitive.h"

extern const tsr_impl_t tsr_ref_concat_impl;
extern const tsr_impl_t tsr_simple_concat_impl;
extern const tsr_impl_t tsr_blocked_concat_avx512_impl;
extern const tsr_impl_t tsr_blocked_concat_generic_impl;

/* Below this many dst elements one thread does the whole concat. */
enum { CONCAT_PARALLEL_MIN = 1 << 15 };

/* The checks and choices every concat implementation makes first: default
 * attributes (scratchpad mode aside); dst "any" resolved to source 0's
 * plain layout, to its blocked layout when every source has that one, or
 * else abcd... */
tsr_status_t concat_init_common(struct tsr_primitive_desc *pd);

/* 1 when a and b have the same inner blocks. */
int concat_same_inner_blocks(const tsr_memory_desc_t *a,
                             const tsr_memory_desc_t *b);

/* One run of lanes of a blocked dst point that comes from one block of
 * one source: dst byte x of a row (x taken from the row's start) is
 * src[x] for the bytes [lo, hi) of every point (point_bytes each, a power
 * of two dividing 64); src NULL: lanes past the channels, zero. `mask`
 * has those bytes set in every point of a 64-byte stretch. */
typedef struct {
    const char *src;
    uint64_t mask;
    int lo, hi;
} concat_lane_run_t;

/* Writes nbytes (whole points) of a blocked dst row from its lane runs;
 * `stream`: with non-temporal stores where the ISA has them. */
void concat_blocked_row_generic(char *dst, size_t nbytes, int point_bytes,
                                const concat_lane_run_t *runs, int nruns,
                                int stream);
void concat_blocked_row_avx512(char *dst, size_t nbytes, int point_bytes,
                               const concat_lane_run_t *runs, int nruns,
                               int stream);

/* Copies n elements of type src_dt into dst_dt, converting (rounding to
 * nearest even and saturating) when the types differ. */
void concat_copy_elems(tsr_data_type_t src_dt, const void *src,
                       tsr_data_type_t dst_dt, void *dst, tsr_dim_t n);

#endif
