/* The shuffle problem in oneDNN's terms: the same arguments, fill and
 * check as shuffle_run.c, with oneDNN's descriptors. oneDNN's group_size
 * is the problem's group: both send point a of the axis to
 * (a % G) * (A / G) + a / G. */
#include <stdio.h>

#include "onednn/onednn_args.h"
#include "shuffle/shuffle.h"

/* oneDNN's pds only say "unimplemented": name the data type (2.6 has no
 * f16 shuffle on CPUs without native f16). */
static int name_unimplemented(const shuffle_prb_t *p, res_t *res) {
    if (res->state != STATE_UNIMPLEMENTED)
        return 0;
    char why[sizeof(res->reason)];
    snprintf(why, sizeof(why), "%s", res->reason);
    bench_set_state(res, STATE_UNIMPLEMENTED,
                    "oneDNN 2.6 has no %s shuffle on this CPU (%s)", p->dt_text,
                    why);
    return 0;
}

static int create(bench_args_run_t *r, res_t *res) {
    const shuffle_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!shuffle_prepare(r, res))
        return 0;
    dnnl_memory_desc_t data_md;
    if (!onednn_args_md(&data_md, d->ndims, d->dims, p->dt, p->tag, res))
        return 0;
    dnnl_shuffle_desc_t fwd, bwd;
    if (dnnl_shuffle_forward_desc_init(&fwd, dnnl_forward_training, &data_md,
                                       p->axis, p->group) != dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the shuffle descriptor");
        return 0;
    }
    if (p->is_fwd)
        return onednn_args_create_pd(r, &fwd, res);
    if (dnnl_shuffle_backward_desc_init(&bwd, &data_md, p->axis, p->group) !=
        dnnl_success) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "oneDNN rejected the shuffle backward descriptor");
        return 0;
    }
    return onednn_args_create_pd_with_hint(r, &fwd, &bwd, res);
}

int shuffle_onednn_create(bench_args_run_t *r, res_t *res) {
    return create(r, res) || name_unimplemented(r->prb, res);
}
