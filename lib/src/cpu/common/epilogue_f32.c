/* The shared f32 epilogue (contract in epilogue_f32.h). A row is processed
 * in chunks that stay in L1: each step of the reference order runs over the
 * whole chunk before the next one starts. The steps are elementwise, so
 * this gives each element exactly the operations, in exactly the order, of
 * the one-point-at-a-time reference. Operands that vary along the row
 * (bias, per-channel scales, binary src1, old dst) are used in place when
 * they are contiguous f32, otherwise gathered into a chunk buffer. */
#include <string.h>

#include "common/attr_mask.h"
#include "common/data_type.h"
#include "common/isa.h"
#include "common/memory_desc.h"
#include "cpu/common/epilogue_f32.h"

#define CHUNK 256

static void qindex_init(tsr_epilogue_qindex_t *q, int mask, int ndims,
                        const tsr_dim_t *dims) {
    q->mask = mask;
    for (int d = 0; d < ndims; d++)
        q->dims[d] = dims[d];
}

/* The fused plan when the problem is the common case (see the header). */
static void fused_plan_init(tsr_epilogue_t *ep) {
    tsr_epilogue_fused_plan_t *p = &ep->fused;
    memset(p, 0, sizeof(*p));
    const int ch_bit = 1 << ep->channel_dim;
    if (ep->with_dst_scale || ep->with_dst_zp)
        return;
    if (ep->with_bias) {
        const tsr_memory_desc_t *b = &ep->bias_md;
        if (b->ndims != 1 || b->data_type != tsr_f32 ||
            b->format_kind != tsr_format_kind_blocked ||
            b->blocking.inner_nblks != 0 ||
            (b->dims[0] > 1 && b->blocking.strides[0] != 1))
            return;
    }
    if (ep->with_oscale && ep->oscale_idx.mask != 0 &&
        ep->oscale_idx.mask != ch_bit)
        return;
    if (ep->with_wei_scale && ep->wei_mod != 1 &&
        !(ep->wei_div == 1 && ep->wei_mod == ep->dims[ep->channel_dim]))
        return;
    const struct tsr_post_ops *po = ep->post_ops;
    if (po->len > TSR_EPILOGUE_FUSED_MAX_OPS)
        return;
    for (int i = 0; i < po->len; i++) {
        const tsr_post_op_t *e = &po->entry[i];
        /* A sum reads the old dst as f32: only an f32 dst has it so. */
        if (e->kind == tsr_post_op_sum && ep->dst_dt == tsr_f32 &&
            (e->sum.dt == tsr_data_type_undef || e->sum.dt == tsr_f32)) {
            p->is_sum[i] = 1;
            p->p0[i] = e->sum.scale;
            p->p1[i] = (float)e->sum.zero_point;
        } else if (e->kind == tsr_post_op_eltwise &&
                   e->eltwise.alg == tsr_eltwise_relu) {
            p->p0[i] = e->eltwise.alpha;
            p->p1[i] = e->eltwise.scale;
        } else {
            return;
        }
    }
    p->nops = po->len;
    p->legacy = ep->with_oscale;
    p->with_bias = ep->with_bias;
    p->with_src_scale = ep->with_src_scale;
    p->with_wei_scale = ep->with_wei_scale;
    p->oscale_per_channel = ep->with_oscale && ep->oscale_idx.mask == ch_bit;
    p->wei_scale_per_channel = ep->with_wei_scale && ep->wei_mod != 1;
    p->ok = 1;
}

