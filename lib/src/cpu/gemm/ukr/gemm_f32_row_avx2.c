/* AVX2+FMA kernel for a single row of C (M == 1: an inner product or
 * matmul on one sample), so that the 6-row tile does not spend five sixths
 * of its FMAs on padding: up to 64 columns in 8 ymm accumulators, one
 * broadcast of A per K step. Each element accumulates in the same order
 * and is stored with the same arithmetic as in the 6x16 kernel, so the
 * results are identical to it bit for bit. */
#include <immintrin.h>

#include "cpu/gemm/gemm_f32_impl.h"

#define MAX_VECS 8

static inline void row_block(int nvec, int64_t k, float alpha, const float *a,
                             int64_t a_stride, const float *b, int64_t b_stride,
                             float beta, float *c, const float *bias_row,
                             const float *bias_col) {
    __m256 acc[MAX_VECS];
    for (int v = 0; v < nvec; ++v)
        acc[v] = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; ++p) {
        const __m256 av = _mm256_broadcast_ss(a + p * a_stride);
        const float *bp = b + p * b_stride;
        for (int v = 0; v < nvec; ++v)
            acc[v] = _mm256_fmadd_ps(av, _mm256_loadu_ps(bp + 8 * v), acc[v]);
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
                           float beta, float *c, int64_t n,
                           const float *bias_row, const float *bias_col) {
    for (int64_t j = 0; j < n; j += 8 * MAX_VECS) {
        const int64_t left = n - j;
        const float *bc = bias_col ? bias_col + j : NULL;
        if (left >= 64)
            row_block(8, k, alpha, a, a_stride, b + j, b_stride, beta, c + j,
                      bias_row, bc);
        else if (left >= 48)
            row_block(6, k, alpha, a, a_stride, b + j, b_stride, beta, c + j,
                      bias_row, bc);
        else if (left >= 32)
            row_block(4, k, alpha, a, a_stride, b + j, b_stride, beta, c + j,
                      bias_row, bc);
        else
            row_block(2, k, alpha, a, a_stride, b + j, b_stride, beta, c + j,
                      bias_row, bc);
    }
}
