/* AVX2 forms of the epilogue's elementwise steps. Each lane does the same
 * single-rounding operations as the scalar code (no fused multiply-add),
 * so results are bit-identical. */
#include <immintrin.h>

#include "common/data_type_avx2.h"
#include "cpu/common/epilogue_f32.h"

void tsr_epilogue_mul_avx2(float *v, int64_t n, const float *vec,
                           float common) {
    int64_t i = 0;
    const __m256 c = _mm256_set1_ps(common);
    for (; i + 8 <= n; i += 8) {
        const __m256 m = vec ? _mm256_loadu_ps(vec + i) : c;
        _mm256_storeu_ps(v + i, _mm256_mul_ps(_mm256_loadu_ps(v + i), m));
    }
    for (; i < n; i++)
        v[i] = v[i] * (vec ? vec[i] : common);
}

void tsr_epilogue_add_avx2(float *v, int64_t n, const float *vec,
                           float common) {
    int64_t i = 0;
    const __m256 c = _mm256_set1_ps(common);
    for (; i + 8 <= n; i += 8) {
        const __m256 a = vec ? _mm256_loadu_ps(vec + i) : c;
        _mm256_storeu_ps(v + i, _mm256_add_ps(_mm256_loadu_ps(v + i), a));
    }
    for (; i < n; i++)
        v[i] = v[i] + (vec ? vec[i] : common);
}

void tsr_epilogue_relu_avx2(float *v, int64_t n, float alpha, float scale) {
    int64_t i = 0;
    const __m256 va = _mm256_set1_ps(alpha), vs = _mm256_set1_ps(scale);
    const __m256 zero = _mm256_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(v + i);
        const __m256 pos = _mm256_cmp_ps(x, zero, _CMP_GT_OQ);
        const __m256 r = _mm256_blendv_ps(_mm256_mul_ps(va, x), x, pos);
        _mm256_storeu_ps(v + i, _mm256_mul_ps(vs, r));
    }
    for (; i < n; i++)
        v[i] = scale * (v[i] > 0.f ? v[i] : alpha * v[i]);
}

void tsr_epilogue_prelu_avx2(float *v, int64_t n, const float *vec,
                             float common) {
    int64_t i = 0;
    const __m256 c = _mm256_set1_ps(common), zero = _mm256_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(v + i);
        const __m256 w = vec ? _mm256_loadu_ps(vec + i) : c;
        const __m256 pos = _mm256_cmp_ps(x, zero, _CMP_GT_OQ);
        _mm256_storeu_ps(v + i, _mm256_blendv_ps(_mm256_mul_ps(w, x), x, pos));
    }
    for (; i < n; i++)
        v[i] = tsr_prelu_post_op(v[i], vec ? vec[i] : common);
}

void tsr_epilogue_sum_avx2(float *v, int64_t n, const float *old, float scale,
                           float zp) {
    int64_t i = 0;
    const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(zp);
    for (; i + 8 <= n; i += 8) {
        const __m256 o = _mm256_sub_ps(_mm256_loadu_ps(old + i), vz);
        _mm256_storeu_ps(v + i, _mm256_add_ps(_mm256_mul_ps(vs, o),
                                              _mm256_loadu_ps(v + i)));
    }
    for (; i < n; i++)
        v[i] = scale * (old[i] - zp) + v[i];
}

/* One element of the fused plan, for row tails: the same operations as the
 * vector body. */
static float fused_scalar(const tsr_epilogue_fused_args_t *f, float v,
                          int64_t i, float old) {
    const tsr_epilogue_fused_plan_t *p = f->plan;
    const float b = f->bias ? f->bias[i] : f->bias_c;
    if (p->legacy) {
        if (p->with_bias)
            v = v + b;
        v = v * (f->oscale ? f->oscale[i] : f->oscale_c);
    } else {
        if (p->with_src_scale)
            v = v * f->src_scale;
        if (p->with_wei_scale)
            v = v * (f->wei_scale ? f->wei_scale[i] : f->wei_scale_c);
        if (p->with_bias)
            v = v + b;
    }
    for (int k = 0; k < p->nops; k++) {
        if (p->is_sum[k])
            v = p->p0[k] * (old - p->p1[k]) + v;
        else
            v = p->p1[k] * (v > 0.f ? v : p->p0[k] * v);
    }
    return v;
}

