/* The eltwise f32 kernels on 16-lane AVX-512 vectors: the vector API of
 * eltwise_vec_body.h, then the kernels it writes. */
#include <immintrin.h>
#include <math.h>

#include "common/data_type_avx512.h"
#include "eltwise_pd.h"

typedef __m512 vf;
typedef __mmask16 vm;
#define VF_LEN 16

static inline vf vf_set1(float a) {
    return _mm512_set1_ps(a);
}
static inline vf vf_load(const float *p) {
    return _mm512_loadu_ps(p);
}
static inline void vf_store(float *p, vf v) {
    _mm512_storeu_ps(p, v);
}
static inline void vf_stream(float *p, vf v) {
    _mm512_stream_ps(p, v);
}
static inline void vf_stream_fence(void) {
    _mm_sfence();
}
static inline vf vf_add(vf a, vf b) {
    return _mm512_add_ps(a, b);
}
static inline vf vf_sub(vf a, vf b) {
    return _mm512_sub_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return _mm512_mul_ps(a, b);
}
static inline vf vf_div(vf a, vf b) {
    return _mm512_div_ps(a, b);
}
static inline vf vf_fmadd(vf a, vf b, vf c) {
    return _mm512_fmadd_ps(a, b, c);
}
static inline vf vf_max(vf a, vf b) {
    return _mm512_max_ps(a, b);
}
static inline vf vf_min(vf a, vf b) {
    return _mm512_min_ps(a, b);
}
static inline vf vf_sqrt(vf a) {
    return _mm512_sqrt_ps(a);
}
static inline vf vf_round_even(vf a) {
    return _mm512_roundscale_ps(a,
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline vf vf_abs(vf a) {
    return _mm512_abs_ps(a);
}
static inline vf vf_copysign(vf magnitude, vf sign) {
    const __m512i sign_bit = _mm512_set1_epi32((int)0x80000000u);
    return _mm512_castsi512_ps(
            _mm512_ternarylogic_epi32(sign_bit, _mm512_castps_si512(sign),
                                      _mm512_castps_si512(magnitude), 0xca));
}
static inline vm vm_gt(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ);
}
static inline vm vm_lt(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ);
}
static inline vm vm_ge(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ);
}
static inline vm vm_le(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ);
}
static inline vm vm_eq(vf a, vf b) {
    return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ);
}
static inline vm vm_isnan(vf a) {
    return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q);
}
static inline vm vm_and(vm a, vm b) {
    return (vm)(a & b);
}
static inline vf vf_select(vm m, vf t, vf f) {
    return _mm512_mask_blend_ps(m, f, t);
}
static inline vf vf_ldexp(vf y, vf n) {
    return _mm512_scalef_ps(y, n);
}
static inline vf vf_frexp(vf x, vf *e) {
    *e = _mm512_add_ps(_mm512_getexp_ps(x), _mm512_set1_ps(1.f));
    return _mm512_getmant_ps(x, _MM_MANT_NORM_p5_1, _MM_MANT_SIGN_src);
}

#include "eltwise_vec_body.h"

static inline vf vi_load(tsr_data_type_t dt, const void *p) {
    if (dt == tsr_s32)
        return _mm512_cvtepi32_ps(_mm512_loadu_si512(p));
    const __m128i b = _mm_loadu_si128((const __m128i *)p);
    return _mm512_cvtepi32_ps(dt == tsr_s8 ? _mm512_cvtepi8_epi32(b)
                                           : _mm512_cvtepu8_epi32(b));
}
static inline void vi_store(tsr_data_type_t dt, void *p, vf v) {
    tsr_store_16_bits_avx512(dt == tsr_s32 ? 4 : 1, _mm512_cvttps_epi32(v), p);
}

#include "eltwise_int_body.h"

void tsr_eltwise_fwd_f32_avx512(const eltwise_op_t *op, float *dst,
                                const float *src, int64_t n) {
    vec_fwd_f32(op, dst, src, n, 0);
}

void tsr_eltwise_fwd_f32_nt_avx512(const eltwise_op_t *op, float *dst,
                                   const float *src, int64_t n) {
    vec_fwd_f32(op, dst, src, n, 1);
}

int tsr_eltwise_fwd_int_avx512(const eltwise_op_t *op, tsr_data_type_t dt,
                               void *dst, const void *src, int64_t n) {
    return vec_fwd_int(op, dt, dst, src, n);
}

void tsr_eltwise_bwd_f32_avx512(const eltwise_op_t *op, float *diff_src,
                                const float *diff_dst, const float *data,
                                int64_t n) {
    vec_bwd_f32(op, diff_src, diff_dst, data, n);
}
