/* The eltwise f32 vector kernels, written once over a small vector API that
 * the including ISA file defines first (eltwise_fwd_avx512.c,
 * eltwise_fwd_avx2.c):
 *   vf, vm, VF_LEN                  float vector, lane mask, lanes
 *   vf_set1 vf_load vf_store        (unaligned loads and stores)
 *   vf_stream vf_stream_fence       (aligned non-temporal store, sfence)
 *   vf_add vf_sub vf_mul vf_div vf_fmadd(a, b, c) = a * b + c
 *   vf_max(a, b) vf_min(a, b)       b when either is NaN (as maxps)
 *   vf_sqrt vf_round_even vf_abs vf_copysign(magnitude, sign)
 *   vm_gt vm_lt vm_ge vm_le vm_eq vm_isnan vm_and
 *   vf_select(m, t, f)              t where m is set, else f
 *   vf_ldexp(y, n)                  y * 2^n for integral n in [-150, 128]
 *   vf_frexp(x, &e)                 m in [0.5, 1) with x = m * 2^e, x > 0
 * Accuracy: exp, log, expm1 within a few ulp; tanh, logistic, erfc and the
 * compound functions within about 1e-6 relative where the result is not
 * tiny, far inside benchdnn's thresholds. Scalar (tsr_eltwise_fwd) on the
 * algorithms left out (pow). */
#ifndef TSR_CPU_ELTWISE_ELTWISE_VEC_BODY_H
#define TSR_CPU_ELTWISE_ELTWISE_VEC_BODY_H

#include <stdint.h>
#include <string.h>

#include "eltwise_pd.h"

#define ELTWISE_ALWAYS_INLINE inline __attribute__((always_inline))

/* e^x (Cephes' expf: Cody-Waite reduction by ln 2, degree-6 polynomial).
 * Overflow gives inf, underflow denormals then 0, NaN stays NaN. */
static ELTWISE_ALWAYS_INLINE vf vec_exp(vf x) {
    const vf xc = vf_min(vf_set1(88.7228393f), vf_max(vf_set1(-104.f), x));
    const vf n = vf_round_even(vf_mul(xc, vf_set1(1.44269504088896341f)));
    vf r = vf_fmadd(n, vf_set1(-0.693359375f), xc);
    r = vf_fmadd(n, vf_set1(2.12194440e-4f), r);
    vf p = vf_set1(1.9875691500e-4f);
    p = vf_fmadd(p, r, vf_set1(1.3981999507e-3f));
    p = vf_fmadd(p, r, vf_set1(8.3334519073e-3f));
    p = vf_fmadd(p, r, vf_set1(4.1665795894e-2f));
    p = vf_fmadd(p, r, vf_set1(1.6666665459e-1f));
    p = vf_fmadd(p, r, vf_set1(5.0000001201e-1f));
    const vf y = vf_add(vf_fmadd(vf_mul(p, r), r, r), vf_set1(1.f));
    const vf e = vf_ldexp(y, n);
    return vf_select(vm_gt(x, vf_set1(88.7228393f)), vf_set1(INFINITY), e);
}

/* e^x - 1, without the cancellation near 0 (Taylor series there). */
static ELTWISE_ALWAYS_INLINE vf vec_expm1(vf x) {
    vf p = vf_set1(1.f / 40320.f);
    p = vf_fmadd(p, x, vf_set1(1.f / 5040.f));
    p = vf_fmadd(p, x, vf_set1(1.f / 720.f));
    p = vf_fmadd(p, x, vf_set1(1.f / 120.f));
    p = vf_fmadd(p, x, vf_set1(1.f / 24.f));
    p = vf_fmadd(p, x, vf_set1(1.f / 6.f));
    p = vf_fmadd(p, x, vf_set1(0.5f));
    const vf small = vf_fmadd(vf_mul(p, x), x, x);
    const vf big = vf_sub(vec_exp(x), vf_set1(1.f));
    return vf_select(vm_lt(vf_abs(x), vf_set1(0.34657359f)), small, big);
}

