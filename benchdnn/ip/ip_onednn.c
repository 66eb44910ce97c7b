/* The inner product in oneDNN's terms: a oneDNN 2.x forward inner product
 * over the same task (matmul/mm_task_onednn.h). */
#include "ip/ip.h"
#include "matmul/mm_task_onednn.h"

static int make_op(const mm_task_t *t, const dnnl_memory_desc_t *src,
                   const dnnl_memory_desc_t *wei, const dnnl_memory_desc_t *bia,
                   const dnnl_memory_desc_t *dst, void *op,
                   const_dnnl_op_desc_t *op_desc, res_t *res) {
    const dnnl_status_t st = dnnl_inner_product_forward_desc_init(
            op,
            t->ip_prop == tsr_forward_inference ? dnnl_forward_inference
                                                : dnnl_forward_training,
            src, wei, bia, dst);
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st),
                        "inner product descriptor: %s", dnnl_status2str(st));
        return 0;
    }
    *op_desc = op;
    return 1;
}

int ip_onednn_create(bench_args_run_t *r, res_t *res) {
    return mm_task_onednn_create(r, make_op, res);
}
