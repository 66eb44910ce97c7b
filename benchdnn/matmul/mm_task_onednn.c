/* The "dst = src x weights" task on oneDNN (see mm_task_onednn.h). */
#include "matmul/mm_task_onednn.h"

#include <string.h>

static const char *const arg_names[3] = {"src", "wei", "dst"};

/* The memory descriptor of src, weights or dst: by --strides when given,
 * else by tag. */
static int init_md(const mm_task_t *t, int which, dnnl_memory_desc_t *md,
                   res_t *res) {
    int ndims;
    tsr_data_type_t dt;
    const int64_t *dims = mm_task_arg(t, which, &ndims, &dt);
    if (!t->has_strides[which])
        return onednn_args_md(md, ndims, dims, dt, t->tag[which], res);
    dnnl_dims_t d, strides;
    for (int i = 0; i < ndims; i++) {
        d[i] = dims[i];
        strides[i] = t->strides[which][i];
    }
    const dnnl_status_t st = dnnl_memory_desc_init_by_strides(
            md, ndims, d, onednn_dt(dt), strides);
    if (st != dnnl_success)
        bench_set_state(res, onednn_status_state(st), "--strides for %s: %s",
                        arg_names[which], dnnl_status2str(st));
    return st == dnnl_success;
}

/* The bias: 1D (OC) for the inner product, dst's rank for matmul (1 where
 * it broadcasts), plain. */
static int init_bias_md(const mm_task_t *t, dnnl_memory_desc_t *md,
                        res_t *res) {
    const int ndims = t->is_ip ? 1 : t->dst_ndims;
    const int64_t *dims = t->is_ip ? &t->N : t->bia_dims;
    dnnl_dims_t d;
    for (int i = 0; i < ndims; i++)
        d[i] = dims[i];
    const dnnl_status_t st = dnnl_memory_desc_init_by_strides(
            md, ndims, d, onednn_dt(t->bia_dt), NULL);
    if (st != dnnl_success)
        bench_set_state(res, onednn_status_state(st),
                        "bias memory descriptor: %s", dnnl_status2str(st));
    return st == dnnl_success;
}

static void attr_shape(const mm_task_t *t, onednn_attr_shape_t *shape) {
    memset(shape, 0, sizeof(*shape));
    shape->ndims[QARG_SRC] = t->src_ndims;
    shape->ndims[QARG_WEI] = t->wei_ndims;
    shape->ndims[QARG_DST] = t->dst_ndims;
    memcpy(shape->dims[QARG_SRC], t->src_dims, sizeof(t->src_dims));
    memcpy(shape->dims[QARG_WEI], t->wei_dims, sizeof(t->wei_dims));
    memcpy(shape->dims[QARG_DST], t->dst_dims, sizeof(t->dst_dims));
    shape->wei_oc_mask = t->wei_oc_mask;
    shape->dst_oc_mask = 1 << (t->dst_ndims - 1);
    shape->data_oc_last = !t->is_ip;
    shape->with_bias = t->with_bias;
}

int mm_task_onednn_create(bench_args_run_t *r, mm_task_onednn_op_fn op_fn,
                          res_t *res) {
    const mm_task_t *t = r->prb;
    if (!mm_task_prepare(r, BENCH_LIB_ONEDNN, res))
        return 0;
    dnnl_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!init_md(t, MM_SRC, &src_md, res) ||
        !init_md(t, MM_WEI, &wei_md, res) ||
        !init_md(t, MM_DST, &dst_md, res) ||
        (t->with_bias && !init_bias_md(t, &bia_md, res)))
        return 0;
    union {
        dnnl_inner_product_desc_t ip;
        dnnl_matmul_desc_t matmul;
    } op;
    const_dnnl_op_desc_t op_desc;
    if (!op_fn(t, &src_md, &wei_md, t->with_bias ? &bia_md : NULL, &dst_md, &op,
               &op_desc, res))
        return 0;
    onednn_attr_shape_t shape;
    attr_shape(t, &shape);
    if (!onednn_args_attr_shape(r, t->attr, &shape, res) ||
        !onednn_args_create_pd(r, op_desc, res))
        return 0;
    mm_task_declare(r);
    return 1;
}