/* ln x (Cephes' logf): NaN below 0, -inf at 0, inf at inf. */
static ELTWISE_ALWAYS_INLINE vf vec_log(vf x) {
    vf e;
    vf m = vf_frexp(x, &e);
    const vm low = vm_lt(m, vf_set1(0.707106781186547524f));
    e = vf_select(low, vf_sub(e, vf_set1(1.f)), e);
    m = vf_sub(vf_select(low, vf_add(m, m), m), vf_set1(1.f));
    const vf z = vf_mul(m, m);
    vf p = vf_set1(7.0376836292e-2f);
    p = vf_fmadd(p, m, vf_set1(-1.1514610310e-1f));
    p = vf_fmadd(p, m, vf_set1(1.1676998740e-1f));
    p = vf_fmadd(p, m, vf_set1(-1.2420140846e-1f));
    p = vf_fmadd(p, m, vf_set1(1.4249322787e-1f));
    p = vf_fmadd(p, m, vf_set1(-1.6668057665e-1f));
    p = vf_fmadd(p, m, vf_set1(2.0000714765e-1f));
    p = vf_fmadd(p, m, vf_set1(-2.4999993993e-1f));
    p = vf_fmadd(p, m, vf_set1(3.3333331174e-1f));
    vf y = vf_mul(vf_mul(p, m), z);
    y = vf_fmadd(e, vf_set1(-2.12194440e-4f), y);
    y = vf_fmadd(z, vf_set1(-0.5f), y);
    vf r = vf_add(m, y);
    r = vf_fmadd(e, vf_set1(0.693359375f), r);
    r = vf_select(vm_eq(x, vf_set1(INFINITY)), x, r);
    r = vf_select(vm_eq(x, vf_set1(0.f)), vf_set1(-INFINITY), r);
    r = vf_select(vm_lt(x, vf_set1(0.f)), vf_set1(NAN), r);
    return vf_select(vm_isnan(x), x, r);
}

/* log(1 + e^x) = max(x, 0) + log1p(e^-|x|), log1p(t) as
 * log(u) * t / (u - 1) with u = 1 + t (exact where u rounds to 1). */
static ELTWISE_ALWAYS_INLINE vf vec_soft_plus(vf x) {
    const vf t = vec_exp(vf_sub(vf_set1(0.f), vf_abs(x)));
    const vf u = vf_add(vf_set1(1.f), t);
    const vf um1 = vf_sub(u, vf_set1(1.f));
    const vf l = vf_select(vm_eq(um1, vf_set1(0.f)), t,
                           vf_div(vf_mul(vec_log(u), t), um1));
    return vf_add(vf_max(vf_set1(0.f), x), l);
}

static ELTWISE_ALWAYS_INLINE vf vec_logistic(vf x) {
    return vf_div(vf_set1(1.f),
                  vf_add(vf_set1(1.f), vec_exp(vf_sub(vf_set1(0.f), x))));
}

/* tanh x = e / (e + 2) with e = expm1(2|x|), the sign put back. */
static ELTWISE_ALWAYS_INLINE vf vec_tanh(vf x) {
    const vf a = vf_min(vf_set1(9.f), vf_abs(x));
    const vf e = vec_expm1(vf_add(a, a));
    return vf_copysign(vf_div(e, vf_add(e, vf_set1(2.f))), x);
}

/* erfc z for z >= 0 (Numerical Recipes' erfcc: relative error below
 * 1.2e-7 everywhere), z^2 carried with its rounding error. */
static ELTWISE_ALWAYS_INLINE vf vec_erfc_pos(vf z) {
    const vf t = vf_div(vf_set1(1.f), vf_fmadd(vf_set1(0.5f), z, vf_set1(1.f)));
    vf p = vf_set1(0.17087277f);
    p = vf_fmadd(p, t, vf_set1(-0.82215223f));
    p = vf_fmadd(p, t, vf_set1(1.48851587f));
    p = vf_fmadd(p, t, vf_set1(-1.13520398f));
    p = vf_fmadd(p, t, vf_set1(0.27886807f));
    p = vf_fmadd(p, t, vf_set1(-0.18628806f));
    p = vf_fmadd(p, t, vf_set1(0.09678418f));
    p = vf_fmadd(p, t, vf_set1(0.37409196f));
    p = vf_fmadd(p, t, vf_set1(1.00002368f));
    p = vf_fmadd(p, t, vf_set1(-1.26551223f));
    const vf zz = vf_mul(z, z);
    const vf zz_err = vf_fmadd(z, z, vf_sub(vf_set1(0.f), zz));
    return vf_mul(t, vec_exp(vf_sub(vf_sub(p, zz), zz_err)));
}

