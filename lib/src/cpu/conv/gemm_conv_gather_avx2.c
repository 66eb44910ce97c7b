/* The stride-2 f32 gathers with AVX2: the channels-first im2col's
 * (gemm_conv_f32_im2col.c), eight outputs from two loads, a shuffle and a
 * lane permute; and the staging copy's of a subsampled 1x1
 * (gemm_conv_staging.c), which transposes eight channels of them at a
 * time into channels-last points. */
#include <immintrin.h>

#include "cpu/common/lane_mask_avx2.h"
#include "cpu/common/transpose_avx2.h"
#include "cpu/conv/gemm_conv_f32.h"

/* The even values of lo, hi (16 consecutive values) in order. */
static inline __m256 evens_of(__m256 lo, __m256 hi) {
    /* Per 128-bit half: lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6; then the
     * 64-bit pairs in the order lo, lo, hi, hi. */
    const __m256 mixed = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed),
                                                  _MM_SHUFFLE(3, 1, 2, 0)));
}

void gemm_conv_gather_s2_f32_avx2(float *out, const float *in, tsr_dim_t n,
                                  const float *in_end) {
    for (tsr_dim_t i = 0; i < n; i += 8) {
        const tsr_dim_t r = n - i < 8 ? n - i : 8;
        const float *p = in + 2 * i;
        __m256 lo, hi;
        if (in_end - p >= 16) {
            lo = _mm256_loadu_ps(p);
            hi = _mm256_loadu_ps(p + 8);
        } else {
            /* Only the run's 2r - 1 values. */
            const tsr_dim_t span = 2 * r - 1;
            lo = _mm256_maskload_ps(p, tsr_lane_mask_avx2(span > 8 ? 8 : span));
            hi = _mm256_maskload_ps(
                    p + 8, tsr_lane_mask_avx2(span > 8 ? span - 8 : 0));
        }
        const __m256 evens = evens_of(lo, hi);
        if (r == 8)
            _mm256_storeu_ps(out + i, evens);
        else
            _mm256_maskstore_ps(out + i, tsr_lane_mask_avx2(r), evens);
    }
}

void gemm_conv_gather_s2_transpose8_f32_avx2(const float *in,
                                             tsr_dim_t c_stride, float *mat,
                                             tsr_dim_t ld, tsr_dim_t n,
                                             const float *in_end) {
    tsr_dim_t w0 = 0;
    /* Whole loads, 16 values of each channel per 8 points, and whole
     * stores of the points a row has: the values loaded past its end go
     * nowhere. (Compacting rows of 7 points through the im2col's gather,
     * masked loads and stores, took 28% of res5a_branch2a's staged
     * time.) */
    const tsr_dim_t avail = in_end - in;
    for (; w0 < n && 7 * c_stride + 2 * w0 + 16 <= avail; w0 += 8) {
        const float *p = in + 2 * w0;
        __m256 v[8];
        for (int i = 0; i < 8; i++)
            v[i] = evens_of(_mm256_loadu_ps(p + i * c_stride),
                            _mm256_loadu_ps(p + i * c_stride + 8));
        tsr_transpose_8x8_ps(v);
        const tsr_dim_t r = n - w0 < 8 ? n - w0 : 8;
        for (tsr_dim_t w = 0; w < r; w++)
            _mm256_storeu_ps(mat + (w0 + w) * ld, v[w]);
    }
    /* The points whose loads would pass the source's end. */
    for (tsr_dim_t w = w0; w < n; w++)
        for (tsr_dim_t i = 0; i < 8; i++)
            mat[w * ld + i] = in[i * c_stride + 2 * w];
}
