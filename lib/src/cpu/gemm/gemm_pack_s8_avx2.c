/* AVX2 packing of the s16 pair layout for the 6x16 kernel, the hot cases:
 *   lines contiguous in K (A as stored, B transposed): 16 K values of 8
 *     lines widened to s16 pairs, then an 8x8 transpose of 32-bit pairs;
 *   lines contiguous (B as stored, 16 wide): two K rows interleaved
 *     bytewise, then widened.
 * Every other case, and the K and line tails, use the portable
 * tsr_gemm_s8_pack. */
#include <immintrin.h>

#include "common/utils.h"
#include "cpu/gemm/gemm_s8_impl.h"

static inline __m256i widen16(__m128i v, int src_u8) {
    return src_u8 ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v);
}

/* In place: rows r[0..7] of 32-bit values become the columns. */
static inline void transpose_8x8_epi32(__m256i r[8]) {
    __m256i t[8], s[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; ++h) {
        const __m256i *u = t + 4 * h;
        s[4 * h + 0] = _mm256_unpacklo_epi64(u[0], u[2]);
        s[4 * h + 1] = _mm256_unpackhi_epi64(u[0], u[2]);
        s[4 * h + 2] = _mm256_unpacklo_epi64(u[1], u[3]);
        s[4 * h + 3] = _mm256_unpackhi_epi64(u[1], u[3]);
    }
    for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2x128_si256(s[i], s[4 + i], 0x20);
        r[4 + i] = _mm256_permute2x128_si256(s[i], s[4 + i], 0x31);
    }
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
    transpose_8x8_epi32(r);
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

void tsr_gemm_s8_pack_avx2(tsr_gemm_s8_layout_t layout, int is_a, int src_u8,
                           const void *src, int64_t stride_x, int64_t stride_p,
                           int64_t lines, int64_t depth, int width, void *dst) {
    const int k_contiguous = stride_p == 1 && stride_x != 1;
    const int lines_contiguous = stride_x == 1 && stride_p != 1 && width == 16;
    if (layout != tsr_gemm_s8_layout_s16_pairs || (width != 6 && width != 16) ||
        !(k_contiguous || lines_contiguous)) {
        tsr_gemm_s8_pack(layout, is_a, src_u8, src, stride_x, stride_p, lines,
                         depth, width, dst);
        return;
    }
    const uint8_t *bytes = src;
    int16_t *out = dst;
    const int64_t kpad = tsr_rnd_up(depth, 2);
    const int64_t full_lines = lines / width * width;
    for (int64_t x0 = 0; x0 < full_lines; x0 += width) {
        const uint8_t *s = bytes + x0 * stride_x;
        int16_t *d = out + x0 * kpad;
        int64_t done = 0;
        if (k_contiguous) {
            for (; done + 16 <= depth; done += 16) {
                if (width == 6)
                    pack6_block16(s + done, stride_x, src_u8, d + done * 6);
                else
                    pack16_block16(s + done, stride_x, src_u8, d + done * 16);
            }
        } else {
            for (; done + 2 <= depth; done += 2)
                pack16_pair_lines(s + done * stride_p, stride_p, src_u8,
                                  d + done * 16);
        }
        /* K tail of this panel: the portable copy of one panel. */
        if (done < depth)
            tsr_gemm_s8_pack(layout, is_a, src_u8, s + done * stride_p,
                             stride_x, stride_p, width, depth - done, width,
                             d + done * width);
    }
    /* The partial last panel (zero-filled lines). */
    if (full_lines < lines)
        tsr_gemm_s8_pack(layout, is_a, src_u8, bytes + full_lines * stride_x,
                         stride_x, stride_p, lines - full_lines, depth, width,
                         out + full_lines * kpad);
}