static __m256 vec_or(const float *vec, int64_t i, float common) {
    return vec ? _mm256_loadu_ps(vec + i) : _mm256_set1_ps(common);
}

/* The plan in registers: a local copy the compiler knows no store
 * changes, with the post-op parameters broadcast once per call. */
typedef struct {
    tsr_epilogue_fused_plan_t p;
    __m256 p0[TSR_EPILOGUE_FUSED_MAX_OPS], p1[TSR_EPILOGUE_FUSED_MAX_OPS];
    __m256 src_scale;
} fused_consts_t;

static void fused_consts(const tsr_epilogue_fused_args_t *f,
                         fused_consts_t *k) {
    k->p = *f->plan;
    for (int i = 0; i < k->p.nops; i++) {
        k->p0[i] = _mm256_set1_ps(k->p.p0[i]);
        k->p1[i] = _mm256_set1_ps(k->p.p1[i]);
    }
    k->src_scale = _mm256_set1_ps(f->src_scale);
}

/* The per-channel operands of eight columns, loaded once for all rows. */
typedef struct {
    __m256 bias, oscale, wei_scale;
} fused_cols_t;

static inline fused_cols_t fused_cols(const tsr_epilogue_fused_args_t *f,
                                      int64_t j) {
    const fused_cols_t c = {vec_or(f->bias, j, f->bias_c),
                            vec_or(f->oscale, j, f->oscale_c),
                            vec_or(f->wei_scale, j, f->wei_scale_c)};
    return c;
}

/* The scales and bias of the plan on eight accumulators, in the
 * reference's order; the flags are the plan's, or constants where a caller
 * is compiled per form. */
static inline __attribute__((always_inline)) __m256
scale_bias_8(__m256 src_scale_v, const fused_cols_t *c, __m256 v, int legacy,
             int bias, int src_scale, int wei_scale) {
    if (legacy) {
        if (bias)
            v = _mm256_add_ps(v, c->bias);
        return _mm256_mul_ps(v, c->oscale);
    }
    if (src_scale)
        v = _mm256_mul_ps(v, src_scale_v);
    if (wei_scale)
        v = _mm256_mul_ps(v, c->wei_scale);
    if (bias)
        v = _mm256_add_ps(v, c->bias);
    return v;
}

/* The plan on eight accumulators; `old` holds the dst values a sum reads. */
static inline __m256 fused_8(const fused_consts_t *k, const fused_cols_t *c,
                             __m256 v, const float *old) {
    const tsr_epilogue_fused_plan_t *p = &k->p;
    v = scale_bias_8(k->src_scale, c, v, p->legacy, p->with_bias,
                     p->with_src_scale, p->with_wei_scale);
    for (int i = 0; i < p->nops; i++) {
        if (p->is_sum[i]) {
            const __m256 o = _mm256_sub_ps(_mm256_loadu_ps(old), k->p1[i]);
            v = _mm256_add_ps(_mm256_mul_ps(k->p0[i], o), v);
        } else {
            const __m256 pos =
                    _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ);
            v = _mm256_mul_ps(
                    k->p1[i],
                    _mm256_blendv_ps(_mm256_mul_ps(k->p0[i], v), v, pos));
        }
    }
    return v;
}

/* Both forms below walk eight columns at a time over all rows, so the
 * channel operands are loaded once per eight columns. */
void tsr_epilogue_fused_rows_avx2(const tsr_epilogue_fused_args_t *f,
                                  const float *acc, int64_t acc_ld, int64_t m,
                                  int64_t n, float *dst, int64_t dst_ld) {
    fused_consts_t k;
    fused_consts(f, &k);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const fused_cols_t c = fused_cols(f, j);
        for (int64_t r = 0; r < m; r++) {
            float *d = dst + r * dst_ld + j;
            _mm256_storeu_ps(
                    d,
                    fused_8(&k, &c, _mm256_loadu_ps(acc + r * acc_ld + j), d));
        }
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t i = j; i < n; i++)
            dst[r * dst_ld + i] = fused_scalar(f, acc[r * acc_ld + i], i,
                                               dst[r * dst_ld + i]);
}

