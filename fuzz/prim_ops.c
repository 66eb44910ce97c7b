/* One problem per primitive kind: small dims mostly (fuzz_dim), any
 * layouts and data types, sometimes a value at an edge; each call's
 * refusal ends the problem. */
#include "prim_ops.h"

#include <string.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The attributes for `dst`, the pd, then the attributes go. */
static tsr_primitive_desc_t create_pd(fuzz_op_ctx_t *c, const void *op_desc,
                                      int ndims, const tsr_dim_t *dims,
                                      const_tsr_primitive_desc_t hint) {
    fuzz_dst_t dst = {.ndims = ndims};
    memcpy(dst.dims, dims, sizeof(tsr_dim_t) * (size_t)ndims);
    tsr_primitive_attr_t attr = c->make_attr(c->b, &dst, c->attr_ctx);
    tsr_primitive_desc_t pd = NULL;
    if (tsr_primitive_desc_create_with_hint(&pd, op_desc, attr, c->engine,
                                            hint) != tsr_success)
        pd = NULL;
    tsr_primitive_attr_destroy(attr);
    return pd;
}

static int md_ok(fuzz_op_ctx_t *c, tsr_memory_desc_t *md, int ndims,
                 const tsr_dim_t *dims, tsr_data_type_t dt) {
    return fuzz_md(c->b, md, ndims, dims, dt) == tsr_success;
}

static tsr_prop_kind_t fwd_prop(fuzz_bytes_t *b) {
    static const tsr_prop_kind_t props[] = {
            tsr_forward_training,  tsr_forward_inference, tsr_forward_training,
            tsr_forward_inference, tsr_backward_data,     (tsr_prop_kind_t)7};
    return props[fuzz_u8(b) % COUNT_OF(props)];
}

/* src, weights, dst types: the usual configurations, or any three. */
static void conv_types(fuzz_bytes_t *b, tsr_data_type_t dt[3]) {
    static const tsr_data_type_t int8_dst[] = {tsr_u8, tsr_s8, tsr_s32, tsr_f32,
                                               tsr_bf16};
    switch (fuzz_u8(b) % 6) {
    case 0:
    case 1:
        dt[0] = dt[1] = dt[2] = tsr_f32;
        break;
    case 2:
        dt[0] = fuzz_u8(b) & 1 ? tsr_u8 : tsr_s8;
        dt[1] = tsr_s8;
        dt[2] = int8_dst[fuzz_u8(b) % COUNT_OF(int8_dst)];
        break;
    case 3:
        dt[0] = dt[1] = fuzz_u8(b) & 1 ? tsr_bf16 : tsr_f16;
        dt[2] = fuzz_u8(b) & 1 ? dt[0] : tsr_f32;
        break;
    default:
        for (int i = 0; i < 3; i++)
            dt[i] = fuzz_data_type(b);
        break;
    }
}

/* fuzz_dim less one: 0 .. max - 1 mostly (dilations, paddings). */
static tsr_dim_t fuzz_dim0(fuzz_bytes_t *b, int max) {
    const tsr_dim_t v = fuzz_dim(b, max);
    return v == INT64_MIN ? v : v - 1;
}