tsr_status_t tsr_epilogue_init(tsr_epilogue_t *ep,
                               const struct tsr_primitive_attr *attr,
                               const tsr_memory_desc_t *dst_md,
                               const tsr_memory_desc_t *bias_md,
                               int channel_dim, int64_t wei_scale_div,
                               int64_t wei_scale_mod) {
    memset(ep, 0, sizeof(*ep));
    const int nd = dst_md->ndims;
    if (nd < 1 || nd > TSR_MAX_NDIMS || channel_dim < 0 || channel_dim >= nd)
        return tsr_unimplemented;
    ep->ndims = nd;
    ep->channel_dim = channel_dim;
    for (int d = 0; d < nd; d++)
        ep->dims[d] = dst_md->dims[d];
    ep->dst_dt = dst_md->data_type;
    ep->round_mode = attr->round_mode;

    if (bias_md && !md_is_zero(bias_md)) {
        if (bias_md->ndims != 1 && bias_md->ndims != nd)
            return tsr_unimplemented;
        ep->with_bias = 1;
        ep->bias_md = *bias_md;
    }
    if (attr->output_scales.set) {
        if (tsr_mask_nelems(attr->output_scales.mask, nd, dst_md->dims) !=
            attr->output_scales.count)
            return tsr_unimplemented;
        ep->with_oscale = 1;
        ep->oscales = attr->output_scales.values;
        qindex_init(&ep->oscale_idx, attr->output_scales.mask, nd,
                    dst_md->dims);
    }
    if (attr->scales[TSR_QARG_SRC].set) {
        if (attr->scales[TSR_QARG_SRC].mask != 0)
            return tsr_unimplemented;
        ep->with_src_scale = 1;
    }
    if (attr->scales[TSR_QARG_WEIGHTS].set) {
        if (wei_scale_mod < 1 || wei_scale_div < 1)
            return tsr_unimplemented;
        ep->with_wei_scale = 1;
        ep->wei_div = wei_scale_div;
        ep->wei_mod = wei_scale_mod;
    }
    if (attr->scales[TSR_QARG_DST].set) {
        if (attr->scales[TSR_QARG_DST].mask >> nd)
            return tsr_unimplemented;
        ep->with_dst_scale = 1;
        qindex_init(&ep->dst_scale_idx, attr->scales[TSR_QARG_DST].mask, nd,
                    dst_md->dims);
    }
    if (attr->zero_points[TSR_QARG_DST].set) {
        if (attr->zero_points[TSR_QARG_DST].mask >> nd)
            return tsr_unimplemented;
        ep->with_dst_zp = 1;
        qindex_init(&ep->dst_zp_idx, attr->zero_points[TSR_QARG_DST].mask, nd,
                    dst_md->dims);
    }
    ep->post_ops = &attr->post_ops;
    for (int i = 0; i < attr->post_ops.len; i++) {
        const tsr_post_op_t *e = &attr->post_ops.entry[i];
        switch (e->kind) {
        case tsr_post_op_sum:
            ep->reads_dst = 1;
            break;
        case tsr_post_op_eltwise:
            break;
        case tsr_post_op_binary:
            if (e->binary.src1_desc.ndims != nd)
                return tsr_unimplemented;
            break;
        case tsr_post_op_prelu:
            if (e->prelu.mask >> nd)
                return tsr_unimplemented;
            break;
        default:
            return tsr_unimplemented;
        }
    }
    fused_plan_init(ep);
    return tsr_success;
}

void tsr_epilogue_resolve(const tsr_epilogue_t *ep, const tsr_exec_ctx_t *ctx,
                          tsr_epilogue_rt_t *rt) {
    memset(rt, 0, sizeof(*rt));
    if (ep->with_bias)
        rt->bias = tsr_ctx_data(ctx, TSR_ARG_BIAS);
    if (ep->with_src_scale)
        rt->src_scales = tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES | TSR_ARG_SRC);
    if (ep->with_wei_scale)
        rt->wei_scales =
                tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES | TSR_ARG_WEIGHTS);
    if (ep->with_dst_scale)
        rt->dst_scales = tsr_ctx_data(ctx, TSR_ARG_ATTR_SCALES | TSR_ARG_DST);
    if (ep->with_dst_zp)
        rt->dst_zp = tsr_ctx_data(ctx, TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_DST);
    for (int i = 0; i < ep->post_ops->len; i++) {
        const tsr_post_op_kind_t kind = ep->post_ops->entry[i].kind;
        if (kind == tsr_post_op_binary)
            rt->bin_src1[i] = tsr_ctx_data(
                    ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1);
        else if (kind == tsr_post_op_prelu)
            rt->prelu_weights[i] = tsr_ctx_data(
                    ctx, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_WEIGHTS);
    }
    rt->use_avx2 = tsr_mayiuse(tsr_cpu_isa_avx2);
    rt->use_avx512 = tsr_mayiuse(tsr_cpu_isa_avx512_core);
}

int tsr_epilogue_is_identity(const tsr_epilogue_t *ep) {
    return ep->dst_dt == tsr_f32 && !ep->with_bias && !ep->with_oscale &&
           !ep->with_src_scale && !ep->with_wei_scale && !ep->with_dst_scale &&
           !ep->with_dst_zp && ep->post_ops->len == 0;
}

