/* The AVX2 row kernel (contract in binary_kernel.h): 8 elements per
 * vector; a tail goes through the same vector code on a zero-padded copy.
 * The all-f32 and u8:s8 cases are compiled per op and type, the others
 * convert in registers with the data types read per vector. */
#include <immintrin.h>
#include <string.h>

#include "common/data_type.h"
#include "cpu/binary/binary_kernel.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE __m256 load8(tsr_data_type_t dt, const void *p,
                                  int64_t i) {
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
    case tsr_u8:
        return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                _mm_loadl_epi64((const __m128i *)((const uint8_t *)p + i))));
    default:
        return _mm256_loadu_ps((const float *)p + i);
    }
}

/* Rounded per the mode, NaN made 0, clamped to [lo, hi]: the integer
 * value tsr_store_f32 stores. */
static ALWAYS_INLINE __m256i to_int(__m256 v, tsr_round_mode_t mode, float lo,
                                    float hi) {
    v = mode == tsr_round_down
                ? _mm256_round_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
                : _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT |
                                             _MM_FROUND_NO_EXC);
    v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(lo)), _mm256_set1_ps(hi));
    return _mm256_cvtps_epi32(v);
}

/* Eight 32-bit lanes, each already in 16-bit range, as eight 16-bit
 * values. */
static ALWAYS_INLINE __m128i narrow16(__m256i v) {
    return _mm_packs_epi32(_mm256_castsi256_si128(v),
                           _mm256_extracti128_si256(v, 1));
}

static ALWAYS_INLINE void store8(tsr_data_type_t dt, void *p, int64_t i,
                                 __m256 v, tsr_round_mode_t mode) {
    switch (dt) {
    case tsr_s32:
        _mm256_storeu_si256((__m256i *)((int32_t *)p + i),
                            to_int(v, mode, -2147483648.f, TSR_S32_MAX_F32));
        break;
    case tsr_s8: {
        const __m128i w = narrow16(to_int(v, mode, -128.f, 127.f));
        _mm_storel_epi64((__m128i *)((int8_t *)p + i), _mm_packs_epi16(w, w));
        break;
    }
    case tsr_u8: {
        const __m128i w = narrow16(to_int(v, mode, 0.f, 255.f));
        _mm_storel_epi64((__m128i *)((uint8_t *)p + i), _mm_packus_epi16(w, w));
        break;
    }
    case tsr_bf16: {
        /* Nearest even on the dropped 16 bits; NaN kept NaN (quiet). */
        const __m256i u = _mm256_castps_si256(v);
        const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16),
                                             _mm256_set1_epi32(1));
        const __m256i rounded = _mm256_srli_epi32(
                _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)),
                                 odd),
                16);
        const __m256i nan = _mm256_cmpgt_epi32(
                _mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)),
                _mm256_set1_epi32(0x7f800000));
        const __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(u, 16),
                                              _mm256_set1_epi32(0x40));
        const __m256i r = _mm256_blendv_epi8(rounded, quiet, nan);
        /* Unsigned 16-bit values: packus keeps them, lane order fixed by
         * the permute. */
        const __m256i packed =
                _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0xd8);
        _mm_storeu_si128((__m128i *)((uint16_t *)p + i),
                         _mm256_castsi256_si128(packed));
        break;
    }
    default:
        _mm256_storeu_ps((float *)p + i, v);
        break;
    }
}

/* A macro: clang wants the predicate a constant before inlining. */
#define cmp_one(a, b, pred)                                                    \
    _mm256_and_ps(_mm256_cmp_ps((a), (b), (pred)), _mm256_set1_ps(1.f))

