/* The convolution driver's oneDNN path: the problem as a oneDNN 2.x
 * convolution, run by the shared oneDNN pipeline (onednn_run.h) with the
 * driver's fills, reference, comparison and perf line. oneDNN's dilation
 * counts from 0 as the descriptor's does, so it passes through. */
#include <string.h>

#include "conv/conv.h"
#include "onednn/onednn.h"
#include "onednn/onednn_run.h"

static int create_pd(onednn_run_t *r, res_t *res) {
    const conv_prb_t *p = r->prb;
    const conv_desc_t *d = &p->desc;
    onednn_attr_shape_t shape;
    memset(&shape, 0, sizeof(shape));
    shape.ndims[QARG_SRC] = conv_src_dims(p, shape.dims[QARG_SRC]);
    shape.ndims[QARG_WEI] = conv_wei_dims(p, shape.dims[QARG_WEI]);
    shape.ndims[QARG_DST] = conv_dst_dims(p, shape.dims[QARG_DST]);
    shape.wei_oc_mask = conv_wei_oc_mask(p);
    shape.dst_oc_mask = 1 << 1;
    shape.with_bias = conv_prb_with_bias(p);

    dnnl_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!onednn_run_md_init(&src_md, shape.ndims[QARG_SRC],
                            shape.dims[QARG_SRC], p->cfg.src, p->stag, res) ||
        !onednn_run_md_init(&wei_md, shape.ndims[QARG_WEI],
                            shape.dims[QARG_WEI], p->cfg.wei, p->wtag, res) ||
        !onednn_run_md_init(&dst_md, shape.ndims[QARG_DST],
                            shape.dims[QARG_DST], p->cfg.dst, p->dtag, res))
        return 0;
    if (shape.with_bias &&
        !onednn_run_md_init(&bia_md, 1, &d->oc, p->bia.dt, "a", res))
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
    return onednn_run_create_pd(r, &cd, &shape, res);
}

static int create(onednn_run_t *r, res_t *res) {
    const conv_prb_t *p = r->prb;
    if (!conv_check_supported(p, "the harness' reference is forward only",
                              "harness", res) ||
        !create_pd(r, res))
        return 0;
    conv_quant_t quant;
    if (conv_quant_init(p, &quant, res->reason, sizeof(res->reason)) != 0) {
        res->state = STATE_SKIPPED;
        return 0;
    }
    for (int k = 0; k < BENCH_DATA_COUNT; k++)
        conv_fill_cfg(p, (conv_data_kind_t)k, &r->fill[k]);
    return 1;
}

static void check(const void *prb, const bench_f32_t *f, res_t *res) {
    conv_check_against_ref(prb, f, res);
}

static void compare_bitwise(const void *prb, const float *first,
                            const float *second_run, res_t *res) {
    conv_compare_bitwise(prb, first, second_run, res);
}

static void report_perf(const void *prb, const char *repro, const char *impl,
                        double ibytes, double obytes, const bench_timer_t *t) {
    conv_report_perf(prb, repro, impl, ibytes, obytes, t);
}

void conv_onednn_run_problem(const conv_prb_t *p, const char *repro,
                             res_t *res) {
    static const onednn_run_ops_t ops = {
            .create = create,
            .check = check,
            .compare_bitwise = compare_bitwise,
            .report_perf = report_perf,
            .fill_binary_src1 = conv_fill_binary_src1,
    };
    onednn_run_problem(&ops, p, &p->attr, conv_prb_with_bias(p), repro, res);
}
