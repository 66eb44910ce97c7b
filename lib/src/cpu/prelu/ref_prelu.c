/* The reference PReLU, "ref:any", forward and backward: any layouts and
 * data types, weights broadcast along any dims. One point at a time
 * through the generic offset function. The backward weights reduction
 * gives each weights point to one thread, which sums its broadcast points
 * in row-major order: the result does not depend on the thread count. */
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "cpu/binary/binary_common.h"
#include "cpu/prelu/prelu_common.h"
#include "cpu/prelu/prelu_impls.h"

static tsr_status_t ref_prelu_init(struct tsr_primitive_desc *pd) {
    if (!prelu_attr_ok(&pd->attr))
        return tsr_unimplemented;
    const tsr_status_t st = prelu_resolve_any(pd);
    if (st != tsr_success)
        return st;
    return prelu_data_types_ok(pd) ? tsr_success : tsr_unimplemented;
}

static tsr_status_t ref_prelu_fwd_execute(const struct tsr_primitive_desc *pd,
                                          const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei_md = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    const void *src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    const void *wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    void *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    const tsr_round_mode_t mode = pd->attr.round_mode;

    const int ndims = src_md->ndims;
    const tsr_dim_t row_len = src_md->dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(src_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >= 4096)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS], wpos[TSR_MAX_NDIMS];
        md_l2pos(src_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            binary_bcast_pos(wei_md, pos, wpos);
            const float s = tsr_load_f32_inline(src_md->data_type, src,
                                                md_off_v(src_md, pos));
            const float w = tsr_load_f32_inline(wei_md->data_type, wei,
                                                md_off_v(wei_md, wpos));
            tsr_store_f32_inline(dst_md->data_type, dst, md_off_v(dst_md, pos),
                                 prelu_fwd(s, w), mode);
        }
    }
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

static void ref_prelu_bwd_data(const struct tsr_primitive_desc *pd,
                               const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei_md = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dd_md = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *ds_md = &pd->md[TSR_MD_DIFF_SRC];
    const void *src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    const void *wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    const void *dd = tsr_ctx_data(ctx, TSR_ARG_DIFF_DST);
    void *ds = tsr_ctx_data(ctx, TSR_ARG_DIFF_SRC);
    const tsr_round_mode_t mode = pd->attr.round_mode;

    const int ndims = src_md->ndims;
    const tsr_dim_t row_len = src_md->dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(src_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >= 4096)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS], wpos[TSR_MAX_NDIMS];
        md_l2pos(src_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            binary_bcast_pos(wei_md, pos, wpos);
            const float s = tsr_load_f32_inline(src_md->data_type, src,
                                                md_off_v(src_md, pos));
            const float w = tsr_load_f32_inline(wei_md->data_type, wei,
                                                md_off_v(wei_md, wpos));
            const float g = tsr_load_f32_inline(dd_md->data_type, dd,
                                                md_off_v(dd_md, pos));
            tsr_store_f32_inline(ds_md->data_type, ds, md_off_v(ds_md, pos),
                                 prelu_bwd_data(s, w, g), mode);
        }
    }
    md_zero_pad(ds_md, ds);
}

static void ref_prelu_bwd_weights(const struct tsr_primitive_desc *pd,
                                  const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dd_md = &pd->md[TSR_MD_DIFF_DST];
    const tsr_memory_desc_t *dw_md = &pd->md[TSR_MD_DIFF_WEIGHTS];
    const void *src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    const void *dd = tsr_ctx_data(ctx, TSR_ARG_DIFF_DST);
    void *dw = tsr_ctx_data(ctx, TSR_ARG_DIFF_WEIGHTS);
    const tsr_round_mode_t mode = pd->attr.round_mode;

    const int ndims = src_md->ndims;
    /* The reduced dims: those the weights broadcast. */
    tsr_dim_t red_dims[TSR_MAX_NDIMS];
    tsr_dim_t red_count = 1;
    for (int d = 0; d < ndims; d++) {
        red_dims[d] = dw_md->dims[d] == 1 ? src_md->dims[d] : 1;
        red_count *= red_dims[d];
    }
    const tsr_dim_t wei_count = tsr_memory_desc_nelems(dw_md);
#pragma omp parallel for schedule(static) if (wei_count > 1 &&                 \
                                              wei_count * red_count >= 4096)
    for (tsr_dim_t wl = 0; wl < wei_count; wl++) {
        tsr_dim_t wpos[TSR_MAX_NDIMS], pos[TSR_MAX_NDIMS];
        md_l2pos(dw_md, wl, wpos);
        float sum = 0.f;
        for (tsr_dim_t r = 0; r < red_count; r++) {
            tsr_dim_t rest = r;
            for (int d = ndims - 1; d >= 0; d--) {
                pos[d] = red_dims[d] == 1 ? wpos[d] : rest % red_dims[d];
                rest /= red_dims[d];
            }
            const float s = tsr_load_f32_inline(src_md->data_type, src,
                                                md_off_v(src_md, pos));
            const float g = tsr_load_f32_inline(dd_md->data_type, dd,
                                                md_off_v(dd_md, pos));
            sum += prelu_bwd_weights_term(s, g);
        }
        tsr_store_f32_inline(dw_md->data_type, dw, md_off_v(dw_md, wpos), sum,
                             mode);
    }
    md_zero_pad(dw_md, dw);
}

static tsr_status_t ref_prelu_bwd_execute(const struct tsr_primitive_desc *pd,
                                          const tsr_exec_ctx_t *ctx) {
    ref_prelu_bwd_data(pd, ctx);
    ref_prelu_bwd_weights(pd, ctx);
    return tsr_success;
}

const tsr_impl_t tsr_ref_prelu_fwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_prelu_init,
        .execute = ref_prelu_fwd_execute,
        .fini = NULL,
};

const tsr_impl_t tsr_ref_prelu_bwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_prelu_init,
        .execute = ref_prelu_bwd_execute,
        .fini = NULL,
};
