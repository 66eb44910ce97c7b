/* The AVX-512 PReLU backward row kernel, f32 (see prelu_bwd_kernel.h): a
 * row's terms summed in 16 lanes, then across them. */
#include <immintrin.h>

#include "cpu/prelu/prelu_bwd_kernel.h"

static void row(const float *s, const float *w, const float *g, float *ds,
                float *acc, int64_t n, int wei_bcast) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 w_row = _mm512_set1_ps(w[0]);
    __m512 sum = zero;
    for (int64_t i = 0; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xffff
                                        : (__mmask16)((1u << (n - i)) - 1u);
        const __m512 sv = _mm512_maskz_loadu_ps(m, s + i);
        const __m512 gv = _mm512_maskz_loadu_ps(m, g + i);
        const __m512 wv = wei_bcast ? w_row : _mm512_maskz_loadu_ps(m, w + i);
        const __mmask16 pos = _mm512_cmp_ps_mask(sv, zero, _CMP_GT_OQ);
        /* s > 0 ? g : g * w, and g * (s > 0 ? 0 : s) */
        _mm512_mask_storeu_ps(
                ds + i, m,
                _mm512_mask_blend_ps(pos, _mm512_mul_ps(gv, wv), gv));
        const __m512 term =
                _mm512_mul_ps(gv, _mm512_mask_blend_ps(pos, sv, zero));
        if (wei_bcast)
            sum = _mm512_add_ps(sum, term);
        else
            _mm512_mask_storeu_ps(
                    acc + i, m,
                    _mm512_add_ps(_mm512_maskz_loadu_ps(m, acc + i), term));
    }
    if (wei_bcast)
        acc[0] += _mm512_reduce_add_ps(sum);
}

void prelu_bwd_rows_avx512(const prelu_bwd_kernel_t *k, const void *src,
                           const void *wei, const void *dd, void *ds,
                           float *acc, int64_t rows, int64_t n) {
    for (int64_t r = 0; r < rows; r++)
        row((const float *)src + r * k->ld, (const float *)wei + r * k->wei_ld,
            (const float *)dd + r * k->ld, (float *)ds + r * k->ld,
            acc + r * k->wei_ld, n, k->wei_bcast);
}
