/* The reference eltwise, forward and backward: any layouts, every data
 * type, every post-op; one element at a time through the generic offset
 * function, rows of the innermost logical dim spread over the threads. */
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "cpu/common/ref_post_ops.h"
#include "eltwise_pd.h"

/* Below this many elements one thread does it all. */
#define REF_ELTWISE_PARALLEL_MIN 16384

static tsr_status_t ref_eltwise_init(struct tsr_primitive_desc *pd) {
    return eltwise_init_common(pd);
}

static tsr_status_t ref_eltwise_fwd_execute(const struct tsr_primitive_desc *pd,
                                            const tsr_exec_ctx_t *ctx) {
    const tsr_eltwise_desc_t *d = eltwise_desc(pd);
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    const void *src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    void *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    if (!src || !dst)
        return tsr_invalid_arguments;
    eltwise_post_ops_rt_t rt;
    const tsr_status_t st = eltwise_post_ops_resolve(pd, ctx, &rt);
    if (st != tsr_success)
        return st;
    eltwise_op_t op;
    eltwise_op_init(&op, d->alg_kind, d->alpha, d->beta, 1);
    const struct tsr_post_ops *po = &pd->attr.post_ops;
    const tsr_round_mode_t round_mode = pd->attr.round_mode;

    const int ndims = src_md->ndims;
    const tsr_dim_t row_len = src_md->dims[ndims - 1];
    const tsr_dim_t nelems = tsr_memory_desc_nelems(src_md);
    const tsr_dim_t rows = nelems / row_len;
#pragma omp parallel for schedule(static) if (nelems >=                        \
                                              REF_ELTWISE_PARALLEL_MIN)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(src_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            const tsr_dim_t src_off = md_off_v(src_md, pos);
            const tsr_dim_t dst_off = md_off_v(dst_md, pos);
            float v = tsr_load_f32_inline(src_md->data_type, src, src_off);
            v = tsr_eltwise_fwd(op.alg, v, op.alpha, op.beta);
            v = tsr_ref_post_ops_apply(po, v, pos, dst_md, dst, dst_off,
                                       rt.bin_src1, NULL);
            tsr_store_f32_inline(dst_md->data_type, dst, dst_off, v,
                                 round_mode);
        }
    }
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

static tsr_status_t ref_eltwise_bwd_execute(const struct tsr_primitive_desc *pd,
                                            const tsr_exec_ctx_t *ctx) {
    const tsr_eltwise_desc_t *d = eltwise_desc(pd);
    const int data_slot = eltwise_bwd_data_slot(pd);
    const tsr_memory_desc_t *data_md = &pd->md[data_slot];
    const tsr_memory_desc_t *dd_md = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds_md = &pd->md[TSR_MD_DIFF_SRC];
    const void *data = tsr_ctx_data(ctx, tsr_slot_arg(data_slot));
    const void *diff_dst = tsr_ctx_data(ctx, TSR_ARG_DIFF_DST);
    void *diff_src = tsr_ctx_data(ctx, TSR_ARG_DIFF_SRC);
    if (!data || !diff_dst || !diff_src)
        return tsr_invalid_arguments;
    eltwise_op_t op;
    eltwise_op_init(&op, d->alg_kind, d->alpha, d->beta, 0);

    const int ndims = dd_md->ndims;
    const tsr_dim_t row_len = dd_md->dims[ndims - 1];
    const tsr_dim_t nelems = tsr_memory_desc_nelems(dd_md);
    const tsr_dim_t rows = nelems / row_len;
#pragma omp parallel for schedule(static) if (nelems >=                        \
                                              REF_ELTWISE_PARALLEL_MIN)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(dd_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            const float v = tsr_load_f32_inline(data_md->data_type, data,
                                                md_off_v(data_md, pos));
            const float dd = tsr_load_f32_inline(dd_md->data_type, diff_dst,
                                                 md_off_v(dd_md, pos));
            tsr_store_f32_inline(
                    ds_md->data_type, diff_src, md_off_v(ds_md, pos),
                    tsr_eltwise_bwd(op.alg, dd, v, op.alpha, op.beta),
                    tsr_round_nearest);
        }
    }
    md_zero_pad(ds_md, diff_src);
    return tsr_success;
}

const tsr_impl_t tsr_ref_eltwise_fwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_eltwise_init,
        .execute = ref_eltwise_fwd_execute,
        .fini = NULL,
};

const tsr_impl_t tsr_ref_eltwise_bwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_eltwise_init,
        .execute = ref_eltwise_bwd_execute,
        .fini = NULL,
};
