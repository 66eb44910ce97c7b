/* Reorder attributes, runtime values and the bulk helpers every reorder
 * implementation shares. */
#include "reorder_common.h"

tsr_status_t reorder_conf_init(reorder_conf_t *conf,
                               const struct tsr_primitive_desc *pd) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    memset(conf, 0, sizeof(*conf));
    conf->src_dt = src->data_type;
    conf->dst_dt = dst->data_type;
    conf->round_mode = attr->round_mode;

    /* Only sum makes sense after a reorder. */
    if (attr->post_ops.len > 1)
        return tsr_unimplemented;
    if (attr->post_ops.len == 1) {
        const tsr_post_op_t *e = &attr->post_ops.entry[0];
        if (e->kind != tsr_post_op_sum)
            return tsr_unimplemented;
        conf->has_sum = 1;
        conf->sum_scale = e->sum.scale;
        conf->sum_zp = (float)e->sum.zero_point;
        conf->sum_dt =
                e->sum.dt == tsr_data_type_undef ? dst->data_type : e->sum.dt;
        if (tsr_data_type_size(conf->sum_dt) !=
            tsr_data_type_size(dst->data_type))
            return tsr_unimplemented;
    }

    if (attr->scales[TSR_QARG_WEIGHTS].set ||
        attr->zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    if (attr->output_scales.set) {
        if (attr->scales[TSR_QARG_SRC].set || attr->scales[TSR_QARG_DST].set ||
            !attr->output_scales.values)
            return tsr_unimplemented;
        conf->legacy_scales = 1;
        conf->has[REORDER_SRC_SCALE] = 1;
        conf->mask[REORDER_SRC_SCALE] = attr->output_scales.mask;
    }
    const struct {
        reorder_q_kind_t kind;
        const tsr_runtime_q_t *q;
    } runtime[] = {
            {REORDER_SRC_SCALE, &attr->scales[TSR_QARG_SRC]},
            {REORDER_DST_SCALE, &attr->scales[TSR_QARG_DST]},
            {REORDER_SRC_ZP, &attr->zero_points[TSR_QARG_SRC]},
            {REORDER_DST_ZP, &attr->zero_points[TSR_QARG_DST]},
    };
    for (size_t i = 0; i < sizeof(runtime) / sizeof(*runtime); i++) {
        if (!runtime[i].q->set)
            continue;
        if (tsr_mask_nelems(runtime[i].q->mask, src->ndims, src->dims) == 0)
            return tsr_unimplemented;
        conf->has[runtime[i].kind] = 1;
        conf->mask[runtime[i].kind] = runtime[i].q->mask;
    }

    int any_q = conf->has_sum;
    for (int k = 0; k < REORDER_NQ; k++)
        any_q |= conf->has[k];
    conf->move_only = conf->src_dt == conf->dst_dt && !any_q;
    return tsr_success;
}

int reorder_conf_is_uniform(const reorder_conf_t *conf) {
    for (int k = 0; k < REORDER_NQ; k++)
        if (conf->has[k] && conf->mask[k] != 0)
            return 0;
    return 1;
}

tsr_status_t reorder_values_init(reorder_values_t *values,
                                 const reorder_conf_t *conf,
                                 const struct tsr_primitive_desc *pd,
                                 const tsr_exec_ctx_t *ctx) {
    memset(values, 0, sizeof(*values));
    if (conf->legacy_scales)
        values->scales[0] = pd->attr.output_scales.values;
    else if (conf->has[REORDER_SRC_SCALE])
        values->scales[0] =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES | TSR_ARG_FROM);
    if (conf->has[REORDER_DST_SCALE])
        values->scales[1] = tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES | TSR_ARG_TO);
    if (conf->has[REORDER_SRC_ZP])
        values->zero_points[0] =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_FROM);
    if (conf->has[REORDER_DST_ZP])
        values->zero_points[1] =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_TO);
    if ((conf->has[REORDER_SRC_SCALE] && !values->scales[0]) ||
        (conf->has[REORDER_DST_SCALE] && !values->scales[1]) ||
        (conf->has[REORDER_SRC_ZP] && !values->zero_points[0]) ||
        (conf->has[REORDER_DST_ZP] && !values->zero_points[1]))
        return tsr_invalid_arguments;
    return tsr_success;
}

tsr_status_t reorder_exec_setup(reorder_conf_t *conf, reorder_values_t *values,
                                void **src, void **dst,
                                const struct tsr_primitive_desc *pd,
                                const tsr_exec_ctx_t *ctx) {
    tsr_status_t st = reorder_conf_init(conf, pd);
    if (st != tsr_success)
        return st;
    st = reorder_values_init(values, conf, pd, ctx);
    *src = tsr_ctx_data(ctx, TSR_ARG_FROM);
    *dst = tsr_ctx_data(ctx, TSR_ARG_TO);
    if (st != tsr_success || !*src || !*dst)
        return tsr_invalid_arguments;
    return tsr_success;
}

