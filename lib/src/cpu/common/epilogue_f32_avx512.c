/* The AVX-512 form of the int8 common store (tsr_epilogue_common_t):
 * rows of 32 s32 sums, two zmm per row, through scales, bias and at most
 * a ReLU with alpha 0 into u8, s8, s32 or f32. The steps and their order are
 * those of the AVX2 form (epilogue_f32_avx2.c), so the results are the
 * same bits: f32 operations do not depend on the vector width, and the
 * saturating down-conversions (vpmovusdb, vpmovsdb) give what the AVX2
 * packs give on the in-range values both see. */
#include <immintrin.h>

#include "cpu/common/epilogue_f32.h"

static inline __m512 vec_or(const float *vec, int64_t i, float common) {
    return vec ? _mm512_loadu_ps(vec + i) : _mm512_set1_ps(common);
}

/* The per-channel operands of sixteen columns, loaded once for all rows. */
typedef struct {
    __m512 bias, oscale, wei_scale;
} cols16_t;

static inline cols16_t cols16(const tsr_epilogue_fused_args_t *f, int64_t j) {
    const cols16_t c = {vec_or(f->bias, j, f->bias_c),
                        vec_or(f->oscale, j, f->oscale_c),
                        vec_or(f->wei_scale, j, f->wei_scale_c)};
    return c;
}

/* Scales and bias in the reference's order (scale_bias_8 of the AVX2
 * form). */
static inline __attribute__((always_inline)) __m512
scale_bias_16(__m512 src_scale_v, const cols16_t *c, __m512 v, int legacy,
              int bias, int src_scale, int wei_scale) {
    if (legacy) {
        if (bias)
            v = _mm512_add_ps(v, c->bias);
        return _mm512_mul_ps(v, c->oscale);
    }
    if (src_scale)
        v = _mm512_mul_ps(v, src_scale_v);
    if (wei_scale)
        v = _mm512_mul_ps(v, c->wei_scale);
    if (bias)
        v = _mm512_add_ps(v, c->bias);
    return v;
}

/* Sixteen values of a u8 or s8 form as int32 (common_to_int of the AVX2
 * form): max(v, 0) is the ReLU, the u8 low clamp and the NaN step at
 * once; s8 values below -128 saturate in the conversions. u8 needs no
 * high clamp: every value at or above 255.5 converts to 256 or more, or
 * to 0x80000000 (too large, +inf), which vpmovusdb saturates to 255 as
 * unsigned, so the bits stay those of the AVX2 form for two fewer uops
 * per row. */
static inline __attribute__((always_inline)) __m512i
to_int16(__m512 v, int is_u8, int relu0, __m512 hi) {
    if (is_u8 || relu0)
        v = _mm512_max_ps(v, _mm512_setzero_ps());
    else
        v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    if (!is_u8)
        v = _mm512_min_ps(v, hi);
    return _mm512_cvtps_epi32(v);
}

/* m rows of 32 sums (row stride 32) into dt, the form's flags constants
 * at every use. f32 ReLU keeps the exact result: v where its sign bit is
 * clear, else 0 * v (see the AVX2 form). */
