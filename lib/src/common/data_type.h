/* Element conversions with the library's rounding and saturation rules. */
#ifndef TSR_COMMON_DATA_TYPE_H
#define TSR_COMMON_DATA_TYPE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tessera.h"

/* bf16 and f16 as raw bits. f32 -> bf16/f16 rounds to nearest even;
 * NaN stays NaN, overflow of f16 gives infinity. */
uint16_t tsr_f32_to_bf16(float f);
float tsr_bf16_to_f32(uint16_t b);
uint16_t tsr_f32_to_f16(float f);
float tsr_f16_to_f32(uint16_t h);

/* Reads element `idx` of a buffer of type `dt` as f32. */
float tsr_load_f32(tsr_data_type_t dt, const void *base, int64_t idx);

/* Rounds `v` per `mode` (integer destinations only), saturates to the
 * range of `dt` (NaN becomes 0 for integer types) and stores it at
 * element `idx`. Floating destinations take the value as is (f32) or
 * rounded to nearest even (bf16, f16). */
void tsr_store_f32(tsr_data_type_t dt, void *base, int64_t idx, float v,
                   tsr_round_mode_t mode);

/* The f32 value an integer destination of type dt would hold:
 * round + saturate, no store. For floating types returns v unchanged
 * (f32) or as rounded through bf16/f16. */
float tsr_saturate_round(tsr_data_type_t dt, float v, tsr_round_mode_t mode);

/* Lowest and highest values of an integer type as f32 (for s32 the
 * largest floats that convert without overflow). */
float tsr_dt_min_f32(tsr_data_type_t dt);
float tsr_dt_max_f32(tsr_data_type_t dt);

/* Strided bulk conversions (element strides, not bytes): the hot loops of
 * reorders and of anything else that moves data between types. They give
 * exactly what tsr_load_f32 / tsr_store_f32 give element by element. */
void tsr_cvt_to_f32_strided(tsr_data_type_t dt, const void *src,
                            int64_t src_stride, float *dst, int64_t dst_stride,
                            int64_t n);
void tsr_cvt_from_f32_strided(tsr_data_type_t dt, const float *src,
                              int64_t src_stride, void *dst, int64_t dst_stride,
                              int64_t n, tsr_round_mode_t mode);

/* The same over `rows` rows of `cols` contiguous elements, the rows
 * src_ld / dst_ld elements apart: one call for a whole tile of short
 * rows. */
void tsr_cvt_to_f32_2d(tsr_data_type_t dt, const void *src, int64_t src_ld,
                       float *dst, int64_t dst_ld, int64_t rows, int64_t cols);
void tsr_cvt_from_f32_2d(tsr_data_type_t dt, const float *src, int64_t src_ld,
                         void *dst, int64_t dst_ld, int64_t rows, int64_t cols,
                         tsr_round_mode_t mode);

/* AVX2 (+F16C) forms of the two above, giving exactly the same bits. Only
 * called when tsr_mayiuse(avx2). */
void tsr_cvt_to_f32_2d_avx2(tsr_data_type_t dt, const void *src, int64_t src_ld,
                            float *dst, int64_t dst_ld, int64_t rows,
                            int64_t cols);
void tsr_cvt_from_f32_2d_avx2(tsr_data_type_t dt, const float *src,
                              int64_t src_ld, void *dst, int64_t dst_ld,
                              int64_t rows, int64_t cols,
                              tsr_round_mode_t mode);

/* Inline forms of the conversions above, for kernels that convert one
 * element at a time in their inner loops. The out-of-line functions are
 * these same bodies. */

static inline uint32_t tsr_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}
static inline float tsr_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* The conversions below are written with selects instead of branches so
 * that loops over them vectorize. */

