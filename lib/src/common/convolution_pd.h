/* Named accessors over a convolution primitive descriptor, so kernels read
 * like the math: conv_MB(pd), conv_IC(pd), conv_KSH(pd), ... Spatial
 * parameters a problem does not have (depth for 2D, depth and height for
 * 1D) read as size 1, stride 1, dilation 0, padding 0. OC and IC are totals
 * over all groups. */
#ifndef TSR_COMMON_CONVOLUTION_PD_H
#define TSR_COMMON_CONVOLUTION_PD_H

#include "checked_math.h"
#include "op_md.h"
#include "primitive.h"
#include "utils.h"

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
/* Forward propagation with the direct (or auto) algorithm: what every
 * forward implementation computes. */
static inline int conv_is_fwd_direct(const struct tsr_primitive_desc *pd) {
    const tsr_convolution_desc_t *c = conv_desc(pd);
    return (c->prop_kind == tsr_forward_training ||
            c->prop_kind == tsr_forward_inference) &&
           (c->alg_kind == tsr_convolution_direct ||
            c->alg_kind == tsr_convolution_auto);
}

static inline int conv_with_bias(const struct tsr_primitive_desc *pd) {
    return op_md_is_present(&pd->op.conv.bias_desc);
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

/* The kernel taps k < k_size of a point along one spatial dim that read
 * inside the input (0 <= i0 + k * step < in), its tap 0 reading index i0:
 * [*lo, *hi). Loops, not divisions: kernels have a few taps. */
static inline void conv_inside_taps(tsr_dim_t i0, tsr_dim_t step,
                                    tsr_dim_t k_size, tsr_dim_t in,
                                    tsr_dim_t *lo, tsr_dim_t *hi) {
    tsr_dim_t l = 0, h = k_size;
    while (l < h && i0 + l * step < 0)
        l++;
    while (h > l && i0 + (h - 1) * step >= in)
        h--;
    *lo = l;
    *hi = h;
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

/* The problem sizes of a convolution pd by name, for kernels that keep
 * them next to their own state: totals per group (ICg, OCg), spatial
 * parameters as the accessors above give them (KDD.. are dilations). */
typedef struct {
    int ndims;
    tsr_dim_t MB, G, ICg, OCg;
    tsr_dim_t ID, IH, IW, OD, OH, OW, KD, KH, KW;
    tsr_dim_t KSD, KSH, KSW, KDD, KDH, KDW;
    tsr_dim_t padF, padT, padL;
} conv_sizes_t;

static inline void conv_sizes_init(conv_sizes_t *s,
                                   const struct tsr_primitive_desc *pd) {
    s->ndims = conv_ndims(pd);
    s->MB = conv_MB(pd);
    s->G = conv_G(pd);
    s->ICg = conv_IC(pd) / s->G;
    s->OCg = conv_OC(pd) / s->G;
    s->ID = conv_ID(pd);
    s->IH = conv_IH(pd);
    s->IW = conv_IW(pd);
    s->OD = conv_OD(pd);
    s->OH = conv_OH(pd);
    s->OW = conv_OW(pd);
    s->KD = conv_KD(pd);
    s->KH = conv_KH(pd);
    s->KW = conv_KW(pd);
    s->KSD = conv_KSD(pd);
    s->KSH = conv_KSH(pd);
    s->KSW = conv_KSW(pd);
    s->KDD = conv_KDD(pd);
    s->KDH = conv_KDH(pd);
    s->KDW = conv_KDW(pd);
    s->padF = conv_padFront(pd);
    s->padT = conv_padT(pd);
    s->padL = conv_padL(pd);
}

/* Whether the byte offset of every source point a window may touch,
 * those in the padding included, and the byte steps of the stride and the
 * dilation fit in int64 (src's layout resolved): the kernels form such
 * offsets and steps before they test a point. Only paddings and strides
 * near the int64 range (the op descriptor allows them) fail it. */
static inline int conv_src_offsets_fit(const struct tsr_primitive_desc *pd) {
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_convolution_desc_t *d = &pd->op.conv;
    tsr_dim_t reach = 1; /* an inner block's elements */
    for (int k = 0; k < src->blocking.inner_nblks; k++)
        if (!tsr_mul_i64(reach, src->blocking.inner_blks[k], &reach))
            return 0;
    for (int i = 0; i < src->ndims; i++) {
        /* Positions lie in [-padding_l, dims + padding_r). */
        tsr_dim_t extent = src->dims[i], stride = src->blocking.strides[i];
        if (i >= 2) {
            const tsr_dim_t pad_r = d->padding_r[i - 2];
            const tsr_dim_t dil = d->dilates[i - 2];
            if (!tsr_add_i64(extent, d->padding_l[i - 2], &extent) ||
                !tsr_add_i64(extent, pad_r > 0 ? pad_r : 0, &extent) ||
                dil == INT64_MAX)
                return 0;
            extent = TSR_MAX(extent, TSR_MAX(d->strides[i - 2], dil + 1));
        }
        tsr_dim_t term;
        if (stride == INT64_MIN ||
            !tsr_mul_i64(extent, stride < 0 ? -stride : stride, &term) ||
            !tsr_add_i64(reach, term, &reach))
            return 0;
    }
    tsr_dim_t bytes;
    return tsr_add_i64(reach, src->offset0 < 0 ? -src->offset0 : src->offset0,
                       &reach) &&
           tsr_mul_i64(reach, (tsr_dim_t)tsr_data_type_size(src->data_type),
                       &bytes);
}

/* Checks a convolution op descriptor the way
 * tsr_convolution_forward_desc_init does (used on descriptors the caller
 * may have edited by hand). Returns tsr_success, tsr_invalid_arguments or
 * tsr_unimplemented (a valid but unsupported prop kind or algorithm). */
tsr_status_t tsr_conv_desc_validate(const tsr_convolution_desc_t *desc);

#endif
