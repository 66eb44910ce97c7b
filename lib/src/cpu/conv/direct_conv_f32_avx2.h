/* What the AVX2 tiles of "direct:f32" share: loading and storing a tile's
 * ur x nv accumulators and the FMA step of one input channel (contract in
 * direct_conv_f32.h). Only for files built with AVX2. */
#ifndef TSR_CPU_CONV_DIRECT_CONV_F32_AVX2_H
#define TSR_CPU_CONV_DIRECT_CONV_F32_AVX2_H

#include <immintrin.h>

#include "cpu/conv/direct_conv_f32.h"

#define DIRECT_ALWAYS_INLINE static inline __attribute__((always_inline))

/* Tile accumulators at `accp` (pixel 0, vector 0): zeros or the partial
 * sums of an earlier pass. */
DIRECT_ALWAYS_INLINE void
direct_acc_load_avx2(__m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                     const direct_tile_t *t, const float *accp, const int ur,
                     const int nv) {
#pragma GCC unroll 8
    for (int p = 0; p < ur; p++) {
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++)
            acc[p][v] = t->zero ? _mm256_setzero_ps()
                                : _mm256_loadu_ps(accp + v * t->acc_vec +
                                                  p * t->acc_pix);
    }
}

/* acc[p][v] += *px[p] * wv[v][0..7] for one input channel. With no more
 * pixels than vectors the ur broadcasts are kept in registers and each
 * weights vector is loaded once; otherwise the nv weights vectors are kept
 * and each broadcast is used once: either way ur + nv loads for ur * nv
 * FMAs, at most 16 registers. */
DIRECT_ALWAYS_INLINE void
direct_fma_step_avx2(__m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                     const float *const *px, const float *const *wv,
                     const int ur, const int nv) {
    if (ur <= nv) {
        __m256 b[DIRECT_MAX_UR];
#pragma GCC unroll 8
        for (int p = 0; p < ur; p++)
            b[p] = _mm256_broadcast_ss(px[p]);
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++) {
            const __m256 wr = _mm256_loadu_ps(wv[v]);
#pragma GCC unroll 8
            for (int p = 0; p < ur; p++)
                acc[p][v] = _mm256_fmadd_ps(b[p], wr, acc[p][v]);
        }
    } else {
        __m256 wr[DIRECT_MAX_NV];
#pragma GCC unroll 4
        for (int v = 0; v < nv; v++)
            wr[v] = _mm256_loadu_ps(wv[v]);
#pragma GCC unroll 8
        for (int p = 0; p < ur; p++) {
            const __m256 b = _mm256_broadcast_ss(px[p]);
#pragma GCC unroll 4
            for (int v = 0; v < nv; v++)
                acc[p][v] = _mm256_fmadd_ps(b, wr[v], acc[p][v]);
        }
    }
}

/* Stores the tile, adding the bias first when the tile has one. */
DIRECT_ALWAYS_INLINE void
direct_acc_store_avx2(__m256 acc[DIRECT_MAX_UR][DIRECT_MAX_NV],
                      const direct_tile_t *t, float *accp, const int ur,
                      const int nv) {
#pragma GCC unroll 4
    for (int v = 0; v < nv; v++) {
        const __m256 b = t->bias ? _mm256_loadu_ps(t->bias + v * DIRECT_VLEN)
                                 : _mm256_setzero_ps();
#pragma GCC unroll 8
        for (int p = 0; p < ur; p++)
            _mm256_storeu_ps(accp + v * t->acc_vec + p * t->acc_pix,
                             t->bias ? _mm256_add_ps(acc[p][v], b) : acc[p][v]);
    }
}

#endif