static tsr_dim_t checked_mul(tsr_dim_t a, tsr_dim_t b) {
    tsr_dim_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* Rarely, one field of a valid descriptor changed by hand, as a caller
 * may: "any" grouped weights whose G x OCg x ICg passes int64, or a raw
 * stride of src (a negative channel stride reached execute once). */
static void edit_conv_desc(fuzz_bytes_t *b, tsr_convolution_desc_t *cd) {
    const uint8_t how = fuzz_u8(b);
    if (how == 0xfe) {
        tsr_memory_desc_t wei;
        tsr_dims_t ones;
        for (int d = 0; d < TSR_MAX_NDIMS; d++)
            ones[d] = 1;
        const int nd = cd->src_desc.ndims + 1;
        if (nd > TSR_MAX_NDIMS ||
            tsr_memory_desc_init_by_tag(&wei, nd, ones, tsr_f32, "any") !=
                    tsr_success)
            return;
        for (int d = 0; d < 3; d++)
            wei.dims[d] = fuzz_dim(b, 4);
        cd->weights_desc = wei;
    } else if (how == 0xff && cd->src_desc.ndims > 0) {
        const int d = fuzz_int(b, 0, cd->src_desc.ndims - 1);
        cd->src_desc.blocking.strides[d] = (tsr_dim_t)fuzz_u64(b);
    }
}

static tsr_primitive_desc_t conv(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    const int sp = fuzz_int(b, 1, 3), nd = sp + 2;
    const int grouped = fuzz_u8(b) & 1;
    const tsr_dim_t g = grouped ? fuzz_dim(b, 4) : 1;
    const tsr_dim_t mb = fuzz_dim(b, 3), icg = fuzz_dim(b, 8),
                    ocg = fuzz_dim(b, 8);
    tsr_dims_t src = {mb, checked_mul(g, icg)}, dst = {mb, checked_mul(g, ocg)};
    tsr_dims_t wei = {0}, strides, dilates, pad_l, pad_r;
    const int w0 = grouped ? 1 : 0;
    if (grouped)
        wei[0] = g;
    wei[w0] = grouped ? ocg : dst[1];
    wei[w0 + 1] = grouped ? icg : src[1];
    for (int d = 0; d < sp; d++) {
        const tsr_dim_t in = fuzz_dim(b, 12), k = fuzz_dim(b, 3);
        strides[d] = fuzz_dim(b, 2);
        dilates[d] = fuzz_dim0(b, 2);
        pad_l[d] = fuzz_dim0(b, 2);
        pad_r[d] = fuzz_dim0(b, 2);
        /* out = (in + pl + pr - ((k - 1) * (dil + 1) + 1)) / s + 1 */
        tsr_dim_t ext, k_less_one, span, out;
        if (__builtin_add_overflow(dilates[d], 1, &ext) ||
            __builtin_sub_overflow(k, 1, &k_less_one) ||
            __builtin_mul_overflow(k_less_one, ext, &ext) ||
            __builtin_add_overflow(in, pad_l[d], &span) ||
            __builtin_add_overflow(span, pad_r[d], &span) ||
            __builtin_sub_overflow(span, ext, &span) ||
            __builtin_sub_overflow(span, 1, &span) || strides[d] <= 0 ||
            span < 0)
            out = fuzz_dim(b, 8);
        else
            out = span / strides[d] + 1;
        src[2 + d] = in;
        dst[2 + d] = out;
        wei[w0 + 2 + d] = k;
    }
    tsr_data_type_t dt[3];
    conv_types(b, dt);
    const tsr_dim_t bias_dims[1] = {dst[1]};
    tsr_memory_desc_t src_md, wei_md, bias_md, dst_md;
    const int with_bias = fuzz_u8(b) & 1;
    if (!md_ok(c, &src_md, nd, src, dt[0]) ||
        !md_ok(c, &wei_md, nd + grouped, wei, dt[1]) ||
        (with_bias && !md_ok(c, &bias_md, 1, bias_dims, fuzz_data_type(b))) ||
        !md_ok(c, &dst_md, nd, dst, dt[2]))
        return NULL;
    static const tsr_alg_kind_t algs[] = {
            tsr_convolution_direct, tsr_convolution_auto,
            tsr_convolution_direct, tsr_convolution_winograd, 0};
    tsr_convolution_desc_t cd;
    if (tsr_convolution_forward_desc_init(
                &cd, fwd_prop(b), algs[fuzz_u8(b) % COUNT_OF(algs)], &src_md,
                &wei_md, with_bias ? &bias_md : NULL, &dst_md, strides, dilates,
                pad_l, pad_r) != tsr_success)
        return NULL;
    edit_conv_desc(b, &cd);
    return create_pd(c, &cd, nd, dst, NULL);
}

static tsr_primitive_desc_t inner_product(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    const int nd = fuzz_int(b, 2, 5);
    const tsr_dim_t mb = fuzz_dim(b, 4), oc = fuzz_dim(b, 16);
    tsr_dims_t src = {mb}, wei = {oc};
    for (int d = 1; d < nd; d++)
        src[d] = wei[d] = fuzz_dim(b, d == 1 ? 16 : 4);
    const tsr_dims_t dst = {mb, oc};
    const tsr_dim_t bias_dims[1] = {oc};
    tsr_data_type_t dt[3];
    conv_types(b, dt);
    tsr_memory_desc_t src_md, wei_md, bias_md, dst_md;
    const int with_bias = fuzz_u8(b) & 1;
    if (!md_ok(c, &src_md, nd, src, dt[0]) ||
        !md_ok(c, &wei_md, nd, wei, dt[1]) ||
        (with_bias && !md_ok(c, &bias_md, 1, bias_dims, fuzz_data_type(b))) ||
        !md_ok(c, &dst_md, 2, dst, dt[2]))
        return NULL;
    tsr_inner_product_desc_t d;
    if (tsr_inner_product_forward_desc_init(&d, fwd_prop(b), &src_md, &wei_md,
                                            with_bias ? &bias_md : NULL,
                                            &dst_md) != tsr_success)
        return NULL;
    return create_pd(c, &d, 2, dst, NULL);
}

/* Each dim of `dims`, or 1 (broadcast) where the byte says. */
static void broadcast_dims(fuzz_bytes_t *b, int nd, const tsr_dim_t *dims,
                           tsr_dim_t *out, int often) {
    const uint8_t mask = fuzz_u8(b);
    const int all = often ? 0 : fuzz_u8(b) < 160;
    for (int d = 0; d < nd; d++)
        out[d] = !all && (mask >> (d % 8) & 1) ? 1 : dims[d];
}

static tsr_primitive_desc_t matmul(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    const int nd = fuzz_int(b, 2, 4);
    const tsr_dim_t m = fuzz_dim(b, 16), k = fuzz_dim(b, 16),
                    n = fuzz_dim(b, 16);
    tsr_dims_t dst, src, wei, bias;
    for (int d = 0; d < nd - 2; d++)
        dst[d] = fuzz_dim(b, 3);
    dst[nd - 2] = m;
    dst[nd - 1] = n;
    broadcast_dims(b, nd - 2, dst, src, 0);
    broadcast_dims(b, nd - 2, dst, wei, 0);
    src[nd - 2] = m;
    src[nd - 1] = k;
    wei[nd - 2] = k;
    wei[nd - 1] = n;
    broadcast_dims(b, nd, dst, bias, 1);
    tsr_data_type_t dt[3];
    conv_types(b, dt);
    tsr_memory_desc_t src_md, wei_md, bias_md, dst_md;
    const int with_bias = fuzz_u8(b) & 1;
    if (!md_ok(c, &src_md, nd, src, dt[0]) ||
        !md_ok(c, &wei_md, nd, wei, dt[1]) ||
        (with_bias && !md_ok(c, &bias_md, nd, bias, fuzz_data_type(b))) ||
        !md_ok(c, &dst_md, nd, dst, dt[2]))
        return NULL;
    tsr_matmul_desc_t d;
    if (tsr_matmul_desc_init(&d, &src_md, &wei_md, with_bias ? &bias_md : NULL,
                             &dst_md) != tsr_success)
        return NULL;
    return create_pd(c, &d, nd, dst, NULL);
}

/* Dims for the tensor-to-tensor kinds: rank 1 to 5, small. */
static int plain_dims(fuzz_bytes_t *b, tsr_dim_t *dims) {
    const int nd = fuzz_int(b, 1, 5);
    for (int d = 0; d < nd; d++)
        dims[d] = fuzz_dim(b, d == 1 ? 20 : 5);
    return nd;
}

static tsr_alg_kind_t eltwise_alg(fuzz_bytes_t *b) {
    const int n = tsr_eltwise_alg_last - tsr_eltwise_relu + 1;
    return (tsr_alg_kind_t)(tsr_eltwise_relu + fuzz_int(b, 0, n));
}

static tsr_alg_kind_t binary_alg(fuzz_bytes_t *b) {
    const int n = tsr_binary_alg_last - tsr_binary_add;
    return (tsr_alg_kind_t)(tsr_binary_add + fuzz_int(b, 0, n));
}

/* Forward eltwise over `dims`; its descriptor in *d for a backward pass. */
static tsr_primitive_desc_t eltwise_fwd(fuzz_op_ctx_t *c, int nd,
                                        const tsr_dim_t *dims,
                                        tsr_eltwise_desc_t *d, int with_attr) {
    fuzz_bytes_t *b = c->b;
    tsr_memory_desc_t src_md, dst_md;
    if (!md_ok(c, &src_md, nd, dims, fuzz_data_type(b)) ||
        !md_ok(c, &dst_md, nd, dims, fuzz_data_type(b)))
        return NULL;
    if (tsr_eltwise_forward_desc_init(d, fwd_prop(b), eltwise_alg(b), &src_md,
                                      &dst_md, fuzz_float(b),
                                      fuzz_float(b)) != tsr_success)
        return NULL;
    if (with_attr)
        return create_pd(c, d, nd, dims, NULL);
    tsr_primitive_desc_t pd = NULL;
    if (tsr_primitive_desc_create(&pd, d, NULL, c->engine) != tsr_success)
        return NULL;
    return pd;
}

static tsr_primitive_desc_t eltwise(fuzz_op_ctx_t *c, int backward) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t dims;
    const int nd = plain_dims(b, dims);
    tsr_eltwise_desc_t fd;
    tsr_primitive_desc_t fwd = eltwise_fwd(c, nd, dims, &fd, !backward);
    if (!backward || !fwd)
        return fwd;
    tsr_memory_desc_t diff_src, diff_dst;
    const tsr_data_type_t dt = fuzz_data_type(b);
    tsr_eltwise_desc_t d;
    tsr_primitive_desc_t pd = NULL;
    if (md_ok(c, &diff_src, nd, dims, dt) &&
        md_ok(c, &diff_dst, nd, dims,
              fuzz_u8(b) & 1 ? dt : fuzz_data_type(b)) &&
        tsr_eltwise_backward_desc_init(
                &d, fuzz_u8(b) < 200 ? fd.alg_kind : eltwise_alg(b), &diff_src,
                &diff_dst, fuzz_u8(b) & 1 ? &fd.src_desc : &fd.dst_desc,
                fd.alpha, fd.beta) == tsr_success)
        pd = create_pd(c, &d, nd, dims, fuzz_u8(b) < 230 ? fwd : NULL);
    tsr_primitive_desc_destroy(fwd);
    return pd;
}