/* Eight columns of m rows from s32 into dt; inlined per dt. */
static inline void s32_cols_8(const fused_consts_t *k, const fused_cols_t *c,
                              const int32_t *acc, int64_t acc_ld, int64_t m,
                              tsr_data_type_t dt, tsr_round_mode_t mode,
                              __m256 lo, __m256 hi, char *dst,
                              int64_t dst_ld_bytes) {
    for (int64_t r = 0; r < m; r++) {
        char *d = dst + r * dst_ld_bytes;
        const __m256 v = _mm256_cvtepi32_ps(
                _mm256_loadu_si256((const __m256i *)(acc + r * acc_ld)));
        tsr_store_8_f32_as_avx2(dt, fused_8(k, c, v, (const float *)d), d, lo,
                                hi, mode);
    }
}

/* Eight values of a u8, s8 or s32 common form as int32 in range, bit for
 * bit tsr_round_clamp_8_avx2 with nearest rounding, in fewer steps. vmaxps
 * returns its second operand for NaN, so max(v, 0) is the ReLU, the u8
 * low clamp and the NaN step at once; an s8 or s32 value below its range
 * needs no low clamp, as the conversion (INT_MIN below the int32 range,
 * s32's lowest value) and the signed packs saturate it. */
static inline __attribute__((always_inline)) __m256i
common_to_int(__m256 v, int is_u8, int relu0, __m256 hi) {
    if (is_u8 || relu0)
        v = _mm256_max_ps(v, _mm256_setzero_ps());
    else
        v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
    return _mm256_cvtps_epi32(_mm256_min_ps(v, hi));
}

/* Sixteen in-range int32 (a: columns 0-7, b: 8-15) as sixteen bytes. */
static inline __m128i pack_16_bytes(__m256i a, __m256i b, int is_signed) {
    /* In-lane packs give the column quads in the order 0, 8, 4, 12. */
    const __m256i words = _mm256_packs_epi32(a, b);
    const __m256i bytes = is_signed ? _mm256_packs_epi16(words, words)
                                    : _mm256_packus_epi16(words, words);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
            bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5)));
}

/* The common int8-GEMM stores with the plan's branches resolved at
 * compile time: scales and bias, then at most a ReLU with alpha 0 and
 * scale 1, into u8, s8 or s32 (rounding to nearest) or f32. Into integers,
 * max(v, 0) stands for that ReLU: it differs from
 * scale * (v > 0 ? v : alpha * v) only in the sign of zero and in giving 0
 * for NaN, neither of which survives the conversion. f32 keeps the exact
 * result in two steps: v where v's sign bit is clear, else 0 * v. They
 * differ from (v > 0 ? v : 0 * v) only where v is not above 0 with a
 * clear sign bit: +0 and positive NaNs (quiet, as results of arithmetic),
 * for which v and 0 * v are the same bits. `groups` (1 or 2, a constant) groups
 * of eight columns per row: two write a whole 64-byte line of an f32 dst at
 * once, where single groups would write each line in two passes over the rows,
 * and on rows a multiple of 1 KiB apart the line would leave L1 in between;
 * into bytes they are packed and stored together. */
static inline __attribute__((always_inline)) void
common_cols(__m256 src_scale, int ss, int ws, const fused_cols_t *c, int groups,
            const int32_t *acc, int64_t acc_ld, int64_t m, tsr_data_type_t dt,
            int legacy, int bias, int relu0, __m256 hi, char *dst,
            int64_t dst_ld) {
    const __m256 zero = _mm256_setzero_ps();
    for (int64_t r = 0; r < m; r++) {
        __m256 v[2];
        for (int g = 0; g < groups; g++)
            v[g] = scale_bias_8(
                    src_scale, &c[g],
                    _mm256_cvtepi32_ps(_mm256_loadu_si256(
                            (const __m256i *)(acc + r * acc_ld + 8 * g))),
                    legacy, bias, ss, ws);
        char *d = dst + r * dst_ld;
        if (dt == tsr_f32) {
            for (int g = 0; g < groups; g++) {
                if (relu0) /* 0 * v where v's sign bit is set */
                    v[g] = _mm256_blendv_ps(v[g], _mm256_mul_ps(zero, v[g]),
                                            v[g]);
                _mm256_storeu_ps((float *)d + 8 * g, v[g]);
            }
            continue;
        }
        const int is_u8 = dt == tsr_u8;
        const __m256i i0 = common_to_int(v[0], is_u8, relu0, hi);
        if (dt == tsr_s32) {
            /* common_to_int's int32 are s32's saturated values. */
            _mm256_storeu_si256((__m256i *)d, i0);
            if (groups == 2)
                _mm256_storeu_si256((__m256i *)d + 1,
                                    common_to_int(v[1], is_u8, relu0, hi));
            continue;
        }
        if (groups == 2) {
            const __m256i i1 = common_to_int(v[1], is_u8, relu0, hi);
            _mm_storeu_si128((__m128i *)d, pack_16_bytes(i0, i1, !is_u8));
        } else {
            _mm_storel_epi64((__m128i *)d, tsr_pack_8_bytes_avx2(i0, !is_u8));
        }
    }
}

