/* The AVX2 PReLU backward row kernel, f32 (see prelu_bwd_kernel.h): a
 * row's terms summed in 8 lanes, then across them, the tail in scalar
 * code after. */
#include <immintrin.h>

#include "cpu/prelu/prelu_bwd_kernel.h"
#include "cpu/prelu/prelu_common.h"

static void row(const float *s, const float *w, const float *g, float *ds,
                float *acc, int64_t n, int wei_bcast) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 w_row = _mm256_set1_ps(w[0]);
    __m256 sum = zero;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 sv = _mm256_loadu_ps(s + i);
        const __m256 gv = _mm256_loadu_ps(g + i);
        const __m256 wv = wei_bcast ? w_row : _mm256_loadu_ps(w + i);
        const __m256 pos = _mm256_cmp_ps(sv, zero, _CMP_GT_OQ);
        /* s > 0 ? g : g * w, and g * (s > 0 ? 0 : s) */
        _mm256_storeu_ps(ds + i,
                         _mm256_blendv_ps(_mm256_mul_ps(gv, wv), gv, pos));
        const __m256 term = _mm256_mul_ps(gv, _mm256_andnot_ps(pos, sv));
        if (wei_bcast)
            sum = _mm256_add_ps(sum, term);
        else
            _mm256_storeu_ps(acc + i,
                             _mm256_add_ps(_mm256_loadu_ps(acc + i), term));
    }
    _Alignas(32) float lanes[8];
    _mm256_store_ps(lanes, sum);
    float row_sum = 0.f;
    for (int l = 0; l < 8; l++)
        row_sum += lanes[l];
    for (; i < n; i++) {
        const float wi = wei_bcast ? w[0] : w[i];
        ds[i] = prelu_bwd_data(s[i], wi, g[i]);
        const float term = prelu_bwd_weights_term(s[i], g[i]);
        if (wei_bcast)
            row_sum += term;
        else
            acc[i] += term;
    }
    if (wei_bcast)
        acc[0] += row_sum;
}

void prelu_bwd_rows_avx2(const prelu_bwd_kernel_t *k, const void *src,
                         const void *wei, const void *dd, void *ds, float *acc,
                         int64_t rows, int64_t n) {
    for (int64_t r = 0; r < rows; r++)
        row((const float *)src + r * k->ld, (const float *)wei + r * k->wei_ld,
            (const float *)dd + r * k->ld, (float *)ds + r * k->ld,
            acc + r * k->wei_ld, n, k->wei_bcast);
}
