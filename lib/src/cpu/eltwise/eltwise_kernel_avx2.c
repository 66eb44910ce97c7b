/* The eltwise f32 kernels on 8-lane AVX2 vectors: the vector API of
 * eltwise_vec_body.h, then the kernels it writes. */
#include <float.h>
#include <immintrin.h>
#include <math.h>

#include "common/data_type_avx2.h"
#include "eltwise_pd.h"

typedef __m256 vf;
typedef __m256 vm;
#define VF_LEN 8

static inline vf vf_set1(float a) {
    return _mm256_set1_ps(a);
}
static inline vf vf_load(const float *p) {
    return _mm256_loadu_ps(p);
}
static inline void vf_store(float *p, vf v) {
    _mm256_storeu_ps(p, v);
}
static inline void vf_stream(float *p, vf v) {
    _mm256_stream_ps(p, v);
}
static inline void vf_stream_fence(void) {
    _mm_sfence();
}
static inline vf vf_add(vf a, vf b) {
    return _mm256_add_ps(a, b);
}
static inline vf vf_sub(vf a, vf b) {
    return _mm256_sub_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return _mm256_mul_ps(a, b);
}
static inline vf vf_div(vf a, vf b) {
    return _mm256_div_ps(a, b);
}
static inline vf vf_fmadd(vf a, vf b, vf c) {
    return _mm256_fmadd_ps(a, b, c);
}
static inline vf vf_max(vf a, vf b) {
    return _mm256_max_ps(a, b);
}
static inline vf vf_min(vf a, vf b) {
    return _mm256_min_ps(a, b);
}
static inline vf vf_sqrt(vf a) {
    return _mm256_sqrt_ps(a);
}
static inline vf vf_round_even(vf a) {
    return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vf vf_abs(vf a) {
    return _mm256_andnot_ps(_mm256_set1_ps(-0.f), a);
}
static inline vf vf_copysign(vf magnitude, vf sign) {
    const vf sign_bit = _mm256_set1_ps(-0.f);
    return _mm256_or_ps(_mm256_andnot_ps(sign_bit, magnitude),
                        _mm256_and_ps(sign_bit, sign));
}
static inline vm vm_gt(vf a, vf b) {
    return _mm256_cmp_ps(a, b, _CMP_GT_OQ);
}
static inline vm vm_lt(vf a, vf b) {
    return _mm256_cmp_ps(a, b, _CMP_LT_OQ);
}
static inline vm vm_ge(vf a, vf b) {
    return _mm256_cmp_ps(a, b, _CMP_GE_OQ);
}
static inline vm vm_le(vf a, vf b) {
    return _mm256_cmp_ps(a, b, _CMP_LE_OQ);
}
static inline vm vm_eq(vf a, vf b) {
    return _mm256_cmp_ps(a, b, _CMP_EQ_OQ);
}
static inline vm vm_isnan(vf a) {
    return _mm256_cmp_ps(a, a, _CMP_UNORD_Q);
}
static inline vm vm_and(vm a, vm b) {
    return _mm256_and_ps(a, b);
}
static inline vf vf_select(vm m, vf t, vf f) {
    return _mm256_blendv_ps(f, t, m);
}
/* 2^k for integral k in [-126, 127], from the exponent bits. */
static inline vf pow2i(vf k) {
    const __m256i e =
            _mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
}
/* In two factors, each within the normal exponents. */
static inline vf vf_ldexp(vf y, vf n) {
    const vf n1 = _mm256_floor_ps(_mm256_mul_ps(n, _mm256_set1_ps(0.5f)));
    const vf n2 = _mm256_sub_ps(n, n1);
    return _mm256_mul_ps(_mm256_mul_ps(y, pow2i(n1)), pow2i(n2));
}
/* Denormals scaled by 2^23 first. */
static inline vf vf_frexp(vf x, vf *e) {
    const vm tiny = _mm256_cmp_ps(x, _mm256_set1_ps(FLT_MIN), _CMP_LT_OQ);
    x = _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_set1_ps(8388608.f)), tiny);
    const __m256i bits = _mm256_castps_si256(x);
    const __m256i biased = _mm256_srli_epi32(bits, 23);
    *e = _mm256_sub_ps(_mm256_cvtepi32_ps(biased),
                       _mm256_blendv_ps(_mm256_set1_ps(126.f),
                                        _mm256_set1_ps(149.f), tiny));
    const __m256i mant = _mm256_or_si256(
            _mm256_and_si256(bits, _mm256_set1_epi32(0x007fffff)),
            _mm256_set1_epi32(0x3f000000));
    return _mm256_castsi256_ps(mant);
}

#include "eltwise_vec_body.h"

static inline vf vi_load(tsr_data_type_t dt, const void *p) {
    if (dt == tsr_s32)
        return _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)p));
    const __m128i b = _mm_loadl_epi64((const __m128i *)p);
    return _mm256_cvtepi32_ps(dt == tsr_s8 ? _mm256_cvtepi8_epi32(b)
                                           : _mm256_cvtepu8_epi32(b));
}
static inline void vi_store(tsr_data_type_t dt, void *p, vf v) {
    const __m256i i = _mm256_cvttps_epi32(v);
    if (dt == tsr_s32) {
        _mm256_storeu_si256((__m256i *)p, i);
        return;
    }
    /* In range already: the saturating packs keep the values. */
    _mm_storel_epi64((__m128i *)p, tsr_pack_8_bytes_avx2(i, dt == tsr_s8));
}

#include "eltwise_int_body.h"

void tsr_eltwise_fwd_f32_avx2(const eltwise_op_t *op, float *dst,
                              const float *src, int64_t n) {
    vec_fwd_f32(op, dst, src, n, 0);
}

void tsr_eltwise_fwd_f32_nt_avx2(const eltwise_op_t *op, float *dst,
                                 const float *src, int64_t n) {
    vec_fwd_f32(op, dst, src, n, 1);
}

int tsr_eltwise_fwd_int_avx2(const eltwise_op_t *op, tsr_data_type_t dt,
                             void *dst, const void *src, int64_t n) {
    return vec_fwd_int(op, dt, dst, src, n);
}

void tsr_eltwise_bwd_f32_avx2(const eltwise_op_t *op, float *diff_src,
                              const float *diff_dst, const float *data,
                              int64_t n) {
    vec_bwd_f32(op, diff_src, diff_dst, data, n);
}
