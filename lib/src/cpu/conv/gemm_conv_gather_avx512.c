/* The stride-2 f32 gather of the channels-first im2col
 * (gemm_conv_f32_im2col.c) with AVX-512: sixteen outputs from two loads
 * and one two-source permute. */
#include <immintrin.h>

#include "cpu/conv/gemm_conv_f32.h"

static inline __mmask16 first_lanes(tsr_dim_t n) {
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

void gemm_conv_gather_s2_f32_avx512(float *out, const float *in, tsr_dim_t n,
                                    const float *in_end) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                           20, 22, 24, 26, 28, 30);
    for (tsr_dim_t i = 0; i < n; i += 16) {
        const tsr_dim_t r = n - i < 16 ? n - i : 16;
        const float *p = in + 2 * i;
        __m512 lo, hi;
        if (in_end - p >= 32) {
            /* Whole loads: masked ones of a run's 2r - 1 values, whose
             * masked-off lanes cross cache lines, ran 4x slower than the
             * scalar copy (AMD Zen 5). */
            lo = _mm512_loadu_ps(p);
            hi = _mm512_loadu_ps(p + 16);
        } else {
            const tsr_dim_t span = 2 * r - 1;
            lo = _mm512_maskz_loadu_ps(first_lanes(span), p);
            hi = _mm512_maskz_loadu_ps(first_lanes(span > 16 ? span - 16 : 0),
                                       p + 16);
        }
        _mm512_mask_storeu_ps(out + i, first_lanes(r),
                              _mm512_permutex2var_ps(lo, even, hi));
    }
}
