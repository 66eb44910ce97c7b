/* The packing copy of gemm_pack_f32.c as inline code, so that each ISA
 * file that includes it (gemm_pack_f32_avx2.c, gemm_pack_f32_avx512.c)
 * compiles the same loops into its own vector moves: the portable build's
 * 16-byte moves were a tenth of ResNet-50 res2b_branch2a nchw mb32 (2
 * threads: 3% faster in 64-byte moves). */
#ifndef TSR_CPU_GEMM_GEMM_PACK_F32_COPY_H
#define TSR_CPU_GEMM_GEMM_PACK_F32_COPY_H

#include <stdint.h>

/* One panel of `width` lines, `valid` of them real (the rest zero). The
 * body is inlined per kernel width below so the copies unroll into whole
 * vector moves instead of per-element loops or memcpy calls. */
static inline __attribute__((always_inline)) void
pack_panel(const float *src, int64_t stride_x, int64_t stride_p, int64_t depth,
           int64_t valid, const int width, float *dst) {
    if (stride_x == 1 && valid == width) {
        /* Lines contiguous in memory (B as stored, A transposed). */
        for (int64_t p = 0; p < depth; ++p)
            for (int x = 0; x < width; ++x)
                dst[p * width + x] = src[p * stride_p + x];
    } else if (valid == width) {
        /* A transposition: K steps along each line. Short chunks of K keep
         * the `width` source lines streaming while the chunk of the panel
         * stays in L1. */
        enum { chunk = 16 };
        int64_t p0 = 0;
        for (; p0 + chunk <= depth; p0 += chunk)
            for (int64_t p = p0; p < p0 + chunk; ++p)
                for (int x = 0; x < width; ++x)
                    dst[p * width + x] = src[x * stride_x + p * stride_p];
        for (int64_t p = p0; p < depth; ++p)
            for (int x = 0; x < width; ++x)
                dst[p * width + x] = src[x * stride_x + p * stride_p];
    } else {
        /* The last, partial panel: zero-fill the missing lines, in loops
         * of their own so the copy vectorizes (a per-element choice was
         * half the packing of res4b_branch2a nchw's 196 columns). */
        for (int64_t p = 0; p < depth; ++p) {
            float *d = dst + p * width;
            for (int64_t x = 0; x < valid; ++x)
                d[x] = src[x * stride_x + p * stride_p];
            for (int64_t x = valid; x < width; ++x)
                d[x] = 0.f;
        }
    }
}

static inline __attribute__((always_inline)) void
pack_panels(const float *src, int64_t stride_x, int64_t stride_p, int64_t lines,
            int64_t depth, const int width, float *dst) {
    /* Contiguous lines (stride_x == 1) are read a few whole source rows at
     * a time across all panels: walking one panel down K would touch a new
     * cache line per step at a large stride. Otherwise each panel streams
     * its own `width` source lines over the whole depth. */
    const int64_t p_chunk = stride_x == 1 ? 16 : depth;
    for (int64_t p0 = 0; p0 < depth; p0 += p_chunk) {
        const int64_t pn = depth - p0 < p_chunk ? depth - p0 : p_chunk;
        for (int64_t x0 = 0; x0 < lines; x0 += width) {
            const int64_t valid = lines - x0 < width ? lines - x0 : width;
            pack_panel(src + x0 * stride_x + p0 * stride_p, stride_x, stride_p,
                       pn, valid, width, dst + x0 * depth + p0 * width);
        }
    }
}

/* tsr_gemm_f32_pack_fn's contract (gemm_f32_impl.h). */
static inline __attribute__((always_inline)) void
pack_f32_copy(const float *src, int64_t stride_x, int64_t stride_p,
              int64_t lines, int64_t depth, int width, float *dst) {
    /* The kernels' widths get specialised copies; others stay correct. */
    switch (width) {
    case 4:
        pack_panels(src, stride_x, stride_p, lines, depth, 4, dst);
        break;
    case 6:
        pack_panels(src, stride_x, stride_p, lines, depth, 6, dst);
        break;
    case 8:
        pack_panels(src, stride_x, stride_p, lines, depth, 8, dst);
        break;
    case 16:
        pack_panels(src, stride_x, stride_p, lines, depth, 16, dst);
        break;
    case 32:
        pack_panels(src, stride_x, stride_p, lines, depth, 32, dst);
        break;
    default:
        pack_panels(src, stride_x, stride_p, lines, depth, width, dst);
        break;
    }
}

#endif