static inline uint16_t tsr_f32_to_bf16_inline(float f) {
    const uint32_t u = tsr_f32_bits(f);
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (u >> 16) | 0x40u; /* NaN stays NaN */
    return (uint16_t)((u & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
}

static inline float tsr_bf16_to_f32_inline(uint16_t b) {
    return tsr_bits_f32((uint32_t)b << 16);
}

static inline uint16_t tsr_f32_to_f16_inline(float f) {
    const uint32_t u = tsr_f32_bits(f);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    /* Normal half: rebias the exponent (127 -> 15) and round the 13
     * dropped bits to nearest even. */
    const uint32_t normal = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
    /* Subnormal half: adding 0.5 leaves the value in units of 2^-24 in the
     * low mantissa bits, rounded to nearest even by the FPU. */
    const uint32_t subnormal =
            tsr_f32_bits(tsr_bits_f32(a) + 0.5f) - 0x3f000000u;
    /* Infinity, or NaN kept NaN (quiet). */
    const uint32_t special =
            0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u);
    uint32_t r = a < 0x38800000u ? subnormal : normal;
    r = a >= 0x477ff000u ? 0x7c00u : r; /* 65520 and up: infinity */
    r = a >= 0x7f800000u ? special : r;
    return (uint16_t)(sign | r);
}

static inline float tsr_f16_to_f32_inline(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    const uint32_t normal = sign | ((exp + 112u) << 23) | (mant << 13);
    /* Infinity, or NaN made quiet (as the F16C instructions do). */
    const uint32_t special =
            sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u);
    const uint32_t subnormal = sign | tsr_f32_bits((float)mant * 0x1p-24f);
    uint32_t r = exp == 0x1fu ? special : normal;
    r = exp == 0u ? subnormal : r;
    return tsr_bits_f32(r);
}

/* Nearest integer, ties to even, exact for every float. Assumes the FPU's
 * default rounding mode (to nearest), which the library never changes. */
static inline float tsr_round_nearest_even(float v) {
    const float magnitude = fabsf(v);
    /* Adding 2^23 drops the fraction; from 2^23 up (and for inf, NaN) v is
     * already integral. */
    const float rounded = copysignf((magnitude + 8388608.f) - 8388608.f, v);
    return magnitude < 8388608.f ? rounded : v;
}

static inline float tsr_round_down_f32(float v) {
    const float nearest = tsr_round_nearest_even(v);
    return nearest > v ? nearest - 1.f : nearest;
}

static inline float tsr_round_f32(float v, tsr_round_mode_t mode) {
    return mode == tsr_round_down ? tsr_round_down_f32(v)
                                  : tsr_round_nearest_even(v);
}

/* Nearest integer, ties to even, for |v| < 2^22; beyond that a value just
 * as far outside the s8 / u8 ranges, so that clamping to one of those
 * afterwards gives exactly what tsr_round_nearest_even would. Being
 * select-free, loops over it vectorize. */
static inline float tsr_round_nearest_even_small(float v) {
    return (v + 12582912.f) - 12582912.f; /* 1.5 * 2^23 */
}

/* Clamped to [lo, hi] (integer bounds), NaN made 0. Applied after the
 * rounding: with integer bounds the order does not change the result, and
 * this order is the one loops vectorize. */
static inline float tsr_int_clamp(float v, float lo, float hi) {
    v = v != v ? 0.f : v;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

/* Rounded and clamped value for an integer type (NaN gives 0). */
static inline float tsr_int_saturate_round(float v, float lo, float hi,
                                           tsr_round_mode_t mode) {
    return tsr_int_clamp(tsr_round_f32(v, mode), lo, hi);
}

static inline float tsr_load_f32_inline(tsr_data_type_t dt, const void *base,
                                        int64_t idx) {
    switch (dt) {
    case tsr_f32:
        return ((const float *)base)[idx];
    case tsr_bf16:
        return tsr_bf16_to_f32_inline(((const uint16_t *)base)[idx]);
    case tsr_f16:
        return tsr_f16_to_f32_inline(((const uint16_t *)base)[idx]);
    case tsr_s32:
        return (float)((const int32_t *)base)[idx];
    case tsr_s8:
        return (float)((const int8_t *)base)[idx];
    case tsr_u8:
        return (float)((const uint8_t *)base)[idx];
    default:
        return 0.f;
    }
}

/* 2147483520 is the largest float below 2^31. */
#define TSR_S32_MAX_F32 2147483520.f

static inline void tsr_store_f32_inline(tsr_data_type_t dt, void *base,
                                        int64_t idx, float v,
                                        tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_f32:
        ((float *)base)[idx] = v;
        break;
    case tsr_bf16:
        ((uint16_t *)base)[idx] = tsr_f32_to_bf16_inline(v);
        break;
    case tsr_f16:
        ((uint16_t *)base)[idx] = tsr_f32_to_f16_inline(v);
        break;
    case tsr_s32:
        ((int32_t *)base)[idx] = (int32_t)tsr_int_saturate_round(
                v, -2147483648.f, TSR_S32_MAX_F32, mode);
        break;
    case tsr_s8:
        ((int8_t *)base)[idx] =
                (int8_t)tsr_int_saturate_round(v, -128.f, 127.f, mode);
        break;
    case tsr_u8:
        ((uint8_t *)base)[idx] =
                (uint8_t)tsr_int_saturate_round(v, 0.f, 255.f, mode);
        break;
    default:
        break;
    }
}

#endif
