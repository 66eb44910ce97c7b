/* Reference forward inner product, "ref:any": every layout (through the
 * generic offset function), spatial or not, and every data-type
 * combination of benchdnn's ip configurations.
 *
 * For one output point (n, oc):
 *   1. acc = sum over ic (outer) and the spatial points (inner, logical
 *      order) of (src[n, ic, ..] - src_zp) * (wei[oc, ic, ..] - wei_zp),
 *      in s32 for u8/s8 sources (wrapping like 32-bit adds), in f32 for
 *      floating ones. Zero points are looked up by their mask over the
 *      argument's logical dims.
 *   2. everything after the reduction - scales, bias, post-ops, dst scale
 *      and zero point, rounding, saturation, store - is the shared epilogue
 *      (cpu/common/epilogue_f32.h) with dst dim 1 (OC) as the channel, in
 *      the order ref_convolution.c documents.
 * Work is split over output points only, so results do not depend on the
 * thread count. */
#include <string.h>

#include "common/attr_mask.h"
#include "common/convolution_pd.h"
#include "common/data_type.h"
#include "common/inner_product_pd.h"
#include "common/memory_desc.h"
#include "cpu/ip/ip_epilogue.h"

static tsr_status_t ref_ip_init(struct tsr_primitive_desc *pd) {
    const tsr_inner_product_desc_t *d = &pd->op.ip;
    const tsr_data_type_t bia =
            ip_with_bias(pd) ? d->bias_desc.data_type : tsr_f32;
    if (!op_data_types_ok(d->src_desc.data_type, d->weights_desc.data_type, bia,
                          d->dst_desc.data_type))
        return tsr_unimplemented;
    /* "any" resolved to plain row-major, the same rule as the reference
     * convolution's. */
    tsr_status_t st = tsr_conv_resolve_any_plain(pd);
    if (st != tsr_success)
        return st;
    tsr_epilogue_t ep;
    return ip_epilogue_init(pd, &ep);
}

typedef struct {
    const tsr_memory_desc_t *src_md, *wei_md, *dst_md;
    const void *src, *wei;
    void *dst;
    const int32_t *src_zp, *wei_zp;
    int src_zp_mask, wei_zp_mask, int8, ndims;
    tsr_dim_t IC, spatial;
} ref_ip_t;

static float load_shifted(const tsr_memory_desc_t *md, const void *data,
                          const tsr_dim_t *pos, const int32_t *zp,
                          int zp_mask) {
    const float v = tsr_load_f32_inline(md->data_type, data, md_off_v(md, pos));
    if (!zp)
        return v;
    return v - (float)zp[tsr_mask_index(zp_mask, md->ndims, md->dims, pos)];
}

static float accumulate(const ref_ip_t *r, tsr_dim_t n, tsr_dim_t oc) {
    tsr_dim_t spos[TSR_MAX_NDIMS] = {n}, wpos[TSR_MAX_NDIMS] = {oc};
    int64_t acc_s = 0;
    float acc_f = 0.f;
    for (tsr_dim_t ic = 0; ic < r->IC; ic++) {
        spos[1] = wpos[1] = ic;
        for (tsr_dim_t sp = 0; sp < r->spatial; sp++) {
            tsr_dim_t rest = sp;
            for (int d = r->ndims - 1; d >= 2; d--) {
                spos[d] = wpos[d] = rest % r->src_md->dims[d];
                rest /= r->src_md->dims[d];
            }
            const float s = load_shifted(r->src_md, r->src, spos, r->src_zp,
                                         r->src_zp_mask);
            const float w = load_shifted(r->wei_md, r->wei, wpos, r->wei_zp,
                                         r->wei_zp_mask);
            /* Integer products are exact in f32 for sane zero points. */
            if (r->int8)
                acc_s += (int64_t)s * (int64_t)w;
            else
                acc_f += s * w;
        }
    }
    /* The low 32 bits are what a 32-bit accumulator would hold. */
    return r->int8 ? (float)(int32_t)(uint32_t)acc_s : acc_f;
}

static tsr_status_t ref_ip_execute(const struct tsr_primitive_desc *pd,
                                   const tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    tsr_epilogue_t ep;
    tsr_status_t st = ip_epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    tsr_epilogue_rt_t rt;
    tsr_epilogue_resolve(&ep, ctx, &rt);
    ref_ip_t r;
    memset(&r, 0, sizeof(r));
    r.src_md = &pd->md[TSR_MD_SRC];
    r.wei_md = &pd->md[TSR_MD_WEIGHTS];
    r.dst_md = &pd->md[TSR_MD_DST];
    r.src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    r.wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    r.dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    if (attr->zero_points[TSR_QARG_SRC].set)
        r.src_zp = tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC);
    if (attr->zero_points[TSR_QARG_WEIGHTS].set)
        r.wei_zp =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_WEIGHTS);
    r.src_zp_mask = attr->zero_points[TSR_QARG_SRC].mask;
    r.wei_zp_mask = attr->zero_points[TSR_QARG_WEIGHTS].mask;
    r.int8 = op_dt_is_int8(r.src_md->data_type);
    r.ndims = r.src_md->ndims;
    r.IC = ip_IC(pd);
    r.spatial = ip_spatial(pd);

    const tsr_dim_t MB = ip_MB(pd), OC = ip_OC(pd);
#pragma omp parallel for schedule(static)
    for (tsr_dim_t i = 0; i < MB * OC; i++) {
        const tsr_dim_t n = i / OC, oc = i % OC;
        float acc = accumulate(&r, n, oc);
        const tsr_dim_t dpos[2] = {n, oc};
        tsr_epilogue_apply_row(&ep, &rt, &acc, 1, dpos, 1, r.dst,
                               md_off_v(r.dst_md, dpos), 1);
    }
    return tsr_success;
}

const tsr_impl_t tsr_ref_inner_product_fwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_ip_init,
        .execute = ref_ip_execute,
        .fini = NULL,
};