static ALWAYS_INLINE __m256 op8(tsr_alg_kind_t op, __m256 a, __m256 b) {
    switch (op) {
    case tsr_binary_add:
        return _mm256_add_ps(a, b);
    case tsr_binary_sub:
        return _mm256_sub_ps(a, b);
    case tsr_binary_mul:
        return _mm256_mul_ps(a, b);
    case tsr_binary_div:
        return _mm256_div_ps(a, b);
    /* minps / maxps give the second operand when the first does not win:
     * exactly a < b ? a : b and a > b ? a : b, NaN included. */
    case tsr_binary_min:
        return _mm256_min_ps(a, b);
    case tsr_binary_max:
        return _mm256_max_ps(a, b);
    case tsr_binary_ge:
        return cmp_one(a, b, _CMP_GE_OQ);
    case tsr_binary_gt:
        return cmp_one(a, b, _CMP_GT_OQ);
    case tsr_binary_le:
        return cmp_one(a, b, _CMP_LE_OQ);
    case tsr_binary_lt:
        return cmp_one(a, b, _CMP_LT_OQ);
    case tsr_binary_eq:
        return cmp_one(a, b, _CMP_EQ_OQ);
    case tsr_binary_ne:
        return cmp_one(a, b, _CMP_NEQ_UQ);
    default: /* tsr_eltwise_relu: PReLU with b the weights */
        return _mm256_blendv_ps(
                _mm256_mul_ps(b, a), a,
                _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GT_OQ));
    }
}

typedef struct {
    __m256 sc0, sc1, b_row;
} consts_t;

static ALWAYS_INLINE void vec8(const binary_kernel_t *k, const consts_t *c,
                               tsr_alg_kind_t op, tsr_data_type_t dt0,
                               tsr_data_type_t dt1, tsr_data_type_t dtd,
                               const void *s0, const void *s1, void *d,
                               int64_t i, int nt) {
    const __m256 a = _mm256_mul_ps(load8(dt0, s0, i), c->sc0);
    const __m256 b =
            k->src1_bcast ? c->b_row : _mm256_mul_ps(load8(dt1, s1, i), c->sc1);
    if (nt)
        _mm256_stream_ps((float *)d + i, op8(op, a, b));
    else
        store8(dtd, d, i, op8(op, a, b), k->round_mode);
}

static ALWAYS_INLINE void row(const binary_kernel_t *k, tsr_alg_kind_t op,
                              tsr_data_type_t dt0, tsr_data_type_t dt1,
                              tsr_data_type_t dtd, const char *s0,
                              const char *s1, char *d, int64_t n) {
    const consts_t c = {
            _mm256_set1_ps(k->scale0), _mm256_set1_ps(k->scale1),
            _mm256_set1_ps(k->scale1 * tsr_load_f32_inline(dt1, s1, 0))};
    int64_t i = 0;
    if (k->nt_store && dtd == tsr_f32 && ((uintptr_t)d & 3) == 0) {
        /* Plain stores up to the first 32-byte boundary of dst. */
        const int64_t head = (int64_t)((32 - ((uintptr_t)d & 31)) & 31) / 4;
        if (head < n) {
            for (; i < head; i++) {
                const float a = k->scale0 * tsr_load_f32_inline(dt0, s0, i);
                const float b =
                        k->src1_bcast
                                ? k->scale1 * tsr_load_f32_inline(dt1, s1, 0)
                                : k->scale1 * tsr_load_f32_inline(dt1, s1, i);
                ((float *)d)[i] = binary_kernel_op(op, a, b);
            }
            for (; i + 8 <= n; i += 8)
                vec8(k, &c, op, dt0, dt1, dtd, s0, s1, d, i, 1);
        }
    }
    for (; i + 8 <= n; i += 8)
        vec8(k, &c, op, dt0, dt1, dtd, s0, s1, d, i, 0);
    if (i < n) {
        /* The tail through zero-padded copies of whole vectors. */
        const int64_t left = n - i;
        const size_t es0 = tsr_data_type_size(dt0);
        const size_t es1 = tsr_data_type_size(dt1);
        const size_t esd = tsr_data_type_size(dtd);
        _Alignas(32) char b0[32] = {0}, b1[32] = {0}, bd[32];
        memcpy(b0, s0 + i * (int64_t)es0, (size_t)left * es0);
        if (!k->src1_bcast)
            memcpy(b1, s1 + i * (int64_t)es1, (size_t)left * es1);
        vec8(k, &c, op, dt0, dt1, dtd, b0, b1, bd, 0, 0);
        memcpy(d + i * (int64_t)esd, bd, (size_t)left * esd);
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

void binary_kernel_rows_avx2(const binary_kernel_t *k, const void *src0,
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
