/* AVX2+FMA kernel for a single row of C (M == 1: an inner product or
 * matmul on one sample), so that the 6-row tile does not spend five sixths
 * of its FMAs on padding: up to 64 columns in 8 ymm accumulators, one
 * broadcast of A per K step. Each element accumulates in the same order
 * and is stored with the same arithmetic as in the 6x16 kernel, so the
 * results are identical to it bit for bit. */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"

#define MAX_VECS 8

/* Vector v's B at bv[v] (step p at bv[v] + p * b_stride), or with
 * `contiguous` at bv[0] + 8 * v: one pointer for B as stored. */
static inline __attribute__((always_inline)) void
row_block(int nvec, int contiguous, int64_t k, float alpha, const float *a,
          int64_t a_stride, const float *const *bv, int64_t b_stride,
          float beta, float *c, const float *bias_row, const float *bias_col) {
    __m256 acc[MAX_VECS];
    for (int v = 0; v < nvec; ++v)
        acc[v] = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; ++p) {
        const __m256 av = _mm256_broadcast_ss(a + p * a_stride);
        for (int v = 0; v < nvec; ++v) {
            const float *bp = contiguous ? bv[0] + 8 * v : bv[v];
            acc[v] = _mm256_fmadd_ps(av, _mm256_loadu_ps(bp + p * b_stride),
                                     acc[v]);
        }
    }
    const __m256 valpha = _mm256_set1_ps(alpha), vbeta = _mm256_set1_ps(beta);
    for (int v = 0; v < nvec; ++v) {
        __m256 r = _mm256_mul_ps(valpha, acc[v]);
        if (beta != 0.f)
            r = _mm256_fmadd_ps(vbeta, _mm256_loadu_ps(c + 8 * v), r);
        if (bias_row)
            r = _mm256_add_ps(r, _mm256_broadcast_ss(bias_row));
        else if (bias_col)
            r = _mm256_add_ps(r, _mm256_loadu_ps(bias_col + 8 * v));
        _mm256_storeu_ps(c + 8 * v, r);
    }
}

/* The constant vector counts let the compiler keep acc[] in registers. */
void tsr_gemm_f32_row_avx2(int64_t k, float alpha, const float *a,
                           int64_t a_stride, const float *b, int64_t b_stride,
                           int64_t group_cols, int64_t group_stride, float beta,
                           float *c, int64_t n, const float *bias_row,
                           const float *bias_col) {
    for (int64_t j = 0; j < n; j += 8 * MAX_VECS) {
        const int64_t left = n - j;
        const float *bc = bias_col ? bias_col + j : NULL;
        const int nvec = left >= 64 ? 8 : left >= 48 ? 6 : left >= 32 ? 4 : 2;
        const float *bv[MAX_VECS];
        for (int v = 0; v < nvec; ++v) {
            const int64_t col = j + 8 * v;
            bv[v] = b + col / group_cols * group_stride + col % group_cols;
        }
        /* All of the block's columns in one group: B as stored. */
        const int contiguous =
                j / group_cols == (j + 8 * nvec - 1) / group_cols;
#define TSR_ROW_BLOCK(NVEC)                                                    \
    do {                                                                       \
        if (contiguous)                                                        \
            row_block(NVEC, 1, k, alpha, a, a_stride, bv, b_stride, beta,      \
                      c + j, bias_row, bc);                                    \
        else                                                                   \
            row_block(NVEC, 0, k, alpha, a, a_stride, bv, b_stride, beta,      \
                      c + j, bias_row, bc);                                    \
    } while (0)
        if (nvec == 8)
            TSR_ROW_BLOCK(8);
        else if (nvec == 6)
            TSR_ROW_BLOCK(6);
        else if (nvec == 4)
            TSR_ROW_BLOCK(4);
        else
            TSR_ROW_BLOCK(2);
#undef TSR_ROW_BLOCK
    }
}
