/* Eltwise forward and backward math from the definitions (DRIVERS.md §3,
 * oneDNN's dev_guide_eltwise), in double; nothing here comes from the
 * library. */
#include <math.h>

#include "eltwise/eltwise.h"

void eltwise_effective_params(tsr_alg_kind_t alg, float alpha, float beta,
                              float *eff_alpha, float *eff_beta) {
    *eff_alpha = alpha;
    *eff_beta = beta;
    if (alg == tsr_eltwise_soft_relu && alpha == 0.f)
        *eff_alpha = 1.f;
    if (alg == tsr_eltwise_hardswish && alpha == 0.f && beta == 0.f) {
        *eff_alpha = 1.f / 6.f;
        *eff_beta = 0.5f;
    }
}

/* 1 / (1 + e^-x), without overflow on either side. */
static double logistic(double x) {
    if (x >= 0)
        return 1 / (1 + exp(-x));
    const double e = exp(x);
    return e / (1 + e);
}

/* log(1 + e^x), without overflow for large x. */
static double soft_plus(double x) {
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

static double clamp(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

static const double sqrt_2_over_pi = 0.79788456080286535588;
static const double gelu_tanh_c = 0.044715;

/* The *_use_dst_for_bwd algorithms' forward is their base's. */
static tsr_alg_kind_t base_alg(tsr_alg_kind_t alg) {
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

double eltwise_ref_fwd(tsr_alg_kind_t alg, double x, double alpha,
                       double beta) {
    switch (base_alg(alg)) {
    case tsr_eltwise_relu:
        return x > 0 ? x : alpha * x;
    case tsr_eltwise_tanh:
        return tanh(x);
    case tsr_eltwise_elu:
        return x > 0 ? x : alpha * expm1(x);
    case tsr_eltwise_square:
        return x * x;
    case tsr_eltwise_abs:
        return fabs(x);
    case tsr_eltwise_sqrt:
        return sqrt(x);
    case tsr_eltwise_linear:
        return alpha * x + beta;
    case tsr_eltwise_bounded_relu:
        return clamp(x, 0, alpha);
    case tsr_eltwise_soft_relu:
        /* v2.x: log(1 + e^x); v3.x: log(1 + e^(alpha x)) / alpha. */
        return alpha == 0 || alpha == 1 ? soft_plus(x)
                                        : soft_plus(alpha * x) / alpha;
    case tsr_eltwise_logsigmoid:
        return -soft_plus(-x);
    case tsr_eltwise_mish:
        return x * tanh(soft_plus(x));
    case tsr_eltwise_logistic:
        return logistic(x);
    case tsr_eltwise_exp:
        return exp(x);
    case tsr_eltwise_gelu_tanh:
        return 0.5 * x *
               (1 + tanh(sqrt_2_over_pi * x * (1 + gelu_tanh_c * x * x)));
    case tsr_eltwise_gelu_erf:
        return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case tsr_eltwise_swish:
        return x * logistic(alpha * x);
    case tsr_eltwise_log:
        return log(x);
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        return clamp(x, alpha, beta);
    case tsr_eltwise_pow:
        return alpha * pow(x, beta);
    case tsr_eltwise_hardswish:
        return x * clamp(alpha * x + beta, 0, 1);
    case tsr_eltwise_hardsigmoid:
        return clamp(alpha * x + beta, 0, 1);
    case tsr_eltwise_round:
        return nearbyint(x); /* ties to even in the default mode */
    default:
        return NAN;
    }
}

static double gelu_tanh_bwd(double x) {
    const double g = sqrt_2_over_pi * x * (1 + gelu_tanh_c * x * x);
    const double dg = sqrt_2_over_pi * (1 + 3 * gelu_tanh_c * x * x);
    const double v = tanh(g);
    return 0.5 * (1 + v) * (1 + x * (1 - v) * dg);
}

static double gelu_erf_bwd(double x) {
    const double u = x / sqrt(2.0);
    const double two_over_sqrt_pi = 1.12837916709551257390;
    return 0.5 * (1 + erf(u) + u * two_over_sqrt_pi * exp(-u * u));
}

/* f'(s) of `alg`, s being x, or y for the *_use_dst_for_bwd algorithms. */
static double derivative(tsr_alg_kind_t alg, double s, double alpha,
                         double beta) {
    switch (alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_relu_use_dst_for_bwd:
        return s > 0 ? 1 : alpha;
    case tsr_eltwise_tanh:
        return 1 - tanh(s) * tanh(s);
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return 1 - s * s;
    case tsr_eltwise_elu:
        return s > 0 ? 1 : alpha * exp(s);
    case tsr_eltwise_elu_use_dst_for_bwd:
        return s > 0 ? 1 : s + alpha;
    case tsr_eltwise_square:
        return 2 * s;
    case tsr_eltwise_abs:
        return s > 0 ? 1 : s < 0 ? -1 : 0;
    case tsr_eltwise_sqrt:
        return 0.5 / sqrt(s);
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return 0.5 / s;
    case tsr_eltwise_linear:
        return alpha;
    case tsr_eltwise_bounded_relu:
        return s > 0 && s <= alpha ? 1 : 0;
    case tsr_eltwise_soft_relu:
        return alpha == 0 || alpha == 1 ? logistic(s) : logistic(alpha * s);
    case tsr_eltwise_logsigmoid:
        return logistic(-s);
    case tsr_eltwise_mish: {
        const double t = tanh(soft_plus(s));
        return t + s * logistic(s) * (1 - t * t);
    }
    case tsr_eltwise_logistic: {
        const double y = logistic(s);
        return y * (1 - y);
    }
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return s * (1 - s);
    case tsr_eltwise_exp:
        return exp(s);
    case tsr_eltwise_exp_use_dst_for_bwd:
        return s;
    case tsr_eltwise_gelu_tanh:
        return gelu_tanh_bwd(s);
    case tsr_eltwise_gelu_erf:
        return gelu_erf_bwd(s);
    case tsr_eltwise_swish: {
        const double v = logistic(alpha * s);
        return v + alpha * s * v * (1 - v);
    }
    case tsr_eltwise_log:
        return 1 / s;
    case tsr_eltwise_clip:
        return s > alpha && s <= beta ? 1 : 0;
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return s > alpha && s < beta ? 1 : 0;
    case tsr_eltwise_pow:
        return beta == 0 ? 0 : alpha * beta * pow(s, beta - 1);
    case tsr_eltwise_hardswish: {
        const double v = alpha * s + beta;
        return v <= 0 ? 0 : v >= 1 ? 1 : 2 * alpha * s + beta;
    }
    case tsr_eltwise_hardsigmoid: {
        const double v = alpha * s + beta;
        return v > 0 && v < 1 ? alpha : 0;
    }
    default:
        return NAN;
    }
}

double eltwise_ref_bwd(tsr_alg_kind_t alg, double dd, double s, double alpha,
                       double beta) {
    /* The derivative as an f32 can hold it: past f32's range it is
     * infinite, and a zero diff_dst then gives NaN, as in f32 math. */
    return dd * (double)(float)derivative(alg, s, alpha, beta);
}