static inline __attribute__((always_inline)) void
rows32(const tsr_epilogue_common_t *cs, int64_t col, const int32_t *acc,
       int64_t m, char *dst, int64_t dst_ld, tsr_data_type_t dt, int legacy,
       int bias, int relu0) {
    const cols16_t c0 = cols16(&cs->f, col), c1 = cols16(&cs->f, col + 16);
    const __m512 src_scale = _mm512_set1_ps(cs->f.src_scale);
    const int ss = cs->f.plan->with_src_scale, ws = cs->f.plan->with_wei_scale;
    const __m512 hi = _mm512_set1_ps(cs->hi);
    for (int64_t r = 0; r < m; r++) {
        const int32_t *a = acc + 32 * r;
        const __m512 v0 = scale_bias_16(
                src_scale, &c0, _mm512_cvtepi32_ps(_mm512_loadu_si512(a)),
                legacy, bias, ss, ws);
        const __m512 v1 = scale_bias_16(
                src_scale, &c1, _mm512_cvtepi32_ps(_mm512_loadu_si512(a + 16)),
                legacy, bias, ss, ws);
        char *d = dst + r * dst_ld;
        if (dt == tsr_f32) {
            const __m512 zero = _mm512_setzero_ps();
            __m512 w0 = v0, w1 = v1;
            if (relu0) {
                w0 = _mm512_mask_mul_ps(
                        v0, _mm512_movepi32_mask(_mm512_castps_si512(v0)), zero,
                        v0);
                w1 = _mm512_mask_mul_ps(
                        v1, _mm512_movepi32_mask(_mm512_castps_si512(v1)), zero,
                        v1);
            }
            _mm512_storeu_ps(d, w0);
            _mm512_storeu_ps(d + 64, w1);
            continue;
        }
        if (dt == tsr_s32) { /* s32's saturated values (see to_int16) */
            _mm512_storeu_si512(d, to_int16(v0, 0, relu0, hi));
            _mm512_storeu_si512(d + 64, to_int16(v1, 0, relu0, hi));
            continue;
        }
        const int is_u8 = dt == tsr_u8;
        const __m512i i0 = to_int16(v0, is_u8, relu0, hi);
        const __m512i i1 = to_int16(v1, is_u8, relu0, hi);
        /* Two 16-byte stores: cheaper than joining the halves first. */
        _mm_storeu_si128((__m128i *)d, is_u8 ? _mm512_cvtusepi32_epi8(i0)
                                             : _mm512_cvtsepi32_epi8(i0));
        _mm_storeu_si128((__m128i *)(d + 16),
                         is_u8 ? _mm512_cvtusepi32_epi8(i1)
                               : _mm512_cvtsepi32_epi8(i1));
    }
}

/* tsr_epilogue_rows32_fn compiled for each destination type and form. */
#define TSR_ROWS32(dt_name, dt, legacy, bias, relu0)                           \
    static void rows32_##dt_name##_##legacy##bias##relu0(                      \
            const tsr_epilogue_common_t *cs, int64_t col, const int32_t *acc,  \
            int64_t m, char *dst, int64_t dst_ld) {                            \
        rows32(cs, col, acc, m, dst, dst_ld, dt, legacy, bias, relu0);         \
    }
#define TSR_ROWS32_FORMS(dt_name, dt)                                          \
    TSR_ROWS32(dt_name, dt, 0, 0, 0)                                           \
    TSR_ROWS32(dt_name, dt, 0, 0, 1)                                           \
    TSR_ROWS32(dt_name, dt, 0, 1, 0)                                           \
    TSR_ROWS32(dt_name, dt, 0, 1, 1)                                           \
    TSR_ROWS32(dt_name, dt, 1, 0, 0)                                           \
    TSR_ROWS32(dt_name, dt, 1, 0, 1)                                           \
    TSR_ROWS32(dt_name, dt, 1, 1, 0)                                           \
    TSR_ROWS32(dt_name, dt, 1, 1, 1)                                           \
    static const tsr_epilogue_rows16_fn rows32_##dt_name[8] = {                \
            rows32_##dt_name##_000, rows32_##dt_name##_001,                    \
            rows32_##dt_name##_010, rows32_##dt_name##_011,                    \
            rows32_##dt_name##_100, rows32_##dt_name##_101,                    \
            rows32_##dt_name##_110, rows32_##dt_name##_111};
TSR_ROWS32_FORMS(u8, tsr_u8)
TSR_ROWS32_FORMS(s8, tsr_s8)
TSR_ROWS32_FORMS(f32, tsr_f32)
TSR_ROWS32_FORMS(s32, tsr_s32)
#undef TSR_ROWS32
#undef TSR_ROWS32_FORMS

tsr_epilogue_rows16_fn tsr_epilogue_common_rows32_avx512(tsr_data_type_t dt,
                                                         int form) {
    const tsr_epilogue_rows16_fn *t = dt == tsr_u8    ? rows32_u8
                                      : dt == tsr_s8  ? rows32_s8
                                      : dt == tsr_s32 ? rows32_s32
                                                      : rows32_f32;
    return t[form - 1];
}