/* 1 + erf(u), relative accuracy kept for negative u. */
static ELTWISE_ALWAYS_INLINE vf vec_one_plus_erf(vf u) {
    const vf c = vec_erfc_pos(vf_abs(u));
    return vf_select(vm_ge(u, vf_set1(0.f)), vf_sub(vf_set1(2.f), c), c);
}

/* x > lo ? x : lo, then x < hi ? x : hi: NaN gives lo, as the scalar. */
static ELTWISE_ALWAYS_INLINE vf vec_clamp(vf x, vf lo, vf hi) {
    x = vf_select(vm_gt(x, lo), x, lo);
    return vf_select(vm_lt(x, hi), x, hi);
}

/* tanh(log(1 + e^x)) = n / (n + 2), n = e^x (e^x + 2); 1 from x = 20 on. */
static ELTWISE_ALWAYS_INLINE vf vec_mish_n(vf x) {
    const vf e = vec_exp(vf_min(vf_set1(20.f), x));
    return vf_mul(e, vf_add(e, vf_set1(2.f)));
}

static const float gelu_sqrt_2_over_pi = 0.79788458347320556640625f;
static const float gelu_fitting_const = 0.044715f;
static const float sqrt_2_over_2 = 0.707106769084930419921875f;
static const float two_over_sqrt_pi = 1.12837922573089599609375f;

static ELTWISE_ALWAYS_INLINE vf vec_fwd(tsr_alg_kind_t alg, vf x, vf alpha,
                                        vf beta, const eltwise_op_t *op) {
    const vf zero = vf_set1(0.f), one = vf_set1(1.f);
    switch (alg) {
    case tsr_eltwise_relu:
        /* alpha 0 is a max (NaN kept: max returns its second operand). */
        if (op->alpha == 0.f)
            return vf_max(zero, x);
        return vf_select(vm_gt(x, zero), x, vf_mul(alpha, x));
    case tsr_eltwise_tanh:
        return vec_tanh(x);
    case tsr_eltwise_elu:
        return vf_select(vm_gt(x, zero), x, vf_mul(alpha, vec_expm1(x)));
    case tsr_eltwise_square:
        return vf_mul(x, x);
    case tsr_eltwise_abs:
        return vf_abs(x);
    case tsr_eltwise_sqrt:
        return vf_sqrt(x);
    case tsr_eltwise_linear:
        return vf_fmadd(alpha, x, beta);
    case tsr_eltwise_bounded_relu:
        return vec_clamp(x, zero, alpha);
    case tsr_eltwise_soft_relu:
        if (op->alpha == 1.f)
            return vec_soft_plus(x);
        return vf_div(vec_soft_plus(vf_mul(alpha, x)), alpha);
    case tsr_eltwise_logistic:
        return vec_logistic(x);
    case tsr_eltwise_exp:
        return vec_exp(x);
    case tsr_eltwise_gelu_tanh: {
        /* 0.5 x (1 + tanh g) = x / (1 + e^(-2g)). */
        const vf x2 = vf_mul(x, x);
        const vf g = vf_mul(vf_mul(vf_set1(gelu_sqrt_2_over_pi), x),
                            vf_fmadd(vf_set1(gelu_fitting_const), x2, one));
        return vf_div(x, vf_add(one, vec_exp(vf_mul(vf_set1(-2.f), g))));
    }
    case tsr_eltwise_swish:
        return vf_mul(x, vec_logistic(vf_mul(alpha, x)));
    case tsr_eltwise_log:
        return vec_log(x);
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        return vec_clamp(x, alpha, beta);
    case tsr_eltwise_gelu_erf:
        return vf_mul(vf_mul(vf_set1(0.5f), x),
                      vec_one_plus_erf(vf_mul(x, vf_set1(sqrt_2_over_2))));
    case tsr_eltwise_round:
        return vf_round_even(x);
    case tsr_eltwise_logsigmoid:
        return vf_sub(zero, vec_soft_plus(vf_sub(zero, x)));
    case tsr_eltwise_mish: {
        const vf n = vec_mish_n(x);
        const vf r = vf_mul(x, vf_div(n, vf_add(n, vf_set1(2.f))));
        return vf_select(vm_gt(x, vf_set1(20.f)), x, r);
    }
    case tsr_eltwise_hardswish:
        if (op->alpha == 0.f && op->beta == 0.f)
            return vf_div(vf_mul(x, vec_clamp(vf_add(x, vf_set1(3.f)), zero,
                                              vf_set1(6.f))),
                          vf_set1(6.f));
        return vf_mul(x, vec_clamp(vf_fmadd(alpha, x, beta), zero, one));
    case tsr_eltwise_hardsigmoid:
        return vec_clamp(vf_fmadd(alpha, x, beta), zero, one);
    default:
        return x;
    }
}

