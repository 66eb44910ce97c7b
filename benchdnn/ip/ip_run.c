/* The inner product's descriptors on Tessera; the rest of its run is the
 * shared src x weights task (matmul/mm_task.h). */
#include "ip/ip.h"

static int create_pd(bench_args_run_t *r, const tsr_memory_desc_t *src,
                     const tsr_memory_desc_t *wei, const tsr_memory_desc_t *bia,
                     const tsr_memory_desc_t *dst, res_t *res) {
    const mm_task_t *t = r->prb;
    tsr_inner_product_desc_t op;
    const tsr_status_t st = tsr_inner_product_forward_desc_init(
            &op, t->ip_prop, src, wei, bia, dst);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "inner product descriptor");
        return 0;
    }
    return mm_task_attr(r, res) && bench_args_create_pd(r, &op, res);
}

static int create(bench_args_run_t *r, res_t *res) {
    return mm_task_create(r, create_pd, res);
}

const bench_args_ops_t ip_task_ops = {
        .create = create,
        MM_TASK_OPS,
        .create_onednn = BENCH_ARGS_ONEDNN(ip_onednn_create),
};
