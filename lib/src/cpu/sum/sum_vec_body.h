/* The sum kernel over f32, bf16 and f16 sources and dst, written once over
 * a small vector API that the including ISA file defines first
 * (sum_f32_avx2.c, sum_f32_avx512.c):
 *   vf, VF_LEN                       float vector, lanes
 *   vh                               VF_LEN 16-bit values
 *   vf_set1 vf_add vf_mul
 *   vf_load vf_store vf_stream       f32, unaligned / non-temporal aligned
 *   vf_load_bf16 vf_to_bf16          bf16 bits; the conversion rounds to
 *   vf_load_f16 vf_to_f16            nearest even and keeps NaN as the
 *                                    reference does
 *   vh_store vh_stream               unaligned / non-temporal aligned
 *   vf_stream_fence                  orders the non-temporal stores
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

static SUM_ALWAYS_INLINE void sum_store_half(uint16_t *p, vh h, int stream) {
    if (stream)
        vh_stream(p, h);
    else
        vh_store(p, h);
}

static SUM_ALWAYS_INLINE void sum_store(void *dst, tsr_data_type_t dt,
                                        tsr_dim_t j, vf v, int stream) {
    switch (dt) {
    case tsr_bf16:
        sum_store_half((uint16_t *)dst + j, vf_to_bf16(v), stream);
        break;
    case tsr_f16:
        sum_store_half((uint16_t *)dst + j, vf_to_f16(v), stream);
        break;
    default:
        if (stream)
            vf_stream((float *)dst + j, v);
        else
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

/* [begin, end) through zeroed buffers of one full step at a time: the
 * pieces before dst's first whole line and after its last full step. */
static void sum_through_buffers(void *dst, tsr_data_type_t dst_dt,
                                const void *const *srcs,
                                const tsr_data_type_t *src_dts,
                                const float *scales, int n, tsr_dim_t begin,
                                tsr_dim_t end) {
    float bufs[TSR_MAX_MULTIPLE_SRC + 1][SUM_STEP];
    const void *buf_srcs[TSR_MAX_MULTIPLE_SRC];
    const size_t dst_size = tsr_data_type_size(dst_dt);
    for (tsr_dim_t j = begin; j < end; j += SUM_STEP) {
        const tsr_dim_t len = end - j < SUM_STEP ? end - j : SUM_STEP;
        memset(bufs, 0, sizeof(bufs));
        for (int i = 0; i < n; i++) {
            const size_t size = tsr_data_type_size(src_dts[i]);
            memcpy(bufs[i], (const char *)srcs[i] + (size_t)j * size,
                   (size_t)len * size);
            buf_srcs[i] = bufs[i];
        }
        float *buf_dst = bufs[TSR_MAX_MULTIPLE_SRC];
        sum_store(buf_dst, dst_dt, 0,
                  sum_vector(buf_srcs, src_dts, scales, n, 0), 0);
        sum_store(buf_dst, dst_dt, VF_LEN,
                  sum_vector(buf_srcs, src_dts, scales, n, VF_LEN), 0);
        memcpy((char *)dst + (size_t)j * dst_size, buf_dst,
               (size_t)len * dst_size);
    }
}

/* Whole steps from j on; returns where they end. */
static SUM_ALWAYS_INLINE tsr_dim_t sum_steps(void *dst, tsr_data_type_t dst_dt,
                                             const void *const *srcs,
                                             const tsr_data_type_t *src_dts,
                                             const float *scales, int n,
                                             tsr_dim_t j, tsr_dim_t len,
                                             int stream) {
    /* Both vectors are computed before either is stored: dst may alias a
     * source. */
    for (; j + SUM_STEP <= len; j += SUM_STEP) {
        const vf lo = sum_vector(srcs, src_dts, scales, n, j);
        const vf hi = sum_vector(srcs, src_dts, scales, n, j + VF_LEN);
        sum_store(dst, dst_dt, j, lo, stream);
        sum_store(dst, dst_dt, j + VF_LEN, hi, stream);
    }
    return j;
}

void SUM_TYPED_KERNEL(void *dst, tsr_data_type_t dst_dt,
                      const void *const *srcs, const tsr_data_type_t *src_dts,
                      const float *scales, int n, tsr_dim_t len, int stream) {
    const size_t dst_size = tsr_data_type_size(dst_dt);
    tsr_dim_t j = 0;
    /* Non-temporal stores write whole aligned lines: the elements before
     * dst's first line boundary go first. */
    if (stream && (uintptr_t)dst % dst_size == 0) {
        j = sum_stream_head(dst, dst_size, 64, len);
        sum_through_buffers(dst, dst_dt, srcs, src_dts, scales, n, 0, j);
        j = sum_steps(dst, dst_dt, srcs, src_dts, scales, n, j, len, 1);
        vf_stream_fence();
    } else {
        j = sum_steps(dst, dst_dt, srcs, src_dts, scales, n, j, len, 0);
    }
    sum_through_buffers(dst, dst_dt, srcs, src_dts, scales, n, j, len);
}

#endif