int tsr_epilogue_is_bias_only(const tsr_epilogue_t *ep) {
    const tsr_epilogue_fused_plan_t *p = &ep->fused;
    return ep->dst_dt == tsr_f32 && p->ok && p->with_bias && !p->legacy &&
           !p->with_src_scale && !p->with_wei_scale && p->nops == 0;
}

int tsr_epilogue_uniform_along(const tsr_epilogue_t *ep, int dim) {
    const int bit = 1 << dim;
    if ((ep->with_oscale && (ep->oscale_idx.mask & bit)) ||
        (ep->with_dst_scale && (ep->dst_scale_idx.mask & bit)) ||
        (ep->with_dst_zp && (ep->dst_zp_idx.mask & bit)))
        return 0;
    if (dim == ep->channel_dim && (ep->with_bias || ep->with_wei_scale))
        return 0;
    if (ep->with_bias && ep->bias_md.ndims == ep->ndims &&
        ep->bias_md.dims[dim] != 1)
        return 0;
    for (int i = 0; i < ep->post_ops->len; i++) {
        const tsr_post_op_t *e = &ep->post_ops->entry[i];
        if (e->kind == tsr_post_op_binary && e->binary.src1_desc.dims[dim] != 1)
            return 0;
        if (e->kind == tsr_post_op_prelu && (e->prelu.mask & bit) &&
            ep->dims[dim] != 1)
            return 0;
    }
    return 1;
}

/* A per-element operand of one chunk: `vec` (len entries) or, when NULL,
 * the same `common` value for every element. */
typedef struct {
    const float *vec;
    float common;
} operand_t;

/* The row position of one chunk. */
typedef struct {
    const tsr_dim_t *pos0;
    int inner_dim;
    int64_t i0, len;
} chunk_t;

/* Values indexed by a dst mask: value index base + i * step. */
static operand_t masked_f32(const tsr_epilogue_qindex_t *q, int ndims,
                            const float *values, const chunk_t *c, float *tmp) {
    const tsr_dim_t base = tsr_mask_index(q->mask, ndims, q->dims, c->pos0);
    operand_t r = {NULL, 0.f};
    if (!(q->mask & (1 << c->inner_dim))) {
        r.common = values[base];
        return r;
    }
    tsr_dim_t step = 1;
    for (int d = c->inner_dim + 1; d < ndims; d++)
        if (q->mask & (1 << d))
            step *= q->dims[d];
    if (step == 1) {
        r.vec = values + base + c->i0;
        return r;
    }
    for (int64_t i = 0; i < c->len; i++)
        tmp[i] = values[base + (c->i0 + i) * step];
    r.vec = tmp;
    return r;
}

static operand_t masked_s32(const tsr_epilogue_qindex_t *q, int ndims,
                            const int32_t *values, const chunk_t *c,
                            float *tmp) {
    const tsr_dim_t base = tsr_mask_index(q->mask, ndims, q->dims, c->pos0);
    operand_t r = {NULL, 0.f};
    if (!(q->mask & (1 << c->inner_dim))) {
        r.common = (float)values[base];
        return r;
    }
    tsr_dim_t step = 1;
    for (int d = c->inner_dim + 1; d < ndims; d++)
        if (q->mask & (1 << d))
            step *= q->dims[d];
    for (int64_t i = 0; i < c->len; i++)
        tmp[i] = (float)values[base + (c->i0 + i) * step];
    r.vec = tmp;
    return r;
}

/* A tensor operand read at logical point opos0 + i along its dim `odim`
 * (-1: the same point for the whole chunk). */
static operand_t tensor_operand(const tsr_memory_desc_t *md, const void *data,
                                tsr_dim_t *opos0, int odim, const chunk_t *c,
                                float *tmp) {
    operand_t r = {NULL, 0.f};
    if (odim < 0 || md->dims[odim] == 1) {
        r.common =
                tsr_load_f32_inline(md->data_type, data, md_off_v(md, opos0));
        return r;
    }
    int blocked = 0;
    for (int k = 0; k < md->blocking.inner_nblks; k++)
        blocked |= md->blocking.inner_idxs[k] == odim;
    const tsr_dim_t first = opos0[odim];
    opos0[odim] = first + c->i0;
    const tsr_dim_t off0 = md_off_v(md, opos0);
    const tsr_dim_t step = md->blocking.strides[odim];
    if (!blocked && step == 1 && md->data_type == tsr_f32) {
        r.vec = (const float *)data + off0;
    } else {
        for (int64_t i = 0; i < c->len; i++) {
            tsr_dim_t off = off0 + i * step;
            if (blocked) {
                opos0[odim] = first + c->i0 + i;
                off = md_off_v(md, opos0);
            }
            tmp[i] = tsr_load_f32_inline(md->data_type, data, off);
        }
        r.vec = tmp;
    }
    opos0[odim] = first;
    return r;
}