/* common_cols compiled for each form, group count and destination
 * type. */
#define TSR_COMMON_FORM(groups, legacy, bias, relu0)                           \
    if (groups_ == (groups) &&                                                 \
        form - 1 == ((legacy) << 2 | (bias) << 1 | (relu0))) {                 \
        common_cols(k->src_scale, k->p.with_src_scale, k->p.with_wei_scale, c, \
                    groups, acc, acc_ld, m, dt_, legacy, bias, relu0, hi, dst, \
                    dst_ld);                                                   \
        return;                                                                \
    }
#define TSR_COMMON_GROUP_FORMS(groups)                                         \
    TSR_COMMON_FORM(groups, 0, 0, 0)                                           \
    TSR_COMMON_FORM(groups, 0, 0, 1)                                           \
    TSR_COMMON_FORM(groups, 0, 1, 0)                                           \
    TSR_COMMON_FORM(groups, 0, 1, 1)                                           \
    TSR_COMMON_FORM(groups, 1, 0, 0)                                           \
    TSR_COMMON_FORM(groups, 1, 0, 1)                                           \
    TSR_COMMON_FORM(groups, 1, 1, 0)                                           \
    TSR_COMMON_FORM(groups, 1, 1, 1)
#define TSR_COMMON_FORMS(dt_name, dt)                                          \
    static void common_cols_##dt_name(                                         \
            const fused_consts_t *k, const fused_cols_t *c, int groups_,       \
            const int32_t *acc, int64_t acc_ld, int64_t m, int form,           \
            __m256 hi, char *dst, int64_t dst_ld) {                            \
        const tsr_data_type_t dt_ = dt;                                        \
        TSR_COMMON_GROUP_FORMS(1)                                              \
        TSR_COMMON_GROUP_FORMS(2)                                              \
    }
TSR_COMMON_FORMS(u8, tsr_u8)
TSR_COMMON_FORMS(s8, tsr_s8)
TSR_COMMON_FORMS(f32, tsr_f32)
TSR_COMMON_FORMS(s32, tsr_s32)
#undef TSR_COMMON_FORM
#undef TSR_COMMON_GROUP_FORMS
#undef TSR_COMMON_FORMS

/* tsr_epilogue_rows16_fn compiled for each destination type and form. */
#define TSR_ROWS16(dt_name, dt, legacy, bias, relu0)                           \
    static void rows16_##dt_name##_##legacy##bias##relu0(                      \
            const tsr_epilogue_common_t *cs, int64_t col, const int32_t *acc,  \
            int64_t m, char *dst, int64_t dst_ld) {                            \
        const fused_cols_t c[2] = {fused_cols(&cs->f, col),                    \
                                   fused_cols(&cs->f, col + 8)};               \
        common_cols(_mm256_set1_ps(cs->f.src_scale),                           \
                    cs->f.plan->with_src_scale, cs->f.plan->with_wei_scale, c, \
                    2, acc, 16, m, dt, legacy, bias, relu0,                    \
                    _mm256_set1_ps(cs->hi), dst, dst_ld);                      \
    }
