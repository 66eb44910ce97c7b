/* The binary problem in oneDNN's terms: the same arguments, fills and
 * checks as binary_run.c, with oneDNN's descriptors. */
#include <string.h>

#include "binary/binary.h"
#include "onednn/onednn_args.h"

/* oneDNN 2.6's per-argument scales (one value, mask 0) scale each source before
 * the operation, as the problem does. A runtime scale is set by value: the same
 * result. */
static int set_src_scales(dnnl_primitive_attr_t attr, const binary_prb_t *p,
                          res_t *res) {
    static const int args[2] = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1};
    for (int input = 0; input < 2; input++) {
        float scale;
        if (!binary_src_scale(p, input, &scale))
            continue;
        const dnnl_status_t st =
                dnnl_primitive_attr_set_scales(attr, args[input], 1, 0, &scale);
        if (st != dnnl_success) {
            bench_set_state(res, STATE_UNIMPLEMENTED,
                            "oneDNN rejected the scales of src%d: %s", input,
                            dnnl_status2str(st));
            return 0;
        }
    }
    return 1;
}

/* The run's attributes without the source scales: the common conversion
 * would fold src's into output scales, which binary does not mean. */
static dnnl_primitive_attr_t make_attr(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    bench_attr_t without_scales = *r->battr;
    without_scales.scales[QARG_SRC].set = 0;
    dnnl_primitive_attr_t attr = onednn_args_attr(
            r, &without_scales, p->desc.ndims, p->dst_dims, res);
    return attr && set_src_scales(attr, p, res) ? attr : NULL;
}

int binary_onednn_create(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    const multi_dims_desc_t *d = &p->desc;
    if (!binary_prepare(r, res))
        return 0;
    /* oneDNN 2.6 leaves src1 `any` unresolved; v3.x gives it src0's
     * layout, as here. */
    const char *src1_tag =
            strcmp(p->stag[1], "any") == 0 ? p->stag[0] : p->stag[1];
    dnnl_memory_desc_t src0_md, src1_md, dst_md;
    if (!onednn_args_md(&src0_md, d->ndims, d->dims[0], p->sdt[0], p->stag[0],
                        res) ||
        !onednn_args_md(&src1_md, d->ndims, d->dims[1], p->sdt[1], src1_tag,
                        res) ||
        !onednn_args_md(&dst_md, d->ndims, p->dst_dims, p->ddt, p->dtag, res))
        return 0;
    if (!make_attr(r, res))
        return 0;
    dnnl_binary_desc_t op;
    if (dnnl_binary_desc_init(&op, onednn_binary_alg(p->alg), &src0_md,
                              &src1_md, &dst_md) != dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the binary descriptor");
        return 0;
    }
    return onednn_args_create_pd(r, &op, res);
}
