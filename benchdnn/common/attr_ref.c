/* Reference math of post-ops, written from the definitions (in double)
 * and independent of the library's kernels. */
#include <math.h>

#include "attr.h"

/* log(1 + e^x) without overflow for large x. */
static double soft_relu(double x) {
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

static double logistic(double x) {
    if (x >= 0)
        return 1 / (1 + exp(-x));
    const double e = exp(x);
    return e / (1 + e);
}

static double clamp(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

float ref_eltwise(tsr_alg_kind_t alg, float xf, float alpha_f, float beta_f) {
    const double x = xf, alpha = alpha_f, beta = beta_f;
    double y;
    switch (alg) {
    case tsr_eltwise_relu:
        y = x > 0 ? x : alpha * x;
        break;
    case tsr_eltwise_tanh:
        y = tanh(x);
        break;
    case tsr_eltwise_elu:
        y = x > 0 ? x : alpha * expm1(x);
        break;
    case tsr_eltwise_square:
        y = x * x;
        break;
    case tsr_eltwise_abs:
        y = fabs(x);
        break;
    case tsr_eltwise_sqrt:
        y = sqrt(x);
        break;
    case tsr_eltwise_linear:
        y = alpha * x + beta;
        break;
    case tsr_eltwise_bounded_relu:
        y = clamp(x, 0, alpha);
        break;
    case tsr_eltwise_soft_relu:
        y = soft_relu(x);
        break;
    case tsr_eltwise_logistic:
        y = logistic(x);
        break;
    case tsr_eltwise_exp:
        y = exp(x);
        break;
    case tsr_eltwise_gelu_tanh: {
        const double sqrt_2_over_pi = 0.79788456080286535588;
        y = 0.5 * x * (1 + tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
        break;
    }
    case tsr_eltwise_swish:
        y = x * logistic(alpha * x);
        break;
    case tsr_eltwise_log:
        y = log(x);
        break;
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        y = clamp(x, alpha, beta);
        break;
    case tsr_eltwise_pow:
        y = alpha * pow(x, beta);
        break;
    case tsr_eltwise_gelu_erf:
        y = 0.5 * x * (1 + erf(x / sqrt(2.0)));
        break;
    case tsr_eltwise_round:
        y = nearbyint(x);
        break; /* ties to even */
    case tsr_eltwise_logsigmoid:
        y = -soft_relu(-x);
        break;
    case tsr_eltwise_mish:
        y = x * tanh(soft_relu(x));
        break;
    case tsr_eltwise_hardswish:
        y = x * clamp(alpha * x + beta, 0, 1);
        break;
    case tsr_eltwise_hardsigmoid:
        y = clamp(alpha * x + beta, 0, 1);
        break;
    default:
        y = NAN;
        break;
    }
    return (float)y;
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
        default:
            break; /* unsupported entries never reach execution */
        }
    }
    return v;
}
