/* The AVX-512 row kernel: the vector API of binary_kernel_body.h on
 * 16-lane vectors, partial vectors under lane masks. */
#include <immintrin.h>

#include "common/data_type.h"
#include "common/data_type_avx512.h"
#include "cpu/binary/binary_kernel.h"

typedef __m512 vf;
typedef __m512i vi;
typedef __mmask16 vlanes;
#define VF_LEN 16
#define VL_FULL ((__mmask16)0xffff)
#define BK_ALIGN 64
#define BINARY_KERNEL_ROWS binary_kernel_rows_avx512

#define AVX512_INLINE inline __attribute__((always_inline))

static AVX512_INLINE vlanes vl_of(int64_t left) {
    return left >= 16  ? VL_FULL
           : left <= 0 ? (__mmask16)0
                       : (__mmask16)((1u << left) - 1u);
}

static AVX512_INLINE vi vi_set1(int32_t a) {
    return _mm512_set1_epi32(a);
}
static AVX512_INLINE vf vf_set1(float a) {
    return _mm512_set1_ps(a);
}
static AVX512_INLINE vf vf_zero(void) {
    return _mm512_setzero_ps();
}
static AVX512_INLINE vf vf_add(vf a, vf b) {
    return _mm512_add_ps(a, b);
}
static AVX512_INLINE vf vf_sub(vf a, vf b) {
    return _mm512_sub_ps(a, b);
}
static AVX512_INLINE vf vf_mul(vf a, vf b) {
    return _mm512_mul_ps(a, b);
}
static AVX512_INLINE vf vf_div(vf a, vf b) {
    return _mm512_div_ps(a, b);
}
static AVX512_INLINE vf vf_min(vf a, vf b) {
    return _mm512_min_ps(a, b);
}
static AVX512_INLINE vf vf_max(vf a, vf b) {
    return _mm512_max_ps(a, b);
}
/* A macro: the predicate must be a constant. */
#define vf_cmp_one(a, b, pred)                                                 \
    _mm512_maskz_mov_ps(_mm512_cmp_ps_mask((a), (b), (pred)),                  \
                        _mm512_set1_ps(1.f))
static AVX512_INLINE vf vf_prelu(vf a, vf w) {
    return _mm512_mask_blend_ps(
            _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GT_OQ),
            _mm512_mul_ps(w, a), a);
}
static AVX512_INLINE void vf_stream_fence(void) {
    _mm_sfence();
}

/* Whole vectors load unmasked (the mask is a constant there). */
static AVX512_INLINE vf vf_load_dt(tsr_data_type_t dt, const void *p, int64_t i,
                                   vlanes m, vi flip) {
    const int full = m == VL_FULL;
    switch (dt) {
    case tsr_s32: {
        const int32_t *q = (const int32_t *)p + i;
        return _mm512_cvtepi32_ps(full ? _mm512_loadu_si512(q)
                                       : _mm512_maskz_loadu_epi32(m, q));
    }
    case tsr_bf16: {
        const uint16_t *q = (const uint16_t *)p + i;
        const __m256i h = full ? _mm256_loadu_si256((const __m256i *)q)
                               : _mm256_maskz_loadu_epi16(m, q);
        return _mm512_castsi512_ps(
                _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    }
    case tsr_s8: {
        const int8_t *q = (const int8_t *)p + i;
        const __m128i b = full ? _mm_loadu_si128((const __m128i *)q)
                               : _mm_maskz_loadu_epi8(m, q);
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(b));
    }
    case tsr_u8: {
        const uint8_t *q = (const uint8_t *)p + i;
        const __m128i b = full ? _mm_loadu_si128((const __m128i *)q)
                               : _mm_maskz_loadu_epi8(m, q);
        const __m512i x = _mm512_cvtepu8_epi32(b);
        return _mm512_cvtepi32_ps(
                _mm512_sub_epi32(_mm512_xor_si512(x, flip), flip));
    }
    default: {
        const float *q = (const float *)p + i;
        return full ? _mm512_loadu_ps(q) : _mm512_maskz_loadu_ps(m, q);
    }
    }
}

/* Clamped to [lo, hi] (NaN made 0), then rounded per the mode: the
 * integer tsr_store_f32 stores (with integer bounds the order of the two
 * does not matter). */
static AVX512_INLINE __m512i to_int(vf v, tsr_round_mode_t mode, float lo,
                                    float hi) {
    /* maxps gives its second operand for NaN: 0 already when lo is. */
    if (lo != 0.f)
        v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
    return mode == tsr_round_down
                   ? _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEG_INF |
                                                         _MM_FROUND_NO_EXC)
                   : _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEAREST_INT |
                                                         _MM_FROUND_NO_EXC);
}

/* Four vectors of in-range integers as 64 bytes in order: in-register
 * packs (per 128-bit lane), one dword permute, then one full store; the
 * narrowing store to memory is slow. */
