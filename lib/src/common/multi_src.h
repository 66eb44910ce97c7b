/* What sum and concat share: a list of sources passed as
 * TSR_ARG_MULTIPLE_SRC + i and one dst (tsr_multi_src_desc_t). */
#ifndef TSR_COMMON_MULTI_SRC_H
#define TSR_COMMON_MULTI_SRC_H

#include "primitive.h"

/* Fills a heap op descriptor of `kind` from the user's arguments and
 * creates its pd; `concat_dimension` is ignored for sum. A NULL (or zero)
 * dst_desc becomes "any" with source 0's dims and data type, as does an
 * undefined data type of an "any" dst. Returns tsr_invalid_arguments for
 * NULL pointers or n outside [1, TSR_MAX_MULTIPLE_SRC] before reading the
 * sources; the kind's validate checks the rest. */
tsr_status_t tsr_multi_src_pd_create(struct tsr_primitive_desc **pd,
                                     tsr_primitive_kind_t kind,
                                     const tsr_memory_desc_t *dst_desc, int n,
                                     const float *scales, int concat_dimension,
                                     const tsr_memory_desc_t *src_descs,
                                     const_tsr_primitive_attr_t attr,
                                     tsr_engine_t engine);

/* The checks both kinds share: n in range, every source a usable blocked
 * descriptor of source 0's rank, dst usable or "any" of that rank with a
 * known data type. Dims are each kind's own rule. */
tsr_status_t tsr_multi_src_validate_mds(const tsr_multi_src_desc_t *desc);

/* Concat's dst size along its axis: the sum of the sources' (checked),
 * 1 and *total when the axis is in range and the sum is positive and
 * within TSR_MAX_ELEMS, else 0. */
int tsr_concat_axis_total(const tsr_multi_src_desc_t *desc, tsr_dim_t *total);

/* Sources as inputs TSR_MD_MULTIPLE_SRC + i, dst as the output. */
void tsr_multi_src_set_args(struct tsr_primitive_desc *pd);

tsr_prop_kind_t tsr_multi_src_prop_kind(const tsr_op_desc_t *op);

#endif
