/* Reference math of post-ops, written from the definitions (in double)
 * and independent of the library's kernels; eltwise entries use the
 * eltwise driver's reference. */
#include <math.h>

#include "attr.h"
#include "eltwise/eltwise.h"

/* The eltwise driver's math (double), rounded once to f32. */
float ref_eltwise(tsr_alg_kind_t alg, float x, float alpha, float beta) {
    return (float)eltwise_ref_fwd(alg, x, alpha, beta);
}

float ref_binary(tsr_alg_kind_t alg, float a, float b) {
    switch (alg) {
    case tsr_binary_add:
        return a + b;
    case tsr_binary_mul:
        return a * b;
    case tsr_binary_max:
        return a > b ? a : b;
    case tsr_binary_min:
        return a < b ? a : b;
    case tsr_binary_div:
        return a / b;
    case tsr_binary_sub:
        return a - b;
    case tsr_binary_ge:
        return a >= b;
    case tsr_binary_gt:
        return a > b;
    case tsr_binary_le:
        return a <= b;
    case tsr_binary_lt:
        return a < b;
    case tsr_binary_eq:
        return a == b;
    case tsr_binary_ne:
        return a != b;
    default:
        return NAN;
    }
}

/* Row-major offset of dst point `pos` in a src1 broadcast to `dims`. */
static int64_t src1_offset(bench_policy_t policy, int ndims, int data_oc_last,
                           const int64_t *dst_dims, const int64_t *pos) {
    int64_t src1_dims[TSR_MAX_NDIMS];
    int64_t off = 0;
    attr_binary_src1_dims(policy, ndims, data_oc_last, dst_dims, src1_dims);
    for (int d = 0; d < ndims; d++)
        off = off * src1_dims[d] + (src1_dims[d] == 1 ? 0 : pos[d]);
    return off;
}

float ref_post_ops(const bench_attr_t *attr, float v, float dst_old, int ndims,
                   const int64_t *dst_dims, const int64_t *pos,
                   float *const *bin_src1, int data_oc_last) {
    for (int i = 0; i < attr->n_post_ops; i++) {
        const bench_post_op_t *po = &attr->post_ops[i];
        switch (po->kind) {
        case tsr_post_op_sum:
            v += po->scale * (dst_old - (float)po->zero_point);
            break;
        case tsr_post_op_eltwise:
            v = po->scale * ref_eltwise(po->alg, v, po->alpha, po->beta);
            break;
        case tsr_post_op_binary: {
            const float b = bin_src1 && bin_src1[i]
                                    ? bin_src1[i][src1_offset(po->policy, ndims,
                                                              data_oc_last,
                                                              dst_dims, pos)]
                                    : 0.f;
            v = ref_binary(po->alg, v, b);
            break;
        }
        case tsr_post_op_prelu: {
            /* The weights broadcast over dst like a binary src1. */
            const float w = bin_src1[i][src1_offset(
                    po->policy, ndims, data_oc_last, dst_dims, pos)];
            v = v > 0 ? v : w * v;
            break;
        }
        default:
            break; /* unsupported entries never reach execution */
        }
    }
    return v;
}
