/* The steps of the AVX-512 int8 common store (tsr_epilogue_common_t) on
 * sixteen channels, shared by epilogue_f32_avx512.c and the kernels that
 * fuse that store (dw_conv_f32_avx512.c): the per-channel operands, scales
 * and bias, and the conversion and store into u8, s8, s32 or f32. Include
 * only from files compiled for AVX-512. */
#ifndef TSR_CPU_COMMON_EPILOGUE_COMMON_AVX512_H
#define TSR_CPU_COMMON_EPILOGUE_COMMON_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#include "cpu/common/epilogue_f32.h"

/* Mask with the first `n` (0..16) lanes set. */
static inline __mmask16 tsr_ep_lane_mask16(int64_t n) {
    return (__mmask16)((1u << n) - 1u);
}

static inline __m512 tsr_ep_vec_or(const float *vec, int64_t i, float common,
                                   __mmask16 k) {
    return vec ? _mm512_maskz_loadu_ps(k, vec + i) : _mm512_set1_ps(common);
}

/* The per-channel operands of sixteen columns (those of mask k), loaded
 * once for all rows. */
typedef struct {
    __m512 bias, oscale, wei_scale;
} tsr_ep_cols16_t;

static inline tsr_ep_cols16_t tsr_ep_cols16(const tsr_epilogue_fused_args_t *f,
                                            int64_t j, __mmask16 k) {
    const tsr_ep_cols16_t c = {
            tsr_ep_vec_or(f->bias, j, f->bias_c, k),
            tsr_ep_vec_or(f->oscale, j, f->oscale_c, k),
            tsr_ep_vec_or(f->wei_scale, j, f->wei_scale_c, k)};
    return c;
}

/* Scales and bias in the reference's order (scale_bias_8 of the AVX2
 * form). */
static inline __attribute__((always_inline)) __m512
tsr_ep_scale_bias_16(__m512 src_scale_v, const tsr_ep_cols16_t *c, __m512 v,
                     int legacy, int bias, int src_scale, int wei_scale) {
    if (legacy) {
        if (bias)
            v = _mm512_add_ps(v, c->bias);
        return _mm512_mul_ps(v, c->oscale);
    }
    if (src_scale)
        v = _mm512_mul_ps(v, src_scale_v);
    if (wei_scale)
        v = _mm512_mul_ps(v, c->wei_scale);
    if (bias)
        v = _mm512_add_ps(v, c->bias);
    return v;
}

/* Sixteen values of a u8 or s8 form as int32 (common_to_int of the AVX2
 * form): max(v, 0) is the ReLU, the u8 low clamp and the NaN step at
 * once; s8 values below -128 saturate in the conversions. u8 needs no
 * high clamp: every value at or above 255.5 converts to 256 or more, or
 * to 0x80000000 (too large, +inf), which vpmovusdb saturates to 255 as
 * unsigned, so the bits stay those of the AVX2 form for two fewer uops
 * per row. */
static inline __attribute__((always_inline)) __m512i
tsr_ep_to_int16(__m512 v, int is_u8, int relu0, __m512 hi) {
    if (is_u8 || relu0)
        v = _mm512_max_ps(v, _mm512_setzero_ps());
    else
        v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    if (!is_u8)
        v = _mm512_min_ps(v, hi);
    return _mm512_cvtps_epi32(v);
}

/* Stores sixteen results (the lanes of k; all of them when `full`) at d
 * in dt. f32 ReLU keeps the exact result: v where its sign bit is clear,
 * else 0 * v (see the AVX2 form). */
static inline __attribute__((always_inline)) void
tsr_ep_store16(__m512 v, char *d, int full, __mmask16 k, tsr_data_type_t dt,
               int relu0, __m512 hi) {
    if (dt == tsr_f32) {
        if (relu0)
            v = _mm512_mask_mul_ps(v,
                                   _mm512_movepi32_mask(_mm512_castps_si512(v)),
                                   _mm512_setzero_ps(), v);
        if (full)
            _mm512_storeu_ps(d, v);
        else
            _mm512_mask_storeu_ps(d, k, v);
        return;
    }
    const int is_u8 = dt == tsr_u8;
    /* s32's saturated values too (see tsr_ep_to_int16). */
    const __m512i i = tsr_ep_to_int16(v, is_u8, relu0, hi);
    if (dt == tsr_s32) {
        if (full)
            _mm512_storeu_si512(d, i);
        else
            _mm512_mask_storeu_epi32(d, k, i);
    } else if (full) {
        _mm_storeu_si128((__m128i *)d, is_u8 ? _mm512_cvtusepi32_epi8(i)
                                             : _mm512_cvtsepi32_epi8(i));
    } else if (is_u8) {
        _mm512_mask_cvtusepi32_storeu_epi8(d, k, i);
    } else {
        _mm512_mask_cvtsepi32_storeu_epi8(d, k, i);
    }
}

#endif
