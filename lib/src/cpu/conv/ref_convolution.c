/* Reference forward convolution, "ref:any": every shape (1D/2D/3D, groups,
 * depthwise, strides, dilation, asymmetric padding), every layout (through
 * the generic offset function) and every data-type combination of
 * benchdnn's conv configurations. It is the last entry of the list and the
 * model the harness reproduces, so the order of operations below is part of
 * its contract.
 *
 * For one output point (n, oc, od, oh, ow), with g = oc / OCg:
 *   1. acc = sum over kd, kh, kw (outer to inner) and then ic of the group,
 *      for input points inside the source only (padding contributes 0,
 *      also with zero points: it stands for the real value 0), of
 *        (src[n, ic, id, ih, iw] - src_zp) * (wei[g, oc, ic, k..] - wei_zp)
 *      in s32 for u8/s8 sources (wrapping on overflow like 32-bit adds),
 *      in f32, in that order, for floating sources. Zero points are looked
 *      up by their mask over the argument's logical dims.
 *   2. scaling, with bias (read as f32) b:
 *        legacy output scales: v = oscale[mask over dst] * (acc + b)
 *        per-argument scales:  v = ((acc * src_scale) * wei_scale[g, oc]) + b
 *                              (a missing scale counts as 1)
 *        neither:              v = acc + b
 *   3. post-ops in order:
 *        sum:     v = sum_scale * (dst_old - sum_zp) + v, dst_old read as
 *                 the sum's data type (the dst's when undef)
 *        eltwise: v = eltwise_scale * f(v; alpha, beta)
 *        binary:  v = op(v, src1[dst point, broadcast dims at index 0])
 *   4. v = v / dst_scale[mask over dst]      (per-argument dst scales)
 *   5. v = v + dst_zp[mask over dst]
 *   6. store: rounded per the attr round mode for integer destinations,
 *      saturated to the dst type (tsr_store_f32).
 * Work is split over output points only, so results do not depend on the
 * thread count. */
#include <string.h>

#include "common/attr_mask.h"
#include "common/convolution_pd.h"
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "common/primitive.h"
#include "cpu/common/ref_dot.h"
#include "cpu/common/ref_post_ops.h"

typedef struct {
    const struct tsr_primitive_desc *pd;
    const struct tsr_primitive_attr *attr;
    const tsr_memory_desc_t *src_md, *wei_md, *bia_md, *dst_md;
    const void *src, *wei, *bia;
    void *dst;
    conv_sizes_t sh;
    int with_groups, int8;
    /* Element steps along src channels and weights input channels, 0 when
     * blocked. */
    tsr_dim_t src_c_step, wei_i_step;
    const float *src_scales, *wei_scales, *dst_scales;
    const int32_t *src_zp, *wei_zp, *dst_zp;
    const void *bin_src1[TSR_MAX_POST_OPS];
    const float *prelu_weights[TSR_MAX_POST_OPS];
} ref_conv_t;

static int data_types_ok(const struct tsr_primitive_desc *pd) {
    const tsr_convolution_desc_t *c = conv_desc(pd);
    return op_data_types_ok(c->src_desc.data_type, c->weights_desc.data_type,
                            conv_with_bias(pd) ? c->bias_desc.data_type
                                               : tsr_f32,
                            c->dst_desc.data_type);
}

/* Scales that can be applied after accumulation: one src scale, weights
 * scales varying at most over groups and output channels. */
static int attr_ok(const struct tsr_primitive_desc *pd) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    const int wei_oc_bits = conv_with_groups(pd) ? 0x3 : 0x1;
    if (attr->scales[TSR_QARG_SRC].set && attr->scales[TSR_QARG_SRC].mask != 0)
        return 0;
    if (attr->scales[TSR_QARG_WEIGHTS].set &&
        (attr->scales[TSR_QARG_WEIGHTS].mask & ~wei_oc_bits))
        return 0;
    for (int i = 0; i < attr->post_ops.len; i++) {
        tsr_post_op_kind_t kind = attr->post_ops.entry[i].kind;
        if (kind != tsr_post_op_sum && kind != tsr_post_op_eltwise &&
            kind != tsr_post_op_binary && kind != tsr_post_op_prelu)
            return 0;
    }
    return 1;
}

