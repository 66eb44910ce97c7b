/* The sum problem in oneDNN's terms: the same arguments, fills and checks
 * as sum_run.c, with oneDNN's descriptors and per-source scales. */
#include "sum/multi_src_onednn.h"
#include "sum/sum.h"

int sum_onednn_create(bench_args_run_t *r, res_t *res) {
    const sum_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!sum_prepare(r, res))
        return 0;
    dnnl_memory_desc_t src_md[MULTI_SRC_MAX], dst_md;
    for (int i = 0; i < p->n; i++)
        if (!onednn_args_md(&src_md[i], d->ndims, d->dims, p->sdt_dt[i],
                            p->stag.item[i], res))
            return 0;
    const int with_dst = sum_has_dst_desc(p);
    if (with_dst &&
        !onednn_args_md(&dst_md, d->ndims, d->dims, p->ddt_dt, p->dtag, res))
        return 0;
    dnnl_primitive_attr_t attr;
    if (!multi_src_onednn_attr(r, d->ndims, d->dims, &attr, res))
        return 0;
    dnnl_primitive_desc_t pd = NULL;
    const dnnl_status_t st = dnnl_sum_primitive_desc_create(
            &pd, with_dst ? &dst_md : NULL, p->n, p->scales, src_md, attr,
            onednn_engine());
    return multi_src_onednn_adopt(r, st, pd, "sum", res);
}