static tsr_primitive_desc_t binary(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t dims, src0, src1;
    const int nd = plain_dims(b, dims);
    broadcast_dims(b, nd, dims, src0, 0);
    broadcast_dims(b, nd, dims, src1, 0);
    tsr_memory_desc_t s0, s1, dst;
    tsr_binary_desc_t d;
    if (!md_ok(c, &s0, nd, src0, fuzz_data_type(b)) ||
        !md_ok(c, &s1, nd, src1, fuzz_data_type(b)) ||
        !md_ok(c, &dst, nd, dims, fuzz_data_type(b)) ||
        tsr_binary_desc_init(&d, binary_alg(b), &s0, &s1, &dst) != tsr_success)
        return NULL;
    return create_pd(c, &d, nd, dims, NULL);
}

static tsr_primitive_desc_t prelu(fuzz_op_ctx_t *c, int backward) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t dims, wdims;
    const int nd = plain_dims(b, dims);
    broadcast_dims(b, nd, dims, wdims, 1);
    tsr_memory_desc_t src, wei, dst;
    tsr_prelu_desc_t fd;
    if (!md_ok(c, &src, nd, dims, fuzz_data_type(b)) ||
        !md_ok(c, &wei, nd, wdims, fuzz_data_type(b)) ||
        !md_ok(c, &dst, nd, dims, fuzz_data_type(b)) ||
        tsr_prelu_forward_desc_init(&fd, fwd_prop(b), &src, &wei, &dst) !=
                tsr_success)
        return NULL;
    if (!backward)
        return create_pd(c, &fd, nd, dims, NULL);
    tsr_primitive_desc_t fwd = NULL;
    if (tsr_primitive_desc_create(&fwd, &fd, NULL, c->engine) != tsr_success)
        return NULL;
    tsr_memory_desc_t diff_src, diff_wei, diff_dst;
    tsr_prelu_desc_t d;
    tsr_primitive_desc_t pd = NULL;
    if (md_ok(c, &diff_src, nd, dims, fuzz_data_type(b)) &&
        md_ok(c, &diff_wei, nd, wdims, fuzz_data_type(b)) &&
        md_ok(c, &diff_dst, nd, dims, fuzz_data_type(b)) &&
        tsr_prelu_backward_desc_init(&d, &src, &wei, &diff_src, &diff_wei,
                                     &diff_dst) == tsr_success)
        pd = create_pd(c, &d, nd, dims, fuzz_u8(b) < 230 ? fwd : NULL);
    tsr_primitive_desc_destroy(fwd);
    return pd;
}

