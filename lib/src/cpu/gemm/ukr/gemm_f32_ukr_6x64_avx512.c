/* AVX-512F micro-kernel: 6 rows x 64 columns (two packed 32-column B
 * panels) in 24 zmm accumulators, for full tiles of A read in place in a
 * narrow block. Against two 6x32 tiles each A value is broadcast once for
 * 64 columns, and the fixed cost of a tile (its C lines, stores and call)
 * is paid once for twice the products, which counts where K is short
 * (ResNet-50's 1x1 layers of 64 input channels). Each element's sum runs
 * over K in order, one FMA at a time, and is stored through the 6x32
 * kernel's row update: the 6x32 kernel's arithmetic. */
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_ukr_6x64_body.h"

#define NR TSR_6X64_NR

#define TSR_A6(i) (a + (i)*lda + p)
#define TSR_C6(i) (c + (i)*ldc)
#define TSR_FETCH_AHEAD(i, a0, a1, a2, a3)                                     \
    _mm_prefetch((const char *)(ahead + (i)*ahead_ld + p), _MM_HINT_T0);

void tsr_gemm_f32_ukr_6x64_avx512(int64_t k, float alpha, const float *a,
                                  int64_t lda, const float *ahead,
                                  int64_t ahead_ld, const float *b,
                                  int64_t b_next_panel, float beta, float *c,
                                  int64_t ldc, int64_t n, const float *bias_row,
                                  const float *bias_col) {
    TSR_ROWS6(TSR_ZERO6)
    TSR_ROWS6(TSR_PREFETCH_C6)
    const float *b_hi = b + b_next_panel;
    /* Without lines ahead, this tile's own (already cached) rows. */
    if (!ahead) {
        ahead = a;
        ahead_ld = lda;
    }
    for (int64_t p = 0; p < k; ++p, b += NR, b_hi += NR) {
        TSR_6X64_STEP(b, b_hi);
        /* A cache line of each row ahead per 16 K steps, spread along
         * the tile: the same fetches issued as a burst before the tile
         * ran 25% slower (ResNet-50 res2b_branch2a, mb32, 2 threads). */
        if ((p & 15) == 0)
            TSR_ROWS6(TSR_FETCH_AHEAD)
    }
    TSR_6X64_STORE();
}
