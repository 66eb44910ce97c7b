/* The AVX2 row kernel: the vector API of binary_kernel_body.h on 8-lane
 * vectors, partial vectors through zero-padded copies. */
#include <immintrin.h>
#include <string.h>

#include "common/data_type.h"
#include "common/data_type_avx2.h"
#include "cpu/binary/binary_kernel.h"

typedef __m256 vf;
typedef __m256i vi;
typedef int vlanes; /* a lane count */
#define VF_LEN 8
#define VL_FULL 8
#define BK_ALIGN 32
#define BINARY_KERNEL_ROWS binary_kernel_rows_avx2

#define AVX2_INLINE inline __attribute__((always_inline))

static AVX2_INLINE vlanes vl_of(int64_t left) {
    return left >= 8 ? 8 : left <= 0 ? 0 : (int)left;
}

static AVX2_INLINE vi vi_set1(int32_t a) {
    return _mm256_set1_epi32(a);
}
static AVX2_INLINE vf vf_set1(float a) {
    return _mm256_set1_ps(a);
}
static AVX2_INLINE vf vf_zero(void) {
    return _mm256_setzero_ps();
}
static AVX2_INLINE vf vf_add(vf a, vf b) {
    return _mm256_add_ps(a, b);
}
static AVX2_INLINE vf vf_sub(vf a, vf b) {
    return _mm256_sub_ps(a, b);
}
static AVX2_INLINE vf vf_mul(vf a, vf b) {
    return _mm256_mul_ps(a, b);
}
static AVX2_INLINE vf vf_div(vf a, vf b) {
    return _mm256_div_ps(a, b);
}
static AVX2_INLINE vf vf_min(vf a, vf b) {
    return _mm256_min_ps(a, b);
}
static AVX2_INLINE vf vf_max(vf a, vf b) {
    return _mm256_max_ps(a, b);
}
/* A macro: the predicate must be a constant. */
#define vf_cmp_one(a, b, pred)                                                 \
    _mm256_and_ps(_mm256_cmp_ps((a), (b), (pred)), _mm256_set1_ps(1.f))
static AVX2_INLINE vf vf_prelu(vf a, vf w) {
    return _mm256_blendv_ps(_mm256_mul_ps(w, a), a,
                            _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GT_OQ));
}
static AVX2_INLINE void vf_stream_fence(void) {
    _mm_sfence();
}

static AVX2_INLINE vf load8(tsr_data_type_t dt, const void *p, int64_t i,
                            vi flip) {
    switch (dt) {
    case tsr_s32:
        return _mm256_cvtepi32_ps(
                _mm256_loadu_si256((const __m256i *)((const int32_t *)p + i)));
    case tsr_bf16:
        return _mm256_castsi256_ps(_mm256_slli_epi32(
                _mm256_cvtepu16_epi32(_mm_loadu_si128(
                        (const __m128i *)((const uint16_t *)p + i))),
                16));
    case tsr_s8:
        return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(
                _mm_loadl_epi64((const __m128i *)((const int8_t *)p + i))));
    case tsr_u8: {
        const __m256i x = _mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint8_t *)p + i)));
        return _mm256_cvtepi32_ps(
                _mm256_sub_epi32(_mm256_xor_si256(x, flip), flip));
    }
    default:
        return _mm256_loadu_ps((const float *)p + i);
    }
}

static AVX2_INLINE vf vf_load_dt(tsr_data_type_t dt, const void *p, int64_t i,
                                 vlanes lanes, vi flip) {
    if (lanes == VL_FULL)
        return load8(dt, p, i, flip);
    const size_t es = tsr_data_type_size(dt);
    _Alignas(32) char part[32] = {0};
    memcpy(part, (const char *)p + i * (int64_t)es, (size_t)lanes * es);
    return load8(dt, part, 0, flip);
}

/* Clamped to [lo, hi] (NaN made 0), then rounded per the mode: the
 * integer tsr_store_f32 stores (with integer bounds the order of the two
 * does not matter; cvtps rounds to nearest even, the library never
 * changes the rounding mode). */
static AVX2_INLINE __m256i to_int(vf v, tsr_round_mode_t mode, float lo,
                                  float hi) {
    /* maxps gives its second operand for NaN: 0 already when lo is. */
    if (lo != 0.f)
        v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(lo)), _mm256_set1_ps(hi));
    if (mode == tsr_round_down)
        v = _mm256_round_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    return _mm256_cvtps_epi32(v);
}

/* Four vectors of in-range integers as 32 bytes in order: packs per
 * 128-bit lane, then one dword permute. */
