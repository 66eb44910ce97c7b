/* The convolution problem in oneDNN's terms: the same checks, arguments,
 * fills and reference as conv_run.c, with a oneDNN 2.x convolution.
 * oneDNN's dilation counts from 0 as the descriptor's does, so it passes
 * through. */
#include <string.h>

#include "conv/conv.h"
#include "onednn/onednn_args.h"

/* Where the attributes apply: each tensor's dims, the output channels. */
static void attr_shape(const conv_prb_t *p, onednn_attr_shape_t *shape) {
    memset(shape, 0, sizeof(*shape));
    shape->ndims[QARG_SRC] = conv_src_dims(p, shape->dims[QARG_SRC]);
    shape->ndims[QARG_WEI] = conv_wei_dims(p, shape->dims[QARG_WEI]);
    shape->ndims[QARG_DST] = conv_dst_dims(p, shape->dims[QARG_DST]);
    shape->wei_oc_mask = conv_wei_oc_mask(p);
    shape->dst_oc_mask = 1 << 1;
    shape->with_bias = conv_prb_with_bias(p);
}

static int create_pd(bench_args_run_t *r, res_t *res) {
    const conv_prb_t *p = r->prb;
    const conv_desc_t *d = &p->desc;
    onednn_attr_shape_t shape;
    attr_shape(p, &shape);
    dnnl_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!onednn_args_md(&src_md, shape.ndims[QARG_SRC], shape.dims[QARG_SRC],
                        p->cfg.src, p->stag, res) ||
        !onednn_args_md(&wei_md, shape.ndims[QARG_WEI], shape.dims[QARG_WEI],
                        p->cfg.wei, p->wtag, res) ||
        !onednn_args_md(&dst_md, shape.ndims[QARG_DST], shape.dims[QARG_DST],
                        p->cfg.dst, p->dtag, res))
        return 0;
    if (shape.with_bias &&
        !onednn_args_md(&bia_md, 1, &d->oc, p->bia.dt, "a", res))
        return 0;

    /* The spatial parameters the problem has: the last ndims - 2. */
    const int first = CONV_NSPATIAL - (d->ndims - 2);
    const dnnl_alg_kind_t algs[] = {dnnl_convolution_direct,
                                    dnnl_convolution_winograd,
                                    dnnl_convolution_auto};
    /* oneDNN reads its parameters as full dnnl_dims_t arrays. */
    dnnl_dims_t strides = {0}, dilates = {0}, pad_l = {0}, pad_r = {0};
    for (int i = first; i < CONV_NSPATIAL; i++) {
        strides[i - first] = d->str[i];
        dilates[i - first] = d->dil[i];
        pad_l[i - first] = d->pad[i];
        pad_r[i - first] = d->pad_r[i];
    }
    dnnl_convolution_desc_t cd;
    const dnnl_status_t st = dnnl_dilated_convolution_forward_desc_init(
            &cd,
            p->dir == CONV_FWD_I ? dnnl_forward_inference
                                 : dnnl_forward_training,
            algs[p->alg], &src_md, &wei_md, shape.with_bias ? &bia_md : NULL,
            &dst_md, strides, dilates, pad_l, pad_r);
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st),
                        "convolution descriptor: %s", dnnl_status2str(st));
        return 0;
    }
    return onednn_args_attr_shape(r, r->battr, &shape, res) &&
           onednn_args_create_pd(r, &cd, res);
}

int conv_onednn_create(bench_args_run_t *r, res_t *res) {
    return conv_prepare(r, BENCH_LIB_ONEDNN, res) && create_pd(r, res) &&
           conv_declare(r, res);
}
