/* AVX-512 packing of the quad layout's 32-wide B panels from B as stored
 * (K rows of contiguous columns, the matmul's and inner product's plain
 * weights): a K quad of two panels per step, interleaved byte and word
 * wise within 128-bit lanes and put in order by lane shuffles. The AVX2
 * form (tsr_gemm_s8_pack_avx2) does every other case. */
#include <immintrin.h>

#include "common/utils.h"
#include "cpu/gemm/gemm_s8_impl.h"

#define WIDTH 32

/* Quad q (K rows k .. k + 3 at src, row stride stride_p) of two
 * neighbouring 32-column panels, from whole 64-byte rows: 128 bytes at
 * d0 (columns 0-31) and at d1 (columns 32-63). Reading each row's line
 * once, not once per panel, is what pays: the packing waits on the
 * strided rows, not on its instructions. */
static inline void pack_quad_two_panels(const uint8_t *src, int64_t stride_p,
                                        uint8_t *d0, uint8_t *d1) {
    __m512i r[4];
    for (int t = 0; t < 4; ++t)
        r[t] = _mm512_loadu_si512((const void *)(src + t * stride_p));
    /* Per lane of 16 columns: the 4 rows' bytes of each column together,
     * columns 0-3 in q0, 4-7 in q1, 8-11 in q2, 12-15 in q3. */
    const __m512i p01lo = _mm512_unpacklo_epi8(r[0], r[1]);
    const __m512i p01hi = _mm512_unpackhi_epi8(r[0], r[1]);
    const __m512i p23lo = _mm512_unpacklo_epi8(r[2], r[3]);
    const __m512i p23hi = _mm512_unpackhi_epi8(r[2], r[3]);
    const __m512i q0 = _mm512_unpacklo_epi16(p01lo, p23lo);
    const __m512i q1 = _mm512_unpackhi_epi16(p01lo, p23lo);
    const __m512i q2 = _mm512_unpacklo_epi16(p01hi, p23hi);
    const __m512i q3 = _mm512_unpackhi_epi16(p01hi, p23hi);
    /* Lane i of output j is lane j of q_i (a 4 x 4 transpose of lanes):
     * output j holds columns 16j .. 16j + 15 in order. */
    const __m512i t0 = _mm512_shuffle_i64x2(q0, q1, 0x44);
    const __m512i t1 = _mm512_shuffle_i64x2(q2, q3, 0x44);
    const __m512i t2 = _mm512_shuffle_i64x2(q0, q1, 0xee);
    const __m512i t3 = _mm512_shuffle_i64x2(q2, q3, 0xee);
    _mm512_storeu_si512(d0, _mm512_shuffle_i64x2(t0, t1, 0x88));
    _mm512_storeu_si512(d0 + 64, _mm512_shuffle_i64x2(t0, t1, 0xdd));
    _mm512_storeu_si512(d1, _mm512_shuffle_i64x2(t2, t3, 0x88));
    _mm512_storeu_si512(d1 + 64, _mm512_shuffle_i64x2(t2, t3, 0xdd));
}

void tsr_gemm_s8_pack_avx512(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                             const void *src, int64_t stride_x,
                             int64_t stride_p, int64_t lines, int64_t depth,
                             int width, void *dst) {
    /* B's columns contiguous, 32-wide quad panels: no flip (B is s8). */
    if (layout != tsr_gemm_s8_layout_u8s8_quads || is_a || width != WIDTH ||
        stride_x != 1 || stride_p == 1) {
        tsr_gemm_s8_pack_avx2(layout, is_a, src_u8, src, stride_x, stride_p,
                              lines, depth, width, dst);
        return;
    }
    const int64_t kpad = tsr_rnd_up(depth, 4), body = depth / 4 * 4;
    const int64_t pairs = lines / (2 * WIDTH) * (2 * WIDTH);
    for (int64_t x0 = 0; x0 < pairs; x0 += 2 * WIDTH) {
        const uint8_t *s = (const uint8_t *)src + x0;
        uint8_t *d = (uint8_t *)dst + x0 * kpad;
        for (int64_t k = 0; k < body; k += 4)
            pack_quad_two_panels(s + k * stride_p, stride_p, d + k * WIDTH,
                                 d + (kpad + k) * WIDTH);
        for (int h = 0; h < 2 && body < depth; ++h)
            tsr_gemm_s8_pack_avx2(layout, is_a, src_u8,
                                  s + body * stride_p + h * WIDTH, stride_x,
                                  stride_p, WIDTH, depth - body, WIDTH,
                                  d + (h * kpad + body) * WIDTH);
    }
    /* A last single panel and a partial one (zero-filled lines). */
    if (pairs < lines)
        tsr_gemm_s8_pack_avx2(layout, is_a, src_u8,
                              (const uint8_t *)src + pairs, stride_x, stride_p,
                              lines - pairs, depth, width,
                              (uint8_t *)dst + pairs * kpad);
}