void reorder_copy_strided(size_t esize, const void *src, tsr_dim_t src_stride,
                          void *dst, tsr_dim_t dst_stride, tsr_dim_t n) {
    /* Long contiguous runs go to memcpy; short ones are not worth the
     * call and the typed loops below handle them. */
    if (src_stride == 1 && dst_stride == 1 && n * (tsr_dim_t)esize >= 256) {
        memcpy(dst, src, (size_t)n * esize);
        return;
    }
    switch (esize) {
    case 4:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint32_t *)dst)[i * dst_stride] =
                    ((const uint32_t *)src)[i * src_stride];
        break;
    case 2:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i * dst_stride] =
                    ((const uint16_t *)src)[i * src_stride];
        break;
    default:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint8_t *)dst)[i * dst_stride] =
                    ((const uint8_t *)src)[i * src_stride];
        break;
    }
}

void reorder_zero_strided(size_t esize, void *dst, tsr_dim_t dst_stride,
                          tsr_dim_t n) {
    switch (esize) {
    case 4:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint32_t *)dst)[i * dst_stride] = 0;
        break;
    case 2:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint16_t *)dst)[i * dst_stride] = 0;
        break;
    default:
        for (tsr_dim_t i = 0; i < n; i++)
            ((uint8_t *)dst)[i * dst_stride] = 0;
        break;
    }
}

void reorder_apply_uniform(const reorder_conf_t *conf,
                           const reorder_values_t *values, float *buf,
                           const float *old, tsr_dim_t n) {
    const float alpha = reorder_q_value(values, REORDER_SRC_SCALE, 0) /
                        reorder_q_value(values, REORDER_DST_SCALE, 0);
    const float src_zp = reorder_q_value(values, REORDER_SRC_ZP, 0);
    const float dst_zp = reorder_q_value(values, REORDER_DST_ZP, 0);
    /* The plain case first: a loop the compiler vectorizes. */
    if (!conf->has_sum) {
        if (conf->has[REORDER_DST_ZP])
            for (tsr_dim_t i = 0; i < n; i++)
                buf[i] = alpha * (buf[i] - src_zp) + dst_zp;
        else
            for (tsr_dim_t i = 0; i < n; i++)
                buf[i] = alpha * (buf[i] - src_zp);
        return;
    }
    for (tsr_dim_t i = 0; i < n; i++)
        buf[i] = reorder_apply(conf, buf[i], alpha, src_zp, dst_zp, old[i]);
}

void reorder_copy_2d(size_t esize, const void *src, tsr_dim_t src_ld, void *dst,
                     tsr_dim_t dst_ld, tsr_dim_t rows, tsr_dim_t cols) {
    for (tsr_dim_t r = 0; r < rows; r++) {
        const char *s = (const char *)src + (size_t)(r * src_ld) * esize;
        char *d = (char *)dst + (size_t)(r * dst_ld) * esize;
        switch (esize) {
        case 4:
            for (tsr_dim_t i = 0; i < cols; i++)
                ((uint32_t *)d)[i] = ((const uint32_t *)s)[i];
            break;
        case 2:
            for (tsr_dim_t i = 0; i < cols; i++)
                ((uint16_t *)d)[i] = ((const uint16_t *)s)[i];
            break;
        default:
            for (tsr_dim_t i = 0; i < cols; i++)
                ((uint8_t *)d)[i] = ((const uint8_t *)s)[i];
            break;
        }
    }
}

void reorder_apply_columns(const reorder_conf_t *conf, float *buf,
                           const float *old, tsr_dim_t n, const float *alpha,
                           const float *src_zp, const float *dst_zp) {
    /* The common cases as plain loops the compiler vectorizes; the same
     * arithmetic as reorder_apply, in the same order. */
    if (!conf->has_sum && !conf->has[REORDER_DST_ZP]) {
        for (tsr_dim_t i = 0; i < n; i++)
            buf[i] = alpha[i] * (buf[i] - src_zp[i]);
        return;
    }
    if (!conf->has_sum) {
        for (tsr_dim_t i = 0; i < n; i++)
            buf[i] = alpha[i] * (buf[i] - src_zp[i]) + dst_zp[i];
        return;
    }
    for (tsr_dim_t i = 0; i < n; i++)
        buf[i] = reorder_apply(conf, buf[i], alpha[i], src_zp[i], dst_zp[i],
                               old[i]);
}