static tsr_status_t ref_conv_init(struct tsr_primitive_desc *pd) {
    if (!conv_is_fwd_direct(pd))
        return tsr_unimplemented;
    if (!data_types_ok(pd) || !attr_ok(pd))
        return tsr_unimplemented;
    return tsr_pd_resolve_any_plain(pd);
}

/* Writes spatial coordinates (d, h, w) into pos[first...] for a data
 * tensor of rank ndims, dropping the ones the problem lacks. */
static void set_spatial(tsr_dim_t *pos, int ndims, int first, tsr_dim_t d,
                        tsr_dim_t h, tsr_dim_t w) {
    if (ndims == 5)
        pos[first++] = d;
    if (ndims >= 4)
        pos[first++] = h;
    pos[first] = w;
}

/* Element distance between neighbours along `dim`, or 0 when the dim is
 * split into blocks (its neighbours are then not equally spaced). */
static tsr_dim_t plain_step(const tsr_memory_desc_t *md, int dim) {
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        if (md->blocking.inner_idxs[k] == dim)
            return 0;
    return md->blocking.strides[dim];
}

/* Offset of `pos` whose coordinate along the stepped dim is `i`, given the
 * offset `base` of coordinate 0: the generic function for blocked dims. */
static tsr_dim_t stepped_off(const tsr_memory_desc_t *md, tsr_dim_t base,
                             tsr_dim_t step, tsr_dim_t i,
                             const tsr_dim_t *pos) {
    return step ? base + i * step : md_off_v(md, pos);
}

/* Step 1, with the reduction pieces of cpu/common/ref_dot.h. */
static float accumulate(const ref_conv_t *r, tsr_dim_t n, tsr_dim_t g,
                        tsr_dim_t ocg, tsr_dim_t od, tsr_dim_t oh,
                        tsr_dim_t ow) {
    const struct tsr_primitive_attr *attr = r->attr;
    const int src_zp_mask = attr->zero_points[TSR_QARG_SRC].mask;
    const int wei_zp_mask = attr->zero_points[TSR_QARG_WEIGHTS].mask;
    const int wfirst = 2 + r->with_groups;
    tsr_dim_t spos[TSR_MAX_NDIMS] = {n}, wpos[TSR_MAX_NDIMS] = {0};
    if (r->with_groups)
        wpos[0] = g;
    wpos[r->with_groups] = ocg;
    tsr_ref_acc_t acc = {.int8 = r->int8};
    for (tsr_dim_t kd = 0; kd < r->sh.KD; kd++) {
        const tsr_dim_t id = od * r->sh.KSD - r->sh.padF + kd * (r->sh.KDD + 1);
        if (id < 0 || id >= r->sh.ID)
            continue;
        for (tsr_dim_t kh = 0; kh < r->sh.KH; kh++) {
            const tsr_dim_t ih =
                    oh * r->sh.KSH - r->sh.padT + kh * (r->sh.KDH + 1);
            if (ih < 0 || ih >= r->sh.IH)
                continue;
            for (tsr_dim_t kw = 0; kw < r->sh.KW; kw++) {
                const tsr_dim_t iw =
                        ow * r->sh.KSW - r->sh.padL + kw * (r->sh.KDW + 1);
                if (iw < 0 || iw >= r->sh.IW)
                    continue;
                set_spatial(spos, r->sh.ndims, 2, id, ih, iw);
                set_spatial(wpos, r->sh.ndims, wfirst, kd, kh, kw);
                spos[1] = g * r->sh.ICg;
                wpos[r->with_groups + 1] = 0;
                const tsr_dim_t s_base = md_off_v(r->src_md, spos);
                const tsr_dim_t w_base = md_off_v(r->wei_md, wpos);
                for (tsr_dim_t ic = 0; ic < r->sh.ICg; ic++) {
                    spos[1] = g * r->sh.ICg + ic;
                    wpos[r->with_groups + 1] = ic;
                    const tsr_dim_t s_off = stepped_off(
                            r->src_md, s_base, r->src_c_step, ic, spos);
                    const tsr_dim_t w_off = stepped_off(
                            r->wei_md, w_base, r->wei_i_step, ic, wpos);
                    tsr_ref_acc_add(
                            &acc,
                            tsr_ref_load_shifted(r->src_md, r->src, s_off,
                                                 r->src_zp, src_zp_mask, spos),
                            tsr_ref_load_shifted(r->wei_md, r->wei, w_off,
                                                 r->wei_zp, wei_zp_mask, wpos));
                }
            }
        }
    }
    return tsr_ref_acc_value(&acc);
}

