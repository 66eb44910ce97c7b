/* The row store of the AVX-512 f32 micro-kernels (6x32 and the 12x32
 * taps kernel): one row of 32 accumulators through alpha, beta and the
 * bias into C, lanes past n neither read nor written. */
#ifndef TSR_CPU_GEMM_UKR_GEMM_F32_STORE_AVX512_H
#define TSR_CPU_GEMM_UKR_GEMM_F32_STORE_AVX512_H

#include <immintrin.h>
#include <stdint.h>

/* Mask with the first `n` (0..16) lanes set. */
static inline __mmask16 lane_mask(int64_t n) {
    return (__mmask16)((1u << n) - 1u);
}

/* What every row update of one tile shares. */
typedef struct {
    __m512 alpha, beta;
    __mmask16 mask0, mask1;
    int beta_zero;
    const float *bias_row; /* NULL: none */
    int with_bias_col;
    __m512 bias_col0, bias_col1;
} tile_store_t;

/* Row i: c[0..n) := alpha * acc + beta * c[0..n) [+ bias]; masked lanes of
 * C are neither read nor written (a full row has all lanes set). */
static inline void update_row(const tile_store_t *t, float *c, int i,
                              __m512 acc0, __m512 acc1) {
    __m512 r0 = _mm512_mul_ps(t->alpha, acc0);
    __m512 r1 = _mm512_mul_ps(t->alpha, acc1);
    if (!t->beta_zero) {
        r0 = _mm512_fmadd_ps(t->beta, _mm512_maskz_loadu_ps(t->mask0, c), r0);
        r1 = _mm512_fmadd_ps(t->beta, _mm512_maskz_loadu_ps(t->mask1, c + 16),
                             r1);
    }
    if (t->bias_row) {
        const __m512 b = _mm512_set1_ps(t->bias_row[i]);
        r0 = _mm512_add_ps(r0, b);
        r1 = _mm512_add_ps(r1, b);
    } else if (t->with_bias_col) {
        r0 = _mm512_add_ps(r0, t->bias_col0);
        r1 = _mm512_add_ps(r1, t->bias_col1);
    }
    _mm512_mask_storeu_ps(c, t->mask0, r0);
    _mm512_mask_storeu_ps(c + 16, t->mask1, r1);
}

static inline tile_store_t tile_store_init(float alpha, float beta, int64_t n,
                                           const float *bias_row,
                                           const float *bias_col) {
    tile_store_t t;
    t.alpha = _mm512_set1_ps(alpha);
    t.beta = _mm512_set1_ps(beta);
    t.mask0 = lane_mask(n < 16 ? n : 16);
    t.mask1 = lane_mask(n > 16 ? n - 16 : 0);
    t.beta_zero = beta == 0.f;
    t.bias_row = bias_row;
    t.with_bias_col = bias_row == NULL && bias_col != NULL;
    t.bias_col0 = t.bias_col1 = _mm512_setzero_ps();
    if (t.with_bias_col) {
        t.bias_col0 = _mm512_maskz_loadu_ps(t.mask0, bias_col);
        t.bias_col1 = _mm512_maskz_loadu_ps(t.mask1, bias_col + 16);
    }
    return t;
}

#endif
