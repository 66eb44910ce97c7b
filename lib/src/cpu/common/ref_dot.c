/* The reference "dot product per dst point" driver: see ref_dot.h. */
#include "cpu/common/ref_dot.h"

#include "common/memory_desc.h"
#include "common/op_md.h"

tsr_status_t tsr_ref_dot_init(struct tsr_primitive_desc *pd, int with_bias,
                              tsr_epilogue_init_fn epilogue_init) {
    const tsr_data_type_t bia =
            with_bias ? pd->md[TSR_MD_BIAS].data_type : tsr_f32;
    if (!op_data_types_ok(pd->md[TSR_MD_SRC].data_type,
                          pd->md[TSR_MD_WEIGHTS].data_type, bia,
                          pd->md[TSR_MD_DST].data_type))
        return tsr_unimplemented;
    tsr_status_t st = tsr_pd_resolve_any_plain(pd);
    if (st != tsr_success)
        return st;
    tsr_epilogue_t ep;
    return epilogue_init(pd, &ep);
}

/* One multiplicand of the reduction. */
typedef struct {
    const tsr_memory_desc_t *md;
    const void *data;
    const int32_t *zp; /* NULL without a zero point */
    int zp_mask;
} ref_operand_t;

static void operand_setup(ref_operand_t *op,
                          const struct tsr_primitive_desc *pd,
                          const tsr_exec_ctx_t *ctx, tsr_md_slot_t slot,
                          int arg, int qarg) {
    const tsr_runtime_q_t *zp = &pd->attr.zero_points[qarg];
    op->md = &pd->md[slot];
    op->data = tsr_ctx_data(ctx, arg);
    op->zp = zp->set ? tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | arg) : NULL;
    op->zp_mask = zp->mask;
}

static float operand_load(const ref_operand_t *op, const tsr_dim_t *pos) {
    return tsr_ref_load_shifted(op->md, op->data, md_off_v(op->md, pos), op->zp,
                                op->zp_mask, pos);
}

tsr_status_t tsr_ref_dot_execute(const struct tsr_primitive_desc *pd,
                                 const tsr_exec_ctx_t *ctx,
                                 tsr_epilogue_init_fn epilogue_init,
                                 tsr_dim_t K,
                                 tsr_ref_dot_positions_fn positions) {
    tsr_epilogue_t ep;
    tsr_status_t st = epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&ep, ctx, &rt);
    ref_operand_t src, wei;
    operand_setup(&src, pd, ctx, TSR_MD_SRC, TSR_ARG_SRC, TSR_QARG_SRC);
    operand_setup(&wei, pd, ctx, TSR_MD_WEIGHTS, TSR_ARG_WEIGHTS,
                  TSR_QARG_WEIGHTS);
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    void *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    const int dst_nd = dst_md->ndims;
    const int int8 = op_dt_is_int8(src.md->data_type);

    const tsr_dim_t total = tsr_memory_desc_nelems(dst_md);
#pragma omp parallel for schedule(static)
    for (tsr_dim_t i = 0; i < total; i++) {
        tsr_dim_t dpos[TSR_MAX_NDIMS];
        tsr_dim_t rest = i;
        for (int d = dst_nd - 1; d >= 0; d--) {
            dpos[d] = rest % dst_md->dims[d];
            rest /= dst_md->dims[d];
        }
        tsr_ref_acc_t acc = {.int8 = int8};
        tsr_dim_t spos[TSR_MAX_NDIMS], wpos[TSR_MAX_NDIMS];
        for (tsr_dim_t k = 0; k < K; k++) {
            positions(src.md, wei.md, dpos, k, spos, wpos);
            tsr_ref_acc_add(&acc, operand_load(&src, spos),
                            operand_load(&wei, wpos));
        }
        float v = tsr_ref_acc_value(&acc);
        tsr_epilogue_apply_row(&ep, &rt, &v, 1, dpos, dst_nd - 1, dst,
                               md_off_v(dst_md, dpos), 1);
    }
    return tsr_success;
}
