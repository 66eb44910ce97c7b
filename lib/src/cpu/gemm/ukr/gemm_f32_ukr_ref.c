/* Portable micro-kernel for CPUs without AVX2 (and TSR_MAX_CPU_ISA=generic):
 * a fixed 4x8 tile the compiler keeps in SSE registers. Plain C arithmetic
 * (no contraction under -std=c11), so results match on every compiler
 * setting. */
#include "cpu/gemm/gemm_f32_impl.h"

#define MR TSR_GEMM_F32_REF_MR
#define NR TSR_GEMM_F32_REF_NR

void tsr_gemm_f32_ukr_ref(int64_t k, float alpha, const float *a, int64_t a_ld,
                          const float *b, int64_t b_stride, const float *ahead,
                          int64_t ahead_ld, float beta, float *c, int64_t ldc,
                          int64_t m, int64_t n, const float *bias_row,
                          const float *bias_col) {
    (void)ahead; /* a hint this kernel leaves to the hardware */
    (void)ahead_ld;
    float acc[MR][NR] = {{0.f}};
    const int64_t a_rs = a_ld ? a_ld : 1, a_cs = a_ld ? 1 : MR;
    for (int64_t p = 0; p < k; ++p) {
        const float *ap = a + p * a_cs;
        const float *bp = b + p * b_stride;
/* Unrolled so that acc lives in registers at -O2 too (sanitizer builds). */
#pragma GCC unroll 4
        for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
            for (int j = 0; j < NR; ++j)
                acc[i][j] += ap[i * a_rs] * bp[j];
    }
    for (int64_t i = 0; i < m; ++i) {
        float *ci = c + i * ldc;
        for (int64_t j = 0; j < n; ++j) {
            float r = alpha * acc[i][j];
            if (beta != 0.f)
                r = r + beta * ci[j];
            if (bias_row)
                r = r + bias_row[i];
            else if (bias_col)
                r = r + bias_col[j];
            ci[j] = r;
        }
    }
}
