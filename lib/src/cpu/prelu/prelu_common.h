/* What the PReLU implementations share: the attribute check, the layout
 * choice for "any" and the per-point formulas
 *   forward:  dst = src > 0 ? src : w * src
 *   backward: diff_src = src > 0 ? diff_dst : diff_dst * w,
 *             diff_w   = sum over the broadcast dims of
 *                        diff_dst * (src > 0 ? 0 : src),
 * with w the weights at the point (index 0 along broadcast dims). */
#ifndef TSR_CPU_PRELU_PRELU_COMMON_H
#define TSR_CPU_PRELU_PRELU_COMMON_H

#include "common/primitive.h"
#include "cpu/binary/binary_kernel.h"

static inline float prelu_fwd(float s, float w) {
    return binary_kernel_prelu(s, w);
}
static inline float prelu_bwd_data(float s, float w, float dd) {
    return s > 0.f ? dd : dd * w;
}
static inline float prelu_bwd_weights_term(float s, float dd) {
    return dd * (s > 0.f ? 0.f : s);
}

/* No attributes other than the scratchpad mode and the round mode. */
int prelu_attr_ok(const struct tsr_primitive_attr *attr);

/* 1 for the backward pd. */
static inline int prelu_is_bwd(const struct tsr_primitive_desc *pd) {
    return pd->op.prelu.prop_kind == tsr_backward_data;
}

/* Data types: any for forward, floating ones for backward. */
int prelu_data_types_ok(const struct tsr_primitive_desc *pd);

/* Resolves "any": src to plain, weights to plain, dst, diff_src and
 * diff_dst to src's layout, diff_weights to the weights'. */
tsr_status_t prelu_resolve_any(struct tsr_primitive_desc *pd);

#endif
