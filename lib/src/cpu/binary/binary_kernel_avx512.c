/* The AVX-512 row kernel (contract in binary_kernel.h): 16 elements per
 * vector, tails under a mask. The all-f32 and u8:s8 cases are compiled
 * per op and type, the others convert in registers with the data types
 * read per vector. */
#include <immintrin.h>

#include "common/data_type.h"
#include "cpu/binary/binary_kernel.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE __m512 load16(tsr_data_type_t dt, const void *p, int64_t i,
                                   __mmask16 m) {
    switch (dt) {
    case tsr_s32:
        return _mm512_cvtepi32_ps(
                _mm512_maskz_loadu_epi32(m, (const int32_t *)p + i));
    case tsr_bf16:
        return _mm512_castsi512_ps(_mm512_slli_epi32(
                _mm512_cvtepu16_epi32(
                        _mm256_maskz_loadu_epi16(m, (const uint16_t *)p + i)),
                16));
    case tsr_s8:
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(
                _mm_maskz_loadu_epi8(m, (const int8_t *)p + i)));
    case tsr_u8:
        return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(
                _mm_maskz_loadu_epi8(m, (const uint8_t *)p + i)));
    default:
        return _mm512_maskz_loadu_ps(m, (const float *)p + i);
    }
}

/* Rounded per the mode, NaN made 0, clamped to [lo, hi]: the integer
 * value tsr_store_f32 stores. */
static ALWAYS_INLINE __m512i to_int(__m512 v, tsr_round_mode_t mode, float lo,
                                    float hi) {
    v = mode == tsr_round_down
                ? _mm512_roundscale_ps(v, _MM_FROUND_TO_NEG_INF |
                                                  _MM_FROUND_NO_EXC)
                : _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT |
                                                  _MM_FROUND_NO_EXC);
    v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(lo)), _mm512_set1_ps(hi));
    return _mm512_cvtps_epi32(v);
}

static ALWAYS_INLINE void store16(tsr_data_type_t dt, void *p, int64_t i,
                                  __m512 v, __mmask16 m,
                                  tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_s32:
        _mm512_mask_storeu_epi32(
                (int32_t *)p + i, m,
                to_int(v, mode, -2147483648.f, TSR_S32_MAX_F32));
        break;
    /* Narrowed in a register, then a byte-masked store: cheaper than the
     * narrowing store to memory. */
    case tsr_s8:
        _mm_mask_storeu_epi8(
                (int8_t *)p + i, m,
                _mm512_cvtepi32_epi8(to_int(v, mode, -128.f, 127.f)));
        break;
    case tsr_u8:
        _mm_mask_storeu_epi8((uint8_t *)p + i, m,
                             _mm512_cvtepi32_epi8(to_int(v, mode, 0.f, 255.f)));
        break;
    case tsr_bf16: {
        /* Nearest even on the dropped 16 bits; NaN kept NaN (quiet). */
        const __m512i u = _mm512_castps_si512(v);
        const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16),
                                             _mm512_set1_epi32(1));
        const __m512i rounded = _mm512_srli_epi32(
                _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)),
                                 odd),
                16);
        const __mmask16 nan = _mm512_cmpgt_epi32_mask(
                _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)),
                _mm512_set1_epi32(0x7f800000));
        const __m512i quiet = _mm512_or_si512(_mm512_srli_epi32(u, 16),
                                              _mm512_set1_epi32(0x40));
        _mm512_mask_cvtepi32_storeu_epi16(
                (uint16_t *)p + i, m,
                _mm512_mask_blend_epi32(nan, rounded, quiet));
        break;
    }
    default:
        _mm512_mask_storeu_ps((float *)p + i, m, v);
        break;
    }
}

static ALWAYS_INLINE __m512 op16(tsr_alg_kind_t op, __m512 a, __m512 b) {
    const __m512 one = _mm512_set1_ps(1.f);
    switch (op) {
    case tsr_binary_add:
        return _mm512_add_ps(a, b);
    case tsr_binary_sub:
        return _mm512_sub_ps(a, b);
    case tsr_binary_mul:
        return _mm512_mul_ps(a, b);
    case tsr_binary_div:
        return _mm512_div_ps(a, b);
    /* minps / maxps give the second operand when the first does not win:
     * exactly a < b ? a : b and a > b ? a : b, NaN included. */
    case tsr_binary_min:
        return _mm512_min_ps(a, b);
    case tsr_binary_max:
        return _mm512_max_ps(a, b);
    case tsr_binary_ge:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_GE_OQ), one);
    case tsr_binary_gt:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ), one);
    case tsr_binary_le:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_LE_OQ), one);
    case tsr_binary_lt:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ), one);
    case tsr_binary_eq:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), one);
    case tsr_binary_ne:
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ), one);
    default: /* tsr_eltwise_relu: PReLU with b the weights */
        return _mm512_mask_blend_ps(
                _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GT_OQ),
                _mm512_mul_ps(b, a), a);
    }
}

static ALWAYS_INLINE __mmask16 tail_mask(int64_t left) {
    return left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1u);
}

