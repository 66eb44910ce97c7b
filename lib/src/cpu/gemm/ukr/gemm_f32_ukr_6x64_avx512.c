/* AVX-512F micro-kernel: 6 rows x 64 columns (two packed 32-column B
 * panels) in 24 zmm accumulators, for full tiles of A read in place in a
 * narrow block. Against two 6x32 tiles each A value is broadcast once for
 * 64 columns, and the fixed cost of a tile (its C lines, stores and call)
 * is paid once for twice the products, which counts where K is short
 * (ResNet-50's 1x1 layers of 64 input channels). Each element's sum runs
 * over K in order, one FMA at a time, and is stored through the 6x32
 * kernel's row update: the 6x32 kernel's arithmetic. */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_store_avx512.h"

#define MR 6
#define NR 32 /* one panel */

/* The rows' accumulators, in one list so every use names all of them. */
#define TSR_ROWS6(X)                                                           \
    X(0, c00, c01, c02, c03)                                                   \
    X(1, c10, c11, c12, c13)                                                   \
    X(2, c20, c21, c22, c23)                                                   \
    X(3, c30, c31, c32, c33)                                                   \
    X(4, c40, c41, c42, c43)                                                   \
    X(5, c50, c51, c52, c53)

#define TSR_ZERO(i, a0, a1, a2, a3)                                            \
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps(),                 \
           a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
#define TSR_FMA(i, a0, a1, a2, a3)                                             \
    {                                                                          \
        const __m512 av = _mm512_set1_ps(a[(i)*lda + p]);                      \
        a0 = _mm512_fmadd_ps(av, b0, a0);                                      \
        a1 = _mm512_fmadd_ps(av, b1, a1);                                      \
        a2 = _mm512_fmadd_ps(av, b2, a2);                                      \
        a3 = _mm512_fmadd_ps(av, b3, a3);                                      \
    }
#define TSR_PREFETCH(i, a0, a1, a2, a3)                                        \
    for (int64_t j = 0; j < n; j += 16)                                        \
        _mm_prefetch((const char *)(c + (i)*ldc + j), _MM_HINT_T0);
#define TSR_FETCH_AHEAD(i, a0, a1, a2, a3)                                     \
    _mm_prefetch((const char *)(ahead + (i)*lda + p), _MM_HINT_T0);
#define TSR_STORE(i, a0, a1, a2, a3)                                           \
    update_row(&t0, c + (i)*ldc, i, a0, a1);                                   \
    update_row(&t1, c + (i)*ldc + NR, i, a2, a3);

void tsr_gemm_f32_ukr_6x64_avx512(int64_t k, float alpha, const float *a,
                                  int64_t lda, const float *a_ahead,
                                  const float *b, int64_t b_next_panel,
                                  float beta, float *c, int64_t ldc, int64_t n,
                                  const float *bias_row,
                                  const float *bias_col) {
    TSR_ROWS6(TSR_ZERO)
    TSR_ROWS6(TSR_PREFETCH)
    const float *b_hi = b + b_next_panel;
    /* Without rows ahead, this tile's own (already cached) rows. */
    const float *ahead = a_ahead ? a_ahead : a;
    for (int64_t p = 0; p < k; ++p, b += NR, b_hi += NR) {
        const __m512 b0 = _mm512_loadu_ps(b);
        const __m512 b1 = _mm512_loadu_ps(b + 16);
        const __m512 b2 = _mm512_loadu_ps(b_hi);
        const __m512 b3 = _mm512_loadu_ps(b_hi + 16);
        TSR_ROWS6(TSR_FMA)
        /* A cache line of each row ahead per 16 K steps, spread along
         * the tile: the same fetches issued as a burst before the tile
         * ran 25% slower (ResNet-50 res2b_branch2a, mb32, 2 threads). */
        if ((p & 15) == 0)
            TSR_ROWS6(TSR_FETCH_AHEAD)
    }
    const tile_store_t t0 =
            tile_store_init(alpha, beta, NR, bias_row, bias_col);
    const tile_store_t t1 = tile_store_init(alpha, beta, n - NR, bias_row,
                                            bias_col ? bias_col + NR : NULL);
    TSR_ROWS6(TSR_STORE)
}
