/* AVX-512 VNNI int8 micro-kernel: 6 rows x 32 columns of s32 in 12 zmm
 * accumulators, the AVX2 6x16 kernel widened to 16 lanes on the u8 x s8
 * quad layout. vpdpbusd multiplies four u8 values of A with four s8 values
 * of B and adds the four products to the s32 lane without intermediate
 * saturation (|sum| <= 4 * 255 * 128), so it is exact; s8 sources reach it
 * shifted by +128, which the frame compensates with -128 * colsum(B). */
#include <immintrin.h>
#include <string.h>

#include "cpu/gemm/gemm_s8_impl.h"

#define MR 6
#define NR 32

/* The 32-bit word holding the K quad of row `i` of a packed A group. */
static inline __m512i broadcast_quad(const uint8_t *a, int i) {
    int32_t v;
    memcpy(&v, a + 4 * i, sizeof(v));
    return _mm512_set1_epi32(v);
}

/* One K quad: row i of the tile += a quad i . b quads of columns 0..31. */
#define TSR_UKR_STEP(a, b)                                                     \
    do {                                                                       \
        const __m512i b0 = _mm512_loadu_si512((const void *)(b));              \
        const __m512i b1 = _mm512_loadu_si512((const void *)((b) + 64));       \
        __m512i av = broadcast_quad(a, 0);                                     \
        c00 = _mm512_dpbusd_epi32(c00, av, b0);                                \
        c01 = _mm512_dpbusd_epi32(c01, av, b1);                                \
        av = broadcast_quad(a, 1);                                             \
        c10 = _mm512_dpbusd_epi32(c10, av, b0);                                \
        c11 = _mm512_dpbusd_epi32(c11, av, b1);                                \
        av = broadcast_quad(a, 2);                                             \
        c20 = _mm512_dpbusd_epi32(c20, av, b0);                                \
        c21 = _mm512_dpbusd_epi32(c21, av, b1);                                \
        av = broadcast_quad(a, 3);                                             \
        c30 = _mm512_dpbusd_epi32(c30, av, b0);                                \
        c31 = _mm512_dpbusd_epi32(c31, av, b1);                                \
        av = broadcast_quad(a, 4);                                             \
        c40 = _mm512_dpbusd_epi32(c40, av, b0);                                \
        c41 = _mm512_dpbusd_epi32(c41, av, b1);                                \
        av = broadcast_quad(a, 5);                                             \
        c50 = _mm512_dpbusd_epi32(c50, av, b0);                                \
        c51 = _mm512_dpbusd_epi32(c51, av, b1);                                \
    } while (0)

/* Row update as in the AVX2 kernel, with lane masks for the tails. */
static inline void update_row(int accumulate, const int32_t *init, int32_t *c,
                              __m512i acc0, __m512i acc1, __mmask16 k0,
                              __mmask16 k1) {
    const int32_t *base = accumulate ? c : init;
    if (base) {
        acc0 = _mm512_add_epi32(acc0, _mm512_maskz_loadu_epi32(k0, base));
        acc1 = _mm512_add_epi32(acc1, _mm512_maskz_loadu_epi32(k1, base + 16));
    }
    _mm512_mask_storeu_epi32(c, k0, acc0);
    _mm512_mask_storeu_epi32(c + 16, k1, acc1);
}

void tsr_gemm_s8_ukr_6x32_avx512_vnni(int64_t kgroups, const void *a_,
                                      const void *b_, int accumulate,
                                      const int32_t *init, int32_t *c,
                                      int64_t ldc, int64_t m, int64_t n) {
    const uint8_t *a = a_;
    const int8_t *b = b_;
    __m512i c00 = _mm512_setzero_si512(), c01 = _mm512_setzero_si512();
    __m512i c10 = _mm512_setzero_si512(), c11 = _mm512_setzero_si512();
    __m512i c20 = _mm512_setzero_si512(), c21 = _mm512_setzero_si512();
    __m512i c30 = _mm512_setzero_si512(), c31 = _mm512_setzero_si512();
    __m512i c40 = _mm512_setzero_si512(), c41 = _mm512_setzero_si512();
    __m512i c50 = _mm512_setzero_si512(), c51 = _mm512_setzero_si512();

    for (int64_t p = 0; p < kgroups; ++p) {
        TSR_UKR_STEP(a, b);
        a += MR * 4;
        b += NR * 4;
    }

    /* n >= 1 and m >= 1 always; rows past m are skipped. */
    const __mmask16 k0 = (__mmask16)((1u << (n < 16 ? n : 16)) - 1u);
    const __mmask16 k1 = (__mmask16)((1u << (n > 16 ? n - 16 : 0)) - 1u);
    update_row(accumulate, init, c, c00, c01, k0, k1);
    if (m > 1)
        update_row(accumulate, init, c + ldc, c10, c11, k0, k1);
    if (m > 2)
        update_row(accumulate, init, c + 2 * ldc, c20, c21, k0, k1);
    if (m > 3)
        update_row(accumulate, init, c + 3 * ldc, c30, c31, k0, k1);
    if (m > 4)
        update_row(accumulate, init, c + 4 * ldc, c40, c41, k0, k1);
    if (m > 5)
        update_row(accumulate, init, c + 5 * ldc, c50, c51, k0, k1);
}
