/* The stride-2 f32 gather of the channels-first im2col
 * (gemm_conv_f32_im2col.c) with AVX2: eight outputs from two loads, a
 * shuffle and a lane permute. */
#include <immintrin.h>

#include "cpu/common/lane_mask_avx2.h"
#include "cpu/conv/gemm_conv_f32.h"

void gemm_conv_gather_s2_f32_avx2(float *out, const float *in, tsr_dim_t n,
                                  const float *in_end) {
    for (tsr_dim_t i = 0; i < n; i += 8) {
        const tsr_dim_t r = n - i < 8 ? n - i : 8;
        const float *p = in + 2 * i;
        __m256 lo, hi;
        if (p + 16 <= in_end) {
            lo = _mm256_loadu_ps(p);
            hi = _mm256_loadu_ps(p + 8);
        } else {
            /* Only the run's 2r - 1 values. */
            const tsr_dim_t span = 2 * r - 1;
            lo = _mm256_maskload_ps(p, tsr_lane_mask_avx2(span > 8 ? 8 : span));
            hi = _mm256_maskload_ps(
                    p + 8, tsr_lane_mask_avx2(span > 8 ? span - 8 : 0));
        }
        /* Per 128-bit half: lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6; then the
         * 64-bit pairs in the order lo, lo, hi, hi. */
        const __m256 mixed = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 evens = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
        if (r == 8)
            _mm256_storeu_ps(out + i, evens);
        else
            _mm256_maskstore_ps(out + i, tsr_lane_mask_avx2(r), evens);
    }
}
