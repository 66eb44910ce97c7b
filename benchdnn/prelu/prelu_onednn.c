/* The prelu problem in oneDNN's terms: the same arguments, fills and
 * checks as prelu_run.c, with oneDNN's descriptors. */
#include "onednn/onednn_args.h"
#include "prelu/prelu.h"

int prelu_onednn_create(bench_args_run_t *r, res_t *res) {
    const prelu_prb_t *p = r->prb;
    const multi_dims_desc_t *d = &p->desc;
    if (!prelu_prepare(r, res))
        return 0;
    dnnl_memory_desc_t data_md, wei_md;
    if (!onednn_args_md(&data_md, d->ndims, d->dims[0], p->dt[0], p->tag[0],
                        res) ||
        !onednn_args_md(&wei_md, d->ndims, d->dims[1], p->dt[1], p->tag[1],
                        res))
        return 0;
    dnnl_prelu_desc_t fwd, bwd;
    const dnnl_prop_kind_t prop =
            p->is_inference ? dnnl_forward_inference : dnnl_forward_training;
    if (dnnl_prelu_forward_desc_init(&fwd, prop, &data_md, &wei_md) !=
        dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the prelu descriptor");
        return 0;
    }
    if (p->is_fwd)
        return onednn_args_create_pd(r, &fwd, res);
    /* The diffs share the data's and the weights' descriptors. */
    if (dnnl_prelu_backward_desc_init(&bwd, &data_md, &wei_md, &data_md,
                                      &wei_md) != dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the prelu backward descriptor");
        return 0;
    }
    return onednn_args_create_pd_with_hint(r, &fwd, &bwd, res);
}