/* Step 2. */
static float scale_and_bias(const ref_conv_t *r, float acc, tsr_dim_t g,
                            tsr_dim_t ocg, const tsr_dim_t *dpos) {
    const struct tsr_primitive_attr *attr = r->attr;
    const tsr_dim_t oc = g * r->sh.OCg + ocg;
    float b = 0.f;
    if (r->bia)
        b = tsr_load_f32(r->bia_md->data_type, r->bia,
                         md_off_v(r->bia_md, &oc));
    if (attr->output_scales.set) {
        const tsr_dim_t i =
                tsr_mask_index(attr->output_scales.mask, r->dst_md->ndims,
                               r->dst_md->dims, dpos);
        return attr->output_scales.values[i] * (acc + b);
    }
    float v = acc;
    if (r->src_scales)
        v = v * r->src_scales[0];
    if (r->wei_scales) {
        tsr_dim_t wpos[TSR_MAX_NDIMS] = {0};
        if (r->with_groups)
            wpos[0] = g;
        wpos[r->with_groups] = ocg;
        v = v * r->wei_scales[tsr_mask_index(
                        attr->scales[TSR_QARG_WEIGHTS].mask, r->wei_md->ndims,
                        r->wei_md->dims, wpos)];
    }
    return v + b;
}

static void compute_point(const ref_conv_t *r, tsr_dim_t n, tsr_dim_t oc,
                          tsr_dim_t od, tsr_dim_t oh, tsr_dim_t ow) {
    const struct tsr_primitive_attr *attr = r->attr;
    const tsr_dim_t g = oc / r->sh.OCg, ocg = oc % r->sh.OCg;
    tsr_dim_t dpos[TSR_MAX_NDIMS] = {n, oc};
    set_spatial(dpos, r->sh.ndims, 2, od, oh, ow);
    const tsr_dim_t dst_off = md_off_v(r->dst_md, dpos);

    const float acc = accumulate(r, n, g, ocg, od, oh, ow);
    float v = scale_and_bias(r, acc, g, ocg, dpos);
    /* Step 3. */
    v = tsr_ref_post_ops_apply(&attr->post_ops, v, dpos, r->dst_md, r->dst,
                               dst_off, r->bin_src1, r->prelu_weights);
    const int nd = r->dst_md->ndims;
    if (r->dst_scales)
        v = v / r->dst_scales[tsr_mask_index(attr->scales[TSR_QARG_DST].mask,
                                             nd, r->dst_md->dims, dpos)];
    if (r->dst_zp)
        v = v + (float)r->dst_zp[tsr_mask_index(
                        attr->zero_points[TSR_QARG_DST].mask, nd,
                        r->dst_md->dims, dpos)];
    tsr_store_f32(r->dst_md->data_type, r->dst, dst_off, v, attr->round_mode);
}

/* Runtime values of the attributes; NULL when not set. */
static const void *q_values(const tsr_exec_ctx_t *ctx, int set, int kind,
                            int arg) {
    return set ? tsr_ctx_data(ctx, kind | arg) : NULL;
}

