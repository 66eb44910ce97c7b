/* The matmul's descriptors on Tessera; the rest of its run is the shared
 * src x weights task (mm_task.h). */
#include "matmul/matmul.h"

static int create_pd(bench_args_run_t *r, const tsr_memory_desc_t *src,
                     const tsr_memory_desc_t *wei, const tsr_memory_desc_t *bia,
                     const tsr_memory_desc_t *dst, res_t *res) {
    tsr_matmul_desc_t op;
    const tsr_status_t st = tsr_matmul_desc_init(&op, src, wei, bia, dst);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "matmul descriptor");
        return 0;
    }
    return mm_task_attr(r, res) && bench_args_create_pd(r, &op, res);
}

static int create(bench_args_run_t *r, res_t *res) {
    return mm_task_create(r, create_pd, res);
}

const bench_args_ops_t matmul_task_ops = {
        .create = create,
        MM_TASK_OPS,
        .create_onednn = BENCH_ARGS_ONEDNN(matmul_onednn_create),
};
