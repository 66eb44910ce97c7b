/* Convolution operation descriptors: shape validation. */
#include <string.h>

#include "checked_math.h"
#include "convolution_pd.h"
#include "verbose.h"

tsr_status_t tsr_conv_desc_validate(const tsr_convolution_desc_t *desc) {
    if (desc->primitive_kind != tsr_convolution)
        return tsr_invalid_arguments;
    const tsr_status_t prop_st = op_forward_prop_kind_status(desc->prop_kind);
    if (prop_st != tsr_success)
        return prop_st;
    switch (desc->alg_kind) {
    case tsr_convolution_direct:
    case tsr_convolution_auto:
        break;
    case tsr_convolution_winograd:
        return tsr_unimplemented;
    default:
        return tsr_invalid_arguments;
    }

    const tsr_memory_desc_t *src = &desc->src_desc, *wei = &desc->weights_desc,
                            *dst = &desc->dst_desc;
    const int ndims = src->ndims;
    if (ndims < 3 || ndims > 5)
        return tsr_invalid_arguments;
    const int with_groups = wei->ndims == ndims + 1;
    if (!op_md_is_usable(src, ndims) || !op_md_is_usable(dst, ndims) ||
        !op_md_is_usable(wei, ndims + with_groups))
        return tsr_invalid_arguments;

    const tsr_dim_t G = with_groups ? wei->dims[0] : 1;
    const tsr_dim_t OCg = wei->dims[with_groups + 0];
    const tsr_dim_t ICg = wei->dims[with_groups + 1];
    tsr_dim_t IC, OC;
    if (!tsr_mul_i64(G, ICg, &IC) || !tsr_mul_i64(G, OCg, &OC) ||
        src->dims[0] != dst->dims[0] || src->dims[1] != IC ||
        dst->dims[1] != OC)
        return tsr_invalid_arguments;

    for (int i = 0; i < ndims - 2; i++) {
        const tsr_dim_t in = src->dims[2 + i], out = dst->dims[2 + i];
        const tsr_dim_t k = wei->dims[2 + with_groups + i];
        const tsr_dim_t stride = desc->strides[i], dil = desc->dilates[i];
        const tsr_dim_t pad_l = desc->padding_l[i], pad_r = desc->padding_r[i];
        if (stride < 1 || dil < 0 || pad_l < 0)
            return tsr_invalid_arguments;
        /* Right padding may be negative: the last input rows a stride
         * skips over need not exist. The kernel's extent
         * (k - 1) * (dil + 1) + 1 and the span the windows slide over must
         * not overflow. */
        tsr_dim_t pad_r_end, dil_step, k_step, k_range, padded, span;
        if (!tsr_add_i64(pad_r, stride, &pad_r_end) || pad_r_end <= 0 ||
            !tsr_add_i64(dil, 1, &dil_step) ||
            !tsr_mul_i64(k - 1, dil_step, &k_step) ||
            !tsr_add_i64(k_step, 1, &k_range) ||
            !tsr_add_i64(in, pad_l, &padded) ||
            !tsr_add_i64(padded, pad_r, &padded) ||
            !tsr_sub_i64(padded, k_range, &span))
            return tsr_invalid_arguments;
        if (span < 0 || span / stride + 1 != out)
            return tsr_invalid_arguments;
    }

    return op_bias_1d_ok(&desc->bias_desc, dst->dims[1])
                   ? tsr_success
                   : tsr_invalid_arguments;
}

tsr_status_t tsr_convolution_forward_desc_init(
        tsr_convolution_desc_t *conv_desc, tsr_prop_kind_t prop_kind,
        tsr_alg_kind_t alg_kind, const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *bias_desc, const tsr_memory_desc_t *dst_desc,
        const tsr_dim_t *strides, const tsr_dim_t *dilates,
        const tsr_dim_t *padding_l, const tsr_dim_t *padding_r) {
    if (!conv_desc || !src_desc || !weights_desc || !dst_desc || !strides ||
        !padding_l)
        return tsr_invalid_arguments;
    const int nspatial = src_desc->ndims - 2;
    if (nspatial < 1 || nspatial > 3)
        return tsr_invalid_arguments;

    tsr_convolution_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_convolution;
    d.prop_kind = prop_kind;
    d.alg_kind = alg_kind;
    d.accum_data_type = op_copy_arg_mds(&d.src_desc, &d.weights_desc,
                                        &d.bias_desc, &d.dst_desc, src_desc,
                                        weights_desc, bias_desc, dst_desc);
    /* Optional arrays: dense kernel, symmetric padding. */
    for (int i = 0; i < nspatial; i++) {
        d.strides[i] = strides[i];
        d.dilates[i] = dilates ? dilates[i] : 0;
        d.padding_l[i] = padding_l[i];
        d.padding_r[i] = padding_r ? padding_r[i] : padding_l[i];
    }

    tsr_status_t st = tsr_conv_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *conv_desc = d;
    return tsr_success;
}

extern const tsr_impl_t *const tsr_convolution_impl_list[];

static tsr_status_t conv_validate(const tsr_op_desc_t *op) {
    return tsr_conv_desc_validate(&op->conv);
}

static void conv_set_args(struct tsr_primitive_desc *pd) {
    const tsr_convolution_desc_t *d = &pd->op.conv;
    tsr_pd_set_args_fwd(pd, &d->src_desc, &d->weights_desc, &d->bias_desc,
                        &d->dst_desc);
}

static const tsr_impl_t *const *conv_impl_list(const tsr_op_desc_t *op) {
    (void)op; /* forward only so far */
    return tsr_convolution_impl_list;
}

static tsr_prop_kind_t conv_prop_kind(const tsr_op_desc_t *op) {
    return op->conv.prop_kind;
}

const tsr_prim_kind_info_t tsr_convolution_kind = {
        .kind = tsr_convolution,
        .name = "convolution",
        .op_desc_size = sizeof(tsr_convolution_desc_t),
        .validate = conv_validate,
        .set_args = conv_set_args,
        .impl_list = conv_impl_list,
        .prop_kind = conv_prop_kind,
        .verbose_problem = tsr_verbose_conv_problem,
};
