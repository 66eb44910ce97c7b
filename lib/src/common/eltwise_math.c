/* Scalar definitions of the eltwise and binary algorithms, as oneDNN
 * defines them (dev_guide_eltwise, dev_guide_binary). Every implementation's
 * scalar path and tail handling calls these so all agree on edge cases
 * (overflow guards, NaN ordering of max/min). */
#include <float.h>
#include <math.h>

#include "attr.h"

/* Above this exp() overflows in f32: log(FLT_MAX). */
static const float exp_overflow_bound = 88.72283172607421875f;

static float logistic(float x) {
    return -x < exp_overflow_bound ? 1.f / (1.f + expf(-x)) : 0.f;
}

/* log(1 + e^x) without overflow for large x. */
static float soft_plus(float x) {
    return x < exp_overflow_bound ? log1pf(expf(x)) : x;
}

static float clamp(float x, float lo, float hi) {
    x = x > lo ? x : lo;
    return x < hi ? x : hi;
}

tsr_alg_kind_t tsr_eltwise_fwd_alg(tsr_alg_kind_t alg) {
    switch (alg) {
    case tsr_eltwise_relu_use_dst_for_bwd:
        return tsr_eltwise_relu;
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return tsr_eltwise_tanh;
    case tsr_eltwise_elu_use_dst_for_bwd:
        return tsr_eltwise_elu;
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return tsr_eltwise_sqrt;
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return tsr_eltwise_logistic;
    case tsr_eltwise_exp_use_dst_for_bwd:
        return tsr_eltwise_exp;
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return tsr_eltwise_clip_v2;
    default:
        return alg;
    }
}

int tsr_eltwise_bwd_uses_dst(tsr_alg_kind_t alg) {
    return alg >= tsr_eltwise_relu_use_dst_for_bwd &&
           alg <= tsr_eltwise_clip_v2_use_dst_for_bwd;
}

void tsr_eltwise_resolve_params(tsr_alg_kind_t alg, float *alpha, float *beta) {
    alg = tsr_eltwise_fwd_alg(alg);
    if (alg == tsr_eltwise_soft_relu && *alpha == 0.f)
        *alpha = 1.f;
    (void)beta; /* hardswish's v2.x form is its own branch: exact at -3 */
}

float tsr_eltwise_fwd(tsr_alg_kind_t alg, float x, float alpha, float beta) {
    alg = tsr_eltwise_fwd_alg(alg);
    tsr_eltwise_resolve_params(alg, &alpha, &beta);
    switch (alg) {
    case tsr_eltwise_relu:
        return x > 0.f ? x : alpha * x;
    case tsr_eltwise_tanh:
        return tanhf(x);
    case tsr_eltwise_elu:
        return x > 0.f ? x : alpha * expm1f(x);
    case tsr_eltwise_square:
        return x * x;
    case tsr_eltwise_abs:
        return fabsf(x);
    case tsr_eltwise_sqrt:
        return sqrtf(x);
    case tsr_eltwise_linear:
        return alpha * x + beta;
    case tsr_eltwise_bounded_relu:
        return clamp(x, 0.f, alpha);
    case tsr_eltwise_soft_relu:
        /* The v3.x form log(1 + e^(alpha x)) / alpha; v2.x's is alpha 1. */
        if (alpha == 1.f)
            return soft_plus(x);
        return soft_plus(alpha * x) / alpha;
    case tsr_eltwise_logistic:
        return logistic(x);
    case tsr_eltwise_exp:
        return expf(x);
    case tsr_eltwise_gelu_tanh: {
        const float sqrt_2_over_pi = 0.79788458347320556640625f;
        const float fitting_const = 0.044715f;
        float g = sqrt_2_over_pi * x * (1.f + fitting_const * x * x);
        return 0.5f * x * (1.f + tanhf(g));
    }
    case tsr_eltwise_swish:
        return x * logistic(alpha * x);
    case tsr_eltwise_log:
        return logf(x);
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        return clamp(x, alpha, beta);
    case tsr_eltwise_pow:
        return alpha * powf(x, beta);
    case tsr_eltwise_gelu_erf: {
        const float sqrt_2_over_2 = 0.707106769084930419921875f;
        return 0.5f * x * (1.f + erff(x * sqrt_2_over_2));
    }
    case tsr_eltwise_round:
        return nearbyintf(x);
    case tsr_eltwise_logsigmoid:
        return -soft_plus(-x);
    case tsr_eltwise_mish:
        return x * tanhf(soft_plus(x));
    case tsr_eltwise_hardswish:
        if (alpha == 0.f && beta == 0.f) /* v2.x: x relu6(x + 3) / 6 */
            return x * clamp(x + 3.f, 0.f, 6.f) / 6.f;
        return x * clamp(alpha * x + beta, 0.f, 1.f);
    case tsr_eltwise_hardsigmoid:
        return clamp(alpha * x + beta, 0.f, 1.f);
    default:
        break;
    }
    return NAN;
}

