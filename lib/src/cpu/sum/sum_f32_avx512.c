/* The AVX-512 sum kernels: f32, four vectors of every source per step,
 * multiplied and added in the reference's order, then one store; and
 * f32 / bf16 / f16 mixed through sum_vec_body.h. */
#include <immintrin.h>
#include <stdint.h>

#include "common/data_type_avx512.h"
#include "sum.h"

enum { LANES = 16, STEP = 4 * LANES };

static inline __m512 sum_lanes(const float *const *srcs, const float *scales,
                               int n, tsr_dim_t j, __mmask16 mask) {
    __m512 acc = _mm512_mul_ps(_mm512_set1_ps(scales[0]),
                               _mm512_maskz_loadu_ps(mask, srcs[0] + j));
    for (int i = 1; i < n; i++)
        acc = _mm512_add_ps(
                acc, _mm512_mul_ps(_mm512_set1_ps(scales[i]),
                                   _mm512_maskz_loadu_ps(mask, srcs[i] + j)));
    return acc;
}

/* [j, end) a vector (or its head) at a time, with masks. */
static void sum_masked(float *dst, const float *const *srcs,
                       const float *scales, int n, tsr_dim_t j, tsr_dim_t end) {
    for (; j < end; j += LANES) {
        const tsr_dim_t left = end - j;
        const __mmask16 mask =
                left >= LANES ? (__mmask16)0xffff
                              : (__mmask16)((1u << (unsigned)left) - 1u);
        _mm512_mask_storeu_ps(dst + j, mask,
                              sum_lanes(srcs, scales, n, j, mask));
    }
}

void sum_f32_avx512(float *dst, const float *const *srcs, const float *scales,
                    int n, tsr_dim_t len, int stream) {
    tsr_dim_t j = 0;
    /* Streaming stores need 64-byte aligned dst: the head goes first. */
    if (stream && (uintptr_t)dst % sizeof(float) == 0) {
        j = sum_stream_head(dst, sizeof(float), 64, len);
        sum_masked(dst, srcs, scales, n, 0, j);
    } else {
        stream = 0;
    }
    for (; j + STEP <= len; j += STEP) {
        __m512 scale = _mm512_set1_ps(scales[0]);
        const float *src = srcs[0] + j;
        __m512 acc0 = _mm512_mul_ps(scale, _mm512_loadu_ps(src));
        __m512 acc1 = _mm512_mul_ps(scale, _mm512_loadu_ps(src + LANES));
        __m512 acc2 = _mm512_mul_ps(scale, _mm512_loadu_ps(src + 2 * LANES));
        __m512 acc3 = _mm512_mul_ps(scale, _mm512_loadu_ps(src + 3 * LANES));
        for (int i = 1; i < n; i++) {
            scale = _mm512_set1_ps(scales[i]);
            src = srcs[i] + j;
            acc0 = _mm512_add_ps(acc0,
                                 _mm512_mul_ps(scale, _mm512_loadu_ps(src)));
            acc1 = _mm512_add_ps(
                    acc1, _mm512_mul_ps(scale, _mm512_loadu_ps(src + LANES)));
            acc2 = _mm512_add_ps(
                    acc2,
                    _mm512_mul_ps(scale, _mm512_loadu_ps(src + 2 * LANES)));
            acc3 = _mm512_add_ps(
                    acc3,
                    _mm512_mul_ps(scale, _mm512_loadu_ps(src + 3 * LANES)));
        }
        float *out = dst + j;
        if (stream) {
            _mm512_stream_ps(out, acc0);
            _mm512_stream_ps(out + LANES, acc1);
            _mm512_stream_ps(out + 2 * LANES, acc2);
            _mm512_stream_ps(out + 3 * LANES, acc3);
        } else {
            _mm512_storeu_ps(out, acc0);
            _mm512_storeu_ps(out + LANES, acc1);
            _mm512_storeu_ps(out + 2 * LANES, acc2);
            _mm512_storeu_ps(out + 3 * LANES, acc3);
        }
    }
    sum_masked(dst, srcs, scales, n, j, len);
    if (stream)
        _mm_sfence();
}

/* The vector API of sum_vec_body.h on 16-lane AVX-512 vectors. */
typedef __m512 vf;
typedef __m256i vh;
#define VF_LEN 16
#define SUM_TYPED_KERNEL sum_typed_avx512

static inline vf vf_set1(float a) {
    return _mm512_set1_ps(a);
}
static inline vf vf_add(vf a, vf b) {
    return _mm512_add_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return _mm512_mul_ps(a, b);
}
static inline vf vf_load(const float *p) {
    return _mm512_loadu_ps(p);
}
static inline void vf_store(float *p, vf v) {
    _mm512_storeu_ps(p, v);
}
static inline void vf_stream(float *p, vf v) {
    _mm512_stream_ps(p, v);
}
static inline vf vf_load_bf16(const uint16_t *p) {
    const __m512i wide =
            _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
static inline vh vf_to_bf16(vf v) {
    return tsr_f32_to_bf16_16_avx512(v);
}
static inline vf vf_load_f16(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}
static inline vh vf_to_f16(vf v) {
    return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
}
static inline void vh_store(uint16_t *p, vh h) {
    _mm256_storeu_si256((__m256i *)p, h);
}
static inline void vh_stream(uint16_t *p, vh h) {
    _mm256_stream_si256((__m256i *)p, h);
}
static inline void vf_stream_fence(void) {
    _mm_sfence();
}

#include "sum_vec_body.h"
