/* The concat problem in oneDNN's terms: the same arguments, fills and
 * exact check as concat_run.c, with oneDNN's descriptors. */
#include "concat/concat.h"
#include "sum/multi_src_onednn.h"

int concat_onednn_create(bench_args_run_t *r, res_t *res) {
    const concat_prb_t *p = r->prb;
    const concat_desc_t *d = &p->desc;
    if (!concat_prepare(r, res))
        return 0;
    dnnl_memory_desc_t src_md[MULTI_SRC_MAX], dst_md;
    for (int i = 0; i < d->n; i++)
        if (!onednn_args_md(&src_md[i], d->ndims, d->dims[i], p->sdt_dt,
                            p->stag.item[i], res))
            return 0;
    const int with_dst = concat_has_dst_desc(p);
    if (with_dst && !onednn_args_md(&dst_md, d->ndims, p->dst_dims, p->ddt_dt,
                                    p->dtag, res))
        return 0;
    dnnl_primitive_attr_t attr;
    if (!multi_src_onednn_attr(r, d->ndims, p->dst_dims, &attr, res))
        return 0;
    dnnl_primitive_desc_t pd = NULL;
    const dnnl_status_t st = dnnl_concat_primitive_desc_create(
            &pd, with_dst ? &dst_md : NULL, d->n, p->axis, src_md, attr,
            onednn_engine());
    return multi_src_onednn_adopt(r, st, pd, "concat", res);
}