static AVX2_INLINE __m256i pack_bytes(const __m256i q[4], int is_signed) {
    const __m256i w01 = _mm256_packs_epi32(q[0], q[1]);
    const __m256i w23 = _mm256_packs_epi32(q[2], q[3]);
    const __m256i b = is_signed ? _mm256_packs_epi16(w01, w23)
                                : _mm256_packus_epi16(w01, w23);
    return _mm256_permutevar8x32_epi32(
            b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

static AVX2_INLINE void store_full_group(tsr_data_type_t dt, void *p, int64_t i,
                                         const vf v[4], tsr_round_mode_t mode,
                                         int nt) {
    switch (dt) {
    case tsr_s8:
    case tsr_u8: {
        const int is_s8 = dt == tsr_s8;
        __m256i q[4];
        for (int j = 0; j < 4; j++)
            q[j] = to_int(v[j], mode, is_s8 ? -128.f : 0.f,
                          is_s8 ? 127.f : 255.f);
        __m256i *at = (__m256i *)((char *)p + i);
        if (nt)
            _mm256_stream_si256(at, pack_bytes(q, is_s8));
        else
            _mm256_storeu_si256(at, pack_bytes(q, is_s8));
        break;
    }
    case tsr_s32:
        for (int j = 0; j < 4; j++) {
            __m256i *at = (__m256i *)((int32_t *)p + i + 8 * j);
            const __m256i q =
                    to_int(v[j], mode, -2147483648.f, TSR_S32_MAX_F32);
            if (nt)
                _mm256_stream_si256(at, q);
            else
                _mm256_storeu_si256(at, q);
        }
        break;
    case tsr_bf16:
        for (int j = 0; j < 4; j++) {
            uint16_t *at = (uint16_t *)p + i + 8 * j;
            if (nt)
                _mm_stream_si128((__m128i *)at, tsr_f32_to_bf16_8_avx2(v[j]));
            else
                _mm_storeu_si128((__m128i *)at, tsr_f32_to_bf16_8_avx2(v[j]));
        }
        break;
    default:
        for (int j = 0; j < 4; j++) {
            float *at = (float *)p + i + 8 * j;
            if (nt)
                _mm256_stream_ps(at, v[j]);
            else
                _mm256_storeu_ps(at, v[j]);
        }
        break;
    }
}

static AVX2_INLINE void group_store(tsr_data_type_t dt, void *p, int64_t i,
                                    const vf v[4], int64_t left,
                                    tsr_round_mode_t mode, int nt) {
    if (left >= 32) {
        store_full_group(dt, p, i, v, mode, nt);
        return;
    }
    const size_t es = tsr_data_type_size(dt);
    _Alignas(32) char part[32 * sizeof(float)];
    store_full_group(dt, part, 0, v, mode, 0);
    memcpy((char *)p + i * (int64_t)es, part, (size_t)left * es);
}

typedef __m256i vw;
static AVX2_INLINE vw vw_set1(int16_t a) {
    return _mm256_set1_epi16(a);
}
static AVX2_INLINE vw vw_add(vw a, vw b) {
    return _mm256_add_epi16(a, b);
}
static AVX2_INLINE vw vw_sub(vw a, vw b) {
    return _mm256_sub_epi16(a, b);
}
static AVX2_INLINE vw vw_mullo(vw a, vw b) {
    return _mm256_mullo_epi16(a, b);
}
static AVX2_INLINE vw vw_min(vw a, vw b) {
    return _mm256_min_epi16(a, b);
}
static AVX2_INLINE vw vw_max(vw a, vw b) {
    return _mm256_max_epi16(a, b);
}
static AVX2_INLINE vw vw_min_unsigned(vw a, vw b) {
    return _mm256_min_epu16(a, b);
}
static AVX2_INLINE vw vw_load_bytes(const void *p, int64_t i, int half,
                                    vw flip) {
    const __m128i b =
            _mm_loadu_si128((const __m128i *)((const char *)p + i + 16 * half));
    return _mm256_sub_epi16(_mm256_xor_si256(_mm256_cvtepu8_epi16(b), flip),
                            flip);
}
/* Packs per 128-bit lane, then the quadwords put back in order. */
static AVX2_INLINE void bytes_store(tsr_data_type_t dt, void *p, int64_t i,
                                    vw lo, vw hi) {
    const __m256i b = dt == tsr_s8 ? _mm256_packs_epi16(lo, hi)
                                   : _mm256_packus_epi16(lo, hi);
    _mm256_storeu_si256((__m256i *)((char *)p + i),
                        _mm256_permute4x64_epi64(b, 0xd8));
}

#include "cpu/binary/binary_kernel_body.h"