static tsr_primitive_desc_t shuffle(fuzz_op_ctx_t *c, int backward) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t dims;
    const int nd = plain_dims(b, dims);
    const int axis = fuzz_u8(b) < 240 ? fuzz_int(b, 0, nd - 1)
                                      : fuzz_int(b, -2, TSR_MAX_NDIMS);
    const tsr_dim_t group = fuzz_dim(b, 4);
    tsr_memory_desc_t src, dst;
    const tsr_data_type_t dt = fuzz_data_type(b);
    if (!md_ok(c, &src, nd, dims, dt) ||
        !md_ok(c, &dst, nd, dims, fuzz_u8(b) < 240 ? dt : fuzz_data_type(b)))
        return NULL;
    tsr_shuffle_desc_t d;
    const tsr_status_t st =
            backward ? tsr_shuffle_backward_desc_init(&d, &dst, &src, axis,
                                                      group)
                     : tsr_shuffle_forward_desc_init(
                               &d, fwd_prop(b), &src,
                               fuzz_u8(b) & 1 ? &dst : NULL, axis, group);
    return st == tsr_success ? create_pd(c, &d, nd, dims, NULL) : NULL;
}

/* Sum or concat: up to 4 sources (sometimes none or too many). */
static tsr_primitive_desc_t multi_src(fuzz_op_ctx_t *c, int concat,
                                      int *n_src) {
    fuzz_bytes_t *b = c->b;
    enum { MAX_SRC = 4 };
    tsr_dims_t dims;
    const int nd = plain_dims(b, dims);
    const uint8_t nb = fuzz_u8(b);
    const int n = nb < 250 ? 1 + nb % MAX_SRC : nb == 250 ? 0 : 65;
    const int axis =
            fuzz_u8(b) < 240 ? fuzz_int(b, 0, nd - 1) : fuzz_int(b, -1, nd + 1);
    tsr_memory_desc_t srcs[MAX_SRC], dst;
    float scales[MAX_SRC];
    tsr_dims_t dst_dims;
    memcpy(dst_dims, dims, sizeof(dims));
    if (concat && axis >= 0 && axis < nd)
        dst_dims[axis] = 0;
    for (int i = 0; i < n && i < MAX_SRC; i++) {
        tsr_dims_t sdims;
        memcpy(sdims, dims, sizeof(dims));
        if (concat && axis >= 0 && axis < nd) {
            sdims[axis] = fuzz_dim(b, 6);
            if (sdims[axis] <= 0 ||
                __builtin_add_overflow(dst_dims[axis], sdims[axis],
                                       &dst_dims[axis]))
                dst_dims[axis] = 1;
        }
        scales[i] = fuzz_float(b);
        if (!md_ok(c, &srcs[i], nd, sdims, fuzz_data_type(b)))
            return NULL;
    }
    const uint8_t dst_how = fuzz_u8(b) % 3;
    if (dst_how && !md_ok(c, &dst, nd, dst_dims, fuzz_data_type(b)))
        return NULL;
    fuzz_dst_t attr_dst = {.ndims = nd};
    memcpy(attr_dst.dims, dst_dims, sizeof(dst_dims));
    tsr_primitive_attr_t attr = c->make_attr(b, &attr_dst, c->attr_ctx);
    tsr_primitive_desc_t pd = NULL;
    const int n_passed = n <= MAX_SRC ? n : TSR_MAX_MULTIPLE_SRC + 1;
    tsr_memory_desc_t many[TSR_MAX_MULTIPLE_SRC + 1];
    const tsr_memory_desc_t *list = srcs;
    if (n > MAX_SRC) { /* one too many sources, all alike */
        for (int i = 0; i < n_passed; i++)
            many[i] = srcs[0];
        list = many;
    }
    float many_scales[TSR_MAX_MULTIPLE_SRC + 1];
    for (int i = 0; i < TSR_MAX_MULTIPLE_SRC + 1; i++)
        many_scales[i] = i < MAX_SRC ? scales[i] : 1.f;
    const tsr_status_t st =
            concat ? tsr_concat_primitive_desc_create(
                             &pd, dst_how ? &dst : NULL, n_passed, axis, list,
                             attr, c->engine)
                   : tsr_sum_primitive_desc_create(&pd, dst_how ? &dst : NULL,
                                                   n_passed, many_scales, list,
                                                   attr, c->engine);
    tsr_primitive_attr_destroy(attr);
    *n_src = n_passed;
    return st == tsr_success ? pd : NULL;
}

