/* Named accessors over a convolution primitive descriptor, so kernels read
 * like the math: conv_MB(pd), conv_IC(pd), conv_KSH(pd), ... Spatial
 * parameters a problem does not have (depth for 2D, depth and height for
 * 1D) read as size 1, stride 1, dilation 0, padding 0. OC and IC are totals
 * over all groups. */
#ifndef TSR_COMMON_CONVOLUTION_PD_H
#define TSR_COMMON_CONVOLUTION_PD_H

#include "primitive.h"

static inline const tsr_convolution_desc_t *
conv_desc(const struct tsr_primitive_desc *pd) {
    return &pd->op.conv;
}

static inline int conv_ndims(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.src_desc.ndims;
}
static inline int conv_with_groups(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.weights_desc.ndims == conv_ndims(pd) + 1;
}
static inline int conv_with_bias(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.bias_desc.format_kind != tsr_format_kind_undef &&
           pd->op.conv.bias_desc.ndims != 0;
}

/* Spatial dim `i` (0 = depth, 1 = height, 2 = width) of a data dims array
 * of rank ndims, or `dflt` when the problem lacks it. */
static inline tsr_dim_t conv_spatial_(const tsr_dim_t *dims, int ndims,
                                      int first, int i, tsr_dim_t dflt) {
    int missing = 3 - (ndims - 2);
    return i < missing ? dflt : dims[first + i - missing];
}

static inline tsr_dim_t conv_G(const struct tsr_primitive_desc *pd) {
    return conv_with_groups(pd) ? pd->op.conv.weights_desc.dims[0] : 1;
}
static inline tsr_dim_t conv_MB(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.src_desc.dims[0];
}
static inline tsr_dim_t conv_IC(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.src_desc.dims[1];
}
static inline tsr_dim_t conv_OC(const struct tsr_primitive_desc *pd) {
    return pd->op.conv.dst_desc.dims[1];
}

static inline tsr_dim_t conv_ID(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.src_desc.dims, conv_ndims(pd), 2, 0, 1);
}
static inline tsr_dim_t conv_IH(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.src_desc.dims, conv_ndims(pd), 2, 1, 1);
}
static inline tsr_dim_t conv_IW(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.src_desc.dims, conv_ndims(pd), 2, 2, 1);
}
static inline tsr_dim_t conv_OD(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dst_desc.dims, conv_ndims(pd), 2, 0, 1);
}
static inline tsr_dim_t conv_OH(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dst_desc.dims, conv_ndims(pd), 2, 1, 1);
}
static inline tsr_dim_t conv_OW(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dst_desc.dims, conv_ndims(pd), 2, 2, 1);
}

/* Kernel sizes: weights dims after [G,] O, I. */
static inline tsr_dim_t conv_K_(const struct tsr_primitive_desc *pd, int i) {
    return conv_spatial_(pd->op.conv.weights_desc.dims, conv_ndims(pd),
                         2 + conv_with_groups(pd), i, 1);
}
static inline tsr_dim_t conv_KD(const struct tsr_primitive_desc *pd) {
    return conv_K_(pd, 0);
}
static inline tsr_dim_t conv_KH(const struct tsr_primitive_desc *pd) {
    return conv_K_(pd, 1);
}
static inline tsr_dim_t conv_KW(const struct tsr_primitive_desc *pd) {
    return conv_K_(pd, 2);
}

/* Strides, dilations and paddings: (ndims - 2) entries each. */
static inline tsr_dim_t conv_KSD(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.strides, conv_ndims(pd), 0, 0, 1);
}
static inline tsr_dim_t conv_KSH(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.strides, conv_ndims(pd), 0, 1, 1);
}
static inline tsr_dim_t conv_KSW(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.strides, conv_ndims(pd), 0, 2, 1);
}
static inline tsr_dim_t conv_KDD(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dilates, conv_ndims(pd), 0, 0, 0);
}
static inline tsr_dim_t conv_KDH(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dilates, conv_ndims(pd), 0, 1, 0);
}
static inline tsr_dim_t conv_KDW(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.dilates, conv_ndims(pd), 0, 2, 0);
}
static inline tsr_dim_t conv_padFront(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_l, conv_ndims(pd), 0, 0, 0);
}
static inline tsr_dim_t conv_padT(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_l, conv_ndims(pd), 0, 1, 0);
}
static inline tsr_dim_t conv_padL(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_l, conv_ndims(pd), 0, 2, 0);
}
static inline tsr_dim_t conv_padBack(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_r, conv_ndims(pd), 0, 0, 0);
}
static inline tsr_dim_t conv_padB(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_r, conv_ndims(pd), 0, 1, 0);
}
static inline tsr_dim_t conv_padR(const struct tsr_primitive_desc *pd) {
    return conv_spatial_(pd->op.conv.padding_r, conv_ndims(pd), 0, 2, 0);
}

/* Checks a convolution op descriptor the way
 * tsr_convolution_forward_desc_init does (used on descriptors the caller
 * may have edited by hand). Returns tsr_success, tsr_invalid_arguments or
 * tsr_unimplemented (a valid but unsupported prop kind or algorithm). */
tsr_status_t tsr_conv_desc_validate(const tsr_convolution_desc_t *desc);

/* Resolves every "any" memory descriptor of a convolution pd to a dense
 * plain layout in logical dim order (abcd, goihw, ...), as the reference
 * implementation wants. Layouts already set are kept. */
tsr_status_t tsr_conv_resolve_any_plain(struct tsr_primitive_desc *pd);

#endif