static operand_t bias_operand(const tsr_epilogue_t *ep, const void *bias,
                              const chunk_t *c, float *tmp) {
    const tsr_memory_desc_t *md = &ep->bias_md;
    tsr_dim_t opos[TSR_MAX_NDIMS];
    if (md->ndims == 1) {
        opos[0] = c->pos0[ep->channel_dim];
        return tensor_operand(md, bias, opos,
                              c->inner_dim == ep->channel_dim ? 0 : -1, c, tmp);
    }
    for (int d = 0; d < md->ndims; d++)
        opos[d] = md->dims[d] == 1 ? 0 : c->pos0[d];
    return tensor_operand(md, bias, opos, c->inner_dim, c, tmp);
}

static operand_t wei_scale_operand(const tsr_epilogue_t *ep,
                                   const float *scales, const chunk_t *c,
                                   float *tmp) {
    const int64_t ch0 = c->pos0[ep->channel_dim];
    operand_t r = {NULL, 0.f};
    if (c->inner_dim != ep->channel_dim) {
        r.common = scales[(ch0 / ep->wei_div) % ep->wei_mod];
        return r;
    }
    const int64_t first = (ch0 + c->i0) % ep->wei_mod;
    if (ep->wei_div == 1 && ep->wei_mod > 1 && first + c->len <= ep->wei_mod) {
        /* One channel per scale and no wrap: the scales in place. */
        r.vec = scales + first;
        return r;
    }
    for (int64_t i = 0; i < c->len; i++)
        tmp[i] = scales[((ch0 + c->i0 + i) / ep->wei_div) % ep->wei_mod];
    r.vec = tmp;
    return r;
}

static void mul(const tsr_epilogue_rt_t *rt, float *v, int64_t n, operand_t m) {
    if (rt->use_avx2) {
        tsr_epilogue_mul_avx2(v, n, m.vec, m.common);
        return;
    }
    if (m.vec)
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] * m.vec[i];
    else
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] * m.common;
}

static void add(const tsr_epilogue_rt_t *rt, float *v, int64_t n, operand_t a) {
    if (rt->use_avx2) {
        tsr_epilogue_add_avx2(v, n, a.vec, a.common);
        return;
    }
    if (a.vec)
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] + a.vec[i];
    else
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] + a.common;
}

/* Step 2 of the reference order: scales and bias. */
static void scale_and_bias(const tsr_epilogue_t *ep,
                           const tsr_epilogue_rt_t *rt, float *v,
                           const chunk_t *c, float *tmp) {
    const int64_t n = c->len;
    if (ep->with_oscale) {
        if (ep->with_bias)
            add(rt, v, n, bias_operand(ep, rt->bias, c, tmp));
        mul(rt, v, n,
            masked_f32(&ep->oscale_idx, ep->ndims, ep->oscales, c, tmp));
        return;
    }
    if (ep->with_src_scale)
        mul(rt, v, n, (operand_t){NULL, rt->src_scales[0]});
    if (ep->with_wei_scale)
        mul(rt, v, n, wei_scale_operand(ep, rt->wei_scales, c, tmp));
    if (ep->with_bias)
        add(rt, v, n, bias_operand(ep, rt->bias, c, tmp));
}

