/* AVX-512F micro-kernel: up to 6 rows x 64 columns (two packed 32-column
 * B panels) in 24 zmm accumulators, for tiles of A read in place in a
 * narrow block. Against two 6x32 tiles each A value is broadcast once for
 * 64 columns, and the fixed cost of a tile (its C lines, stores and call)
 * is paid once for twice the products, which counts where K is short
 * (ResNet-50's 1x1 layers of 64 input channels). Each element's sum runs
 * over K in order, one FMA at a time, and is stored through the 6x32
 * kernel's row update: the 6x32 kernel's arithmetic. */
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/ukr/gemm_f32_ukr_6x64_body.h"

#define NR TSR_6X64_NR
#define MR 6

#define TSR_A6(i) (a + (i)*lda + p)
#define TSR_C6(i) (c + (i)*ldc)
#define TSR_FETCH_AHEAD(i, a0, a1, a2, a3)                                     \
    if (ahead_lines > (i))                                                     \
        _mm_prefetch((const char *)(ahead + (i)*ahead_ld + p), _MM_HINT_T0);

/* One K step that packs as it goes: the 64 values of B as stored at src
 * into the two panels at dst and dst_hi, and times the rows' at p. */
#define TSR_6X64_STEP_PACKING(src, dst, dst_hi)                                \
    do {                                                                       \
        const __m512 b0 = _mm512_loadu_ps(src);                                \
        const __m512 b1 = _mm512_loadu_ps((src) + 16);                         \
        const __m512 b2 = _mm512_loadu_ps((src) + 32);                         \
        const __m512 b3 = _mm512_loadu_ps((src) + 48);                         \
        _mm512_storeu_ps(dst, b0);                                             \
        _mm512_storeu_ps((dst) + 16, b1);                                      \
        _mm512_storeu_ps(dst_hi, b2);                                          \
        _mm512_storeu_ps((dst_hi) + 16, b3);                                   \
        TSR_ROWS6(TSR_FMA6)                                                    \
    } while (0)

/* The kernel for tile_rows rows, packing B on the way or not (literals at
 * every call). */
static inline __attribute__((always_inline)) void
wide_tile(const int tile_rows, const int packing, int64_t k, float alpha,
          const float *a, int64_t lda, const float *ahead, int64_t ahead_ld,
          const float *b, int64_t b_next_panel, const float *b_src,
          int64_t b_src_ld, float *b_dst, float beta, float *c, int64_t ldc,
          int64_t n, const float *bias_row, const float *bias_col) {
    TSR_ROWS6(TSR_ZERO6)
    const float *b_hi = b + b_next_panel;
    /* Without lines ahead, this tile's own (already cached) rows. */
    int ahead_lines = MR;
    if (!ahead) {
        ahead = a;
        ahead_ld = lda;
        ahead_lines = tile_rows;
    }
    for (int64_t p = 0; p < k; ++p, b += NR, b_hi += NR) {
        if (packing)
            TSR_6X64_STEP_PACKING(b_src + p * b_src_ld, b_dst + p * NR,
                                  b_dst + b_next_panel + p * NR);
        else
            TSR_6X64_STEP(b, b_hi);
        /* A cache line of each row ahead per 16 K steps, spread along
         * the tile: the same fetches issued as a burst before the tile
         * ran 25% slower (ResNet-50 res2b_branch2a, mb32, 2 threads).
         * Braced: the list is six statements. */
        if ((p & 15) == 0) {
            TSR_ROWS6(TSR_FETCH_AHEAD)
        }
        /* The C tile's lines, row p / 4 at every fourth step from 2,
         * among the FMAs: the 24 fetches issued before the loop cost 2-3%
         * of a K = 64 tile (L1-resident operands: 258 -> 265 GFLOPS on one
         * core), and spread they still arrive before the store. */
        if ((p & 3) == 2 && (p >> 2) < tile_rows)
            fetch_c_row(c + (p >> 2) * ldc, n);
    }
    TSR_6X64_STORE();
}

#define TSR_WIDE_TILE(ROWS)                                                    \
    do {                                                                       \
        if (b_src)                                                             \
            wide_tile(ROWS, 1, k, alpha, a, lda, ahead, ahead_ld, b,           \
                      b_next_panel, b_src, b_src_ld, b_dst, beta, c, ldc, n,   \
                      bias_row, bias_col);                                     \
        else                                                                   \
            wide_tile(ROWS, 0, k, alpha, a, lda, ahead, ahead_ld, b,           \
                      b_next_panel, NULL, 0, NULL, beta, c, ldc, n, bias_row,  \
                      bias_col);                                               \
    } while (0)

void tsr_gemm_f32_ukr_6x64_avx512(int64_t k, float alpha, const float *a,
                                  int64_t lda, const float *ahead,
                                  int64_t ahead_ld, const float *b,
                                  int64_t b_next_panel, const float *b_src,
                                  int64_t b_src_ld, float *b_dst, float beta,
                                  float *c, int64_t ldc, int64_t m, int64_t n,
                                  const float *bias_row,
                                  const float *bias_col) {
    /* Every row count exactly: rows past m of A in place may lie past its
     * end. A short tile (the last rows of an M that is no multiple of 6)
     * runs its rows at the full width, not in 32-column halves. */
    switch (m) {
    case 1:
        TSR_WIDE_TILE(1);
        break;
    case 2:
        TSR_WIDE_TILE(2);
        break;
    case 3:
        TSR_WIDE_TILE(3);
        break;
    case 4:
        TSR_WIDE_TILE(4);
        break;
    case 5:
        TSR_WIDE_TILE(5);
        break;
    default:
        TSR_WIDE_TILE(MR);
        break;
    }
}
