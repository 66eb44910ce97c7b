/* The AVX-512 form of the int8 common store (tsr_epilogue_common_t):
 * s32 sums through scales, bias and at most a ReLU with alpha 0 into u8,
 * s8, s32 or f32, for the kernels' rows of 32 (rows32) and for rows of any
 * width and stride (tsr_epilogue_common_cols_avx512). The steps and their order
 * are those of the AVX2 form (epilogue_f32_avx2.c), so the results are the same
 * bits: f32 operations do not depend on the vector width, and the saturating
 * down-conversions (vpmovusdb, vpmovsdb) give what the AVX2 packs give on the
 * in-range values both see. */
#include <immintrin.h>

#include "common/data_type.h"
#include "cpu/common/epilogue_f32.h"

/* Mask with the first `n` (0..16) lanes set. */
static inline __mmask16 lane_mask16(int64_t n) {
    return (__mmask16)((1u << n) - 1u);
}

static inline __m512 vec_or(const float *vec, int64_t i, float common,
                            __mmask16 k) {
    return vec ? _mm512_maskz_loadu_ps(k, vec + i) : _mm512_set1_ps(common);
}

/* The per-channel operands of sixteen columns (those of mask k), loaded
 * once for all rows. */
typedef struct {
    __m512 bias, oscale, wei_scale;
} cols16_t;

static inline cols16_t cols16(const tsr_epilogue_fused_args_t *f, int64_t j,
                              __mmask16 k) {
    const cols16_t c = {vec_or(f->bias, j, f->bias_c, k),
                        vec_or(f->oscale, j, f->oscale_c, k),
                        vec_or(f->wei_scale, j, f->wei_scale_c, k)};
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

/* Stores sixteen results (the lanes of k; all of them when `full`) at d
 * in dt. f32 ReLU keeps the exact result: v where its sign bit is clear,
 * else 0 * v (see the AVX2 form). */
static inline __attribute__((always_inline)) void
store16(__m512 v, char *d, int full, __mmask16 k, tsr_data_type_t dt, int relu0,
        __m512 hi) {
    if (dt == tsr_f32) {
        if (relu0)
            v = _mm512_mask_mul_ps(v,
                                   _mm512_movepi32_mask(_mm512_castps_si512(v)),
                                   _mm512_setzero_ps(), v);
        if (full)
            _mm512_storeu_ps(d, v);
        else
            _mm512_mask_storeu_ps(d, k, v);
        return;
    }
    const int is_u8 = dt == tsr_u8;
    /* s32's saturated values too (see to_int16). */
    const __m512i i = to_int16(v, is_u8, relu0, hi);
    if (dt == tsr_s32) {
        if (full)
            _mm512_storeu_si512(d, i);
        else
            _mm512_mask_storeu_epi32(d, k, i);
    } else if (full) {
        _mm_storeu_si128((__m128i *)d, is_u8 ? _mm512_cvtusepi32_epi8(i)
                                             : _mm512_cvtsepi32_epi8(i));
    } else if (is_u8) {
        _mm512_mask_cvtusepi32_storeu_epi8(d, k, i);
    } else {
        _mm512_mask_cvtsepi32_storeu_epi8(d, k, i);
    }
}

/* m rows of n sums (row stride acc_ld) of the channels from col on into
 * dt, rows dst_ld bytes apart, the form's flags constants at every use:
 * 32 columns (two zmm per row) at a time, then 16, then the masked rest,
 * each column block's operands loaded once for all rows. */
static inline __attribute__((always_inline)) void
cols(const tsr_epilogue_common_t *cs, int64_t col, const int32_t *acc,
     int64_t acc_ld, int64_t m, int64_t n, char *dst, int64_t dst_ld,
     tsr_data_type_t dt, int legacy, int bias, int relu0) {
    const tsr_epilogue_fused_args_t *f = &cs->f;
    const __m512 src_scale = _mm512_set1_ps(f->src_scale);
    const int ss = f->plan->with_src_scale, ws = f->plan->with_wei_scale;
    const __m512 hi = _mm512_set1_ps(cs->hi);
    const int64_t esize = dt == tsr_u8 || dt == tsr_s8 ? 1 : 4;
    const __mmask16 all = (__mmask16)0xffff;
    int64_t j = 0;
    for (; j + 32 <= n; j += 32) {
        const cols16_t c0 = cols16(f, col + j, all),
                       c1 = cols16(f, col + j + 16, all);
        for (int64_t r = 0; r < m; r++) {
            const int32_t *a = acc + r * acc_ld + j;
            const __m512 v0 = scale_bias_16(
                    src_scale, &c0, _mm512_cvtepi32_ps(_mm512_loadu_si512(a)),
                    legacy, bias, ss, ws);
            const __m512 v1 = scale_bias_16(
                    src_scale, &c1,
                    _mm512_cvtepi32_ps(_mm512_loadu_si512(a + 16)), legacy,
                    bias, ss, ws);
            char *d = dst + r * dst_ld + j * esize;
            /* Two 16-byte stores into bytes: cheaper than joining the
             * halves first. */
            store16(v0, d, 1, all, dt, relu0, hi);
            store16(v1, d + 16 * esize, 1, all, dt, relu0, hi);
        }
    }
    for (; j < n; j += 16) {
        const int full = j + 16 <= n;
        const __mmask16 k = full ? all : lane_mask16(n - j);
        const cols16_t c = cols16(f, col + j, k);
        for (int64_t r = 0; r < m; r++) {
            const __m512 v =
                    scale_bias_16(src_scale, &c,
                                  _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(
                                          k, acc + r * acc_ld + j)),
                                  legacy, bias, ss, ws);
            store16(v, dst + r * dst_ld + j * esize, full, k, dt, relu0, hi);
        }
    }
}