static void sum_post_op(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                        const tsr_post_op_t *e, float *v, int64_t n,
                        const void *dst_base, int64_t dst_off,
                        int64_t dst_stride, float *tmp) {
    const tsr_data_type_t dt =
            e->sum.dt != tsr_data_type_undef ? e->sum.dt : ep->dst_dt;
    const float *old = tmp;
    if (dt == tsr_f32 && dst_stride == 1)
        old = (const float *)dst_base + dst_off;
    else
        for (int64_t i = 0; i < n; i++)
            tmp[i] =
                    tsr_load_f32_inline(dt, dst_base, dst_off + i * dst_stride);
    const float scale = e->sum.scale, zp = (float)e->sum.zero_point;
    if (rt->use_avx2) {
        tsr_epilogue_sum_avx2(v, n, old, scale, zp);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        v[i] = scale * (old[i] - zp) + v[i];
}

static void eltwise_post_op(const tsr_epilogue_rt_t *rt, const tsr_post_op_t *e,
                            float *v, int64_t n) {
    const float scale = e->eltwise.scale, alpha = e->eltwise.alpha;
    if (e->eltwise.alg == tsr_eltwise_relu && rt->use_avx2) {
        tsr_epilogue_relu_avx2(v, n, alpha, scale);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        v[i] = scale *
               tsr_eltwise_fwd(e->eltwise.alg, v[i], alpha, e->eltwise.beta);
}

static void binary_post_op(const tsr_epilogue_rt_t *rt, const tsr_post_op_t *e,
                           const void *src1, float *v, const chunk_t *c,
                           float *tmp) {
    const tsr_memory_desc_t *md = &e->binary.src1_desc;
    tsr_dim_t opos[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        opos[d] = md->dims[d] == 1 ? 0 : c->pos0[d];
    const operand_t b = tensor_operand(md, src1, opos, c->inner_dim, c, tmp);
    const int64_t n = c->len;
    if (e->binary.alg == tsr_binary_add) {
        add(rt, v, n, b);
    } else if (e->binary.alg == tsr_binary_mul) {
        mul(rt, v, n, b);
    } else {
        for (int64_t i = 0; i < n; i++)
            v[i] = tsr_binary_fwd(e->binary.alg, v[i],
                                  b.vec ? b.vec[i] : b.common);
    }
}

static void prelu_post_op(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                          const tsr_post_op_t *e, const float *weights,
                          float *v, const chunk_t *c, float *tmp) {
    tsr_epilogue_qindex_t q;
    qindex_init(&q, e->prelu.mask, ep->ndims, ep->dims);
    const operand_t w = masked_f32(&q, ep->ndims, weights, c, tmp);
    const int64_t n = c->len;
    if (rt->use_avx2) {
        tsr_epilogue_prelu_avx2(v, n, w.vec, w.common);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        v[i] = tsr_prelu_post_op(v[i], w.vec ? w.vec[i] : w.common);
}

static void store(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                  const float *v, int64_t n, void *dst_base, int64_t dst_off,
                  int64_t dst_stride) {
    if (ep->dst_dt == tsr_f32) {
        float *d = (float *)dst_base + dst_off;
        if (dst_stride == 1) {
            if (d != v)
                memmove(d, v, (size_t)n * sizeof(float));
        } else {
            for (int64_t i = 0; i < n; i++)
                d[i * dst_stride] = v[i];
        }
        return;
    }
    if (dst_stride == 1) {
        /* Contiguous runs (the int8 destinations' common case) convert
         * with the vector kernels, bit for bit the element-wise result. */
        void *d = (char *)dst_base +
                  dst_off * (int64_t)tsr_data_type_size(ep->dst_dt);
        if (rt->use_avx2)
            tsr_cvt_from_f32_2d_avx2(ep->dst_dt, v, n, d, n, 1, n,
                                     ep->round_mode);
        else
            tsr_cvt_from_f32_2d(ep->dst_dt, v, n, d, n, 1, n, ep->round_mode);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        tsr_store_f32_inline(ep->dst_dt, dst_base, dst_off + i * dst_stride,
                             v[i], ep->round_mode);
}

static void apply_chunk(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                        float *v, const chunk_t *c, void *dst_base,
                        int64_t dst_off, int64_t dst_stride) {
    float tmp[CHUNK];
    const int64_t n = c->len;
    scale_and_bias(ep, rt, v, c, tmp);
    const struct tsr_post_ops *po = ep->post_ops;
    for (int k = 0; k < po->len; k++) {
        const tsr_post_op_t *e = &po->entry[k];
        if (e->kind == tsr_post_op_sum)
            sum_post_op(ep, rt, e, v, n, dst_base, dst_off, dst_stride, tmp);
        else if (e->kind == tsr_post_op_eltwise)
            eltwise_post_op(rt, e, v, n);
        else if (e->kind == tsr_post_op_binary)
            binary_post_op(rt, e, rt->bin_src1[k], v, c, tmp);
        else if (e->kind == tsr_post_op_prelu)
            prelu_post_op(ep, rt, e, rt->prelu_weights[k], v, c, tmp);
    }
    if (ep->with_dst_scale) {
        const operand_t s = masked_f32(&ep->dst_scale_idx, ep->ndims,
                                       rt->dst_scales, c, tmp);
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] / (s.vec ? s.vec[i] : s.common);
    }
    if (ep->with_dst_zp)
        add(rt, v, n,
            masked_s32(&ep->dst_zp_idx, ep->ndims, rt->dst_zp, c, tmp));
    store(ep, rt, v, n, dst_base, dst_off, dst_stride);
}

/* The fused kernel's arguments for a call, when the plan and the call
 * allow it (0: they do not). */
static int fused_args(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                      int64_t n, const tsr_dim_t *pos0, int inner_dim,
                      int64_t dst_stride, tsr_epilogue_fused_args_t *f) {
    const tsr_epilogue_fused_plan_t *p = &ep->fused;
    if (!p->ok || !rt->use_avx2 || (dst_stride != 1 && n > 1))
        return 0;
    const tsr_dim_t c0 = pos0[ep->channel_dim];
    const int along = inner_dim == ep->channel_dim;
    memset(f, 0, sizeof(*f));
    f->plan = p;
    if (p->with_bias) {
        const float *b = (const float *)rt->bias + ep->bias_md.offset0 + c0;
        f->bias = along ? b : NULL;
        f->bias_c = b[0];
    }
    if (p->legacy) {
        const float *o = ep->oscales + (p->oscale_per_channel ? c0 : 0);
        f->oscale = along && p->oscale_per_channel ? o : NULL;
        f->oscale_c = o[0];
    }
    if (p->with_src_scale)
        f->src_scale = rt->src_scales[0];
    if (p->with_wei_scale) {
        const float *w = rt->wei_scales + (p->wei_scale_per_channel ? c0 : 0);
        f->wei_scale = along && p->wei_scale_per_channel ? w : NULL;
        f->wei_scale_c = w[0];
    }
    return 1;
}

int tsr_epilogue_common_form(const tsr_epilogue_fused_plan_t *p,
                             tsr_data_type_t dt, tsr_round_mode_t mode) {
    if (!p->ok ||
        (dt != tsr_f32 && ((dt != tsr_u8 && dt != tsr_s8 && dt != tsr_s32) ||
                           mode != tsr_round_nearest)))
        return 0;
    const int relu0 =
            p->nops == 1 && !p->is_sum[0] && p->p0[0] == 0.f && p->p1[0] == 1.f;
    if (p->nops > 1 || (p->nops == 1 && !relu0))
        return 0;
    return 1 + (p->legacy << 2 | p->with_bias << 1 | relu0);
}

int tsr_epilogue_common_init(const tsr_epilogue_t *ep,
                             const tsr_epilogue_rt_t *rt, const tsr_dim_t *pos0,
                             tsr_epilogue_common_t *cs) {
    const int form =
            tsr_epilogue_common_form(&ep->fused, ep->dst_dt, ep->round_mode);
    if (!form || !fused_args(ep, rt, 1, pos0, ep->channel_dim, 1, &cs->f))
        return 0;
    tsr_epilogue_common_kernels(cs, ep->dst_dt, form);
    return 1;
}

void tsr_epilogue_common_kernels(tsr_epilogue_common_t *cs, tsr_data_type_t dt,
                                 int form) {
    cs->rows16 = tsr_epilogue_common_rows16_avx2(dt, form);
    cs->rows32 = tsr_mayiuse(tsr_cpu_isa_avx512_core)
                         ? tsr_epilogue_common_rows32_avx512(dt, form)
                         : NULL;
    cs->hi = tsr_dt_max_f32(dt);
    cs->dt_bytes = (int64_t)tsr_data_type_size(dt);
}

/* Runs the fused kernel when the plan and the call allow it. */
static int try_fused(const tsr_epilogue_t *ep, const tsr_epilogue_rt_t *rt,
                     float *acc, int64_t acc_ld, int64_t m, int64_t n,
                     const tsr_dim_t *pos0, int inner_dim, void *dst_base,
                     int64_t dst_off0, int64_t dst_ld, int64_t dst_stride) {
    tsr_epilogue_fused_args_t f;
    if (!fused_args(ep, rt, n, pos0, inner_dim, dst_stride, &f))
        return 0;
    if (ep->dst_dt == tsr_f32) {
        tsr_epilogue_fused_rows_avx2(&f, acc, acc_ld, m, n,
                                     (float *)dst_base + dst_off0, dst_ld);
        return 1;
    }
    /* Other types: the fused steps in place, then one rounding and
     * saturating conversion of the rows (the plan has no sum then). */
    tsr_epilogue_fused_rows_avx2(&f, acc, acc_ld, m, n, acc, acc_ld);
    const int64_t esize = (int64_t)tsr_data_type_size(ep->dst_dt);
    tsr_cvt_from_f32_2d_avx2(ep->dst_dt, acc, acc_ld,
                             (char *)dst_base + dst_off0 * esize, dst_ld, m, n,
                             ep->round_mode);
    return 1;
}

void tsr_epilogue_apply_rows_s32(const tsr_epilogue_t *ep,
                                 const tsr_epilogue_rt_t *rt,
                                 const int32_t *acc, int64_t acc_ld, int64_t m,
                                 int64_t n, const tsr_dim_t *pos0,
                                 int inner_dim, void *dst_base,
                                 int64_t dst_off0, int64_t dst_ld,
                                 int64_t dst_stride, float *work) {
    if (m <= 0 || n <= 0)
        return;
    tsr_epilogue_fused_args_t f;
    const tsr_data_type_t dt = ep->dst_dt;
    if ((dt == tsr_f32 || dt == tsr_s32 || dt == tsr_s8 || dt == tsr_u8) &&
        fused_args(ep, rt, n, pos0, inner_dim, dst_stride, &f)) {
        const int64_t esize = (int64_t)tsr_data_type_size(dt);
        const int form =
                tsr_epilogue_common_form(&ep->fused, dt, ep->round_mode);
        if (form && rt->use_avx512) {
            /* Twice the columns per instruction (dw:s8 on MobileNet's dw
             * layers, where this store took a quarter of the time: +3% to
             * +25%). */
            tsr_epilogue_common_cols_avx512(&f, dt, form, acc, acc_ld, m, n,
                                            (char *)dst_base + dst_off0 * esize,
                                            dst_ld);
            return;
        }
        tsr_epilogue_fused_s32_rows_avx2(
                &f, acc, acc_ld, m, n, dt, ep->round_mode,
                (char *)dst_base + dst_off0 * esize, dst_ld);
        return;
    }
    for (int64_t r = 0; r < m; r++)
        for (int64_t j = 0; j < n; j++)
            work[r * n + j] = (float)acc[r * acc_ld + j];
    tsr_epilogue_apply_rows(ep, rt, work, n, m, n, pos0, inner_dim, dst_base,
                            dst_off0, dst_ld, dst_stride);
}

void tsr_epilogue_apply_rows(const tsr_epilogue_t *ep,
                             const tsr_epilogue_rt_t *rt, float *acc,
                             int64_t acc_ld, int64_t m, int64_t n,
                             const tsr_dim_t *pos0, int inner_dim,
                             void *dst_base, int64_t dst_off0, int64_t dst_ld,
                             int64_t dst_stride) {
    if (m <= 0 || n <= 0)
        return;
    if (try_fused(ep, rt, acc, acc_ld, m, n, pos0, inner_dim, dst_base,
                  dst_off0, dst_ld, dst_stride))
        return;
    for (int64_t r = 0; r < m; r++)
        tsr_epilogue_apply_row(ep, rt, acc + r * acc_ld, n, pos0, inner_dim,
                               dst_base, dst_off0 + r * dst_ld, dst_stride);
}

void tsr_epilogue_apply_row(const tsr_epilogue_t *ep,
                            const tsr_epilogue_rt_t *rt, float *acc, int64_t n,
                            const tsr_dim_t *pos0, int inner_dim,
                            void *dst_base, int64_t dst_off0,
                            int64_t dst_stride) {
    if (n <= 0 || try_fused(ep, rt, acc, n, 1, n, pos0, inner_dim, dst_base,
                            dst_off0, n, dst_stride))
        return;
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
        const chunk_t c = {pos0, inner_dim, i0,
                           n - i0 < CHUNK ? n - i0 : CHUNK};
        apply_chunk(ep, rt, acc + i0, &c, dst_base, dst_off0 + i0 * dst_stride,
                    dst_stride);
    }
}
