/* The matmul and inner product drivers' oneDNN path: the shared
 * "dst = src x weights" task (matmul/mm_task.h) as a oneDNN 2.x matmul or
 * forward inner product, run by the shared oneDNN pipeline (onednn_run.h)
 * with the task's fills, reference, comparison and perf line. */
#include <stdio.h>
#include <string.h>

#include "matmul/mm_task.h"
#include "onednn/onednn.h"
#include "onednn/onednn_run.h"

static const char *const arg_names[3] = {"src", "wei", "dst"};

/* The memory descriptor of src, weights or dst: by --strides when given,
 * else by tag. */
static int init_md(const mm_task_t *t, int which, dnnl_memory_desc_t *md,
                   res_t *res) {
    int ndims;
    tsr_data_type_t dt;
    const int64_t *dims = mm_task_arg(t, which, &ndims, &dt);
    if (!t->has_strides[which])
        return onednn_run_md_init(md, ndims, dims, dt, t->tag[which], res);
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

static int create_pd(onednn_run_t *r, res_t *res) {
    const mm_task_t *t = r->prb;
    dnnl_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!init_md(t, MM_SRC, &src_md, res) ||
        !init_md(t, MM_WEI, &wei_md, res) ||
        !init_md(t, MM_DST, &dst_md, res) ||
        (t->with_bias && !init_bias_md(t, &bia_md, res)))
        return 0;
    const dnnl_memory_desc_t *bia = t->with_bias ? &bia_md : NULL;
    dnnl_inner_product_desc_t ipd;
    dnnl_matmul_desc_t mmd;
    const_dnnl_op_desc_t op;
    dnnl_status_t st;
    if (t->is_ip) {
        st = dnnl_inner_product_forward_desc_init(
                &ipd,
                t->ip_prop == tsr_forward_inference ? dnnl_forward_inference
                                                    : dnnl_forward_training,
                &src_md, &wei_md, bia, &dst_md);
        op = &ipd;
    } else {
        st = dnnl_matmul_desc_init(&mmd, &src_md, &wei_md, bia, &dst_md);
        op = &mmd;
    }
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st), "%s descriptor: %s",
                        t->is_ip ? "inner product" : "matmul",
                        dnnl_status2str(st));
        return 0;
    }
    onednn_attr_shape_t shape;
    attr_shape(t, &shape);
    return onednn_run_create_pd(r, op, &shape, res);
}

static int create(onednn_run_t *r, res_t *res) {
    const mm_task_t *t = r->prb;
    if (!mm_task_check_supported(t, "harness", res) || !create_pd(r, res))
        return 0;
    mm_task_fill_rules(t, r->fill);
    return 1;
}

static double ref_elems(const void *prb) {
    return mm_task_ref_elems(prb);
}

static void check(const void *prb, const bench_f32_t *f, res_t *res) {
    mm_task_check_against_ref(prb, f, res);
}

static void compare_bitwise(const void *prb, const float *first,
                            const float *second_run, res_t *res) {
    mm_task_compare_bitwise(prb, first, second_run, res);
}

static void report_perf(const void *prb, const char *repro, const char *impl,
                        double ibytes, double obytes, const bench_timer_t *t) {
    mm_task_report_perf(prb, repro, impl, ibytes, obytes, t);
}

void mm_onednn_run_task(const mm_task_t *t, const char *repro, res_t *res) {
    static const onednn_run_ops_t ops = {
            .create = create,
            .ref_elems = ref_elems,
            .check = check,
            .compare_bitwise = compare_bitwise,
            .report_perf = report_perf,
            .fill_binary_src1 = conv_fill_binary_src1,
    };
    onednn_run_problem(&ops, t, t->attr, t->with_bias, repro, res);
}
