/* The C store of the AVX-512 int8 micro-kernels (VNNI and AMX): one row
 * of 32 s32 results (two zmm) added to the old C row, the column init or
 * zero, with lane masks for column tails. Included by AVX-512 kernel
 * files only. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX512_H
#define TSR_CPU_GEMM_UKR_GEMM_S8_STORE_AVX512_H

#include <immintrin.h>
#include <stdint.h>

/* The lanes of n columns (0 to 32) in the row's two halves. */
static inline void tsr_s8_row_masks(int64_t n, __mmask16 *k0, __mmask16 *k1) {
    *k0 = (__mmask16)((1u << (n < 16 ? n : 16)) - 1u);
    *k1 = (__mmask16)((1u << (n > 16 ? n - 16 : 0)) - 1u);
}

/* Row update: C := base + acc over the masked lanes, base being the old
 * C row (accumulate), the column init, or zero (init NULL). */
static inline void tsr_s8_update_row(int accumulate, const int32_t *init,
                                     int32_t *c, __m512i acc0, __m512i acc1,
                                     __mmask16 k0, __mmask16 k1) {
    const int32_t *base = accumulate ? c : init;
    if (base) {
        acc0 = _mm512_add_epi32(acc0, _mm512_maskz_loadu_epi32(k0, base));
        acc1 = _mm512_add_epi32(acc1, _mm512_maskz_loadu_epi32(k1, base + 16));
    }
    _mm512_mask_storeu_epi32(c, k0, acc0);
    _mm512_mask_storeu_epi32(c + 16, k1, acc1);
}

#endif
