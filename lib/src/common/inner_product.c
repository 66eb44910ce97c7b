/* Inner product operation descriptors: shape validation. */
#include <string.h>

#include "inner_product_pd.h"
#include "verbose.h"

tsr_status_t tsr_ip_desc_validate(const tsr_inner_product_desc_t *desc) {
    if (desc->primitive_kind != tsr_inner_product)
        return tsr_invalid_arguments;
    const tsr_status_t prop_st = op_forward_prop_kind_status(desc->prop_kind);
    if (prop_st != tsr_success)
        return prop_st;
    const tsr_memory_desc_t *src = &desc->src_desc, *wei = &desc->weights_desc,
                            *dst = &desc->dst_desc;
    const int ndims = src->ndims;
    if (ndims < 2 || ndims > 5 || !op_md_is_usable(src, ndims) ||
        !op_md_is_usable(wei, ndims) || !op_md_is_usable(dst, 2))
        return tsr_invalid_arguments;
    if (src->dims[0] != dst->dims[0] || wei->dims[0] != dst->dims[1] ||
        wei->dims[1] != src->dims[1])
        return tsr_invalid_arguments;
    for (int d = 2; d < ndims; d++)
        if (wei->dims[d] != src->dims[d])
            return tsr_invalid_arguments;
    return op_bias_1d_ok(&desc->bias_desc, dst->dims[1])
                   ? tsr_success
                   : tsr_invalid_arguments;
}

tsr_status_t tsr_inner_product_forward_desc_init(
        tsr_inner_product_desc_t *ip_desc, tsr_prop_kind_t prop_kind,
        const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *bias_desc, const tsr_memory_desc_t *dst_desc) {
    if (!ip_desc || !src_desc || !weights_desc || !dst_desc)
        return tsr_invalid_arguments;
    tsr_inner_product_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_inner_product;
    d.prop_kind = prop_kind;
    d.accum_data_type = op_copy_arg_mds(&d.src_desc, &d.weights_desc,
                                        &d.bias_desc, &d.dst_desc, src_desc,
                                        weights_desc, bias_desc, dst_desc);
    tsr_status_t st = tsr_ip_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *ip_desc = d;
    return tsr_success;
}

extern const tsr_impl_t *const tsr_inner_product_impl_list[];

static tsr_status_t ip_validate(const tsr_op_desc_t *op) {
    return tsr_ip_desc_validate(&op->ip);
}

static void ip_set_args(struct tsr_primitive_desc *pd) {
    const tsr_inner_product_desc_t *d = &pd->op.ip;
    tsr_pd_set_args_fwd(pd, &d->src_desc, &d->weights_desc, &d->bias_desc,
                        &d->dst_desc);
}

static const tsr_impl_t *const *ip_impl_list(const tsr_op_desc_t *op) {
    (void)op; /* forward only so far */
    return tsr_inner_product_impl_list;
}

static tsr_prop_kind_t ip_prop_kind(const tsr_op_desc_t *op) {
    return op->ip.prop_kind;
}

const tsr_prim_kind_info_t tsr_inner_product_kind = {
        .kind = tsr_inner_product,
        .name = "inner_product",
        .op_desc_size = sizeof(tsr_inner_product_desc_t),
        .validate = ip_validate,
        .set_args = ip_set_args,
        .impl_list = ip_impl_list,
        .prop_kind = ip_prop_kind,
        .verbose_problem = tsr_verbose_ip_problem,
};
