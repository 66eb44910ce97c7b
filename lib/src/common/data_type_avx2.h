/* Inline AVX2 conversions of eight elements between f32 and the other
 * data types, shared by the bulk conversions and by kernels that convert
 * in registers at their load or store. Only for files built with AVX2. */
#ifndef TSR_COMMON_DATA_TYPE_AVX2_H
#define TSR_COMMON_DATA_TYPE_AVX2_H

#include <immintrin.h>

#include "data_type.h"

/* Eight floats rounded per `mode` and clamped to [lo, hi], NaN made 0, as
 * int32: bit for bit tsr_int_saturate_round. */
static inline __m256i tsr_round_clamp_8_avx2(__m256 v, __m256 lo, __m256 hi,
                                             tsr_round_mode_t mode) {
    v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
    if (mode == tsr_round_down)
        v = _mm256_floor_ps(v);
    v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
    return _mm256_cvtps_epi32(v);
}

/* Eight floats to bf16: round to nearest even, NaN kept NaN (made quiet),
 * bit for bit tsr_f32_to_bf16_inline. */
static inline __m128i tsr_f32_to_bf16_8_avx2(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i high = _mm256_srli_epi32(u, 16);
    const __m256i odd = _mm256_and_si256(high, _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_srli_epi32(
            _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)),
                             odd),
            16);
    const __m256i nan = _mm256_or_si256(high, _mm256_set1_epi32(0x40));
    const __m256i is_nan =
            _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    const __m256i halves = _mm256_blendv_epi8(rounded, nan, is_nan);
    return _mm_packus_epi32(_mm256_castsi256_si128(halves),
                            _mm256_extracti128_si256(halves, 1));
}

/* Eight in-range int32 to eight bytes (signed or unsigned saturation). */
static inline __m128i tsr_pack_8_bytes_avx2(__m256i v, int is_signed) {
    const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v),
                                          _mm256_extracti128_si256(v, 1));
    return is_signed ? _mm_packs_epi16(words, words)
                     : _mm_packus_epi16(words, words);
}

/* Eight floats stored as f32, s32, s8 or u8 (the integers rounded and
 * saturated; lo and hi from tsr_dt_min_f32 / tsr_dt_max_f32 of dt). */
static inline void tsr_store_8_f32_as_avx2(tsr_data_type_t dt, __m256 v,
                                           void *dst, __m256 lo, __m256 hi,
                                           tsr_round_mode_t mode) {
    if (dt == tsr_f32) {
        _mm256_storeu_ps(dst, v);
        return;
    }
    const __m256i i = tsr_round_clamp_8_avx2(v, lo, hi, mode);
    if (dt == tsr_s32)
        _mm256_storeu_si256((__m256i *)dst, i);
    else
        _mm_storel_epi64((__m128i *)dst,
                         tsr_pack_8_bytes_avx2(i, dt == tsr_s8));
}

/* Eight elements of `dt` at `src` as f32. */
static inline __m256 tsr_load_8_as_f32_avx2(tsr_data_type_t dt,
                                            const void *src) {
    switch (dt) {
    case tsr_s8:
        return _mm256_cvtepi32_ps(
                _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)src)));
    case tsr_u8:
        return _mm256_cvtepi32_ps(
                _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)src)));
    case tsr_s32:
        return _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)src));
    case tsr_bf16:
        return _mm256_castsi256_ps(_mm256_slli_epi32(
                _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)src)),
                16));
    case tsr_f16:
        return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)src));
    default:
        return _mm256_loadu_ps(src);
    }
}

#endif
