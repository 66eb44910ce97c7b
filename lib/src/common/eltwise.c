/* Eltwise operation descriptors: creation, validation, and the kind entry
 * (arguments by propagation kind, verbose problem). */
#include <stdio.h>
#include <string.h>

#include "attr.h"
#include "op_md.h"
#include "primitive.h"
#include "verbose.h"

extern const tsr_impl_t *const tsr_eltwise_fwd_impl_list[];
extern const tsr_impl_t *const tsr_eltwise_bwd_impl_list[];

static int same_dims(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b) {
    if (a->ndims != b->ndims)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d])
            return 0;
    return 1;
}

/* A tensor the user gives (a layout, not "any") of rank `ndims`. */
static int given_md_ok(const tsr_memory_desc_t *md, int ndims) {
    return op_md_is_usable(md, ndims) &&
           md->format_kind == tsr_format_kind_blocked;
}

static tsr_status_t eltwise_desc_validate(const tsr_eltwise_desc_t *d) {
    if (d->primitive_kind != tsr_eltwise || !tsr_is_eltwise_alg(d->alg_kind))
        return tsr_invalid_arguments;
    const int bwd_dst = tsr_eltwise_bwd_uses_dst(d->alg_kind);
    switch (d->prop_kind) {
    case tsr_forward_training:
    case tsr_forward_inference: {
        const tsr_memory_desc_t *src = &d->src_desc, *dst = &d->dst_desc;
        const int ndims = src->ndims;
        if (ndims < 1 || ndims > TSR_MAX_NDIMS || !given_md_ok(src, ndims) ||
            !op_md_is_usable(dst, ndims) || !same_dims(src, dst))
            return tsr_invalid_arguments;
        return tsr_success;
    }
    case tsr_backward_data: {
        const tsr_memory_desc_t *data = bwd_dst ? &d->dst_desc : &d->src_desc;
        const tsr_memory_desc_t *unused = bwd_dst ? &d->src_desc : &d->dst_desc;
        const tsr_memory_desc_t *dd = &d->diff_dst_desc,
                                *ds = &d->diff_src_desc;
        const int ndims = dd->ndims;
        if (ndims < 1 || ndims > TSR_MAX_NDIMS || !given_md_ok(dd, ndims) ||
            !given_md_ok(data, ndims) || !op_md_is_usable(ds, ndims) ||
            !same_dims(dd, data) || !same_dims(dd, ds) ||
            op_md_is_present(unused))
            return tsr_invalid_arguments;
        return tsr_success;
    }
    default:
        return tsr_invalid_arguments;
    }
}

tsr_status_t tsr_eltwise_forward_desc_init(tsr_eltwise_desc_t *eltwise_desc,
                                           tsr_prop_kind_t prop_kind,
                                           tsr_alg_kind_t alg_kind,
                                           const tsr_memory_desc_t *src_desc,
                                           const tsr_memory_desc_t *dst_desc,
                                           float alpha, float beta) {
    if (!eltwise_desc || !src_desc || !dst_desc ||
        !tsr_prop_kind_is_forward(prop_kind))
        return tsr_invalid_arguments;
    tsr_eltwise_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_eltwise;
    d.prop_kind = prop_kind;
    d.alg_kind = alg_kind;
    d.src_desc = *src_desc;
    d.dst_desc = *dst_desc;
    d.alpha = alpha;
    d.beta = beta;
    const tsr_status_t st = eltwise_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *eltwise_desc = d;
    return tsr_success;
}

tsr_status_t tsr_eltwise_backward_desc_init(
        tsr_eltwise_desc_t *eltwise_desc, tsr_alg_kind_t alg_kind,
        const tsr_memory_desc_t *diff_src_desc,
        const tsr_memory_desc_t *diff_dst_desc,
        const tsr_memory_desc_t *data_desc, float alpha, float beta) {
    if (!eltwise_desc || !diff_src_desc || !diff_dst_desc || !data_desc)
        return tsr_invalid_arguments;
    tsr_eltwise_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_eltwise;
    d.prop_kind = tsr_backward_data;
    d.alg_kind = alg_kind;
    if (tsr_eltwise_bwd_uses_dst(alg_kind))
        d.dst_desc = *data_desc;
    else
        d.src_desc = *data_desc;
    d.diff_src_desc = *diff_src_desc;
    d.diff_dst_desc = *diff_dst_desc;
    d.alpha = alpha;
    d.beta = beta;
    const tsr_status_t st = eltwise_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *eltwise_desc = d;
    return tsr_success;
}

static tsr_status_t eltwise_validate(const tsr_op_desc_t *op) {
    return eltwise_desc_validate(&op->eltwise);
}

static void eltwise_set_args(struct tsr_primitive_desc *pd) {
    const tsr_eltwise_desc_t *d = &pd->op.eltwise;
    if (tsr_prop_kind_is_forward(d->prop_kind)) {
        tsr_pd_set_arg(pd, TSR_MD_SRC, &d->src_desc, tsr_arg_input);
        tsr_pd_set_arg(pd, TSR_MD_DST, &d->dst_desc, tsr_arg_output);
        return;
    }
    /* Backward: only the data tensor the derivative reads is set. */
    tsr_pd_set_arg(pd, TSR_MD_SRC, &d->src_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DST, &d->dst_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DIFF_DST, &d->diff_dst_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DIFF_SRC, &d->diff_src_desc, tsr_arg_output);
}

static const tsr_impl_t *const *eltwise_impl_list(const tsr_op_desc_t *op) {
    return tsr_prop_kind_is_forward(op->eltwise.prop_kind)
                   ? tsr_eltwise_fwd_impl_list
                   : tsr_eltwise_bwd_impl_list;
}

static tsr_prop_kind_t eltwise_prop_kind(const tsr_op_desc_t *op) {
    return op->eltwise.prop_kind;
}

/* "alg:eltwise_relu alpha:0 beta:0,2x16x7x7", as oneDNN prints it. */
static void eltwise_verbose_problem(const struct tsr_primitive_desc *pd,
                                    char *buf, size_t len) {
    const tsr_eltwise_desc_t *d = &pd->op.eltwise;
    const tsr_alg_kind_t alg = d->alg_kind;
    const int n =
            snprintf(buf, len, "alg:eltwise_%s%s alpha:%g beta:%g",
                     tsr_alg_kind2str(tsr_eltwise_fwd_alg(alg)),
                     tsr_eltwise_bwd_uses_dst(alg) ? "_use_dst_for_bwd" : "",
                     (double)d->alpha, (double)d->beta);
    if (n < 0 || (size_t)n >= len)
        return;
    tsr_verbose_dims_problem(pd, buf + n, len - (size_t)n);
}

const tsr_prim_kind_info_t tsr_eltwise_kind = {
        .kind = tsr_eltwise,
        .name = "eltwise",
        .op_desc_size = sizeof(tsr_eltwise_desc_t),
        .validate = eltwise_validate,
        .set_args = eltwise_set_args,
        .impl_list = eltwise_impl_list,
        .prop_kind = eltwise_prop_kind,
        .verbose_problem = eltwise_verbose_problem,
};