static ELTWISE_ALWAYS_INLINE vf vec_bwd(tsr_alg_kind_t alg, vf dd, vf v,
                                        vf alpha, vf beta,
                                        const eltwise_op_t *op) {
    const vf zero = vf_set1(0.f), one = vf_set1(1.f), two = vf_set1(2.f);
    switch (alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_relu_use_dst_for_bwd:
        return vf_select(vm_gt(v, zero), dd, vf_mul(alpha, dd));
    case tsr_eltwise_tanh: {
        const vf y = vec_tanh(v);
        return vf_mul(vf_mul(dd, vf_sub(one, y)), vf_add(one, y));
    }
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return vf_mul(vf_mul(dd, vf_sub(one, v)), vf_add(one, v));
    case tsr_eltwise_elu:
        return vf_select(vm_gt(v, zero), dd,
                         vf_mul(vf_mul(dd, alpha), vec_exp(v)));
    case tsr_eltwise_elu_use_dst_for_bwd:
        return vf_select(vm_gt(v, zero), dd, vf_mul(dd, vf_add(v, alpha)));
    case tsr_eltwise_square:
        return vf_mul(vf_mul(dd, two), v);
    case tsr_eltwise_abs:
        return vf_select(vm_gt(v, zero), dd,
                         vf_select(vm_lt(v, zero), vf_sub(zero, dd), zero));
    case tsr_eltwise_sqrt:
        return vf_div(dd, vf_mul(two, vf_sqrt(v)));
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return vf_div(dd, vf_mul(two, v));
    case tsr_eltwise_linear:
        return vf_mul(dd, alpha);
    case tsr_eltwise_bounded_relu:
        return vf_select(vm_and(vm_gt(v, zero), vm_le(v, alpha)), dd, zero);
    case tsr_eltwise_soft_relu:
        return vf_mul(dd, vec_logistic(vf_mul(alpha, v)));
    case tsr_eltwise_logsigmoid:
        return vf_mul(dd, vec_logistic(vf_sub(zero, v)));
    case tsr_eltwise_mish: {
        /* t = n / (n + 2); 1 - t^2 = 4 (n + 1) / (n + 2)^2. */
        const vf n = vec_mish_n(v);
        const vf n2 = vf_add(n, two);
        const vf t = vf_select(vm_gt(v, vf_set1(20.f)), one, vf_div(n, n2));
        const vf omt2 = vf_select(
                vm_gt(v, vf_set1(20.f)), zero,
                vf_div(vf_mul(vf_set1(4.f), vf_add(n, one)), vf_mul(n2, n2)));
        return vf_mul(dd, vf_fmadd(vf_mul(v, vec_logistic(v)), omt2, t));
    }
    case tsr_eltwise_logistic: {
        const vf y = vec_logistic(v);
        return vf_mul(vf_mul(dd, y), vf_sub(one, y));
    }
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return vf_mul(vf_mul(dd, v), vf_sub(one, v));
    case tsr_eltwise_exp:
        return vf_mul(dd, vec_exp(v));
    case tsr_eltwise_exp_use_dst_for_bwd:
        return vf_mul(dd, v);
    case tsr_eltwise_gelu_tanh: {
        /* 0.5 (1 + t) (1 + x (1 - t) g') with 1 + t = 2 s, 1 - t = 2 (1 - s),
         * s = 1 / (1 + e), 1 - s = e s, e = e^(-2g) (g kept >= -44). */
        const vf x2 = vf_mul(v, v);
        const vf k = vf_set1(gelu_fitting_const);
        const vf s2pi = vf_set1(gelu_sqrt_2_over_pi);
        const vf g = vf_mul(vf_mul(s2pi, v), vf_fmadd(k, x2, one));
        const vf dg = vf_mul(s2pi, vf_fmadd(vf_mul(vf_set1(3.f), k), x2, one));
        const vf e = vec_exp(vf_mul(vf_set1(-2.f), vf_max(vf_set1(-44.f), g)));
        const vf s = vf_div(one, vf_add(one, e));
        const vf oms = vf_mul(e, s);
        return vf_mul(vf_mul(dd, s),
                      vf_fmadd(vf_mul(vf_mul(two, v), oms), dg, one));
    }
    case tsr_eltwise_gelu_erf: {
        const vf u = vf_mul(v, vf_set1(sqrt_2_over_2));
        const vf pdf = vf_mul(vf_mul(u, vf_set1(two_over_sqrt_pi)),
                              vec_exp(vf_sub(zero, vf_mul(u, u))));
        return vf_mul(vf_mul(dd, vf_set1(0.5f)),
                      vf_add(vec_one_plus_erf(u), pdf));
    }
    case tsr_eltwise_swish: {
        const vf av = vf_mul(alpha, v);
        const vf s = vec_logistic(av);
        return vf_mul(dd, vf_fmadd(vf_mul(av, s), vf_sub(one, s), s));
    }
    case tsr_eltwise_log:
        return vf_div(dd, v);
    case tsr_eltwise_clip:
        return vf_select(vm_and(vm_gt(v, alpha), vm_le(v, beta)), dd, zero);
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return vf_select(vm_and(vm_gt(v, alpha), vm_lt(v, beta)), dd, zero);
    case tsr_eltwise_hardswish: {
        if (op->alpha == 0.f && op->beta == 0.f) {
            const vf three = vf_set1(3.f);
            const vf mid =
                    vf_div(vf_mul(dd, vf_fmadd(two, v, three)), vf_set1(6.f));
            return vf_select(vm_le(v, vf_set1(-3.f)), zero,
                             vf_select(vm_ge(v, three), dd, mid));
        }
        const vf w = vf_fmadd(alpha, v, beta);
        const vf mid = vf_mul(dd, vf_fmadd(vf_mul(two, alpha), v, beta));
        return vf_select(vm_le(w, zero), zero,
                         vf_select(vm_ge(w, one), dd, mid));
    }
    case tsr_eltwise_hardsigmoid: {
        const vf w = vf_fmadd(alpha, v, beta);
        return vf_select(vm_and(vm_gt(w, zero), vm_lt(w, one)),
                         vf_mul(dd, alpha), zero);
    }
    default:
        return dd;
    }
}

