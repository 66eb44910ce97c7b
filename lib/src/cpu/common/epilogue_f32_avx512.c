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
#include "cpu/common/epilogue_common_avx512.h"
#include "cpu/common/epilogue_f32.h"

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
        const tsr_ep_cols16_t c0 = tsr_ep_cols16(f, col + j, all),
                              c1 = tsr_ep_cols16(f, col + j + 16, all);
        for (int64_t r = 0; r < m; r++) {
            const int32_t *a = acc + r * acc_ld + j;
            const __m512 v0 = tsr_ep_scale_bias_16(
                    src_scale, &c0, _mm512_cvtepi32_ps(_mm512_loadu_si512(a)),
                    legacy, bias, ss, ws);
            const __m512 v1 = tsr_ep_scale_bias_16(
                    src_scale, &c1,
                    _mm512_cvtepi32_ps(_mm512_loadu_si512(a + 16)), legacy,
                    bias, ss, ws);
            char *d = dst + r * dst_ld + j * esize;
            /* Two 16-byte stores into bytes: cheaper than joining the
             * halves first. */
            tsr_ep_store16(v0, d, 1, all, dt, relu0, hi);
            tsr_ep_store16(v1, d + 16 * esize, 1, all, dt, relu0, hi);
        }
    }
    for (; j < n; j += 16) {
        const int full = j + 16 <= n;
        const __mmask16 k = full ? all : tsr_ep_lane_mask16(n - j);
        const tsr_ep_cols16_t c = tsr_ep_cols16(f, col + j, k);
        for (int64_t r = 0; r < m; r++) {
            const __m512 v = tsr_ep_scale_bias_16(
                    src_scale, &c,
                    _mm512_cvtepi32_ps(
                            _mm512_maskz_loadu_epi32(k, acc + r * acc_ld + j)),
                    legacy, bias, ss, ws);
            tsr_ep_store16(v, dst + r * dst_ld + j * esize, full, k, dt, relu0,
                           hi);
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
