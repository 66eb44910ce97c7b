/* "gemm:f32": f32 matmul as one GEMM per dst batch matrix, bias and the
 * attributes fused in the GEMM epilogue. Any strides whose innermost step
 * along one of the two matrix dims is 1 work (transposes included); batch
 * dims of size 1 broadcast through a batch step of 0. "any" is dense
 * row-major. */
#include <stdlib.h>

#include "common/convolution_pd.h"
#include "common/memory_desc.h"
#include "cpu/matmul/gemm_batched_f32.h"
#include "cpu/matmul/matmul_epilogue.h"

static int md_is_plain(const tsr_memory_desc_t *md) {
    return md->blocking.inner_nblks == 0;
}

static tsr_status_t gemm_matmul_init(struct tsr_primitive_desc *pd) {
    const tsr_matmul_desc_t *d = &pd->op.matmul;
    if (d->src_desc.data_type != tsr_f32 ||
        d->weights_desc.data_type != tsr_f32 ||
        !op_data_types_ok(tsr_f32, tsr_f32,
                          matmul_with_bias(pd) ? d->bias_desc.data_type
                                               : tsr_f32,
                          d->dst_desc.data_type))
        return tsr_unimplemented;
    if (pd->attr.zero_points[TSR_QARG_SRC].set ||
        pd->attr.zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    tsr_status_t st = tsr_conv_resolve_any_plain(pd);
    if (st != tsr_success)
        return st;
    tsr_epilogue_t ep;
    if (matmul_epilogue_init(pd, &ep) != tsr_success)
        return tsr_unimplemented;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_is_plain(src) || !md_is_plain(wei) || !md_is_plain(dst))
        return tsr_unimplemented;

    gemm_batched_plan_t *plan = calloc(1, sizeof(*plan));
    if (!plan)
        return tsr_out_of_memory;
    const int nd = matmul_ndims(pd);
    const int64_t *ss = src->blocking.strides, *ws = wei->blocking.strides;
    plan->M = matmul_M(pd);
    plan->N = matmul_N(pd);
    plan->K = matmul_K(pd);
    plan->nbatch_dims = nd - 2;
    plan->batch = matmul_batch(pd);
    for (int b = 0; b < nd - 2; b++) {
        plan->batch_dims[b] = dst->dims[b];
        plan->a_bstep[b] = src->dims[b] == 1 ? 0 : ss[b];
        plan->b_bstep[b] = wei->dims[b] == 1 ? 0 : ws[b];
    }
    plan->a_off0 = src->offset0;
    plan->b_off0 = wei->offset0;
    if (!gemm_matrix_view(plan->M, plan->K, ss[nd - 2], ss[nd - 1],
                          &plan->transa, &plan->lda) ||
        !gemm_matrix_view(plan->K, plan->N, ws[nd - 2], ws[nd - 1],
                          &plan->transb, &plan->ldb)) {
        free(plan);
        return tsr_unimplemented;
    }
    gemm_batched_plan_finish(plan, pd, &ep);
    pd->impl_data = plan;
    return tsr_success;
}

static tsr_status_t gemm_matmul_execute(const struct tsr_primitive_desc *pd,
                                        const tsr_exec_ctx_t *ctx) {
    /* Set up again per run: it points into the pd's own attributes. */
    tsr_epilogue_t ep;
    tsr_status_t st = matmul_epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    return gemm_batched_execute(pd->impl_data, pd, &ep, ctx);
}

static void gemm_matmul_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

const tsr_impl_t tsr_gemm_matmul_f32_impl = {
        .name = "gemm:f32",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_matmul_init,
        .execute = gemm_matmul_execute,
        .fini = gemm_matmul_fini,
};