/* The loops, instantiated per algorithm by constant propagation (the
 * switch below calls them with a constant alg). Tails go through a
 * vector-sized buffer so every element sees the same arithmetic. */
static ELTWISE_ALWAYS_INLINE void vec_fwd_part(tsr_alg_kind_t alg,
                                               const eltwise_op_t *op,
                                               float *dst, const float *src,
                                               int64_t len) {
    float buf[VF_LEN] = {0};
    memcpy(buf, src, sizeof(float) * (size_t)len);
    vf_store(buf, vec_fwd(alg, vf_load(buf), vf_set1(op->alpha),
                          vf_set1(op->beta), op));
    memcpy(dst, buf, sizeof(float) * (size_t)len);
}

/* With `stream`, dst is written with non-temporal stores from its first
 * 64-byte boundary on. */
static ELTWISE_ALWAYS_INLINE void vec_fwd_loop(tsr_alg_kind_t alg,
                                               const eltwise_op_t *op,
                                               float *dst, const float *src,
                                               int64_t n, int stream) {
    const vf alpha = vf_set1(op->alpha), beta = vf_set1(op->beta);
    int64_t i = 0;
    if (stream) {
        int64_t head = (int64_t)((64 - ((uintptr_t)dst & 63)) & 63) / 4;
        head = head < n ? head : n;
        for (; i < head; i += VF_LEN)
            vec_fwd_part(alg, op, dst + i, src + i,
                         head - i < VF_LEN ? head - i : VF_LEN);
        i = head;
    }
    for (; i + 2 * VF_LEN <= n; i += 2 * VF_LEN) {
        const vf x0 = vf_load(src + i), x1 = vf_load(src + i + VF_LEN);
        const vf y0 = vec_fwd(alg, x0, alpha, beta, op);
        const vf y1 = vec_fwd(alg, x1, alpha, beta, op);
        if (stream) {
            vf_stream(dst + i, y0);
            vf_stream(dst + i + VF_LEN, y1);
        } else {
            vf_store(dst + i, y0);
            vf_store(dst + i + VF_LEN, y1);
        }
    }
    for (; i < n; i += VF_LEN)
        vec_fwd_part(alg, op, dst + i, src + i,
                     n - i < VF_LEN ? n - i : VF_LEN);
    if (stream)
        vf_stream_fence();
}

