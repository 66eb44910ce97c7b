/* How each tensor of a convolution problem is filled, and how closely dst
 * must match the reference (data types: common/dt_cfg.c).
 *
 * Fill rule: every input is a small integer, so every product and partial
 * sum the library and the reference form is an integer below 2^24 and
 * therefore exact in f32 whatever the summation order. The ranges shrink
 * when the reduction length K = IC/G * KD * KH * KW would break that bound.
 * For s8/u8 destinations the weights get sparser as K grows (about 24
 * non-zero terms per output point) so that most results land inside the
 * destination range instead of saturating.
 *
 * Comparison rule (per dst data type):
 *  - exact (threshold 0) for f32, s32, s8 and u8 destinations when every
 *    operation before the final rounding is exact: integer data, scales and
 *    post-op parameters that are dyadic (multiples of 2^-8), and post-ops
 *    from the exact set (relu, linear, bounded_relu, clip, clip_v2, abs,
 *    square, round, hardsigmoid, hardswish, sum, and binary ops on such
 *    values, division only by the powers of two the harness feeds it);
 *  - bf16 and f16 destinations: the reference is rounded to the dst type
 *    (round to nearest even, or down per --attr-round-mode) before the
 *    comparison, so the same rule gives exact comparisons;
 *  - otherwise (transcendental eltwise post-ops such as tanh, exp, gelu,
 *    which the library and the harness compute differently, or non-dyadic
 *    parameters): a relative error of 2e-5 (1e-4 absolute) for f32, one
 *    unit in the last place for bf16 (2^-7) and f16 (2^-10), relative or
 *    absolute (approximations are accurate in absolute terms near zero),
 *    and one rounding step (absolute 1) for integer destinations.
 * NaN and infinity compare equal only to themselves (same sign). */
#define _POSIX_C_SOURCE 200809L /* strncasecmp */

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "conv/conv.h"

/* ------------------------------------------------------------------------ */
/* Quantization parameters */

static const char *const qarg_names[QARG_COUNT] = {"src", "wei", "dst"};

static int q_entry_init(const conv_prb_t *p, bench_qarg_t arg, int set,
                        bench_policy_t policy, int allowed_bits,
                        const char *what, conv_q_entry_t *e, char *reason,
                        size_t reason_len) {
    int64_t dims[TSR_MAX_NDIMS];
    int ndims = arg == QARG_SRC   ? conv_src_dims(p, dims)
                : arg == QARG_WEI ? conv_wei_dims(p, dims)
                                  : conv_dst_dims(p, dims);
    e->set = set;
    e->mask = 0;
    e->count = 1;
    if (!set)
        return 0;
    /* Same call as attr_create_tsr makes, so both sides agree. */
    e->mask = attr_policy_mask(policy, arg, p->desc.ndims, conv_wei_oc_mask(p),
                               0);
    e->count = attr_mask_count(e->mask, ndims, dims);
    if (e->mask & ~allowed_bits) {
        snprintf(reason, reason_len,
                 "%s %s with policy %s: the reference does not support it",
                 qarg_names[arg], what, policy2str(policy));
        return -1;
    }
    return 0;
}

