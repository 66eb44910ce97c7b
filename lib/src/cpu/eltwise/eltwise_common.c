/* Eltwise pieces every implementation shares: problem checks, layouts for
 * "any", the post-ops' runtime operands, and the portable kernels. */
#include <string.h>

#include "common/data_type.h"
#include "common/memory_desc.h"
#include "common/op_md.h"
#include "eltwise_pd.h"

void eltwise_op_init(eltwise_op_t *op, tsr_alg_kind_t alg, float alpha,
                     float beta, int forward) {
    op->alg = forward ? tsr_eltwise_fwd_alg(alg) : alg;
    op->alpha = alpha;
    op->beta = beta;
    tsr_eltwise_resolve_params(alg, &op->alpha, &op->beta);
}

static int dt_is_int(tsr_data_type_t dt) {
    return dt == tsr_s32 || dt == tsr_s8 || dt == tsr_u8;
}

/* Scales and zero points mean nothing to eltwise. */
static int attr_quantization_unset(const struct tsr_primitive_attr *attr) {
    if (attr->output_scales.set)
        return 0;
    for (int q = 0; q < TSR_QARG_COUNT; q++)
        if (attr->scales[q].set || attr->zero_points[q].set)
            return 0;
    return 1;
}

static int post_ops_supported(const struct tsr_post_ops *po) {
    for (int i = 0; i < po->len; i++) {
        const tsr_post_op_kind_t kind = po->entry[i].kind;
        if (kind != tsr_post_op_sum && kind != tsr_post_op_eltwise &&
            kind != tsr_post_op_binary)
            return 0;
    }
    return 1;
}

/* `any` takes the layout of `like` with its own data type. */
static void resolve_any_like(tsr_memory_desc_t *md,
                             const tsr_memory_desc_t *like) {
    if (!md_is_any(md))
        return;
    const tsr_data_type_t dt = md->data_type;
    *md = *like;
    md->data_type = dt;
    md->offset0 = 0;
    memset(&md->extra, 0, sizeof(md->extra));
}

tsr_status_t eltwise_init_common(struct tsr_primitive_desc *pd) {
    const tsr_eltwise_desc_t *d = eltwise_desc(pd);
    const tsr_alg_kind_t fwd_alg = tsr_eltwise_fwd_alg(d->alg_kind);
    if (!attr_quantization_unset(&pd->attr))
        return tsr_unimplemented;
    if (eltwise_is_fwd(pd)) {
        const tsr_data_type_t sdt = pd->md[TSR_MD_SRC].data_type;
        const tsr_data_type_t ddt = pd->md[TSR_MD_DST].data_type;
        if ((dt_is_int(sdt) || dt_is_int(ddt)) && fwd_alg != tsr_eltwise_relu &&
            fwd_alg != tsr_eltwise_linear)
            return tsr_unimplemented;
        if (fwd_alg == tsr_eltwise_round && (sdt != tsr_f32 || ddt != tsr_f32))
            return tsr_unimplemented;
        if (!post_ops_supported(&pd->attr.post_ops))
            return tsr_unimplemented;
        resolve_any_like(&pd->md[TSR_MD_DST], &pd->md[TSR_MD_SRC]);
        return tsr_success;
    }
    const int data_slot = eltwise_bwd_data_slot(pd);
    if (!op_dt_is_float(pd->md[TSR_MD_DIFF_DST].data_type) ||
        !op_dt_is_float(pd->md[TSR_MD_DIFF_SRC].data_type) ||
        !op_dt_is_float(pd->md[data_slot].data_type))
        return tsr_unimplemented;
    if (fwd_alg == tsr_eltwise_round || pd->attr.post_ops.len != 0)
        return tsr_unimplemented;
    resolve_any_like(&pd->md[TSR_MD_DIFF_SRC], &pd->md[TSR_MD_DIFF_DST]);
    return tsr_success;
}

tsr_status_t eltwise_post_ops_resolve(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx,
                                      eltwise_post_ops_rt_t *rt) {
    const struct tsr_post_ops *po = &pd->attr.post_ops;
    memset(rt, 0, sizeof(*rt));
    for (int i = 0; i < po->len; i++) {
        if (po->entry[i].kind != tsr_post_op_binary)
            continue;
        rt->bin_src1[i] = tsr_ctx_data(ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) |
                                                    TSR_ARG_SRC_1);
        if (!rt->bin_src1[i])
            return tsr_invalid_arguments;
    }
    return tsr_success;
}

void tsr_eltwise_fwd_f32_generic(const eltwise_op_t *op, float *dst,
                                 const float *src, int64_t n) {
    /* relu and linear as loops the compiler vectorizes, with the same
     * expressions as tsr_eltwise_fwd. */
    const float alpha = op->alpha, beta = op->beta;
    if (op->alg == tsr_eltwise_relu) {
        for (int64_t i = 0; i < n; i++)
            dst[i] = src[i] > 0.f ? src[i] : alpha * src[i];
        return;
    }
    if (op->alg == tsr_eltwise_linear) {
        for (int64_t i = 0; i < n; i++)
            dst[i] = alpha * src[i] + beta;
        return;
    }
    for (int64_t i = 0; i < n; i++)
        dst[i] = tsr_eltwise_fwd(op->alg, src[i], op->alpha, op->beta);
}

void tsr_eltwise_bwd_f32_generic(const eltwise_op_t *op, float *diff_src,
                                 const float *diff_dst, const float *data,
                                 int64_t n) {
    for (int64_t i = 0; i < n; i++)
        diff_src[i] = tsr_eltwise_bwd(op->alg, diff_dst[i], data[i], op->alpha,
                                      op->beta);
}
