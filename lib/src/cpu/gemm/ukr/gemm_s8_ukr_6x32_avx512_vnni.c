/* AVX-512 VNNI int8 micro-kernels: 6 rows x 32 columns of s32 in 12 zmm
 * accumulators on the u8 x s8 quad layout. vpdpbusd multiplies four u8
 * values of A with four s8 values of B and adds the four products to the
 * s32 lane without intermediate saturation (|sum| <= 4 * 255 * 128), so it
 * is exact for any B; s8 sources reach it shifted by +128 (by the packing,
 * or by shift_rows into a block of u8 rows), which the frame compensates
 * with -128 * colsum(B).
 *
 * The same entries as the AVX2 quad kernel: packed A, A read in place
 * (u8 rows), and the taps of a direct convolution, the last two storing
 * their final values straight into dst through the epilogue's common
 * form. With 32 registers the accumulators, both B vectors and the
 * broadcast fit with room to spare, so plain intrinsics suffice. */
#include <immintrin.h>
#include <string.h>

#include "cpu/gemm/gemm_s8_impl.h"
#include "cpu/gemm/ukr/gemm_s8_store_avx512.h"

#define MR 6
#define NR 32

/* The 32-bit word of a K quad at p, broadcast to every lane. */
static inline __attribute__((always_inline)) __m512i
broadcast_quad(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, sizeof(v));
    return _mm512_set1_epi32(v);
}

void tsr_gemm_s8_shift_rows_avx512_vnni(void *dst, int64_t ld_dst,
                                        const void *const *rows, int64_t m,
                                        int64_t n) {
    const __m512i flip = _mm512_set1_epi32((int)0x80808080u);
    const __mmask64 tail = (1ull << (n % 64)) - 1;
    for (int64_t r = 0; r < m; ++r) {
        uint8_t *d = (uint8_t *)dst + r * ld_dst;
        const uint8_t *s = rows[r];
        int64_t i = 0;
        for (; i + 64 <= n; i += 64)
            _mm512_storeu_si512(
                    d + i, _mm512_xor_si512(_mm512_loadu_si512(s + i), flip));
        if (i < n)
            _mm512_mask_storeu_epi8(
                    d + i, tail,
                    _mm512_xor_si512(_mm512_maskz_loadu_epi8(tail, s + i),
                                     flip));
    }
}

/* The 12 accumulators of a 6 x 32 tile, zero. */
#define TSR_UKR_ZERO_ACCS                                                      \
    __m512i c00 = _mm512_setzero_si512(), c01 = _mm512_setzero_si512();        \
    __m512i c10 = _mm512_setzero_si512(), c11 = _mm512_setzero_si512();        \
    __m512i c20 = _mm512_setzero_si512(), c21 = _mm512_setzero_si512();        \
    __m512i c30 = _mm512_setzero_si512(), c31 = _mm512_setzero_si512();        \
    __m512i c40 = _mm512_setzero_si512(), c41 = _mm512_setzero_si512();        \
    __m512i c50 = _mm512_setzero_si512(), c51 = _mm512_setzero_si512()

/* Row i of the tile += the quad at `p` . (b0, b1). */
#define TSR_UKR_ROW(p, acc0, acc1)                                             \
    do {                                                                       \
        const __m512i av = broadcast_quad(p);                                  \
        acc0 = _mm512_dpbusd_epi32(acc0, av, b0);                              \
        acc1 = _mm512_dpbusd_epi32(acc1, av, b1);                              \
    } while (0)

/* One K quad over the first `rows` rows (a literal at every use), the
 * quad of row i at ROW(i), B's 32 columns at b. */