static ELTWISE_ALWAYS_INLINE void
vec_bwd_loop(tsr_alg_kind_t alg, const eltwise_op_t *op, float *diff_src,
             const float *diff_dst, const float *data, int64_t n) {
    const vf alpha = vf_set1(op->alpha), beta = vf_set1(op->beta);
    for (int64_t i = 0; i < n; i += VF_LEN) {
        const int64_t len = n - i < VF_LEN ? n - i : VF_LEN;
        if (len == VF_LEN) {
            vf_store(diff_src + i, vec_bwd(alg, vf_load(diff_dst + i),
                                           vf_load(data + i), alpha, beta, op));
            continue;
        }
        float bdd[VF_LEN] = {0}, bv[VF_LEN] = {0};
        memcpy(bdd, diff_dst + i, sizeof(float) * (size_t)len);
        memcpy(bv, data + i, sizeof(float) * (size_t)len);
        vf_store(bdd, vec_bwd(alg, vf_load(bdd), vf_load(bv), alpha, beta, op));
        memcpy(diff_src + i, bdd, sizeof(float) * (size_t)len);
    }
}

/* The kernels: each algorithm's loop, the scalar math for the rest. */
static ELTWISE_ALWAYS_INLINE void vec_fwd_f32(const eltwise_op_t *op,
                                              float *dst, const float *src,
                                              int64_t n, int stream) {
    switch (op->alg) {
    case tsr_eltwise_relu:
        vec_fwd_loop(tsr_eltwise_relu, op, dst, src, n, stream);
        return;
    case tsr_eltwise_tanh:
        vec_fwd_loop(tsr_eltwise_tanh, op, dst, src, n, stream);
        return;
    case tsr_eltwise_elu:
        vec_fwd_loop(tsr_eltwise_elu, op, dst, src, n, stream);
        return;
    case tsr_eltwise_square:
        vec_fwd_loop(tsr_eltwise_square, op, dst, src, n, stream);
        return;
    case tsr_eltwise_abs:
        vec_fwd_loop(tsr_eltwise_abs, op, dst, src, n, stream);
        return;
    case tsr_eltwise_sqrt:
        vec_fwd_loop(tsr_eltwise_sqrt, op, dst, src, n, stream);
        return;
    case tsr_eltwise_linear:
        vec_fwd_loop(tsr_eltwise_linear, op, dst, src, n, stream);
        return;
    case tsr_eltwise_bounded_relu:
        vec_fwd_loop(tsr_eltwise_bounded_relu, op, dst, src, n, stream);
        return;
    case tsr_eltwise_soft_relu:
        vec_fwd_loop(tsr_eltwise_soft_relu, op, dst, src, n, stream);
        return;
    case tsr_eltwise_logistic:
        vec_fwd_loop(tsr_eltwise_logistic, op, dst, src, n, stream);
        return;
    case tsr_eltwise_exp:
        vec_fwd_loop(tsr_eltwise_exp, op, dst, src, n, stream);
        return;
    case tsr_eltwise_gelu_tanh:
        vec_fwd_loop(tsr_eltwise_gelu_tanh, op, dst, src, n, stream);
        return;
    case tsr_eltwise_swish:
        vec_fwd_loop(tsr_eltwise_swish, op, dst, src, n, stream);
        return;
    case tsr_eltwise_log:
        vec_fwd_loop(tsr_eltwise_log, op, dst, src, n, stream);
        return;
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        vec_fwd_loop(tsr_eltwise_clip, op, dst, src, n, stream);
        return;
    case tsr_eltwise_gelu_erf:
        vec_fwd_loop(tsr_eltwise_gelu_erf, op, dst, src, n, stream);
        return;
    case tsr_eltwise_round:
        vec_fwd_loop(tsr_eltwise_round, op, dst, src, n, stream);
        return;
    case tsr_eltwise_logsigmoid:
        vec_fwd_loop(tsr_eltwise_logsigmoid, op, dst, src, n, stream);
        return;
    case tsr_eltwise_mish:
        vec_fwd_loop(tsr_eltwise_mish, op, dst, src, n, stream);
        return;
    case tsr_eltwise_hardswish:
        vec_fwd_loop(tsr_eltwise_hardswish, op, dst, src, n, stream);
        return;
    case tsr_eltwise_hardsigmoid:
        vec_fwd_loop(tsr_eltwise_hardsigmoid, op, dst, src, n, stream);
        return;
    default:
        tsr_eltwise_fwd_f32_generic(op, dst, src, n);
        return;
    }
}

