/* The 8x8 register transposes of 4-byte elements shared by the AVX2
 * reorders, packings and gathers: floats, and 32-bit integers (s8 GEMM
 * packing: pairs and quads of bytes). Include only from files compiled for
 * AVX2. */
#ifndef TSR_CPU_COMMON_TRANSPOSE_AVX2_H
#define TSR_CPU_COMMON_TRANSPOSE_AVX2_H

#include <immintrin.h>

/* In place: r[k] holds row k of an 8x8 block; afterwards column k. */
static inline void tsr_transpose_8x8_ps(__m256 r[8]) {
    __m256 t[8], s[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) {
        const __m256 *u = t + 4 * h;
        s[4 * h + 0] = _mm256_shuffle_ps(u[0], u[2], 0x44);
        s[4 * h + 1] = _mm256_shuffle_ps(u[0], u[2], 0xEE);
        s[4 * h + 2] = _mm256_shuffle_ps(u[1], u[3], 0x44);
        s[4 * h + 3] = _mm256_shuffle_ps(u[1], u[3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2f128_ps(s[i], s[4 + i], 0x20);
        r[4 + i] = _mm256_permute2f128_ps(s[i], s[4 + i], 0x31);
    }
}

/* The same of 32-bit integers: the float shuffles only move bits. */
static inline void tsr_transpose_8x8_epi32(__m256i r[8]) {
    __m256 f[8];
    for (int i = 0; i < 8; ++i)
        f[i] = _mm256_castsi256_ps(r[i]);
    tsr_transpose_8x8_ps(f);
    for (int i = 0; i < 8; ++i)
        r[i] = _mm256_castps_si256(f[i]);
}

#endif
