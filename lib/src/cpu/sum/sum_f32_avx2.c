/* The AVX2 sum kernels: f32, four vectors of every source per step,
 * multiplied and added in the reference's order, then one store; and
 * f32 / bf16 / f16 mixed through sum_vec_body.h. */
#include <immintrin.h>
#include <stdint.h>

#include "common/data_type_avx2.h"
#include "cpu/common/lane_mask_avx2.h"
#include "sum.h"

enum { LANES = 8, STEP = 4 * LANES };

static inline __m256 sum_lanes(const float *const *srcs, const float *scales,
                               int n, tsr_dim_t j, __m256i mask) {
    __m256 acc = _mm256_mul_ps(_mm256_set1_ps(scales[0]),
                               _mm256_maskload_ps(srcs[0] + j, mask));
    for (int i = 1; i < n; i++)
        acc = _mm256_add_ps(
                acc, _mm256_mul_ps(_mm256_set1_ps(scales[i]),
                                   _mm256_maskload_ps(srcs[i] + j, mask)));
    return acc;
}

/* [j, end) a vector (or its head) at a time, with masks. */
static void sum_masked(float *dst, const float *const *srcs,
                       const float *scales, int n, tsr_dim_t j, tsr_dim_t end) {
    for (; j < end; j += LANES) {
        const __m256i mask = tsr_lane_mask_avx2(end - j);
        _mm256_maskstore_ps(dst + j, mask, sum_lanes(srcs, scales, n, j, mask));
    }
}

void sum_f32_avx2(float *dst, const float *const *srcs, const float *scales,
                  int n, tsr_dim_t len, int stream) {
    tsr_dim_t j = 0;
    /* Streaming stores need 32-byte aligned dst: the head goes first. */
    if (stream && (uintptr_t)dst % sizeof(float) == 0) {
        j = sum_stream_head(dst, sizeof(float), 32, len);
        sum_masked(dst, srcs, scales, n, 0, j);
    } else {
        stream = 0;
    }
    for (; j + STEP <= len; j += STEP) {
        __m256 scale = _mm256_set1_ps(scales[0]);
        const float *src = srcs[0] + j;
        __m256 acc0 = _mm256_mul_ps(scale, _mm256_loadu_ps(src));
        __m256 acc1 = _mm256_mul_ps(scale, _mm256_loadu_ps(src + LANES));
        __m256 acc2 = _mm256_mul_ps(scale, _mm256_loadu_ps(src + 2 * LANES));
        __m256 acc3 = _mm256_mul_ps(scale, _mm256_loadu_ps(src + 3 * LANES));
        for (int i = 1; i < n; i++) {
            scale = _mm256_set1_ps(scales[i]);
            src = srcs[i] + j;
            acc0 = _mm256_add_ps(acc0,
                                 _mm256_mul_ps(scale, _mm256_loadu_ps(src)));
            acc1 = _mm256_add_ps(
                    acc1, _mm256_mul_ps(scale, _mm256_loadu_ps(src + LANES)));
            acc2 = _mm256_add_ps(
                    acc2,
                    _mm256_mul_ps(scale, _mm256_loadu_ps(src + 2 * LANES)));
            acc3 = _mm256_add_ps(
                    acc3,
                    _mm256_mul_ps(scale, _mm256_loadu_ps(src + 3 * LANES)));
        }
        float *out = dst + j;
        if (stream) {
            _mm256_stream_ps(out, acc0);
            _mm256_stream_ps(out + LANES, acc1);
            _mm256_stream_ps(out + 2 * LANES, acc2);
            _mm256_stream_ps(out + 3 * LANES, acc3);
        } else {
            _mm256_storeu_ps(out, acc0);
            _mm256_storeu_ps(out + LANES, acc1);
            _mm256_storeu_ps(out + 2 * LANES, acc2);
            _mm256_storeu_ps(out + 3 * LANES, acc3);
        }
    }
    sum_masked(dst, srcs, scales, n, j, len);
    if (stream)
        _mm_sfence();
}

/* The vector API of sum_vec_body.h on 8-lane AVX2 (with F16C) vectors. */
typedef __m256 vf;
typedef __m128i vh;
#define VF_LEN 8
#define SUM_TYPED_KERNEL sum_typed_avx2

static inline vf vf_set1(float a) {
    return _mm256_set1_ps(a);
}
static inline vf vf_add(vf a, vf b) {
    return _mm256_add_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return _mm256_mul_ps(a, b);
}
static inline vf vf_load(const float *p) {
    return _mm256_loadu_ps(p);
}
static inline void vf_store(float *p, vf v) {
    _mm256_storeu_ps(p, v);
}
static inline void vf_stream(float *p, vf v) {
    _mm256_stream_ps(p, v);
}
static inline vf vf_load_bf16(const uint16_t *p) {
    const __m256i wide =
            _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
static inline vh vf_to_bf16(vf v) {
    return tsr_f32_to_bf16_8_avx2(v);
}
static inline vf vf_load_f16(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}
static inline vh vf_to_f16(vf v) {
    return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
}
static inline void vh_store(uint16_t *p, vh h) {
    _mm_storeu_si128((__m128i *)p, h);
}
static inline void vh_stream(uint16_t *p, vh h) {
    _mm_stream_si128((__m128i *)p, h);
}
static inline void vf_stream_fence(void) {
    _mm_sfence();
}

#include "sum_vec_body.h"
