/* PReLU operation descriptors: validation, and the kind's entry. */
#include <string.h>

#include "op_md.h"
#include "primitive.h"
#include "verbose.h"

static int prelu_md_ok(const tsr_memory_desc_t *md, int ndims) {
    return ndims >= 1 && ndims <= TSR_MAX_NDIMS && op_md_is_usable(md, ndims);
}

static int same_dims(const tsr_memory_desc_t *a, const tsr_memory_desc_t *b) {
    for (int d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d])
            return 0;
    return 1;
}

/* Each weights dim equals the data's or is 1 (broadcast). */
static int weights_broadcast_ok(const tsr_memory_desc_t *wei,
                                const tsr_memory_desc_t *data) {
    for (int d = 0; d < data->ndims; d++)
        if (wei->dims[d] != data->dims[d] && wei->dims[d] != 1)
            return 0;
    return 1;
}

static int is_bwd(const tsr_prelu_desc_t *desc) {
    return desc->prop_kind == tsr_backward_data;
}

static tsr_status_t prelu_desc_validate(const tsr_prelu_desc_t *desc) {
    if (desc->primitive_kind != tsr_prelu)
        return tsr_invalid_arguments;
    const int bwd = is_bwd(desc);
    if (!bwd && !tsr_prop_kind_is_forward(desc->prop_kind))
        return tsr_invalid_arguments;
    const tsr_memory_desc_t *src = &desc->src_desc, *wei = &desc->weights_desc;
    const int ndims = src->ndims;
    if (!prelu_md_ok(src, ndims) || !prelu_md_ok(wei, ndims) ||
        !weights_broadcast_ok(wei, src))
        return tsr_invalid_arguments;
    if (!bwd)
        return prelu_md_ok(&desc->dst_desc, ndims) &&
                               same_dims(&desc->dst_desc, src)
                       ? tsr_success
                       : tsr_invalid_arguments;
    const tsr_memory_desc_t *dsrc = &desc->diff_src_desc,
                            *dwei = &desc->diff_weights_desc,
                            *ddst = &desc->diff_dst_desc;
    if (!prelu_md_ok(dsrc, ndims) || !prelu_md_ok(dwei, ndims) ||
        !prelu_md_ok(ddst, ndims) || !same_dims(dsrc, src) ||
        !same_dims(ddst, src) || !same_dims(dwei, wei))
        return tsr_invalid_arguments;
    return tsr_success;
}

tsr_status_t tsr_prelu_forward_desc_init(tsr_prelu_desc_t *prelu_desc,
                                         tsr_prop_kind_t prop_kind,
                                         const tsr_memory_desc_t *src_desc,
                                         const tsr_memory_desc_t *weights_desc,
                                         const tsr_memory_desc_t *dst_desc) {
    if (!prelu_desc || !src_desc || !weights_desc || !dst_desc ||
        !tsr_prop_kind_is_forward(prop_kind))
        return tsr_invalid_arguments;
    tsr_prelu_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_prelu;
    d.prop_kind = prop_kind;
    d.src_desc = *src_desc;
    d.weights_desc = *weights_desc;
    d.dst_desc = *dst_desc;
    const tsr_status_t st = prelu_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *prelu_desc = d;
    return tsr_success;
}

tsr_status_t
tsr_prelu_backward_desc_init(tsr_prelu_desc_t *prelu_desc,
                             const tsr_memory_desc_t *src_desc,
                             const tsr_memory_desc_t *weights_desc,
                             const tsr_memory_desc_t *diff_src_desc,
                             const tsr_memory_desc_t *diff_weights_desc,
                             const tsr_memory_desc_t *diff_dst_desc) {
    if (!prelu_desc || !src_desc || !weights_desc || !diff_src_desc ||
        !diff_weights_desc || !diff_dst_desc)
        return tsr_invalid_arguments;
    tsr_prelu_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_prelu;
    d.prop_kind = tsr_backward_data;
    d.src_desc = *src_desc;
    d.weights_desc = *weights_desc;
    d.diff_src_desc = *diff_src_desc;
    d.diff_weights_desc = *diff_weights_desc;
    d.diff_dst_desc = *diff_dst_desc;
    const tsr_status_t st = prelu_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *prelu_desc = d;
    return tsr_success;
}

extern const tsr_impl_t *const tsr_prelu_fwd_impl_list[];
extern const tsr_impl_t *const tsr_prelu_bwd_impl_list[];

static tsr_status_t prelu_validate(const tsr_op_desc_t *op) {
    return prelu_desc_validate(&op->prelu);
}

static void prelu_set_args(struct tsr_primitive_desc *pd) {
    const tsr_prelu_desc_t *d = &pd->op.prelu;
    tsr_pd_set_arg(pd, TSR_MD_SRC, &d->src_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_WEIGHTS, &d->weights_desc, tsr_arg_input);
    if (!is_bwd(d)) {
        tsr_pd_set_arg(pd, TSR_MD_DST, &d->dst_desc, tsr_arg_output);
        return;
    }
    tsr_pd_set_arg(pd, TSR_MD_DIFF_DST, &d->diff_dst_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DIFF_SRC, &d->diff_src_desc, tsr_arg_output);
    tsr_pd_set_arg(pd, TSR_MD_DIFF_WEIGHTS, &d->diff_weights_desc,
                   tsr_arg_output);
}

static const tsr_impl_t *const *prelu_impl_list(const tsr_op_desc_t *op) {
    return is_bwd(&op->prelu) ? tsr_prelu_bwd_impl_list
                              : tsr_prelu_fwd_impl_list;
}

static tsr_prop_kind_t prelu_prop_kind(const tsr_op_desc_t *op) {
    return op->prelu.prop_kind;
}

/* ",256x128x7x7:1x128x1x1": data and weights dims, benchdnn's form. */
static void prelu_verbose_problem(const struct tsr_primitive_desc *pd,
                                  char *buf, size_t len) {
    const tsr_prelu_desc_t *d = &pd->op.prelu;
    const tsr_memory_desc_t *mds[2] = {&d->src_desc, &d->weights_desc};
    tsr_verbose_multi_dims_problem(NULL, mds, 2, buf, len);
}

const tsr_prim_kind_info_t tsr_prelu_kind = {
        .kind = tsr_prelu,
        .name = "prelu",
        .op_desc_size = sizeof(tsr_prelu_desc_t),
        .validate = prelu_validate,
        .set_args = prelu_set_args,
        .impl_list = prelu_impl_list,
        .prop_kind = prelu_prop_kind,
        .verbose_problem = prelu_verbose_problem,
};
