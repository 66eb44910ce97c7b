/* The post-op chain on one value, in the reference order: what the
 * reference implementations apply point by point. */
#ifndef TSR_CPU_COMMON_REF_POST_OPS_H
#define TSR_CPU_COMMON_REF_POST_OPS_H

#include "common/primitive.h"

/* v after the post-ops of `po` for dst point `pos`: sum reads the old
 * value at element dst_off of dst, binary post-op i its src1 at
 * bin_src1[i], prelu post-op i its weights at prelu_weights[i]
 * (prelu_weights NULL where the primitive takes no prelu post-op). */
float tsr_ref_post_ops_apply(const struct tsr_post_ops *po, float v,
                             const tsr_dim_t *pos,
                             const tsr_memory_desc_t *dst_md, const void *dst,
                             tsr_dim_t dst_off, const void *const *bin_src1,
                             const float *const *prelu_weights);

#endif
