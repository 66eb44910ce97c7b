/* The pieces of the AVX-512 6x64 f32 micro-kernels (rows in place,
 * gemm_f32_ukr_6x64_avx512.c, and by taps, gemm_f32_ukr_6x64_taps_avx512.c):
 * 6 rows x two 32-column B panels in 24 zmm accumulators. The including
 * file defines, before using them:
 *   TSR_A6(i)   the address of row i's A value at K step p
 *   TSR_C6(i)   the address of row i of the C tile
 * and has alpha, beta, n (32 < n <= 64), bias_row, bias_col and `tile_rows`
 * (the tile's rows, 1..6, a constant where the kernel is compiled) in
 * scope: rows past it are neither read nor stored.
 * Each element's sum runs over K in order, one FMA at a time, and is
 * stored through the 6x32 kernel's row update. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_F32_UKR_6X64_BODY_H
#define TSR_CPU_GEMM_UKR_GEMM_F32_UKR_6X64_BODY_H

#include <immintrin.h>

#include "cpu/gemm/ukr/gemm_f32_store_avx512.h"

#define TSR_6X64_NR 32 /* one panel */

/* The rows' accumulators, in one list so every use names all of them. */
#define TSR_ROWS6(X)                                                           \
    X(0, c00, c01, c02, c03)                                                   \
    X(1, c10, c11, c12, c13)                                                   \
    X(2, c20, c21, c22, c23)                                                   \
    X(3, c30, c31, c32, c33)                                                   \
    X(4, c40, c41, c42, c43)                                                   \
    X(5, c50, c51, c52, c53)

#define TSR_ZERO6(i, a0, a1, a2, a3)                                           \
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(),                 \
           a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
#define TSR_FMA6(i, a0, a1, a2, a3)                                            \
    if (tile_rows > (i)) {                                                     \
        const __m512 av = _mm512_set1_ps(*TSR_A6(i));                          \
        a0 = _mm512_fmadd_ps(av, b0, a0);                                      \
        a1 = _mm512_fmadd_ps(av, b1, a1);                                      \
        a2 = _mm512_fmadd_ps(av, b2, a2);                                      \
        a3 = _mm512_fmadd_ps(av, b3, a3);                                      \
    }
/* Starts fetching the n columns (at most 64) of a row of C. */
static inline __attribute__((always_inline)) void fetch_c_row(const float *row,
                                                              int64_t n) {
    for (int64_t j = 0; j < n; j += 16)
        _mm_prefetch((const char *)(row + j), _MM_HINT_T0);
}
#define TSR_PREFETCH_C6(i, a0, a1, a2, a3)                                     \
    if (tile_rows > (i))                                                       \
        fetch_c_row(TSR_C6(i), n);
#define TSR_STORE6(i, a0, a1, a2, a3)                                          \
    if (tile_rows > (i)) {                                                     \
        update_row(&t0, TSR_C6(i), i, a0, a1);                                 \
        update_row(&t1, TSR_C6(i) + TSR_6X64_NR, i, a2, a3);                   \
    }

/* One K step: the panels' values at b and b_hi times the rows' at p. */
#define TSR_6X64_STEP(b, b_hi)                                                 \
    do {                                                                       \
        const __m512 b0 = _mm512_loadu_ps(b);                                  \
        const __m512 b1 = _mm512_loadu_ps((b) + 16);                           \
        const __m512 b2 = _mm512_loadu_ps(b_hi);                               \
        const __m512 b3 = _mm512_loadu_ps((b_hi) + 16);                        \
        TSR_ROWS6(TSR_FMA6)                                                    \
    } while (0)

/* alpha * acc + beta * C [+ bias] into the tile_rows x n tile. */
#define TSR_6X64_STORE()                                                       \
    do {                                                                       \
        const tile_store_t t0 =                                                \
                tile_store_init(alpha, beta, TSR_6X64_NR, bias_row, bias_col); \
        const tile_store_t t1 =                                                \
                tile_store_init(alpha, beta, n - TSR_6X64_NR, bias_row,        \
                                bias_col ? bias_col + TSR_6X64_NR : NULL);     \
        TSR_ROWS6(TSR_STORE6)                                                  \
    } while (0)

#endif