/* Per destination type and form: rows32 (rows of 32 sums, row stride
 * 32) and the column walker of any width and row stride. */
#define TSR_COLS(dt_name, dt, legacy, bias, relu0)                             \
    static void rows32_##dt_name##_##legacy##bias##relu0(                      \
            const tsr_epilogue_common_t *cs, int64_t col, const int32_t *acc,  \
            int64_t m, char *dst, int64_t dst_ld) {                            \
        cols(cs, col, acc, 32, m, 32, dst, dst_ld, dt, legacy, bias, relu0);   \
    }                                                                          \
    static void cols_##dt_name##_##legacy##bias##relu0(                        \
            const tsr_epilogue_common_t *cs, const int32_t *acc,               \
            int64_t acc_ld, int64_t m, int64_t n, char *dst, int64_t dst_ld) { \
        cols(cs, 0, acc, acc_ld, m, n, dst, dst_ld, dt, legacy, bias, relu0);  \
    }
#define TSR_COLS_FORMS(dt_name, dt)                                            \
    TSR_COLS(dt_name, dt, 0, 0, 0)                                             \
    TSR_COLS(dt_name, dt, 0, 0, 1)                                             \
    TSR_COLS(dt_name, dt, 0, 1, 0)                                             \
    TSR_COLS(dt_name, dt, 0, 1, 1)                                             \
    TSR_COLS(dt_name, dt, 1, 0, 0)                                             \
    TSR_COLS(dt_name, dt, 1, 0, 1)                                             \
    TSR_COLS(dt_name, dt, 1, 1, 0)                                             \
    TSR_COLS(dt_name, dt, 1, 1, 1)                                             \
    static const tsr_epilogue_rows16_fn rows32_##dt_name[8] = {                \
            rows32_##dt_name##_000, rows32_##dt_name##_001,                    \
            rows32_##dt_name##_010, rows32_##dt_name##_011,                    \
            rows32_##dt_name##_100, rows32_##dt_name##_101,                    \
            rows32_##dt_name##_110, rows32_##dt_name##_111};                   \
    static const cols_fn cols_##dt_name[8] = {                                 \
            cols_##dt_name##_000, cols_##dt_name##_001, cols_##dt_name##_010,  \
            cols_##dt_name##_011, cols_##dt_name##_100, cols_##dt_name##_101,  \
            cols_##dt_name##_110, cols_##dt_name##_111};
typedef void (*cols_fn)(const tsr_epilogue_common_t *cs, const int32_t *acc,
                        int64_t acc_ld, int64_t m, int64_t n, char *dst,
                        int64_t dst_ld);
TSR_COLS_FORMS(u8, tsr_u8)
TSR_COLS_FORMS(s8, tsr_s8)
TSR_COLS_FORMS(f32, tsr_f32)
TSR_COLS_FORMS(s32, tsr_s32)
#undef TSR_COLS
#undef TSR_COLS_FORMS

tsr_epilogue_rows16_fn tsr_epilogue_common_rows32_avx512(tsr_data_type_t dt,
                                                         int form) {
    const tsr_epilogue_rows16_fn *t = dt == tsr_u8    ? rows32_u8
                                      : dt == tsr_s8  ? rows32_s8
                                      : dt == tsr_s32 ? rows32_s32
                                                      : rows32_f32;
    return t[form - 1];
}

void tsr_epilogue_common_cols_avx512(const tsr_epilogue_fused_args_t *f,
                                     tsr_data_type_t dt, int form,
                                     const int32_t *acc, int64_t acc_ld,
                                     int64_t m, int64_t n, void *dst,
                                     int64_t dst_ld) {
    const tsr_epilogue_common_t cs = {*f, NULL, NULL, tsr_dt_max_f32(dt),
                                      (int64_t)tsr_data_type_size(dt)};
    const cols_fn *t = dt == tsr_u8    ? cols_u8
                       : dt == tsr_s8  ? cols_s8
                       : dt == tsr_s32 ? cols_s32
                                       : cols_f32;
    t[form - 1](&cs, acc, acc_ld, m, n, (char *)dst, dst_ld * cs.dt_bytes);
}