/* One row; with the types given as constants the conversions vanish. */
static ALWAYS_INLINE void row(const binary_kernel_t *k, tsr_alg_kind_t op,
                              tsr_data_type_t dt0, tsr_data_type_t dt1,
                              tsr_data_type_t dtd, const void *s0,
                              const void *s1, void *d, int64_t n) {
    const __m512 sc0 = _mm512_set1_ps(k->scale0);
    const __m512 sc1 = _mm512_set1_ps(k->scale1);
    const __m512 b_row =
            _mm512_set1_ps(k->scale1 * tsr_load_f32_inline(dt1, s1, 0));
    int64_t i = 0;
    if (k->nt_store && dtd == tsr_f32) {
        /* Up to the first 64-byte boundary of dst, then whole lines. */
        const int64_t head = (int64_t)((64 - ((uintptr_t)d & 63)) & 63) / 4;
        const int64_t aligned = ((uintptr_t)d & 3) == 0 && head < n ? head : n;
        for (; i < aligned; i += 16) {
            const __mmask16 m = tail_mask(aligned - i);
            const __m512 a = _mm512_mul_ps(load16(dt0, s0, i, m), sc0);
            const __m512 b =
                    k->src1_bcast ? b_row
                                  : _mm512_mul_ps(load16(dt1, s1, i, m), sc1);
            store16(dtd, d, i, op16(op, a, b), m, k->round_mode);
        }
        i = aligned;
        for (; i + 16 <= n; i += 16) {
            const __m512 a = _mm512_mul_ps(load16(dt0, s0, i, 0xffff), sc0);
            const __m512 b =
                    k->src1_bcast
                            ? b_row
                            : _mm512_mul_ps(load16(dt1, s1, i, 0xffff), sc1);
            _mm512_stream_ps((float *)d + i, op16(op, a, b));
        }
    }
    for (; i < n; i += 16) {
        const __mmask16 m = tail_mask(n - i);
        const __m512 a = _mm512_mul_ps(load16(dt0, s0, i, m), sc0);
        const __m512 b = k->src1_bcast
                                 ? b_row
                                 : _mm512_mul_ps(load16(dt1, s1, i, m), sc1);
        store16(dtd, d, i, op16(op, a, b), m, k->round_mode);
    }
}

static ALWAYS_INLINE void rows_of(const binary_kernel_t *k, tsr_alg_kind_t op,
                                  tsr_data_type_t dt0, tsr_data_type_t dt1,
                                  tsr_data_type_t dtd, const char *s0,
                                  const char *s1, char *d, int64_t rows,
                                  int64_t n) {
    const int64_t es0 = (int64_t)tsr_data_type_size(dt0);
    const int64_t es1 = (int64_t)tsr_data_type_size(dt1);
    const int64_t esd = (int64_t)tsr_data_type_size(dtd);
    for (int64_t r = 0; r < rows; r++)
        row(k, op, dt0, dt1, dtd, s0 + r * k->ld * es0,
            s1 + r * k->src1_ld * es1, d + r * k->ld * esd, n);
}

/* The op as a constant, the types as given. */
static ALWAYS_INLINE void rows_typed(const binary_kernel_t *k,
                                     tsr_data_type_t dt0, tsr_data_type_t dt1,
                                     tsr_data_type_t dtd, const char *s0,
                                     const char *s1, char *d, int64_t rows,
                                     int64_t n) {
    switch (k->op) {
    case tsr_binary_add:
        rows_of(k, tsr_binary_add, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_sub:
        rows_of(k, tsr_binary_sub, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_mul:
        rows_of(k, tsr_binary_mul, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_div:
        rows_of(k, tsr_binary_div, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_min:
        rows_of(k, tsr_binary_min, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_max:
        rows_of(k, tsr_binary_max, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_ge:
        rows_of(k, tsr_binary_ge, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_gt:
        rows_of(k, tsr_binary_gt, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_le:
        rows_of(k, tsr_binary_le, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_lt:
        rows_of(k, tsr_binary_lt, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_eq:
        rows_of(k, tsr_binary_eq, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    case tsr_binary_ne:
        rows_of(k, tsr_binary_ne, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    default:
        rows_of(k, tsr_eltwise_relu, dt0, dt1, dtd, s0, s1, d, rows, n);
        break;
    }
}

static void rows_f32(const binary_kernel_t *k, const char *s0, const char *s1,
                     char *d, int64_t rows, int64_t n) {
    rows_typed(k, tsr_f32, tsr_f32, tsr_f32, s0, s1, d, rows, n);
}

/* u8 with s8 (int8 activations and weights) into u8, s8 or f32, the
 * types as constants: the conversions compile to a few instructions. */
static void rows_u8_s8(const binary_kernel_t *k, const char *s0, const char *s1,
                       char *d, int64_t rows, int64_t n) {
    switch (k->dst_dt) {
    case tsr_u8:
        rows_typed(k, tsr_u8, tsr_s8, tsr_u8, s0, s1, d, rows, n);
        break;
    case tsr_s8:
        rows_typed(k, tsr_u8, tsr_s8, tsr_s8, s0, s1, d, rows, n);
        break;
    default:
        rows_typed(k, tsr_u8, tsr_s8, tsr_f32, s0, s1, d, rows, n);
        break;
    }
}

static int is_u8_s8(const binary_kernel_t *k) {
    return k->src0_dt == tsr_u8 && k->src1_dt == tsr_s8 &&
           (k->dst_dt == tsr_u8 || k->dst_dt == tsr_s8 || k->dst_dt == tsr_f32);
}

static void rows_mixed(const binary_kernel_t *k, const char *s0, const char *s1,
                       char *d, int64_t rows, int64_t n) {
    rows_typed(k, k->src0_dt, k->src1_dt, k->dst_dt, s0, s1, d, rows, n);
}

void binary_kernel_rows_avx512(const binary_kernel_t *k, const void *src0,
                               const void *src1, void *dst, int64_t rows,
                               int64_t n) {
    if (k->src0_dt == tsr_f32 && k->src1_dt == tsr_f32 && k->dst_dt == tsr_f32)
        rows_f32(k, src0, src1, dst, rows, n);
    else if (is_u8_s8(k))
        rows_u8_s8(k, src0, src1, dst, rows, n);
    else
        rows_mixed(k, src0, src1, dst, rows, n);
    if (k->nt_store)
        _mm_sfence();
}
