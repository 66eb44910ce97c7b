/* AVX2 packing for the 6x16 and 6x32 kernels: the transposing case (A as
 * stored, B transposed), where the copy moves one float at a time, goes
 * through 8x8 register transposes. Every other case, and the K and line
 * tails, take the packing copy compiled here for AVX2. */
#include <immintrin.h>

#include "cpu/common/transpose_avx2.h"
#include "cpu/gemm/gemm_f32_impl.h"
#include "cpu/gemm/gemm_pack_f32_copy.h"

/* 8 K steps of a full 6-line panel: columns are 6 wide, so each 8-float
 * store spills 2 zeros that the next store overwrites; the last one stores
 * exactly 6 floats. */
static void pack6_block8(const float *src, int64_t stride_x, float *dst) {
    __m256 r[8];
    for (int x = 0; x < 6; ++x)
        r[x] = _mm256_loadu_ps(src + x * stride_x);
    r[6] = r[7] = _mm256_setzero_ps();
    tsr_transpose_8x8_ps(r);
    for (int p = 0; p < 7; ++p)
        _mm256_storeu_ps(dst + 6 * p, r[p]);
    _mm_storeu_ps(dst + 42, _mm256_castps256_ps128(r[7]));
    _mm_storel_pi((__m64 *)(dst + 46), _mm256_extractf128_ps(r[7], 1));
}

/* 8 K steps of 8 of the lines of a full panel `width` lines wide. */
static void pack_lines8_block8(const float *src, int64_t stride_x, int width,
                               float *dst) {
    __m256 r[8];
    for (int x = 0; x < 8; ++x)
        r[x] = _mm256_loadu_ps(src + x * stride_x);
    tsr_transpose_8x8_ps(r);
    for (int p = 0; p < 8; ++p)
        _mm256_storeu_ps(dst + width * p, r[p]);
}

void tsr_gemm_f32_pack_avx2(const float *src, int64_t stride_x,
                            int64_t stride_p, int64_t lines, int64_t depth,
                            int width, float *dst) {
    if (stride_p != 1 || stride_x == 1 ||
        (width != 6 && width != 16 && width != 32)) {
        pack_f32_copy(src, stride_x, stride_p, lines, depth, width, dst);
        return;
    }
    const int64_t full_lines = lines / width * width;
    const int64_t depth8 = depth / 8 * 8;
    for (int64_t x0 = 0; x0 < full_lines; x0 += width) {
        const float *s = src + x0 * stride_x;
        float *d = dst + x0 * depth;
        for (int64_t p = 0; p < depth8; p += 8) {
            if (width == 6) {
                pack6_block8(s + p, stride_x, d + p * 6);
            } else {
                for (int h = 0; h < width; h += 8)
                    pack_lines8_block8(s + h * stride_x + p, stride_x, width,
                                       d + p * width + h);
            }
        }
        /* K tail of this panel: the portable copy of one panel. */
        if (depth8 < depth)
            pack_f32_copy(s + depth8, stride_x, 1, width, depth - depth8, width,
                          d + depth8 * width);
    }
    /* The partial last panel (zero-filled lines). */
    if (full_lines < lines)
        pack_f32_copy(src + full_lines * stride_x, stride_x, 1,
                      lines - full_lines, depth, width,
                      dst + full_lines * depth);
}
