/* The eltwise problem in oneDNN's terms: the same arguments, fills and
 * checks as eltwise_run.c, with oneDNN's descriptors. */
#include "eltwise/eltwise.h"
#include "onednn/onednn_args.h"

int eltwise_onednn_create(bench_args_run_t *r, res_t *res) {
    const eltwise_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!eltwise_prepare(r, res))
        return 0;
    float alpha, beta;
    eltwise_effective_params(p->alg->math, p->alpha, p->beta, &alpha, &beta);
    const dnnl_alg_kind_t alg = onednn_eltwise_alg(p->alg->alg, alpha, beta);
    if (alg == dnnl_alg_kind_undef) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN 2.6 has no eltwise %s with alpha %g beta %g",
                        p->alg->name, alpha, beta);
        return 0;
    }
    dnnl_memory_desc_t data_md;
    if (!onednn_args_md(&data_md, d->ndims, d->dims, p->dt, p->tag, res))
        return 0;
    if (!onednn_args_attr(r, r->battr, d->ndims, d->dims, res))
        return 0;
    dnnl_eltwise_desc_t fwd, bwd;
    const dnnl_prop_kind_t prop =
            p->is_inference ? dnnl_forward_inference : dnnl_forward_training;
    if (dnnl_eltwise_forward_desc_init(&fwd, prop, alg, &data_md, alpha,
                                       beta) != dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the eltwise descriptor");
        return 0;
    }
    if (p->is_fwd)
        return onednn_args_create_pd(r, &fwd, res);
    if (dnnl_eltwise_backward_desc_init(&bwd, alg, &data_md, &data_md, alpha,
                                        beta) != dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the eltwise backward descriptor");
        return 0;
    }
    return onednn_args_create_fwd_pd(r, &fwd, res) &&
           onednn_args_create_pd(r, &bwd, res);
}
