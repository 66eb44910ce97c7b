/* Reference matmul, "ref:any": 2D to 6D with batch broadcast, every layout
 * (strides express transposes; the generic offset function reads them) and
 * every data-type combination of benchdnn's matmul configurations.
 *
 * For one dst point (b.., m, n), reading batch index 0 of a src or weights
 * batch dim of size 1:
 *   1. acc = sum over k of (src[b.., m, k] - src_zp) * (wei[b.., k, n] -
 *      wei_zp), in s32 for u8/s8 sources (wrapping like 32-bit adds), in f32
 *      in k order for floating ones; zero points by their mask over the
 *      argument's logical dims.
 *   2. the shared epilogue (cpu/common/epilogue_f32.h) with the last dst
 *      dim (N) as the channel: scales, bias (broadcast over its dims of
 *      size 1), post-ops, dst scale and zero point, rounding, store, in the
 *      order ref_convolution.c documents.
 * Work is split over dst points only. */
#include <string.h>

#include "common/attr_mask.h"
#include "common/convolution_pd.h"
#include "common/data_type.h"
#include "common/matmul_pd.h"
#include "common/memory_desc.h"
#include "cpu/matmul/matmul_epilogue.h"

static tsr_status_t ref_matmul_init(struct tsr_primitive_desc *pd) {
    const tsr_matmul_desc_t *d = &pd->op.matmul;
    const tsr_data_type_t bia =
            matmul_with_bias(pd) ? d->bias_desc.data_type : tsr_f32;
    if (!op_data_types_ok(d->src_desc.data_type, d->weights_desc.data_type, bia,
                          d->dst_desc.data_type))
        return tsr_unimplemented;
    /* "any": dense row-major, the reference convolution's rule. */
    tsr_status_t st = tsr_conv_resolve_any_plain(pd);
    if (st != tsr_success)
        return st;
    tsr_epilogue_t ep;
    return matmul_epilogue_init(pd, &ep);
}

typedef struct {
    const tsr_memory_desc_t *src_md, *wei_md, *dst_md;
    const void *src, *wei;
    const int32_t *src_zp, *wei_zp;
    int src_zp_mask, wei_zp_mask, int8, ndims;
    tsr_dim_t K;
} ref_matmul_t;

static float load_shifted(const tsr_memory_desc_t *md, const void *data,
                          const tsr_dim_t *pos, const int32_t *zp,
                          int zp_mask) {
    const float v = tsr_load_f32_inline(md->data_type, data, md_off_v(md, pos));
    if (!zp)
        return v;
    return v - (float)zp[tsr_mask_index(zp_mask, md->ndims, md->dims, pos)];
}

static float accumulate(const ref_matmul_t *r, const tsr_dim_t *dpos) {
    const int nd = r->ndims;
    tsr_dim_t spos[TSR_MAX_NDIMS], wpos[TSR_MAX_NDIMS];
    for (int d = 0; d < nd - 2; d++) {
        spos[d] = r->src_md->dims[d] == 1 ? 0 : dpos[d];
        wpos[d] = r->wei_md->dims[d] == 1 ? 0 : dpos[d];
    }
    spos[nd - 2] = dpos[nd - 2];
    wpos[nd - 1] = dpos[nd - 1];
    int64_t acc_s = 0;
    float acc_f = 0.f;
    for (tsr_dim_t k = 0; k < r->K; k++) {
        spos[nd - 1] = wpos[nd - 2] = k;
        const float s = load_shifted(r->src_md, r->src, spos, r->src_zp,
                                     r->src_zp_mask);
        const float w = load_shifted(r->wei_md, r->wei, wpos, r->wei_zp,
                                     r->wei_zp_mask);
        if (r->int8)
            acc_s += (int64_t)s * (int64_t)w;
        else
            acc_f += s * w;
    }
    return r->int8 ? (float)(int32_t)(uint32_t)acc_s : acc_f;
}

static tsr_status_t ref_matmul_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    tsr_epilogue_t ep;
    tsr_status_t st = matmul_epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&ep, ctx, &rt);
    ref_matmul_t r;
    memset(&r, 0, sizeof(r));
    r.src_md = &pd->md[TSR_MD_SRC];
    r.wei_md = &pd->md[TSR_MD_WEIGHTS];
    r.dst_md = &pd->md[TSR_MD_DST];
    r.src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    r.wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    void *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    if (attr->zero_points[TSR_QARG_SRC].set)
        r.src_zp = tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC);
    if (attr->zero_points[TSR_QARG_WEIGHTS].set)
        r.wei_zp =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_WEIGHTS);
    r.src_zp_mask = attr->zero_points[TSR_QARG_SRC].mask;
    r.wei_zp_mask = attr->zero_points[TSR_QARG_WEIGHTS].mask;
    r.int8 = op_dt_is_int8(r.src_md->data_type);
    r.ndims = matmul_ndims(pd);
    r.K = matmul_K(pd);

    const tsr_dim_t total = tsr_memory_desc_nelems(r.dst_md);
#pragma omp parallel for schedule(static)
    for (tsr_dim_t i = 0; i < total; i++) {
        tsr_dim_t dpos[TSR_MAX_NDIMS];
        tsr_dim_t rest = i;
        for (int d = r.ndims - 1; d >= 0; d--) {
            dpos[d] = rest % r.dst_md->dims[d];
            rest /= r.dst_md->dims[d];
        }
        float acc = accumulate(&r, dpos);
        tsr_epilogue_apply_row(&ep, &rt, &acc, 1, dpos, r.ndims - 1, dst,
                               md_off_v(r.dst_md, dpos), 1);
    }
    return tsr_success;
}

const tsr_impl_t tsr_ref_matmul_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_matmul_init,
        .execute = ref_matmul_execute,
        .fini = NULL,
};