#define TSR_UKR_STEP(rows, ROW, b)                                             \
    do {                                                                       \
        const __m512i b0 = _mm512_loadu_si512((const void *)(b));              \
        const __m512i b1 = _mm512_loadu_si512((const void *)((b) + 64));       \
        TSR_UKR_ROW(ROW(0), c00, c01);                                         \
        if ((rows) > 1)                                                        \
            TSR_UKR_ROW(ROW(1), c10, c11);                                     \
        if ((rows) > 2)                                                        \
            TSR_UKR_ROW(ROW(2), c20, c21);                                     \
        if ((rows) > 3)                                                        \
            TSR_UKR_ROW(ROW(3), c30, c31);                                     \
        if ((rows) > 4)                                                        \
            TSR_UKR_ROW(ROW(4), c40, c41);                                     \
        if ((rows) > 5)                                                        \
            TSR_UKR_ROW(ROW(5), c50, c51);                                     \
    } while (0)

/* Stores rows 0 .. m - 1 (m >= 1) of the tile, n columns (1 to 32). */
#define TSR_UKR_STORE_C(accumulate, init, c, ldc, m, n)                        \
    do {                                                                       \
        __mmask16 k0, k1;                                                      \
        tsr_s8_row_masks(n, &k0, &k1);                                         \
        tsr_s8_update_row(accumulate, init, c, c00, c01, k0, k1);              \
        if ((m) > 1)                                                           \
            tsr_s8_update_row(accumulate, init, (c) + (ldc), c10, c11, k0,     \
                              k1);                                             \
        if ((m) > 2)                                                           \
            tsr_s8_update_row(accumulate, init, (c) + 2 * (ldc), c20, c21, k0, \
                              k1);                                             \
        if ((m) > 3)                                                           \
            tsr_s8_update_row(accumulate, init, (c) + 3 * (ldc), c30, c31, k0, \
                              k1);                                             \
        if ((m) > 4)                                                           \
            tsr_s8_update_row(accumulate, init, (c) + 4 * (ldc), c40, c41, k0, \
                              k1);                                             \
        if ((m) > 5)                                                           \
            tsr_s8_update_row(accumulate, init, (c) + 5 * (ldc), c50, c51, k0, \
                              k1);                                             \
    } while (0)

/* The final values of a full-width tile of a single pass over K (plus
 * the column init) through the epilogue's common form into td's dst:
 * staged in L1, where its rows32 (set on every CPU that runs this
 * kernel) reads them at once. */
#define TSR_UKR_STAGE_ROW(i, acc0, acc1)                                       \
    do {                                                                       \
        _mm512_store_si512(staged + 32 * (i), _mm512_add_epi32(acc0, i0));     \
        _mm512_store_si512(staged + 32 * (i) + 16,                             \
                           _mm512_add_epi32(acc1, i1));                        \
    } while (0)
#define TSR_UKR_STORE_DST(td, init, m)                                         \
    do {                                                                       \
        int32_t staged[MR * NR] __attribute__((aligned(64)));                  \
        const __m512i i0 = (init) ? _mm512_loadu_si512((const void *)(init))   \
                                  : _mm512_setzero_si512();                    \
        const __m512i i1 =                                                     \
                (init) ? _mm512_loadu_si512((const void *)((init) + 16))       \
                       : _mm512_setzero_si512();                               \
        TSR_UKR_STAGE_ROW(0, c00, c01);                                        \
        if ((m) > 1)                                                           \
            TSR_UKR_STAGE_ROW(1, c10, c11);                                    \
        if ((m) > 2)                                                           \
            TSR_UKR_STAGE_ROW(2, c20, c21);                                    \
        if ((m) > 3)                                                           \
            TSR_UKR_STAGE_ROW(3, c30, c31);                                    \
        if ((m) > 4)                                                           \
            TSR_UKR_STAGE_ROW(4, c40, c41);                                    \
        if ((m) > 5)                                                           \
            TSR_UKR_STAGE_ROW(5, c50, c51);                                    \
        tsr_gemm_s8_store_staged((td), (td)->common->rows32, staged, NR, m);   \
    } while (0)

/* The store of an in-place tile: into td's dst when given (a single pass
 * over K), else C. */
#define TSR_UKR_STORE(accumulate)                                              \
    do {                                                                       \
        if (td)                                                                \
            TSR_UKR_STORE_DST(td, init, m);                                    \
        else                                                                   \
            TSR_UKR_STORE_C(accumulate, init, c, ldc, m, n);                   \
    } while (0)

