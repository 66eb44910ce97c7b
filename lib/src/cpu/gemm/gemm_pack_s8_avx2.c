/* AVX2 packing for the 6x16 kernels, the hot cases of both layouts (and
 * the quad layout's 32-wide B panels of the VNNI kernel):
 *   lines contiguous in K (A as stored, B transposed): s16 pairs widen 16
 *     K values of 8 lines, u8 x s8 quads take 32 K values of 8 lines as
 *     they are (s8 A flipped to u8 by its top bit); then an 8x8 transpose
 *     of the 32-bit words (a pair or a quad);
 *   lines contiguous (B as stored, 16 wide): two (pairs, then widened) or
 *     four (quads) K rows interleaved bytewise.
 * Every other case, and the K and line tails, use the portable
 * tsr_gemm_s8_pack. */
#include <immintrin.h>

#include "common/utils.h"
#include "cpu/common/transpose_avx2.h"
#include "cpu/gemm/gemm_s8_impl.h"

static inline __m256i widen16(__m128i v, int src_u8) {
    return src_u8 ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v);
}

/* 16 K values (8 pairs) of `nlines` <= 8 lines, contiguous in K, as 8
 * registers: register j holds pair j of lines 0..7 (zero past nlines). */
static inline void load_pairs_8x8(const uint8_t *src, int64_t stride_x,
                                  int nlines, int src_u8, __m256i r[8]) {
    for (int x = 0; x < 8; ++x)
        r[x] = x < nlines
                       ? widen16(_mm_loadu_si128(
                                         (const __m128i *)(src + x * stride_x)),
                                 src_u8)
                       : _mm256_setzero_si256();
    tsr_transpose_8x8_epi32(r);
}

/* 8 pairs of a full 6-line panel: each 8-pair store spills 2 pairs that
 * the next store overwrites; the last one stores exactly 6. */
static void pack6_block16(const uint8_t *src, int64_t stride_x, int src_u8,
                          int16_t *dst) {
    __m256i r[8];
    load_pairs_8x8(src, stride_x, 6, src_u8, r);
    for (int j = 0; j < 7; ++j)
        _mm256_storeu_si256((__m256i *)(dst + 12 * j), r[j]);
    _mm_storeu_si128((__m128i *)(dst + 84), _mm256_castsi256_si128(r[7]));
    _mm_storel_epi64((__m128i *)(dst + 92), _mm256_extracti128_si256(r[7], 1));
}

/* 8 pairs of a full 16-line panel, 8 lines at a time. */
static void pack16_block16(const uint8_t *src, int64_t stride_x, int src_u8,
                           int16_t *dst) {
    for (int h = 0; h < 2; ++h) {
        __m256i r[8];
        load_pairs_8x8(src + 8 * h * stride_x, stride_x, 8, src_u8, r);
        for (int j = 0; j < 8; ++j)
            _mm256_storeu_si256((__m256i *)(dst + 32 * j + 16 * h), r[j]);
    }
}

/* One pair of a full 16-line panel whose lines are contiguous. */
static void pack16_pair_lines(const uint8_t *src, int64_t stride_p, int src_u8,
                              int16_t *dst) {
    const __m128i k0 = _mm_loadu_si128((const __m128i *)src);
    const __m128i k1 = _mm_loadu_si128((const __m128i *)(src + stride_p));
    _mm256_storeu_si256((__m256i *)dst,
                        widen16(_mm_unpacklo_epi8(k0, k1), src_u8));
    _mm256_storeu_si256((__m256i *)(dst + 16),
                        widen16(_mm_unpackhi_epi8(k0, k1), src_u8));
}

/* The quad layout's counterparts: 8 quads (32 K values) of a full 6-,
 * 16- or 32-line panel whose lines are contiguous in K, XORed with
 * `flip`. */
static void pack_quads_block32(const uint8_t *src, int64_t stride_x, int width,
                               __m256i flip, uint8_t *dst) {
    for (int h = 0; h * 8 < width; ++h) {
        const int nlines = width - 8 * h < 8 ? width - 8 * h : 8;
        __m256i r[8];
        for (int x = 0; x < 8; ++x)
            r[x] = x < nlines
                           ? _mm256_xor_si256(
                                     _mm256_loadu_si256(
                                             (const __m256i *)(src +
                                                               (8 * h +
                                                                x) * stride_x)),
                                     flip)
                           : _mm256_setzero_si256();
        tsr_transpose_8x8_epi32(r);
        if (width % 8 == 0) {
            for (int j = 0; j < 8; ++j)
                _mm256_storeu_si256((__m256i *)(dst + 4 * width * j + 32 * h),
                                    r[j]);
            continue;
        }
        /* Width 6: each 32-byte store spills 8 bytes the next overwrites. */
        for (int j = 0; j < 7; ++j)
            _mm256_storeu_si256((__m256i *)(dst + 24 * j), r[j]);
        _mm_storeu_si128((__m128i *)(dst + 168), _mm256_castsi256_si128(r[7]));
        _mm_storel_epi64((__m128i *)(dst + 184),
                         _mm256_extracti128_si256(r[7], 1));
    }
}