static inline void vec_bwd_f32(const eltwise_op_t *op, float *diff_src,
                               const float *diff_dst, const float *data,
                               int64_t n) {
    switch (op->alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_relu_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_relu, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_tanh:
        vec_bwd_loop(tsr_eltwise_tanh, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_tanh_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_tanh_use_dst_for_bwd, op, diff_src, diff_dst,
                     data, n);
        return;
    case tsr_eltwise_elu:
        vec_bwd_loop(tsr_eltwise_elu, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_elu_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_elu_use_dst_for_bwd, op, diff_src, diff_dst,
                     data, n);
        return;
    case tsr_eltwise_square:
        vec_bwd_loop(tsr_eltwise_square, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_abs:
        vec_bwd_loop(tsr_eltwise_abs, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_sqrt:
        vec_bwd_loop(tsr_eltwise_sqrt, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_sqrt_use_dst_for_bwd, op, diff_src, diff_dst,
                     data, n);
        return;
    case tsr_eltwise_linear:
        vec_bwd_loop(tsr_eltwise_linear, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_bounded_relu:
        vec_bwd_loop(tsr_eltwise_bounded_relu, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_soft_relu:
        vec_bwd_loop(tsr_eltwise_soft_relu, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_logsigmoid:
        vec_bwd_loop(tsr_eltwise_logsigmoid, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_mish:
        vec_bwd_loop(tsr_eltwise_mish, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_logistic:
        vec_bwd_loop(tsr_eltwise_logistic, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_logistic_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_logistic_use_dst_for_bwd, op, diff_src,
                     diff_dst, data, n);
        return;
    case tsr_eltwise_exp:
        vec_bwd_loop(tsr_eltwise_exp, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_exp_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_exp_use_dst_for_bwd, op, diff_src, diff_dst,
                     data, n);
        return;
    case tsr_eltwise_gelu_tanh:
        vec_bwd_loop(tsr_eltwise_gelu_tanh, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_gelu_erf:
        vec_bwd_loop(tsr_eltwise_gelu_erf, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_swish:
        vec_bwd_loop(tsr_eltwise_swish, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_log:
        vec_bwd_loop(tsr_eltwise_log, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_clip:
        vec_bwd_loop(tsr_eltwise_clip, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        vec_bwd_loop(tsr_eltwise_clip_v2, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_hardswish:
        vec_bwd_loop(tsr_eltwise_hardswish, op, diff_src, diff_dst, data, n);
        return;
    case tsr_eltwise_hardsigmoid:
        vec_bwd_loop(tsr_eltwise_hardsigmoid, op, diff_src, diff_dst, data, n);
        return;
    default:
        tsr_eltwise_bwd_f32_generic(op, diff_src, diff_dst, data, n);
        return;
    }
}

#endif