static void ref_conv_setup(ref_conv_t *r, const struct tsr_primitive_desc *pd,
                           const tsr_exec_ctx_t *ctx) {
    const struct tsr_primitive_attr *attr = &pd->attr;
    memset(r, 0, sizeof(*r));
    r->pd = pd;
    r->attr = attr;
    r->src_md = &pd->md[TSR_MD_SRC];
    r->wei_md = &pd->md[TSR_MD_WEIGHTS];
    r->bia_md = &pd->md[TSR_MD_BIAS];
    r->dst_md = &pd->md[TSR_MD_DST];
    r->src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    r->wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    r->bia = conv_with_bias(pd) ? tsr_ctx_data(ctx, TSR_ARG_BIAS) : NULL;
    r->dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    conv_sizes_init(&r->sh, pd);
    r->with_groups = conv_with_groups(pd);
    r->int8 = op_dt_is_int8(r->src_md->data_type);
    r->src_c_step = plain_step(r->src_md, 1);
    r->wei_i_step = plain_step(r->wei_md, r->with_groups + 1);
    r->src_scales = q_values(ctx, attr->scales[TSR_QARG_SRC].set,
                             TSR_ARG_ATTR_SCALES, TSR_ARG_SRC);
    r->wei_scales = q_values(ctx, attr->scales[TSR_QARG_WEIGHTS].set,
                             TSR_ARG_ATTR_SCALES, TSR_ARG_WEIGHTS);
    r->dst_scales = q_values(ctx, attr->scales[TSR_QARG_DST].set,
                             TSR_ARG_ATTR_SCALES, TSR_ARG_DST);
    r->src_zp = q_values(ctx, attr->zero_points[TSR_QARG_SRC].set,
                         TSR_ARG_ATTR_ZERO_POINTS, TSR_ARG_SRC);
    r->wei_zp = q_values(ctx, attr->zero_points[TSR_QARG_WEIGHTS].set,
                         TSR_ARG_ATTR_ZERO_POINTS, TSR_ARG_WEIGHTS);
    r->dst_zp = q_values(ctx, attr->zero_points[TSR_QARG_DST].set,
                         TSR_ARG_ATTR_ZERO_POINTS, TSR_ARG_DST);
    for (int i = 0; i < attr->post_ops.len; i++) {
        const tsr_post_op_kind_t kind = attr->post_ops.entry[i].kind;
        if (kind == tsr_post_op_binary)
            r->bin_src1[i] = tsr_ctx_data(
                    ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1);
        else if (kind == tsr_post_op_prelu)
            r->prelu_weights[i] = tsr_ctx_data(
                    ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_WEIGHTS);
    }
}

static tsr_status_t ref_conv_execute(const struct tsr_primitive_desc *pd,
                                     const tsr_exec_ctx_t *ctx) {
    ref_conv_t r;
    ref_conv_setup(&r, pd, ctx);
    const tsr_dim_t MB = conv_MB(pd), OC = conv_OC(pd);
    const tsr_dim_t OD = conv_OD(pd), OH = conv_OH(pd), OW = conv_OW(pd);
    const tsr_dim_t work = MB * OC * OD * OH * OW;
#pragma omp parallel for schedule(static)
    for (tsr_dim_t i = 0; i < work; i++) {
        tsr_dim_t rest = i;
        const tsr_dim_t ow = rest % OW;
        rest /= OW;
        const tsr_dim_t oh = rest % OH;
        rest /= OH;
        const tsr_dim_t od = rest % OD;
        rest /= OD;
        const tsr_dim_t oc = rest % OC;
        const tsr_dim_t n = rest / OC;
        compute_point(&r, n, oc, od, oh, ow);
    }
    return tsr_success;
}

const tsr_impl_t tsr_ref_convolution_fwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_conv_init,
        .execute = ref_conv_execute,
        .fini = NULL,
};
