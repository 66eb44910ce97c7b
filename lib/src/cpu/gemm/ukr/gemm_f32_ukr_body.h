/* The bodies of the 6-row f32 micro-kernels, shared by their ISA files
 * (gemm_f32_ukr_6x16_avx2.c, gemm_f32_ukr_6x32_avx512.c), which define
 * before including it, over their own vector types:
 *   MR, NR                      tile rows and columns
 *   TSR_UKR_ZERO_ACCS           declares the zeroed accumulators
 *   TSR_UKR_STEP(AT, b, rows, half)
 *                               one K step of the first `rows` rows, row
 *                               i's A value at *AT(i), B at b; with `half`
 *                               the first NR / 2 columns only
 *   TSR_UKR_STORE(ROW)          stores the m x n tile, row i at ROW(i)
 *                               (through TSR_UKR_UPDATE_ROWS below, or a
 *                               faster form of the same arithmetic)
 * and for TSR_UKR_UPDATE_ROWS tile_store_t, tile_store_init(alpha, beta,
 * n, bias_row, bias_col) and update_row(&t, c, i, acc0, acc1).
 * Each body is inlined with a literal `rows` (>= m) and `half` (n <=
 * NR / 2), so a short or narrow tile spends no FMAs on the rows or columns
 * it lacks. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_F32_UKR_BODY_H
#define TSR_CPU_GEMM_UKR_GEMM_F32_UKR_BODY_H

#include <immintrin.h>
#include <stdint.h>

/* C is touched only after the K loop: fetch its lines meanwhile (row i
 * at ROW(i)). */
#define TSR_UKR_PREFETCH_C(ROW)                                                \
    for (int64_t i = 0; i < m; ++i) {                                          \
        _mm_prefetch((const char *)(ROW(i)), _MM_HINT_T0);                     \
        _mm_prefetch((const char *)(ROW(i) + NR - 1), _MM_HINT_T0);            \
    }

/* The m rows of the tile (row i at ROW(i); m >= 1) through update_row;
 * rows past m are skipped. */
#define TSR_UKR_UPDATE_ROWS(ROW)                                               \
    do {                                                                       \
        const tile_store_t t =                                                 \
                tile_store_init(alpha, beta, n, bias_row, bias_col);           \
        update_row(&t, ROW(0), 0, c00, c01);                                   \
        if (m > 1)                                                             \
            update_row(&t, ROW(1), 1, c10, c11);                               \
        if (m > 2)                                                             \
            update_row(&t, ROW(2), 2, c20, c21);                               \
        if (m > 3)                                                             \
            update_row(&t, ROW(3), 3, c30, c31);                               \
        if (m > 4)                                                             \
            update_row(&t, ROW(4), 4, c40, c41);                               \
        if (m > 5)                                                             \
            update_row(&t, ROW(5), 5, c50, c51);                               \
    } while (0)

#define TSR_ROW_STRIDED(i) (c + (i)*ldc)
#define TSR_AT_STRIDED(i) (a + (i)*a_rs)

/* A value (i, p) at a[i * a_rs + p * a_cs]; inlined into each layout so
 * the packed one keeps constant offsets. The MR lines at ahead (stride
 * ahead_ld; NULL: none) are fetched a cache line each per 16 K steps. */
static inline __attribute__((always_inline)) void
ukr_body(const int rows, const int half, int64_t k, float alpha, const float *a,
         int64_t a_rs, int64_t a_cs, const float *b, int64_t b_stride,
         const float *ahead, int64_t ahead_ld, float beta, float *c,
         int64_t ldc, int64_t m, int64_t n, const float *bias_row,
         const float *bias_col) {
    TSR_UKR_ZERO_ACCS;
    TSR_UKR_PREFETCH_C(TSR_ROW_STRIDED);
    /* Without lines to fetch, the tile's own B (already cached): one loop
     * for both. */
    if (!ahead) {
        ahead = b;
        ahead_ld = 0;
    }
    /* Not unrolled by hand: GCC then hoists loads and spills accumulators;
     * the single-step loop compiles to exactly 2 loads, 6 broadcasts and 12
     * FMAs per K step. */
    for (int64_t p = 0; p < k; ++p) {
        TSR_UKR_STEP(TSR_AT_STRIDED, b, rows, half);
        if ((p & 15) == 0)
            for (int i = 0; i < MR; i++)
                _mm_prefetch((const char *)(ahead + i * ahead_ld + p),
                             _MM_HINT_T0);
        a += a_cs;
        b += b_stride;
    }
    TSR_UKR_STORE(TSR_ROW_STRIDED);
}

#define TSR_ROW_LISTED(i) (c_rows[i])
#define TSR_AT_TAP(i) (r##i + p)

/* The taps of a direct convolution (tsr_gemm_f32_ukr_taps_fn): per listed
 * tap, row i at r[i]. */
static inline __attribute__((always_inline)) void
taps_body(const int rows, int64_t ntaps, const int32_t *taps,
          const void *const *rows_, int64_t k_tap, const float *b_, float alpha,
          float beta, float *const *c_rows, int64_t m, int64_t n,
          const float *bias_row, const float *bias_col) {
    TSR_UKR_ZERO_ACCS;
    TSR_UKR_PREFETCH_C(TSR_ROW_LISTED);
    for (int64_t tap = 0; tap < ntaps; ++tap) {
        const void *const *r = rows_ + tap * MR;
        const float *r0 = r[0], *r1 = r[rows > 1 ? 1 : 0];
        const float *r2 = r[rows > 2 ? 2 : 0], *r3 = r[rows > 3 ? 3 : 0];
        const float *r4 = r[rows > 4 ? 4 : 0], *r5 = r[rows > 5 ? 5 : 0];
        const float *b = b_ + taps[tap] * k_tap * NR;
        for (int64_t p = 0; p < k_tap; ++p, b += NR)
            TSR_UKR_STEP(TSR_AT_TAP, b, rows, 0);
    }
    TSR_UKR_STORE(TSR_ROW_LISTED);
}

#endif