/* One quad of a full 16-line panel whose lines are contiguous. */
static void pack16_quad_lines(const uint8_t *src, int64_t stride_p,
                              __m128i flip, uint8_t *dst) {
    __m128i k[4];
    for (int t = 0; t < 4; ++t)
        k[t] = _mm_xor_si128(
                _mm_loadu_si128((const __m128i *)(src + t * stride_p)), flip);
    const __m128i p01lo = _mm_unpacklo_epi8(k[0], k[1]);
    const __m128i p01hi = _mm_unpackhi_epi8(k[0], k[1]);
    const __m128i p23lo = _mm_unpacklo_epi8(k[2], k[3]);
    const __m128i p23hi = _mm_unpackhi_epi8(k[2], k[3]);
    _mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi16(p01lo, p23lo));
    _mm_storeu_si128((__m128i *)(dst + 16), _mm_unpackhi_epi16(p01lo, p23lo));
    _mm_storeu_si128((__m128i *)(dst + 32), _mm_unpacklo_epi16(p01hi, p23hi));
    _mm_storeu_si128((__m128i *)(dst + 48), _mm_unpackhi_epi16(p01hi, p23hi));
}

/* The full K groups of one full panel at s (lines contiguous in K, or
 * lines contiguous); returns the K values done. */
static int64_t pack_panel_body(tsr_gemm_s8_layout_t layout, int k_contiguous,
                               int src_u8, uint8_t flip, const uint8_t *s,
                               int64_t stride_x, int64_t stride_p,
                               int64_t depth, int width, char *d) {
    int64_t done = 0;
    if (layout == tsr_gemm_s8_layout_u8s8_quads) {
        if (k_contiguous) {
            const __m256i f = _mm256_set1_epi8((char)flip);
            for (; done + 32 <= depth; done += 32)
                pack_quads_block32(s + done, stride_x, width, f,
                                   (uint8_t *)d + done * width);
        } else {
            const __m128i f = _mm_set1_epi8((char)flip);
            for (; done + 4 <= depth; done += 4)
                for (int h = 0; h < width; h += 16)
                    pack16_quad_lines(s + done * stride_p + h, stride_p, f,
                                      (uint8_t *)d + done * width + 4 * h);
        }
        return done;
    }
    int16_t *d16 = (int16_t *)d;
    if (k_contiguous) {
        for (; done + 16 <= depth; done += 16) {
            if (width == 6)
                pack6_block16(s + done, stride_x, src_u8, d16 + done * 6);
            else
                pack16_block16(s + done, stride_x, src_u8, d16 + done * 16);
        }
    } else {
        for (; done + 2 <= depth; done += 2)
            pack16_pair_lines(s + done * stride_p, stride_p, src_u8,
                              d16 + done * 16);
    }
    return done;
}

void tsr_gemm_s8_pack_avx2(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                           const void *src, int64_t stride_x, int64_t stride_p,
                           int64_t lines, int64_t depth, int width, void *dst) {
    const int k_contiguous = stride_p == 1 && stride_x != 1;
    const int quads = layout == tsr_gemm_s8_layout_u8s8_quads;
    const int wide = width == 16 || (width == 32 && quads);
    const int lines_contiguous = stride_x == 1 && stride_p != 1 && wide;
    if ((width != 6 && !wide) || !(k_contiguous || lines_contiguous)) {
        tsr_gemm_s8_pack(layout, is_a, src_u8, src, stride_x, stride_p, lines,
                         depth, width, dst);
        return;
    }
    const int g = tsr_gemm_s8_kgroup(layout);
    const int esz = tsr_gemm_s8_elem_bytes(layout);
    /* The quad layout turns s8 A into u8 by flipping the top bit (+128). */
    const uint8_t flip =
            layout == tsr_gemm_s8_layout_u8s8_quads && is_a && !src_u8 ? 0x80
                                                                       : 0;
    const uint8_t *bytes = src;
    char *out = dst;
    const int64_t kpad = tsr_rnd_up(depth, g);
    const int64_t full_lines = lines / width * width;
    for (int64_t x0 = 0; x0 < full_lines; x0 += width) {
        const uint8_t *s = bytes + x0 * stride_x;
        char *d = out + x0 * kpad * esz;
        const int64_t done =
                pack_panel_body(layout, k_contiguous, src_u8, flip, s, stride_x,
                                stride_p, depth, width, d);
        /* K tail of this panel: the portable copy of one panel. */
        if (done < depth)
            tsr_gemm_s8_pack(layout, is_a, src_u8, s + done * stride_p,
                             stride_x, stride_p, width, depth - done, width,
                             d + done * width * esz);
    }
    /* The partial last panel (zero-filled lines). */
    if (full_lines < lines)
        tsr_gemm_s8_pack(layout, is_a, src_u8, bytes + full_lines * stride_x,
                         stride_x, stride_p, lines - full_lines, depth, width,
                         out + full_lines * kpad * esz);
}
