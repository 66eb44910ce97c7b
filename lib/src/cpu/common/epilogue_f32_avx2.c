/* AVX2 forms of the epilogue's elementwise steps. Each lane does the same
 * single-rounding operations as the scalar code (no fused multiply-add),
 * so results are bit-identical. */
#include <immintrin.h>

#include "cpu/common/epilogue_f32.h"

void tsr_epilogue_mul_avx2(float *v, int64_t n, const float *vec,
                           float common) {
    int64_t i = 0;
    const __m256 c = _mm256_set1_ps(common);
    for (; i + 8 <= n; i += 8) {
        const __m256 m = vec ? _mm256_loadu_ps(vec + i) : c;
        _mm256_storeu_ps(v + i, _mm256_mul_ps(_mm256_loadu_ps(v + i), m));
    }
    for (; i < n; i++)
        v[i] = v[i] * (vec ? vec[i] : common);
}

void tsr_epilogue_add_avx2(float *v, int64_t n, const float *vec,
                           float common) {
    int64_t i = 0;
    const __m256 c = _mm256_set1_ps(common);
    for (; i + 8 <= n; i += 8) {
        const __m256 a = vec ? _mm256_loadu_ps(vec + i) : c;
        _mm256_storeu_ps(v + i, _mm256_add_ps(_mm256_loadu_ps(v + i), a));
    }
    for (; i < n; i++)
        v[i] = v[i] + (vec ? vec[i] : common);
}

void tsr_epilogue_relu_avx2(float *v, int64_t n, float alpha, float scale) {
    int64_t i = 0;
    const __m256 va = _mm256_set1_ps(alpha), vs = _mm256_set1_ps(scale);
    const __m256 zero = _mm256_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(v + i);
        const __m256 pos = _mm256_cmp_ps(x, zero, _CMP_GT_OQ);
        const __m256 r = _mm256_blendv_ps(_mm256_mul_ps(va, x), x, pos);
        _mm256_storeu_ps(v + i, _mm256_mul_ps(vs, r));
    }
    for (; i < n; i++)
        v[i] = scale * (v[i] > 0.f ? v[i] : alpha * v[i]);
}

void tsr_epilogue_sum_avx2(float *v, int64_t n, const float *old, float scale,
                           float zp) {
    int64_t i = 0;
    const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(zp);
    for (; i + 8 <= n; i += 8) {
        const __m256 o = _mm256_sub_ps(_mm256_loadu_ps(old + i), vz);
        _mm256_storeu_ps(v + i, _mm256_add_ps(_mm256_mul_ps(vs, o),
                                              _mm256_loadu_ps(v + i)));
    }
    for (; i < n; i++)
        v[i] = scale * (old[i] - zp) + v[i];
}

/* One element of the fused plan, for row tails: the same operations as the
 * vector body. */
static float fused_scalar(const tsr_epilogue_fused_args_t *f, float v,
                          int64_t i, float old) {
    const tsr_epilogue_fused_plan_t *p = f->plan;
    const float b = f->bias ? f->bias[i] : f->bias_c;
    if (p->legacy) {
        if (p->with_bias)
            v = v + b;
        v = v * (f->oscale ? f->oscale[i] : f->oscale_c);
    } else {
        if (p->with_src_scale)
            v = v * f->src_scale;
        if (p->with_wei_scale)
            v = v * (f->wei_scale ? f->wei_scale[i] : f->wei_scale_c);
        if (p->with_bias)
            v = v + b;
    }
    for (int k = 0; k < p->nops; k++) {
        if (p->is_sum[k])
            v = p->p0[k] * (old - p->p1[k]) + v;
        else
            v = p->p1[k] * (v > 0.f ? v : p->p0[k] * v);
    }
    return v;
}

static __m256 vec_or(const float *vec, int64_t i, float common) {
    return vec ? _mm256_loadu_ps(vec + i) : _mm256_set1_ps(common);
}

void tsr_epilogue_fused_rows_avx2(const tsr_epilogue_fused_args_t *f,
                                  const float *acc, int64_t acc_ld, int64_t m,
                                  int64_t n, float *dst, int64_t dst_ld) {
    const tsr_epilogue_fused_plan_t *p = f->plan;
    const __m256 zero = _mm256_setzero_ps();
    const __m256 ss = _mm256_set1_ps(f->src_scale);
    for (int64_t r = 0; r < m; r++) {
        const float *a = acc + r * acc_ld;
        float *d = dst + r * dst_ld;
        int64_t i = 0;
        for (; i + 8 <= n; i += 8) {
            __m256 v = _mm256_loadu_ps(a + i);
            if (p->legacy) {
                if (p->with_bias)
                    v = _mm256_add_ps(v, vec_or(f->bias, i, f->bias_c));
                v = _mm256_mul_ps(v, vec_or(f->oscale, i, f->oscale_c));
            } else {
                if (p->with_src_scale)
                    v = _mm256_mul_ps(v, ss);
                if (p->with_wei_scale)
                    v = _mm256_mul_ps(v,
                                      vec_or(f->wei_scale, i, f->wei_scale_c));
                if (p->with_bias)
                    v = _mm256_add_ps(v, vec_or(f->bias, i, f->bias_c));
            }
            for (int k = 0; k < p->nops; k++) {
                const __m256 p0 = _mm256_set1_ps(p->p0[k]);
                const __m256 p1 = _mm256_set1_ps(p->p1[k]);
                if (p->is_sum[k]) {
                    const __m256 o = _mm256_sub_ps(_mm256_loadu_ps(d + i), p1);
                    v = _mm256_add_ps(_mm256_mul_ps(p0, o), v);
                } else {
                    const __m256 pos = _mm256_cmp_ps(v, zero, _CMP_GT_OQ);
                    v = _mm256_mul_ps(
                            p1, _mm256_blendv_ps(_mm256_mul_ps(p0, v), v, pos));
                }
            }
            _mm256_storeu_ps(d + i, v);
        }
        for (; i < n; i++)
            d[i] = fused_scalar(f, a[i], i, d[i]);
    }
}
