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

float tsr_eltwise_fwd(tsr_alg_kind_t alg, float x, float alpha, float beta) {
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
        /* v2.x form log(1 + e^x) for alpha 0 (unset) or 1; the v3.x form
         * log(1 + e^(alpha x)) / alpha otherwise. */
        if (alpha == 0.f || alpha == 1.f)
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
        return x * clamp(alpha * x + beta, 0.f, 1.f);
    case tsr_eltwise_hardsigmoid:
        return clamp(alpha * x + beta, 0.f, 1.f);
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