float tsr_eltwise_bwd(tsr_alg_kind_t alg, float dd, float v, float alpha,
                      float beta) {
    tsr_eltwise_resolve_params(alg, &alpha, &beta);
    switch (alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_relu_use_dst_for_bwd:
        return v > 0.f ? dd : alpha * dd;
    case tsr_eltwise_tanh: {
        const float y = tanhf(v);
        return dd * (1.f - y) * (1.f + y);
    }
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return dd * (1.f - v) * (1.f + v);
    case tsr_eltwise_elu:
        return v > 0.f ? dd : dd * alpha * expf(v);
    case tsr_eltwise_elu_use_dst_for_bwd:
        return v > 0.f ? dd : dd * (v + alpha);
    case tsr_eltwise_square:
        return dd * 2.f * v;
    case tsr_eltwise_abs:
        return v > 0.f ? dd : v < 0.f ? -dd : 0.f;
    case tsr_eltwise_sqrt:
        return dd / (2.f * sqrtf(v));
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return dd / (2.f * v);
    case tsr_eltwise_linear:
        return dd * alpha;
    case tsr_eltwise_bounded_relu:
        return v > 0.f && v <= alpha ? dd : 0.f;
    case tsr_eltwise_soft_relu:
        return dd * logistic(alpha * v);
    case tsr_eltwise_logsigmoid:
        return dd * logistic(-v);
    case tsr_eltwise_mish: {
        const float t = tanhf(soft_plus(v));
        return dd * (t + v * logistic(v) * (1.f - t) * (1.f + t));
    }
    case tsr_eltwise_logistic: {
        const float y = logistic(v);
        return dd * y * (1.f - y);
    }
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return dd * v * (1.f - v);
    case tsr_eltwise_exp:
        return dd * expf(v);
    case tsr_eltwise_exp_use_dst_for_bwd:
        return dd * v;
    case tsr_eltwise_gelu_tanh: {
        const float sqrt_2_over_pi = 0.79788458347320556640625f;
        const float fitting_const = 0.044715f;
        const float x2 = v * v;
        const float g = sqrt_2_over_pi * v * (1.f + fitting_const * x2);
        const float dg = sqrt_2_over_pi * (1.f + 3.f * fitting_const * x2);
        const float t = tanhf(g);
        return dd * 0.5f * (1.f + t) * (1.f + v * (1.f - t) * dg);
    }
    case tsr_eltwise_gelu_erf: {
        const float sqrt_2_over_2 = 0.707106769084930419921875f;
        const float two_over_sqrt_pi = 1.12837922573089599609375f;
        const float u = v * sqrt_2_over_2;
        return dd * 0.5f *
               (1.f + erff(u) + u * two_over_sqrt_pi * expf(-u * u));
    }
    case tsr_eltwise_swish: {
        const float s = logistic(alpha * v);
        return dd * (s + alpha * v * s * (1.f - s));
    }
    case tsr_eltwise_log:
        return dd / v;
    case tsr_eltwise_clip:
        return v > alpha && v <= beta ? dd : 0.f;
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return v > alpha && v < beta ? dd : 0.f;
    case tsr_eltwise_pow:
        if (beta == 0.f)
            return 0.f;
        return dd * alpha * beta * powf(v, beta - 1.f);
    case tsr_eltwise_hardswish: {
        if (alpha == 0.f && beta == 0.f)
            return v <= -3.f ? 0.f : v >= 3.f ? dd : dd * (2.f * v + 3.f) / 6.f;
        const float w = alpha * v + beta;
        return w <= 0.f ? 0.f : w >= 1.f ? dd : dd * (2.f * alpha * v + beta);
    }
    case tsr_eltwise_hardsigmoid: {
        const float w = alpha * v + beta;
        return w > 0.f && w < 1.f ? dd * alpha : 0.f;
    }
    default:
        break;
    }
    return NAN;
}

float tsr_binary_fwd(tsr_alg_kind_t alg, float a, float b) {
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
        return a >= b ? 1.f : 0.f;
    case tsr_binary_gt:
        return a > b ? 1.f : 0.f;
    case tsr_binary_le:
        return a <= b ? 1.f : 0.f;
    case tsr_binary_lt:
        return a < b ? 1.f : 0.f;
    case tsr_binary_eq:
        return a == b ? 1.f : 0.f;
    case tsr_binary_ne:
        return a != b ? 1.f : 0.f;
    default:
        break;
    }
    return NAN;
}

int tsr_is_eltwise_alg(tsr_alg_kind_t alg) {
    return alg >= tsr_eltwise_relu && alg < tsr_eltwise_alg_last;
}

int tsr_is_binary_alg(tsr_alg_kind_t alg) {
    return alg >= tsr_binary_add && alg < tsr_binary_alg_last;
}