static AVX512_INLINE __m512i pack_bytes(const __m512i q[4], int is_signed) {
    const __m512i w01 = _mm512_packs_epi32(q[0], q[1]);
    const __m512i w23 = _mm512_packs_epi32(q[2], q[3]);
    const __m512i b = is_signed ? _mm512_packs_epi16(w01, w23)
                                : _mm512_packus_epi16(w01, w23);
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10,
                                            14, 3, 7, 11, 15);
    return _mm512_permutexvar_epi32(order, b);
}

static AVX512_INLINE __mmask64 bytes_of(int64_t left) {
    return left >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << left) - 1;
}

static AVX512_INLINE void group_store(tsr_data_type_t dt, void *p, int64_t i,
                                      const vf v[4], int64_t left,
                                      tsr_round_mode_t mode, int nt) {
    const int full = left >= 64;
    switch (dt) {
    case tsr_s8:
    case tsr_u8: {
        const int is_s8 = dt == tsr_s8;
        __m512i q[4];
        for (int j = 0; j < 4; j++)
            q[j] = to_int(v[j], mode, is_s8 ? -128.f : 0.f,
                          is_s8 ? 127.f : 255.f);
        const __m512i b = pack_bytes(q, is_s8);
        char *at = (char *)p + i;
        if (nt)
            _mm512_stream_si512((void *)at, b);
        else if (full)
            _mm512_storeu_si512(at, b);
        else
            _mm512_mask_storeu_epi8(at, bytes_of(left), b);
        break;
    }
    case tsr_s32:
        for (int j = 0; j < 4; j++) {
            const __m512i q =
                    to_int(v[j], mode, -2147483648.f, TSR_S32_MAX_F32);
            int32_t *at = (int32_t *)p + i + 16 * j;
            if (nt)
                _mm512_stream_si512((void *)at, q);
            else if (full)
                _mm512_storeu_si512(at, q);
            else if (left > 16 * j)
                _mm512_mask_storeu_epi32(at, vl_of(left - 16 * j), q);
        }
        break;
    case tsr_bf16:
        for (int j = 0; j < 4; j++) {
            uint16_t *at = (uint16_t *)p + i + 16 * j;
            if (nt)
                _mm256_stream_si256((__m256i *)at,
                                    tsr_f32_to_bf16_16_avx512(v[j]));
            else if (full)
                _mm256_storeu_si256((__m256i *)at,
                                    tsr_f32_to_bf16_16_avx512(v[j]));
            else if (left > 16 * j)
                _mm256_mask_storeu_epi16(at, vl_of(left - 16 * j),
                                         tsr_f32_to_bf16_16_avx512(v[j]));
        }
        break;
    default:
        for (int j = 0; j < 4; j++) {
            float *at = (float *)p + i + 16 * j;
            if (nt)
                _mm512_stream_ps(at, v[j]);
            else if (full)
                _mm512_storeu_ps(at, v[j]);
            else if (left > 16 * j)
                _mm512_mask_storeu_ps(at, vl_of(left - 16 * j), v[j]);
        }
        break;
    }
}

typedef __m512i vw;
static AVX512_INLINE vw vw_set1(int16_t a) {
    return _mm512_set1_epi16(a);
}
static AVX512_INLINE vw vw_add(vw a, vw b) {
    return _mm512_add_epi16(a, b);
}
static AVX512_INLINE vw vw_sub(vw a, vw b) {
    return _mm512_sub_epi16(a, b);
}
static AVX512_INLINE vw vw_mullo(vw a, vw b) {
    return _mm512_mullo_epi16(a, b);
}
static AVX512_INLINE vw vw_min(vw a, vw b) {
    return _mm512_min_epi16(a, b);
}
static AVX512_INLINE vw vw_max(vw a, vw b) {
    return _mm512_max_epi16(a, b);
}
static AVX512_INLINE vw vw_min_unsigned(vw a, vw b) {
    return _mm512_min_epu16(a, b);
}
static AVX512_INLINE vw vw_load_bytes(const void *p, int64_t i, int half,
                                      vw flip) {
    const __m256i b = _mm256_loadu_si256(
            (const __m256i *)((const char *)p + i + 32 * half));
    return _mm512_sub_epi16(_mm512_xor_si512(_mm512_cvtepu8_epi16(b), flip),
                            flip);
}
/* Packs per 128-bit lane, then the quadwords put back in order. */
static AVX512_INLINE void bytes_store(tsr_data_type_t dt, void *p, int64_t i,
                                      vw lo, vw hi) {
    const __m512i b = dt == tsr_s8 ? _mm512_packs_epi16(lo, hi)
                                   : _mm512_packus_epi16(lo, hi);
    _mm512_storeu_si512((char *)p + i,
                        _mm512_permutexvar_epi64(
                                _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), b));
}

#include "cpu/binary/binary_kernel_body.h"