/* Packed A: the quad of row i of group p at a + p * MR * 4 + 4 * i. */
#define TSR_PACKED_ROW(i) (a + 4 * (i))
#define TSR_PACKED_BODY(rows)                                                  \
    const uint8_t *a = a_;                                                     \
    const int8_t *b = b_;                                                      \
    TSR_UKR_ZERO_ACCS;                                                         \
    for (int64_t p = 0; p < kgroups; ++p) {                                    \
        TSR_UKR_STEP(rows, TSR_PACKED_ROW, b);                                 \
        a += MR * 4;                                                           \
        b += NR * 4;                                                           \
    }                                                                          \
    TSR_UKR_STORE_C(accumulate, init, c, ldc, m, n)

void tsr_gemm_s8_ukr_6x32_avx512_vnni(int64_t kgroups, const void *a_,
                                      const void *b_, int accumulate,
                                      const int32_t *init, int32_t *c,
                                      int64_t ldc, int64_t m, int64_t n) {
    TSR_PACKED_BODY(MR);
}

/* Tail tiles of m < 6 rows compute only the rows they have. */
void tsr_gemm_s8_ukr_6x32_tail_avx512_vnni(int64_t kgroups, const void *a_,
                                           const void *b_, int accumulate,
                                           const int32_t *init, int32_t *c,
                                           int64_t ldc, int64_t m, int64_t n) {
    TSR_GEMM_S8_BY_ROWS(TSR_PACKED_BODY)
}

/* A read in place: row i of the tile at a + i * lda. */
#define TSR_LDA_ROW(i) (a + (i)*lda + k)
#define TSR_A_ROWS_BODY(rows)                                                  \
    TSR_UKR_ZERO_ACCS;                                                         \
    for (int64_t k = 0; k < kgroups * 4; k += 4)                               \
        TSR_UKR_STEP(rows, TSR_LDA_ROW, b + k * NR);                           \
    TSR_UKR_STORE(accumulate)

void tsr_gemm_s8_ukr_6x32_a_rows_avx512_vnni(
        int64_t kgroups, const void *a_, int64_t lda, const void *b_,
        int accumulate, const int32_t *init, int32_t *c_, int64_t ldc,
        int64_t rows, int64_t n, const tsr_gemm_s8_tile_dst_t *td_) {
    TSR_GEMM_S8_A_ROWS_TILES(TSR_A_ROWS_BODY)
}

/* The taps of a direct convolution: per listed tap, row i at r[i]. A
 * tile of fewer rows than six computes only the rows it needs. */
#define TSR_TAP_ROW(i) (r##i + k)
#define TSR_TAPS_BODY(rows)                                                    \
    TSR_UKR_ZERO_ACCS;                                                         \
    for (int64_t tap = 0; tap < ntaps; ++tap) {                                \
        const void *const *r = rows_ + tap * MR;                               \
        const uint8_t *r0 = r[0], *r1 = r[(rows) > 1 ? 1 : 0];                 \
        const uint8_t *r2 = r[(rows) > 2 ? 2 : 0],                             \
                      *r3 = r[(rows) > 3 ? 3 : 0];                             \
        const uint8_t *r4 = r[(rows) > 4 ? 4 : 0],                             \
                      *r5 = r[(rows) > 5 ? 5 : 0];                             \
        const int8_t *b = (const int8_t *)b_ + taps[tap] * kgroups * NR * 4;   \
        for (int64_t k = 0; k < kgroups * 4; k += 4)                           \
            TSR_UKR_STEP(rows, TSR_TAP_ROW, b + k * NR);                       \
    }                                                                          \
    TSR_UKR_STORE(0)

void tsr_gemm_s8_ukr_6x32_taps_avx512_vnni(int64_t ntaps, const int32_t *taps,
                                           const void *const *rows_,
                                           int64_t kgroups, const void *b_,
                                           const int32_t *init, int32_t *c,
                                           int64_t ldc, int64_t m, int64_t n,
                                           const tsr_gemm_s8_tile_dst_t *td) {
    TSR_GEMM_S8_BY_ROWS(TSR_TAPS_BODY)
}