int conv_quant_init(const conv_prb_t *p, conv_quant_t *q, char *reason,
                    size_t reason_len) {
    const bench_attr_t *a = &p->attr;
    /* Data tensors: minibatch and channel bits; weights: the output
     * channel bits (group and channel within the group). */
    const int data_bits = 0x3, wei_bits = conv_wei_oc_mask(p);
    const int scale_bits[QARG_COUNT] = {0, wei_bits, data_bits};
    const int zp_bits[QARG_COUNT] = {data_bits, wei_bits, data_bits};
    memset(q, 0, sizeof(*q));
    if (q_entry_init(p, QARG_DST, a->oscale.set, a->oscale.policy, data_bits,
                     "output scales", &q->oscale, reason, reason_len) != 0)
        return -1;
    for (int i = 0; i < QARG_COUNT; i++) {
        if (q_entry_init(p, (bench_qarg_t)i, a->scales[i].set,
                         a->scales[i].policy, scale_bits[i], "scales",
                         &q->scales[i], reason, reason_len) != 0 ||
            q_entry_init(p, (bench_qarg_t)i, a->zero_points[i].set,
                         a->zero_points[i].policy, zp_bits[i], "zero points",
                         &q->zero_points[i], reason, reason_len) != 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Fill */

/* Non-zero terms per output point aimed at for 8-bit destinations. */
#define INT8_DST_TERMS 24.0
/* Largest integer every f32 operation represents exactly. */
#define F32_EXACT_LIMIT 16777216.0

/* Every sum the fill allows stays below this, and so does a dst or sum
 * zero point: the two together stay below F32_EXACT_LIMIT. */
#define EXACT_SUM_LIMIT (F32_EXACT_LIMIT / 2)

/* In int64: the largest value of a per-channel zero point is one more
 * than its base (attr_zp_value), and -INT32_MIN does not fit an int. */
static int64_t max_abs_zero_point(const bench_zp_t *zp) {
    if (!zp->set)
        return 0;
    const int64_t v = zp->value < 0 ? -(int64_t)zp->value : zp->value;
    return zp->policy == POLICY_COMMON ? v : v + 1;
}

/* Base range of a data type as an input: small integers it can hold. */
static void input_range(tsr_data_type_t dt, int magnitude, int *lo, int *hi) {
    if (dt == tsr_u8) {
        *lo = 0;
        *hi = 2 * magnitude;
    } else {
        *lo = -magnitude;
        *hi = magnitude;
    }
}

/* The largest |sum| of the reduction with inputs of magnitudes src_mag
 * and wei_mag, zero points subtracted. */
static double max_abs_sum(const conv_prb_t *p, int src_mag, int wei_mag) {
    const bench_zp_t *zps = p->attr.zero_points;
    int src_lo, src_hi;
    input_range(p->cfg.src, src_mag, &src_lo, &src_hi);
    const double src_max =
            (double)src_hi + (double)max_abs_zero_point(&zps[QARG_SRC]);
    const double wei_max =
            (double)wei_mag + (double)max_abs_zero_point(&zps[QARG_WEI]);
    return src_max * wei_max * (double)conv_reduction_len(p);
}

int conv_zero_points_checkable(const conv_prb_t *p, char *reason,
                               size_t reason_len) {
    const bench_attr_t *a = &p->attr;
    const bench_zp_t *zps = a->zero_points;
    if ((zps[QARG_SRC].set || zps[QARG_WEI].set) &&
        max_abs_sum(p, 1, 1) >= EXACT_SUM_LIMIT) {
        char named[64] = "";
        size_t used = 0;
        for (int q = QARG_SRC; q <= QARG_WEI; q++)
            if (zps[q].set && used < sizeof(named))
                used += (size_t)snprintf(named + used, sizeof(named) - used,
                                         "%s%s:%d", used ? " " : "",
                                         qarg_names[q], (int)zps[q].value);
        snprintf(reason, reason_len,
                 "zero point %s too large to check: sums over the reduction "
                 "length %lld reach 2^23, beyond exact f32",
                 named, (long long)conv_reduction_len(p));
        return 0;
    }
    if ((double)max_abs_zero_point(&zps[QARG_DST]) > EXACT_SUM_LIMIT) {
        snprintf(reason, reason_len,
                 "zero point dst:%lld too large to check: beyond 2^23, "
                 "results are no longer exact in f32",
                 (long long)zps[QARG_DST].value);
        return 0;
    }
    for (int i = 0; i < a->n_post_ops; i++) {
        const bench_post_op_t *po = &a->post_ops[i];
        const int64_t zp = po->zero_point;
        if (po->kind == tsr_post_op_sum &&
            (double)(zp < 0 ? -zp : zp) > EXACT_SUM_LIMIT) {
            snprintf(reason, reason_len,
                     "sum post-op zero point %lld too large to check: "
                     "beyond 2^23, results are no longer exact in f32",
                     (long long)zp);
            return 0;
        }
    }
    return 1;
}

void conv_fill_cfg(const conv_prb_t *p, conv_data_kind_t kind,
                   conv_fill_t *fill) {
    const int64_t k = conv_reduction_len(p);
    int src_mag = 6, wei_mag = 4;
    /* Shrink until the largest possible sum stays exact in f32. */
    while (max_abs_sum(p, src_mag, wei_mag) >= EXACT_SUM_LIMIT &&
           (src_mag > 1 || wei_mag > 1)) {
        if (src_mag >= wei_mag)
            src_mag = src_mag > 1 ? src_mag / 2 : 1;
        else
            wei_mag = wei_mag > 1 ? wei_mag / 2 : 1;
    }
    fill->density = 1.0;
    switch (kind) {
    case CONV_DATA_SRC:
        input_range(p->cfg.src, src_mag, &fill->lo, &fill->hi);
        fill->seed = 0x5eed0001;
        break;
    case CONV_DATA_WEI:
        input_range(p->cfg.wei, wei_mag, &fill->lo, &fill->hi);
        if ((p->cfg.dst == tsr_s8 || p->cfg.dst == tsr_u8) &&
            (double)k > INT8_DST_TERMS)
            fill->density = INT8_DST_TERMS / (double)k;
        fill->seed = 0x5eed0002;
        break;
    case CONV_DATA_BIA:
        input_range(p->bia.dt, 8, &fill->lo, &fill->hi);
        fill->seed = 0x5eed0003;
        break;
    case CONV_DATA_DST: {
        /* The sum post-op may read dst as another type of the same size:
         * values both types hold keep the two readings equal. */
        int unsigned_read = p->cfg.dst == tsr_u8;
        for (int i = 0; i < p->attr.n_post_ops; i++)
            if (p->attr.post_ops[i].kind == tsr_post_op_sum &&
                p->attr.post_ops[i].dt == tsr_u8)
                unsigned_read = 1;
        input_range(unsigned_read ? tsr_u8 : tsr_s8, 4, &fill->lo, &fill->hi);
        fill->seed = 0x5eed0004;
        break;
    }
    }
}

void conv_fill_binary_src1(tsr_alg_kind_t alg, tsr_data_type_t dt,
                           int post_op_index, float *buf, int64_t n) {
    const uint64_t seed = 0x5eed0100 + (uint64_t)post_op_index;
    if (alg != tsr_binary_div) {
        int lo, hi;
        input_range(dt, 4, &lo, &hi);
        fill_int_values(buf, n, lo, hi, 1.0, seed);
        return;
    }
    /* Divisors: non-zero powers of two keep the quotient exact. */
    fill_int_values(buf, n, dt == tsr_u8 ? 0 : -3, 3, 1.0, seed);
    for (int64_t i = 0; i < n; i++) {
        float v = buf[i];
        float mag = v == 0 ? 1.f : ldexpf(1.f, (int)fabsf(v) - 1);
        buf[i] = dt == tsr_u8 ? ldexpf(1.f, (int)v) : (v < 0 ? -mag : mag);
    }
}

/* ------------------------------------------------------------------------ */
/* Compare */

/* A multiple of 2^-8 of moderate size: products with small integers stay
 * exact in f32. */
static int is_dyadic(float v) {
    float scaled = v * 256.f;
    return fabsf(v) <= 65536.f && scaled == truncf(scaled);
}

static int eltwise_is_exact(tsr_alg_kind_t alg) {
    switch (alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_linear:
    case tsr_eltwise_bounded_relu:
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_abs:
    case tsr_eltwise_square:
    case tsr_eltwise_round:
    case tsr_eltwise_hardsigmoid:
    case tsr_eltwise_hardswish:
        return 1;
    default:
        return 0;
    }
}

static int scale_is_exact(const bench_scale_t *s) {
    return !s->set || is_dyadic(s->scale);
}

/* 1 when every operation before the final rounding is exact in f32. */
static int prb_is_exact(const conv_prb_t *p) {
    const bench_attr_t *a = &p->attr;
    if (!scale_is_exact(&a->oscale))
        return 0;
    for (int i = 0; i < QARG_COUNT; i++)
        if (!scale_is_exact(&a->scales[i]))
            return 0;
    for (int i = 0; i < a->n_post_ops; i++) {
        const bench_post_op_t *po = &a->post_ops[i];
        if (po->kind == tsr_post_op_sum && !is_dyadic(po->scale))
            return 0;
        if (po->kind == tsr_post_op_eltwise &&
            (!eltwise_is_exact(po->alg) || !is_dyadic(po->alpha) ||
             !is_dyadic(po->beta) || !is_dyadic(po->scale)))
            return 0;
    }
    return 1;
}

void conv_compare_cfg(const conv_prb_t *p, compare_cfg_t *cmp) {
    memset(cmp, 0, sizeof(*cmp));
    cmp->dt = p->cfg.dst;
    if (prb_is_exact(p))
        return;
    switch (p->cfg.dst) {
    case tsr_f32:
        cmp->threshold = 2e-5f;
        cmp->abs_threshold = 1e-4f;
        break;
    /* Approximations are accurate in absolute terms near 0, where one
     * unit in the last place of the result is tiny. */
    case tsr_bf16:
        cmp->threshold = cmp->abs_threshold = 1.f / 128;
        break;
    case tsr_f16:
        cmp->threshold = cmp->abs_threshold = 1.f / 1024;
        break;
    default:
        cmp->abs_threshold = 1.f;
        break;
    }
}