#define TSR_ROWS16_FORMS(dt_name, dt)                                          \
    TSR_ROWS16(dt_name, dt, 0, 0, 0)                                           \
    TSR_ROWS16(dt_name, dt, 0, 0, 1)                                           \
    TSR_ROWS16(dt_name, dt, 0, 1, 0)                                           \
    TSR_ROWS16(dt_name, dt, 0, 1, 1)                                           \
    TSR_ROWS16(dt_name, dt, 1, 0, 0)                                           \
    TSR_ROWS16(dt_name, dt, 1, 0, 1)                                           \
    TSR_ROWS16(dt_name, dt, 1, 1, 0)                                           \
    TSR_ROWS16(dt_name, dt, 1, 1, 1)                                           \
    static const tsr_epilogue_rows16_fn rows16_##dt_name[8] = {                \
            rows16_##dt_name##_000, rows16_##dt_name##_001,                    \
            rows16_##dt_name##_010, rows16_##dt_name##_011,                    \
            rows16_##dt_name##_100, rows16_##dt_name##_101,                    \
            rows16_##dt_name##_110, rows16_##dt_name##_111};
TSR_ROWS16_FORMS(u8, tsr_u8)
TSR_ROWS16_FORMS(s8, tsr_s8)
TSR_ROWS16_FORMS(f32, tsr_f32)
TSR_ROWS16_FORMS(s32, tsr_s32)
#undef TSR_ROWS16
#undef TSR_ROWS16_FORMS

tsr_epilogue_rows16_fn tsr_epilogue_common_rows16_avx2(tsr_data_type_t dt,
                                                       int form) {
    const tsr_epilogue_rows16_fn *t = dt == tsr_u8    ? rows16_u8
                                      : dt == tsr_s8  ? rows16_s8
                                      : dt == tsr_s32 ? rows16_s32
                                                      : rows16_f32;
    return t[form - 1];
}

void tsr_epilogue_fused_s32_rows_avx2(const tsr_epilogue_fused_args_t *f,
                                      const int32_t *acc, int64_t acc_ld,
                                      int64_t m, int64_t n, tsr_data_type_t dt,
                                      tsr_round_mode_t mode, void *dst,
                                      int64_t dst_ld) {
    fused_consts_t k;
    fused_consts(f, &k);
    const int64_t esize = (int64_t)tsr_data_type_size(dt);
    const int form = tsr_epilogue_common_form(&k.p, dt, mode);
    const __m256 lo = _mm256_set1_ps(tsr_dt_min_f32(dt));
    const __m256 hi = _mm256_set1_ps(tsr_dt_max_f32(dt));
    /* A sum is only planned for an f32 dst: `old` is then dst itself. */
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const fused_cols_t c = fused_cols(f, j);
        char *d = (char *)dst + j * esize;
        const int64_t ld = dst_ld * esize;
        if (form) {
            const int groups = j + 16 <= n ? 2 : 1;
            const fused_cols_t cs[2] = {c,
                                        groups == 2 ? fused_cols(f, j + 8) : c};
            if (dt == tsr_u8)
                common_cols_u8(&k, cs, groups, acc + j, acc_ld, m, form, hi, d,
                               ld);
            else if (dt == tsr_s8)
                common_cols_s8(&k, cs, groups, acc + j, acc_ld, m, form, hi, d,
                               ld);
            else if (dt == tsr_s32)
                common_cols_s32(&k, cs, groups, acc + j, acc_ld, m, form, hi, d,
                                ld);
            else
                common_cols_f32(&k, cs, groups, acc + j, acc_ld, m, form, hi, d,
                                ld);
            j += 8 * (groups - 1);
            continue;
        }
        switch (dt) {
        case tsr_u8:
            s32_cols_8(&k, &c, acc + j, acc_ld, m, tsr_u8, mode, lo, hi, d, ld);
            break;
        case tsr_s8:
            s32_cols_8(&k, &c, acc + j, acc_ld, m, tsr_s8, mode, lo, hi, d, ld);
            break;
        case tsr_s32:
            s32_cols_8(&k, &c, acc + j, acc_ld, m, tsr_s32, mode, lo, hi, d,
                       ld);
            break;
        default:
            s32_cols_8(&k, &c, acc + j, acc_ld, m, tsr_f32, mode, lo, hi, d,
                       ld);
            break;
        }
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t i = j; i < n; i++) {
            const int64_t at = r * dst_ld + i;
            const float old = dt == tsr_f32 ? ((const float *)dst)[at] : 0.f;
            tsr_store_f32_inline(
                    dt, dst, at,
                    fused_scalar(f, (float)acc[r * acc_ld + i], i, old), mode);
        }
}
