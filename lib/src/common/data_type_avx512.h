/* Inline AVX-512 conversions of sixteen elements between f32 and the other
 * data types, bit for bit the scalar ones of data_type.h (see
 * data_type_avx2.c for how each matches), and moves of their raw bits.
 * Only for files built with AVX-512. */
#ifndef TSR_COMMON_DATA_TYPE_AVX512_H
#define TSR_COMMON_DATA_TYPE_AVX512_H

#include <immintrin.h>
#include <stddef.h>

#include "data_type.h"

/* The raw bits of the elements of 1, 2 or 4 bytes at `src` flagged in `m`,
 * zero-extended to 32-bit lanes; the others 0. */
static inline __m512i tsr_load_16_bits_avx512(size_t esize, const void *src,
                                              __mmask16 m) {
    switch (esize) {
    case 1:
        return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, src));
    case 2:
        return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, src));
    default:
        return _mm512_maskz_loadu_epi32(m, src);
    }
}

/* The low 1, 2 or 4 bytes of sixteen 32-bit lanes, stored. */
static inline void tsr_store_16_bits_avx512(size_t esize, __m512i v,
                                            void *dst) {
    switch (esize) {
    case 1:
        _mm_storeu_si128(dst, _mm512_cvtepi32_epi8(v));
        break;
    case 2:
        _mm256_storeu_si256(dst, _mm512_cvtepi32_epi16(v));
        break;
    default:
        _mm512_storeu_si512(dst, v);
        break;
    }
}

/* The elements of `dt` at `src` flagged in `m` as f32; the others 0. */
static inline __m512 tsr_load_16_as_f32_avx512(tsr_data_type_t dt,
                                               const void *src, __mmask16 m) {
    switch (dt) {
    case tsr_s8:
        return _mm512_cvtepi32_ps(
                _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, src)));
    case tsr_u8:
        return _mm512_cvtepi32_ps(tsr_load_16_bits_avx512(1, src, m));
    case tsr_s32:
        return _mm512_cvtepi32_ps(tsr_load_16_bits_avx512(4, src, m));
    case tsr_bf16:
        return _mm512_castsi512_ps(
                _mm512_slli_epi32(tsr_load_16_bits_avx512(2, src, m), 16));
    case tsr_f16:
        return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, src));
    default:
        return _mm512_maskz_loadu_ps(m, src);
    }
}

/* Sixteen floats rounded per `mode` and clamped to [lo, hi], NaN made 0,
 * as int32: tsr_int_saturate_round. */
static inline __m512i tsr_round_clamp_16_avx512(__m512 v, __m512 lo, __m512 hi,
                                                tsr_round_mode_t mode) {
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    if (mode == tsr_round_down)
        v = _mm512_roundscale_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
    return _mm512_cvtps_epi32(v);
}

/* Sixteen floats to bf16, nearest even, NaN kept quiet. */
static inline __m256i tsr_f32_to_bf16_16_avx512(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i high = _mm512_srli_epi32(u, 16);
    const __m512i odd = _mm512_and_si512(high, _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_srli_epi32(
            _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)),
                             odd),
            16);
    const __m512i nan = _mm512_or_si512(high, _mm512_set1_epi32(0x40));
    const __mmask16 is_nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(is_nan, rounded, nan));
}

/* Sixteen floats stored as `dt` (all sixteen; the integers rounded and
 * saturated). */
static inline void tsr_store_16_f32_as_avx512(tsr_data_type_t dt, __m512 v,
                                              void *dst,
                                              tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_s8:
        _mm_storeu_si128(dst, _mm512_cvtsepi32_epi8(tsr_round_clamp_16_avx512(
                                      v, _mm512_set1_ps(-128.f),
                                      _mm512_set1_ps(127.f), mode)));
        break;
    case tsr_u8:
        _mm_storeu_si128(dst, _mm512_cvtusepi32_epi8(tsr_round_clamp_16_avx512(
                                      v, _mm512_setzero_ps(),
                                      _mm512_set1_ps(255.f), mode)));
        break;
    case tsr_s32:
        tsr_store_16_bits_avx512(4,
                                 tsr_round_clamp_16_avx512(
                                         v, _mm512_set1_ps(-2147483648.f),
                                         _mm512_set1_ps(TSR_S32_MAX_F32), mode),
                                 dst);
        break;
    case tsr_bf16:
        _mm256_storeu_si256(dst, tsr_f32_to_bf16_16_avx512(v));
        break;
    case tsr_f16:
        _mm256_storeu_si256(dst, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT |
                                                            _MM_FROUND_NO_EXC));
        break;
    default:
        _mm512_storeu_ps(dst, v);
        break;
    }
}

#endif
