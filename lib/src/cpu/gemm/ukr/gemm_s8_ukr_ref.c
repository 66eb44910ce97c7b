/* Portable int8 micro-kernel for CPUs without AVX2 (and
 * TSR_MAX_CPU_ISA=generic): a fixed 4x8 tile on the u8 x s8 quad layout of
 * the VNNI kernel, so the +128 shift of s8 sources and its compensation
 * are exercised everywhere. Products fit in s32; sums use unsigned
 * arithmetic so they wrap modulo 2^32 (like vpaddd) instead of
 * overflowing. */
#include "cpu/gemm/gemm_s8_impl.h"

#define MR TSR_GEMM_S8_REF_MR
#define NR TSR_GEMM_S8_REF_NR

void tsr_gemm_s8_ukr_ref(int64_t kgroups, const void *a_, const void *b_,
                         int accumulate, const int32_t *init, int32_t *c,
                         int64_t ldc, int64_t m, int64_t n) {
    const uint8_t *a = a_;
    const int8_t *b = b_;
    uint32_t acc[MR][NR] = {{0}};
    for (int64_t p = 0; p < kgroups; ++p) {
        const uint8_t *ap = a + p * MR * 4;
        const int8_t *bp = b + p * NR * 4;
/* Unrolled so that acc lives in registers at -O2 too (sanitizer builds). */
#pragma GCC unroll 4
        for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
            for (int j = 0; j < NR; ++j) {
                int32_t quad = 0; /* at most 4 * 255 * 128 in magnitude */
#pragma GCC unroll 4
                for (int t = 0; t < 4; ++t)
                    quad += (int32_t)ap[i * 4 + t] * bp[j * 4 + t];
                acc[i][j] += (uint32_t)quad;
            }
    }
    for (int64_t i = 0; i < m; ++i) {
        int32_t *ci = c + i * ldc;
        for (int64_t j = 0; j < n; ++j) {
            const uint32_t base = accumulate ? (uint32_t)ci[j]
                                  : init     ? (uint32_t)init[j]
                                             : 0u;
            ci[j] = (int32_t)(base + acc[i][j]);
        }
    }
}
