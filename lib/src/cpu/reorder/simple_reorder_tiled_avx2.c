/* AVX2 kernels of the tiled reorder: 8x8 transposes of 4-byte elements,
 * the core of nchw <-> nChw16c and nchw <-> nhwc. Pure data movement (the
 * float registers only carry bits), so the result is the scalar loops'
 * exactly. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/common/transpose_avx2.h"
#include "simple_reorder_tiled.h"

/* Three rows into dense points of three: 4x4 transposes whose fourth
 * lane spills into the next point's first slot, which the next store
 * then writes (so only while a point follows the block; the rest
 * element at a time). A first layer's 3-channel image copied
 * channels-last by gemm:f32 (ResNet-50 conv1 mb32): 5.4% -> 3.3% of the
 * run's time. Returns the points done. */
static tsr_dim_t gather3_dense(const float *src, const tsr_dim_t *row_off,
                               float *dst, tsr_dim_t n) {
    const float *r0 = src + row_off[0], *r1 = src + row_off[1],
                *r2 = src + row_off[2];
    tsr_dim_t w = 0;
    for (; w + 4 < n; w += 4) {
        __m128 a = _mm_loadu_ps(r0 + w), b = _mm_loadu_ps(r1 + w),
               c = _mm_loadu_ps(r2 + w), d = c;
        _MM_TRANSPOSE4_PS(a, b, c, d);
        _mm_storeu_ps(dst + 3 * w, a);
        _mm_storeu_ps(dst + 3 * (w + 1), b);
        _mm_storeu_ps(dst + 3 * (w + 2), c);
        _mm_storeu_ps(dst + 3 * (w + 3), d);
    }
    return w;
}

void tiled_gather_transpose4_avx2(const void *rows, const tsr_dim_t *row_off,
                                  void *mat, tsr_dim_t mat_stride, tsr_dim_t t,
                                  tsr_dim_t n) {
    const float *src = rows;
    float *dst = mat;
    /* Points before w0 done: the last loop copies the rest. */
    const tsr_dim_t w0 =
            t == 3 && mat_stride == 3 ? gather3_dense(src, row_off, dst, n) : 0;
    const tsr_dim_t t8 = t / 8 * 8, n8 = n / 8 * 8;
    for (tsr_dim_t i = 0; i < t8; i += 8) {
        for (tsr_dim_t w = 0; w < n8; w += 8) {
            __m256 r[8];
            for (int k = 0; k < 8; k++)
                r[k] = _mm256_loadu_ps(src + row_off[i + k] + w);
            tsr_transpose_8x8_ps(r);
            for (int k = 0; k < 8; k++)
                _mm256_storeu_ps(dst + (w + k) * mat_stride + i, r[k]);
        }
        for (tsr_dim_t k = i; k < i + 8; k++)
            for (tsr_dim_t w = n8; w < n; w++)
                ((uint32_t *)mat)[w * mat_stride + k] =
                        ((const uint32_t *)rows)[row_off[k] + w];
    }
    for (tsr_dim_t k = t8; k < t; k++)
        for (tsr_dim_t w = w0; w < n; w++)
            ((uint32_t *)mat)[w * mat_stride + k] =
                    ((const uint32_t *)rows)[row_off[k] + w];
}

void tiled_scatter_transpose4_avx2(const void *mat, tsr_dim_t mat_stride,
                                   void *rows, const tsr_dim_t *row_off,
                                   tsr_dim_t t, tsr_dim_t n) {
    const float *src = mat;
    float *dst = rows;
    const tsr_dim_t t8 = t / 8 * 8, n8 = n / 8 * 8;
    for (tsr_dim_t i = 0; i < t8; i += 8) {
        for (tsr_dim_t w = 0; w < n8; w += 8) {
            __m256 r[8];
            for (int k = 0; k < 8; k++)
                r[k] = _mm256_loadu_ps(src + (w + k) * mat_stride + i);
            tsr_transpose_8x8_ps(r);
            for (int k = 0; k < 8; k++)
                _mm256_storeu_ps(dst + row_off[i + k] + w, r[k]);
        }
        for (tsr_dim_t k = i; k < i + 8; k++)
            for (tsr_dim_t w = n8; w < n; w++)
                ((uint32_t *)rows)[row_off[k] + w] =
                        ((const uint32_t *)mat)[w * mat_stride + k];
    }
    for (tsr_dim_t k = t8; k < t; k++)
        for (tsr_dim_t w = 0; w < n; w++)
            ((uint32_t *)rows)[row_off[k] + w] =
                    ((const uint32_t *)mat)[w * mat_stride + k];
}
