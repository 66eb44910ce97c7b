/* The reorder problem in oneDNN 2.6's terms: the same arguments, fills and
 * checks as reorder_run.c, with oneDNN's descriptors and attributes.
 * 2.6 has one output scale per point, alpha in
 *   dst = alpha * (src - zp_src) + beta * dst_old + zp_dst,
 * so v3's src and dst scales become alpha = s_src / s_dst and the sum's
 * beta becomes beta / s_dst; both are exact only for dst scales that are
 * powers of 2, the only ones converted. */
#include <math.h>
#include <stdlib.h>

#include "common/checked_math.h"
#include "onednn/onednn_args.h"
#include "reorder/reorder.h"

static int is_power_of_2(float v) {
    int e;
    return v > 0 && isfinite(v) && frexpf(v, &e) == 0.5f;
}

/* Why oneDNN 2.6 cannot run the problem as the harness states it, or
 * NULL. */
static const char *unimplemented_reason(const reorder_prb_t *p) {
    const int ndims = p->desc.ndims;
    if (reorder_comp_mask(p) >= 0)
        return "--oflag: oneDNN 2.6 keeps compensation as extra data of the "
               "dst descriptor, a layout the harness' memory translation "
               "(onednn_md_to_tsr) does not take";
    if (p->runtime_dim_mask & ((1 << ndims) - 1))
        return "--runtime-dim-mask: oneDNN's runtime dims leave the "
               "descriptors the harness allocates from without sizes";
    for (int i = 0; i < p->attr.n_post_ops; i++)
        if (p->attr.post_ops[i].zero_point != 0)
            return "--attr-post-ops: oneDNN 2.6's reorder (simple:any) "
                   "accepts a sum zero point and ignores it";
    const bench_scale_t *dst = &p->attr.scales[QARG_DST];
    if (dst->set) {
        /* attr_scale_value's values repeat every 5 indices (common/attr.h):
         * checking 5 checks them all, however large the count. */
        const int64_t count = attr_mask_count(reorder_scale_mask(p, QARG_DST),
                                              ndims, p->desc.dims);
        for (int64_t i = 0; i < count && i < 5; i++)
            if (!is_power_of_2(attr_scale_value(dst, i)))
                return "--attr-scales: oneDNN 2.6 has no dst scale; a dst "
                       "scale other than a power of 2 does not fold into "
                       "its output scale exactly";
    }
    return NULL;
}

/* The logical point of index i over the dims of `mask` (the order of
 * oneDNN's scale vectors), 0 in the other dims. */
static void pos_of_mask_index(int mask, const dims_desc_t *d, int64_t i,
                              int64_t *pos) {
    for (int k = d->ndims - 1; k >= 0; k--) {
        pos[k] = 0;
        if (mask & (1 << k)) {
            pos[k] = i % d->dims[k];
            i /= d->dims[k];
        }
    }
}

/* alpha (reorder_alpha: the legacy oscale, or s_src / s_dst) over the
 * dims either scale varies along. */
static int set_output_scales(dnnl_primitive_attr_t attr, const reorder_prb_t *p,
                             res_t *res) {
    const dims_desc_t *d = &p->desc;
    const int mask =
            reorder_scale_mask(p, QARG_SRC) | reorder_scale_mask(p, QARG_DST);
    const int64_t count = attr_mask_count(mask, d->ndims, d->dims);
    /* Memory first: a per-dim count comes from user dims. */
    const size_t bytes = bench_bytes_sat(count, sizeof(float));
    if (!bench_mem_check(bytes, res))
        return 0;
    float *values = bytes == SIZE_MAX ? NULL : malloc(bytes);
    if (!values) {
        bench_set_state(res, STATE_SKIPPED, "not enough memory");
        return 0;
    }
    for (int64_t i = 0; i < count; i++) {
        int64_t pos[TSR_MAX_NDIMS];
        pos_of_mask_index(mask, d, i, pos);
        values[i] = reorder_alpha(p, pos);
    }
    const dnnl_status_t st =
            dnnl_primitive_attr_set_output_scales(attr, count, mask, values);
    free(values);
    if (st == dnnl_success)
        return 1;
    bench_set_state(res, STATE_UNIMPLEMENTED,
                    "oneDNN rejected the output scales (mask %d): %s", mask,
                    dnnl_status2str(st));
    return 0;
}

/* The attributes with the scales in 2.6's form; the zero points, the sum
 * and the scratchpad mode as onednn_attr_create gives them. */
static dnnl_primitive_attr_t create_attr(bench_args_run_t *r,
                                         const reorder_prb_t *p, res_t *res) {
    const dims_desc_t *d = &p->desc;
    bench_attr_t a = p->attr;
    a.oscale.set = 0;
    a.scales[QARG_SRC].set = a.scales[QARG_DST].set = 0;
    if (p->attr.scales[QARG_DST].set)
        for (int i = 0; i < a.n_post_ops; i++)
            a.post_ops[i].scale /=
                    attr_scale_value(&p->attr.scales[QARG_DST], 0);
    dnnl_primitive_attr_t attr =
            onednn_args_attr(r, &a, d->ndims, d->dims, res);
    if (!attr)
        return NULL;
    const int scaled = p->attr.oscale.set || p->attr.scales[QARG_SRC].set ||
                       p->attr.scales[QARG_DST].set;
    return scaled && !set_output_scales(attr, p, res) ? NULL : attr;
}

int reorder_onednn_create(bench_args_run_t *r, res_t *res) {
    const reorder_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!reorder_prepare(r, res))
        return 0;
    const char *why = unimplemented_reason(p);
    if (why) {
        bench_set_state(res, STATE_UNIMPLEMENTED, "%s", why);
        return 0;
    }
    dnnl_memory_desc_t src_md, dst_md;
    if (!onednn_args_md(&src_md, d->ndims, d->dims, p->sdt, p->stag, res) ||
        !onednn_args_md(&dst_md, d->ndims, d->dims, p->ddt, p->dtag, res))
        return 0;
    dnnl_primitive_attr_t attr = create_attr(r, p, res);
    if (!attr)
        return 0;
    dnnl_primitive_desc_t pd = NULL;
    const dnnl_status_t st = dnnl_reorder_primitive_desc_create(
            &pd, &src_md, onednn_engine(), &dst_md, onednn_engine(), attr);
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st),
                        "oneDNN reorder primitive descriptor %s -> %s: %s",
                        p->sdt_text, p->ddt_text, dnnl_status2str(st));
        return 0;
    }
    return onednn_args_adopt_pd(r, pd, res);
}
