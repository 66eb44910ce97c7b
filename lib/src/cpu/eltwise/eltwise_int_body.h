/* The eltwise kernels straight on integer tensors (s8, u8, s32 in and the
 * same type out) for the algorithms integers take (relu, linear):
 * each vector converted to f32 in registers, computed by eltwise_vec_body.h,
 * rounded to nearest even and saturated (NaN to 0) as the f32 staging
 * would. Included after eltwise_vec_body.h by the ISA files, which define
 *   vf vi_load(tsr_data_type_t dt, const void *p)   VF_LEN values as f32
 *   void vi_store(tsr_data_type_t dt, void *p, vf v) v already integral
 *                                                    and in range */
#ifndef TSR_CPU_ELTWISE_ELTWISE_INT_BODY_H
#define TSR_CPU_ELTWISE_ELTWISE_INT_BODY_H

#include "common/data_type.h"

static ELTWISE_ALWAYS_INLINE vf vec_int_saturate(tsr_data_type_t dt, vf v) {
    const float lo = dt == tsr_s32  ? -2147483648.f
                     : dt == tsr_s8 ? -128.f
                                    : 0.f;
    const float hi = dt == tsr_s32  ? TSR_S32_MAX_F32
                     : dt == tsr_s8 ? 127.f
                                    : 255.f;
    v = vf_select(vm_isnan(v), vf_set1(0.f), v);
    v = vf_min(vf_set1(hi), vf_max(vf_set1(lo), v));
    return vf_round_even(v);
}

static ELTWISE_ALWAYS_INLINE void vec_int_loop(tsr_alg_kind_t alg,
                                               const eltwise_op_t *op,
                                               tsr_data_type_t dt, void *dst,
                                               const void *src, int64_t n) {
    const vf alpha = vf_set1(op->alpha), beta = vf_set1(op->beta);
    const size_t esize = tsr_data_type_size(dt);
    int64_t i = 0;
    for (; i + VF_LEN <= n; i += VF_LEN) {
        const vf x = vi_load(dt, (const char *)src + (size_t)i * esize);
        vi_store(dt, (char *)dst + (size_t)i * esize,
                 vec_int_saturate(dt, vec_fwd(alg, x, alpha, beta, op)));
    }
    if (i < n) {
        int32_t buf[VF_LEN] = {0};
        const size_t bytes = (size_t)(n - i) * esize;
        memcpy(buf, (const char *)src + (size_t)i * esize, bytes);
        const vf x = vi_load(dt, buf);
        vi_store(dt, buf,
                 vec_int_saturate(dt, vec_fwd(alg, x, alpha, beta, op)));
        memcpy((char *)dst + (size_t)i * esize, buf, bytes);
    }
}

/* 0 when the algorithm has no integer kernel (the caller stages in f32). */
static ELTWISE_ALWAYS_INLINE int vec_fwd_int(const eltwise_op_t *op,
                                             tsr_data_type_t dt, void *dst,
                                             const void *src, int64_t n) {
    switch (op->alg) {
    case tsr_eltwise_relu:
        vec_int_loop(tsr_eltwise_relu, op, dt, dst, src, n);
        return 1;
    case tsr_eltwise_linear:
        vec_int_loop(tsr_eltwise_linear, op, dt, dst, src, n);
        return 1;
    default:
        return 0;
    }
}

#endif
