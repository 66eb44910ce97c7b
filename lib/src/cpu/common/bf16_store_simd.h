/* f32 -> bf16 on vectors, bit for bit tsr_f32_to_bf16_inline (the scalar
 * one, common/data_type.h): round to nearest even on the dropped 16 bits,
 * NaN kept NaN (made quiet). For the ISA files only (*_avx2.c,
 * *_avx512.c): each part is there when its ISA is enabled. */
#ifndef TSR_CPU_COMMON_BF16_STORE_SIMD_H
#define TSR_CPU_COMMON_BF16_STORE_SIMD_H

#include <immintrin.h>
#include <stdint.h>

#if defined(__AVX512F__) && defined(__AVX512BW__)
/* The bf16 bits of each lane, in the low half of its 32 bits. */
static inline __m512i tsr_bf16_bits_avx512(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i high = _mm512_srli_epi32(u, 16);
    const __m512i bias =
            _mm512_add_epi32(_mm512_set1_epi32(0x7fff),
                             _mm512_and_si512(high, _mm512_set1_epi32(1)));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(u, bias), 16);
    const __m512i quiet_nan = _mm512_or_si512(high, _mm512_set1_epi32(0x40));
    const __mmask16 is_nan = _mm512_cmpgt_epu32_mask(
            _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
            _mm512_set1_epi32(0x7f800000));
    return _mm512_mask_blend_epi32(is_nan, rounded, quiet_nan);
}

/* 16 bf16 values. */
static inline __m256i tsr_bf16_from_f32_avx512(__m512 v) {
    return _mm512_cvtepi32_epi16(tsr_bf16_bits_avx512(v));
}

static inline void tsr_bf16_store_avx512(uint16_t *p, __m512 v) {
    _mm256_storeu_si256((__m256i *)p, tsr_bf16_from_f32_avx512(v));
}
#endif

#if defined(__AVX2__)
static inline __m256i tsr_bf16_bits_avx2(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i high = _mm256_srli_epi32(u, 16);
    const __m256i bias =
            _mm256_add_epi32(_mm256_set1_epi32(0x7fff),
                             _mm256_and_si256(high, _mm256_set1_epi32(1)));
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(u, bias), 16);
    const __m256i quiet_nan = _mm256_or_si256(high, _mm256_set1_epi32(0x40));
    const __m256i is_nan = _mm256_cmpgt_epi32(
            _mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
            _mm256_set1_epi32(0x7f800000));
    return _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
}

/* 8 bf16 values. */
static inline __m128i tsr_bf16_from_f32_avx2(__m256 v) {
    const __m256i bits = tsr_bf16_bits_avx2(v);
    /* Packing works per 128-bit half: the two useful quarters are 0, 2. */
    const __m256i packed =
            _mm256_permute4x64_epi64(_mm256_packus_epi32(bits, bits), 0x08);
    return _mm256_castsi256_si128(packed);
}

static inline void tsr_bf16_store_avx2(uint16_t *p, __m256 v) {
    _mm_storeu_si128((__m128i *)p, tsr_bf16_from_f32_avx2(v));
}
#endif

#endif
