/* What every reorder implementation shares: the attributes resolved into a
 * per-element recipe, the runtime values of one execution, and the one
 * formula
 *   dst = saturate(round(src_scale / dst_scale * (src - src_zp)
 *                        + sum_scale * (dst_old - sum_zp) + dst_zp))
 * written once here so that every fast path gives exactly the reference's
 * result. */
#ifndef TSR_CPU_REORDER_REORDER_COMMON_H
#define TSR_CPU_REORDER_REORDER_COMMON_H

#include <string.h>

#include "common/attr_mask.h"
#include "common/data_type.h"
#include "common/primitive.h"

/* The per-element quantities an attribute can vary over the dims. */
typedef enum {
    REORDER_SRC_SCALE = 0,
    REORDER_DST_SCALE,
    REORDER_SRC_ZP,
    REORDER_DST_ZP,
    REORDER_NQ,
} reorder_q_kind_t;

typedef struct {
    tsr_data_type_t src_dt, dst_dt;
    /* Same type and no attributes: elements are copied bit for bit. */
    int move_only;
    /* Which quantities are present and the dims they vary over. The legacy
     * output scales act as source scales (they cannot be combined). */
    int has[REORDER_NQ];
    int mask[REORDER_NQ];
    int legacy_scales;
    int has_sum;
    float sum_scale, sum_zp;
    tsr_data_type_t sum_dt; /* how the old dst is read */
    tsr_round_mode_t round_mode;
} reorder_conf_t;

/* The values of one execution; NULL for absent quantities. */
typedef struct {
    const float *scales[2];        /* src, dst */
    const int32_t *zero_points[2]; /* src, dst */
} reorder_values_t;

/* Checks that the attributes are ones a reorder supports (scales and zero
 * points on src / dst, a single sum post-op) and fills `conf`. Returns
 * tsr_unimplemented otherwise. */
tsr_status_t reorder_conf_init(reorder_conf_t *conf,
                               const struct tsr_primitive_desc *pd);

/* 1 when every present quantity has mask 0 (one value for all points). */
int reorder_conf_is_uniform(const reorder_conf_t *conf);

/* Gathers the runtime values; tsr_invalid_arguments when one is missing. */
tsr_status_t reorder_values_init(reorder_values_t *values,
                                 const reorder_conf_t *conf,
                                 const struct tsr_primitive_desc *pd,
                                 const tsr_exec_ctx_t *ctx);

/* What every reorder execution starts with: `conf`, the runtime values and
 * the data pointers. Returns reorder_conf_init's error, or
 * tsr_invalid_arguments when a value or a buffer is missing. */
tsr_status_t reorder_exec_setup(reorder_conf_t *conf, reorder_values_t *values,
                                void **src, void **dst,
                                const struct tsr_primitive_desc *pd,
                                const tsr_exec_ctx_t *ctx);

/* The value of quantity `kind` at value index `idx`, or its neutral value
 * (1 for scales, 0 for zero points) when absent. */
static inline float reorder_q_value(const reorder_values_t *values,
                                    reorder_q_kind_t kind, tsr_dim_t idx) {
    switch (kind) {
    case REORDER_SRC_SCALE:
    case REORDER_DST_SCALE: {
        const float *v = values->scales[kind - REORDER_SRC_SCALE];
        return v ? v[idx] : 1.f;
    }
    default: {
        const int32_t *v = values->zero_points[kind - REORDER_SRC_ZP];
        return v ? (float)v[idx] : 0.f;
    }
    }
}

/* The formula, for a source value already read as f32. `alpha` is
 * src_scale / dst_scale. */
static inline float reorder_apply(const reorder_conf_t *conf, float src,
                                  float alpha, float src_zp, float dst_zp,
                                  float dst_old) {
    float v = alpha * (src - src_zp);
    if (conf->has_sum)
        v += conf->sum_scale * (dst_old - conf->sum_zp);
    if (conf->has[REORDER_DST_ZP])
        v += dst_zp;
    return v;
}

/* One element at logical point `pos`, source element `src_off`,
 * destination element `dst_off`: the reference path, and the tail path of
 * the fast ones. */
static inline void reorder_element(const reorder_conf_t *conf,
                                   const reorder_values_t *values, int ndims,
                                   const tsr_dim_t *dims, const tsr_dim_t *pos,
                                   const void *src, tsr_dim_t src_off,
                                   void *dst, tsr_dim_t dst_off) {
    if (conf->move_only) {
        switch (tsr_data_type_size(conf->src_dt)) {
        case 4:
            ((uint32_t *)dst)[dst_off] = ((const uint32_t *)src)[src_off];
            break;
        case 2:
            ((uint16_t *)dst)[dst_off] = ((const uint16_t *)src)[src_off];
            break;
        default:
            ((uint8_t *)dst)[dst_off] = ((const uint8_t *)src)[src_off];
            break;
        }
        return;
    }
    float q[REORDER_NQ];
    for (int k = 0; k < REORDER_NQ; k++)
        q[k] = reorder_q_value(
                values, (reorder_q_kind_t)k,
                conf->has[k] ? tsr_mask_index(conf->mask[k], ndims, dims, pos)
                             : 0);
    const float alpha = q[REORDER_SRC_SCALE] / q[REORDER_DST_SCALE];
    const float s = tsr_load_f32_inline(conf->src_dt, src, src_off);
    const float old = conf->has_sum
                              ? tsr_load_f32_inline(conf->sum_dt, dst, dst_off)
                              : 0.f;
    tsr_store_f32_inline(conf->dst_dt, dst, dst_off,
                         reorder_apply(conf, s, alpha, q[REORDER_SRC_ZP],
                                       q[REORDER_DST_ZP], old),
                         conf->round_mode);
}

/* Below this many elements a reorder runs on the calling thread: waking
 * the others costs more than the work. */
#define REORDER_PARALLEL_MIN ((tsr_dim_t)1 << 15)

/* Copies n elements of `esize` bytes between strided locations. */
void reorder_copy_strided(size_t esize, const void *src, tsr_dim_t src_stride,
                          void *dst, tsr_dim_t dst_stride, tsr_dim_t n);

/* Copies `rows` rows of `cols` contiguous elements of `esize` bytes, the
 * rows src_ld / dst_ld elements apart. */
void reorder_copy_2d(size_t esize, const void *src, tsr_dim_t src_ld, void *dst,
                     tsr_dim_t dst_ld, tsr_dim_t rows, tsr_dim_t cols);

/* Writes zeros to n strided elements of `esize` bytes. */
void reorder_zero_strided(size_t esize, void *dst, tsr_dim_t dst_stride,
                          tsr_dim_t n);

/* Applies the formula in place to n values of `buf` with one set of
 * values for all (uniform conf); `old` holds the dst values or is NULL
 * without a sum. */
void reorder_apply_uniform(const reorder_conf_t *conf,
                           const reorder_values_t *values, float *buf,
                           const float *old, tsr_dim_t n);

/* The implementations, listed best first in reorder_list.c. */
extern const tsr_impl_t tsr_simple_reorder_copy_impl;
extern const tsr_impl_t tsr_simple_reorder_transpose_impl;
extern const tsr_impl_t tsr_simple_reorder_tiled_impl;
extern const tsr_impl_t tsr_ref_reorder_impl;

/* Applies the formula in place to n values of `buf` with factors per
 * element (alpha = src_scale / dst_scale, zero points); `old` holds the
 * dst values or is NULL without a sum. */
void reorder_apply_columns(const reorder_conf_t *conf, float *buf,
                           const float *old, tsr_dim_t n, const float *alpha,
                           const float *src_zp, const float *dst_zp);

#endif
