/* The sum kernel over f32, bf16 and f16 sources and dst, written once over
 * a small vector API that the including ISA file defines first
 * (sum_f32_avx2.c, sum_f32_avx512.c):
 *   vf, VF_LEN                       float vector, lanes
 *   vf_set1 vf_add vf_mul
 *   vf_load vf_store                 f32, unaligned
 *   vf_load_bf16 vf_store_bf16       bf16 bits; the store rounds to nearest
 *   vf_load_f16 vf_store_f16         even and keeps NaN as the reference
 * and names the kernel SUM_TYPED_KERNEL. Every source is converted to f32
 * in registers, multiplied and added in the reference's order. */
#ifndef TSR_CPU_SUM_SUM_VEC_BODY_H
#define TSR_CPU_SUM_SUM_VEC_BODY_H

#include <stdint.h>
#include <string.h>

#include "sum.h"

#define SUM_ALWAYS_INLINE inline __attribute__((always_inline))

static SUM_ALWAYS_INLINE vf sum_load(const void *src, tsr_data_type_t dt,
                                     tsr_dim_t j) {
    switch (dt) {
    case tsr_bf16:
        return vf_load_bf16((const uint16_t *)src + j);
    case tsr_f16:
        return vf_load_f16((const uint16_t *)src + j);
    default:
        return vf_load((const float *)src + j);
    }
}

static SUM_ALWAYS_INLINE void sum_store(void *dst, tsr_data_type_t dt,
                                        tsr_dim_t j, vf v) {
    switch (dt) {
    case tsr_bf16:
        vf_store_bf16((uint16_t *)dst + j, v);
        break;
    case tsr_f16:
        vf_store_f16((uint16_t *)dst + j, v);
        break;
    default:
        vf_store((float *)dst + j, v);
        break;
    }
}

static SUM_ALWAYS_INLINE vf sum_vector(const void *const *srcs,
                                       const tsr_data_type_t *src_dts,
                                       const float *scales, int n,
                                       tsr_dim_t j) {
    vf acc = vf_mul(vf_set1(scales[0]), sum_load(srcs[0], src_dts[0], j));
    for (int i = 1; i < n; i++)
        acc = vf_add(acc, vf_mul(vf_set1(scales[i]),
                                 sum_load(srcs[i], src_dts[i], j)));
    return acc;
}

enum { SUM_STEP = 2 * VF_LEN };

void SUM_TYPED_KERNEL(void *dst, tsr_data_type_t dst_dt,
                      const void *const *srcs, const tsr_data_type_t *src_dts,
                      const float *scales, int n, tsr_dim_t len) {
    tsr_dim_t j = 0;
    /* Both vectors are computed before either is stored: dst may alias a
     * source. */
    for (; j + SUM_STEP <= len; j += SUM_STEP) {
        const vf lo = sum_vector(srcs, src_dts, scales, n, j);
        const vf hi = sum_vector(srcs, src_dts, scales, n, j + VF_LEN);
        sum_store(dst, dst_dt, j, lo);
        sum_store(dst, dst_dt, j + VF_LEN, hi);
    }
    if (j == len)
        return;
    /* The tail goes through zeroed buffers of one full step. */
    const tsr_dim_t tail = len - j;
    float tail_bufs[TSR_MAX_MULTIPLE_SRC + 1][SUM_STEP];
    const void *tail_srcs[TSR_MAX_MULTIPLE_SRC];
    memset(tail_bufs, 0, sizeof(tail_bufs));
    for (int i = 0; i < n; i++) {
        const size_t size = tsr_data_type_size(src_dts[i]);
        memcpy(tail_bufs[i], (const char *)srcs[i] + (size_t)j * size,
               (size_t)tail * size);
        tail_srcs[i] = tail_bufs[i];
    }
    float *tail_dst = tail_bufs[TSR_MAX_MULTIPLE_SRC];
    sum_store(tail_dst, dst_dt, 0,
              sum_vector(tail_srcs, src_dts, scales, n, 0));
    sum_store(tail_dst, dst_dt, VF_LEN,
              sum_vector(tail_srcs, src_dts, scales, n, VF_LEN));
    const size_t dst_size = tsr_data_type_size(dst_dt);
    memcpy((char *)dst + (size_t)j * dst_size, tail_dst,
           (size_t)tail * dst_size);
}

#endif
