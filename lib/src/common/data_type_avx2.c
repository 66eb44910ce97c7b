/* AVX2 (+F16C) bulk conversions between f32 and the other data types, over
 * rows of contiguous elements. Bit for bit what the scalar conversions of
 * data_type.h give: integers are rounded by cvtps2dq in the default
 * (nearest-even) rounding mode or floored first, saturated in f32 with NaN
 * made 0; bf16 rounds to nearest even with NaN kept quiet; f16 goes
 * through F16C, which rounds and quiets NaNs the same way. Row tails use
 * the scalar forms. */
#include <immintrin.h>

#include "data_type_avx2.h"

/* A row to s32, s8 or u8. */
static void row_f32_to_int(tsr_data_type_t dt, const float *src, void *dst,
                           int64_t n, tsr_round_mode_t mode) {
    const __m256 lo = _mm256_set1_ps(tsr_dt_min_f32(dt));
    const __m256 hi = _mm256_set1_ps(tsr_dt_max_f32(dt));
    const int64_t esize = (int64_t)tsr_data_type_size(dt);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        tsr_store_8_f32_as_avx2(dt, _mm256_loadu_ps(src + i),
                                (char *)dst + i * esize, lo, hi, mode);
    for (; i < n; i++)
        tsr_store_f32_inline(dt, dst, i, src[i], mode);
}

static void row_f32_to_bf16(const float *src, uint16_t *dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(dst + i),
                         tsr_f32_to_bf16_8_avx2(_mm256_loadu_ps(src + i)));
    for (; i < n; i++)
        dst[i] = tsr_f32_to_bf16_inline(src[i]);
}

static void row_f32_to_f16(const float *src, uint16_t *dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(
                (__m128i *)(dst + i),
                _mm256_cvtps_ph(_mm256_loadu_ps(src + i),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    for (; i < n; i++)
        dst[i] = tsr_f32_to_f16_inline(src[i]);
}

void tsr_cvt_from_f32_2d_avx2(tsr_data_type_t dt, const float *src,
                              int64_t src_ld, void *dst, int64_t dst_ld,
                              int64_t rows, int64_t cols,
                              tsr_round_mode_t mode) {
    const int64_t esize = (int64_t)tsr_data_type_size(dt);
    for (int64_t r = 0; r < rows; r++) {
        const float *s = src + r * src_ld;
        void *d = (char *)dst + r * dst_ld * esize;
        switch (dt) {
        case tsr_s8:
        case tsr_u8:
        case tsr_s32:
            row_f32_to_int(dt, s, d, cols, mode);
            break;
        case tsr_bf16:
            row_f32_to_bf16(s, d, cols);
            break;
        case tsr_f16:
            row_f32_to_f16(s, d, cols);
            break;
        default:
            tsr_cvt_from_f32_strided(dt, s, 1, d, 1, cols, mode);
            break;
        }
    }
}

void tsr_cvt_to_f32_2d_avx2(tsr_data_type_t dt, const void *src, int64_t src_ld,
                            float *dst, int64_t dst_ld, int64_t rows,
                            int64_t cols) {
    const int64_t esize = (int64_t)tsr_data_type_size(dt);
    for (int64_t r = 0; r < rows; r++) {
        const char *s = (const char *)src + r * src_ld * esize;
        float *d = dst + r * dst_ld;
        int64_t i = 0;
        for (; i + 8 <= cols; i += 8)
            _mm256_storeu_ps(d + i, tsr_load_8_as_f32_avx2(dt, s + i * esize));
        for (; i < cols; i++)
            d[i] = tsr_load_f32_inline(dt, s, i);
    }
}
