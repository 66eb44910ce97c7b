/* The matmul in oneDNN's terms: a oneDNN 2.x matmul over the same task
 * (mm_task_onednn.h). */
#include "matmul/matmul.h"
#include "matmul/mm_task_onednn.h"

static int make_op(const mm_task_t *t, const dnnl_memory_desc_t *src,
                   const dnnl_memory_desc_t *wei, const dnnl_memory_desc_t *bia,
                   const dnnl_memory_desc_t *dst, void *op,
                   const_dnnl_op_desc_t *op_desc, res_t *res) {
    (void)t;
    const dnnl_status_t st = dnnl_matmul_desc_init(op, src, wei, bia, dst);
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st), "matmul descriptor: %s",
                        dnnl_status2str(st));
        return 0;
    }
    *op_desc = op;
    return 1;
}

int matmul_onednn_create(bench_args_run_t *r, res_t *res) {
    return mm_task_onednn_create(r, make_op, res);
}