static tsr_primitive_desc_t reorder(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t dims;
    const int nd = plain_dims(b, dims);
    tsr_memory_desc_t src, dst;
    if (!md_ok(c, &src, nd, dims, fuzz_data_type(b)) ||
        !md_ok(c, &dst, nd, dims, fuzz_data_type(b)))
        return NULL;
    fuzz_dst_t attr_dst = {.ndims = nd};
    memcpy(attr_dst.dims, dims, sizeof(dims));
    tsr_primitive_attr_t attr = c->make_attr(b, &attr_dst, c->attr_ctx);
    tsr_primitive_desc_t pd = NULL;
    const tsr_status_t st = tsr_reorder_primitive_desc_create(
            &pd, &src, c->engine, &dst, c->engine, attr);
    tsr_primitive_attr_destroy(attr);
    return st == tsr_success ? pd : NULL;
}

/* Descriptor calls with dims, strides and paddings at the edges: only the
 * refusal (or a pd, never executed: its memories would be huge) counts. */
static tsr_primitive_desc_t huge(fuzz_op_ctx_t *c) {
    fuzz_bytes_t *b = c->b;
    tsr_dims_t src = {1, 8, fuzz_dim(b, 16)}, wei = {8, 8, fuzz_dim(b, 3)},
               dst = {1, 8, fuzz_dim(b, 16)};
    for (int i = 0; i < 3; i++) {
        src[i] = fuzz_u8(b) < 128 ? src[i] : (tsr_dim_t)fuzz_u64(b);
        wei[i] = fuzz_u8(b) < 128 ? wei[i] : (tsr_dim_t)fuzz_u64(b);
        dst[i] = fuzz_u8(b) < 128 ? dst[i] : (tsr_dim_t)fuzz_u64(b);
    }
    const tsr_dims_t strides = {fuzz_dim(b, 2)}, dilates = {fuzz_dim0(b, 2)},
                     pad_l = {fuzz_dim0(b, 2)}, pad_r = {fuzz_dim0(b, 2)};
    tsr_memory_desc_t src_md, wei_md, dst_md;
    if (!md_ok(c, &src_md, 3, src, tsr_f32) ||
        !md_ok(c, &wei_md, 3, wei, fuzz_u8(b) & 1 ? tsr_f32 : tsr_s8) ||
        !md_ok(c, &dst_md, 3, dst, tsr_f32))
        return NULL;
    tsr_convolution_desc_t cd;
    tsr_primitive_desc_t pd = NULL;
    if (tsr_convolution_forward_desc_init(
                &cd, tsr_forward_inference, tsr_convolution_direct, &src_md,
                &wei_md, NULL, &dst_md, strides, dilates, pad_l,
                pad_r) == tsr_success &&
        tsr_primitive_desc_create(&pd, &cd, NULL, c->engine) == tsr_success)
        return pd;
    return NULL;
}

tsr_primitive_desc_t fuzz_op_pd(fuzz_op_ctx_t *c, int kind, int *n_src) {
    *n_src = 0;
    switch (kind) {
    case 0:
        return conv(c);
    case 1:
        return inner_product(c);
    case 2:
        return matmul(c);
    case 3:
        return eltwise(c, 0);
    case 4:
        return eltwise(c, 1);
    case 5:
        return binary(c);
    case 6:
        return prelu(c, 0);
    case 7:
        return prelu(c, 1);
    case 8:
        return shuffle(c, 0);
    case 9:
        return shuffle(c, 1);
    case 10:
        return multi_src(c, 0, n_src);
    case 11:
        return multi_src(c, 1, n_src);
    case 12:
        return reorder(c);
    default:
        return huge(c);
    }
}
