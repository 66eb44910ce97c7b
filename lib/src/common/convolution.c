/* Convolution operation descriptors: shape validation and the plain layout
 * choice for "any" used by the reference implementation. */
#include <string.h>

#include "convolution_pd.h"
#include "memory_desc.h"

static int data_type_is_valid(tsr_data_type_t dt) {
    return dt >= tsr_f16 && dt <= tsr_u8;
}

static int md_is_usable(const tsr_memory_desc_t *md, int ndims) {
    if (md->ndims != ndims || !data_type_is_valid(md->data_type))
        return 0;
    if (md->format_kind != tsr_format_kind_any &&
        md->format_kind != tsr_format_kind_blocked)
        return 0;
    for (int d = 0; d < ndims; d++)
        if (md->dims[d] <= 0)
            return 0;
    return 1;
}

static int has_bias(const tsr_memory_desc_t *bias) {
    return bias->format_kind != tsr_format_kind_undef && bias->ndims != 0;
}

tsr_status_t tsr_conv_desc_validate(const tsr_convolution_desc_t *desc) {
    if (desc->primitive_kind != tsr_convolution)
        return tsr_invalid_arguments;
    switch (desc->prop_kind) {
    case tsr_forward_training:
    case tsr_forward_inference:
        break;
    case tsr_backward_data:
    case tsr_backward_weights:
    case tsr_backward_bias:
        return tsr_unimplemented;
    default:
        return tsr_invalid_arguments;
    }
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
    if (!md_is_usable(src, ndims) || !md_is_usable(dst, ndims) ||
        !md_is_usable(wei, ndims + with_groups))
        return tsr_invalid_arguments;

    const tsr_dim_t G = with_groups ? wei->dims[0] : 1;
    const tsr_dim_t OCg = wei->dims[with_groups + 0];
    const tsr_dim_t ICg = wei->dims[with_groups + 1];
    if (src->dims[0] != dst->dims[0] || src->dims[1] != G * ICg ||
        dst->dims[1] != G * OCg)
        return tsr_invalid_arguments;

    for (int i = 0; i < ndims - 2; i++) {
        const tsr_dim_t in = src->dims[2 + i], out = dst->dims[2 + i];
        const tsr_dim_t k = wei->dims[2 + with_groups + i];
        const tsr_dim_t stride = desc->strides[i], dil = desc->dilates[i];
        const tsr_dim_t pad_l = desc->padding_l[i], pad_r = desc->padding_r[i];
        if (stride < 1 || dil < 0 || pad_l < 0 || pad_r + stride <= 0)
            return tsr_invalid_arguments;
        /* Right padding may be negative: the last input rows a stride
         * skips over need not exist. */
        const tsr_dim_t k_range = (k - 1) * (dil + 1) + 1;
        const tsr_dim_t span = in + pad_l + pad_r - k_range;
        if (span < 0 || span / stride + 1 != out)
            return tsr_invalid_arguments;
    }

    if (has_bias(&desc->bias_desc)) {
        const tsr_memory_desc_t *bias = &desc->bias_desc;
        if (!md_is_usable(bias, 1) || bias->dims[0] != dst->dims[1])
            return tsr_invalid_arguments;
    }
    return tsr_success;
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
    d.src_desc = *src_desc;
    d.weights_desc = *weights_desc;
    if (bias_desc)
        d.bias_desc = *bias_desc;
    d.dst_desc = *dst_desc;
    /* Optional arrays: dense kernel, symmetric padding. */
    for (int i = 0; i < nspatial; i++) {
        d.strides[i] = strides[i];
        d.dilates[i] = dilates ? dilates[i] : 0;
        d.padding_l[i] = padding_l[i];
        d.padding_r[i] = padding_r ? padding_r[i] : padding_l[i];
    }
    const tsr_data_type_t sdt = src_desc->data_type;
    d.accum_data_type = (sdt == tsr_u8 || sdt == tsr_s8) ? tsr_s32 : tsr_f32;

    tsr_status_t st = tsr_conv_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *conv_desc = d;
    return tsr_success;
}

/* Dense layout in logical order (abc..., or goihw for grouped weights). */
static tsr_status_t resolve_plain(tsr_memory_desc_t *md) {
    if (!md_is_any(md))
        return tsr_success;
    int order[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        order[d] = d;
    tsr_memory_desc_t plain;
    tsr_status_t st = md_init_blocked(&plain, md->ndims, md->dims,
                                      md->data_type, order, 0, NULL, NULL);
    if (st == tsr_success)
        *md = plain;
    return st;
}

tsr_status_t tsr_conv_resolve_any_plain(struct tsr_primitive_desc *pd) {
    static const tsr_md_slot_t slots[] = {TSR_MD_SRC, TSR_MD_WEIGHTS,
                                          TSR_MD_BIAS, TSR_MD_DST};
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
        tsr_memory_desc_t *md = &pd->md[slots[i]];
        if (md_is_zero(md))
            continue;
        tsr_status_t st = resolve_plain(md);
        if (st != tsr_success)
            return st;
    }
    return tsr_success;
}
