/* "gemm:f32": f32 matmul as one GEMM per dst batch matrix, bias and the
 * attributes fused in the GEMM epilogue. Any strides whose innermost step
 * along one of the two matrix dims is 1 work (transposes included); batch
 * dims of size 1 broadcast through a batch step of 0. "any" is dense
 * row-major. This layout half (gemm_matmul_init_with) also serves
 * "gemm:s8". */

#include "common/memory_desc.h"
#include "cpu/matmul/gemm_batched_f32.h"
#include "cpu/matmul/matmul_epilogue.h"

static int md_is_plain(const tsr_memory_desc_t *md) {
    return md->blocking.inner_nblks == 0;
}

tsr_status_t gemm_matmul_init_with(struct tsr_primitive_desc *pd,
                                   const gemm_batched_ops_t *ops) {
    if (!ops->accepts(pd, matmul_with_bias(pd)))
        return tsr_unimplemented;
    tsr_status_t st = tsr_pd_resolve_any_plain(pd);
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

    const int nd = matmul_ndims(pd);
    const int64_t *ss = src->blocking.strides, *ws = wei->blocking.strides;
    gemm_batched_plan_t shape = {.M = matmul_M(pd),
                                 .N = matmul_N(pd),
                                 .K = matmul_K(pd),
                                 .nbatch_dims = nd - 2,
                                 .batch = matmul_batch(pd)};
    for (int b = 0; b < nd - 2; b++) {
        shape.batch_dims[b] = dst->dims[b];
        shape.a_bstep[b] = src->dims[b] == 1 ? 0 : ss[b];
        shape.b_bstep[b] = wei->dims[b] == 1 ? 0 : ws[b];
    }
    return ops->plan_create(pd, &ep, &shape, ss[nd - 2], ss[nd - 1], ws[nd - 2],
                            ws[nd - 1]);
}

static tsr_status_t gemm_matmul_init(struct tsr_primitive_desc *pd) {
    return gemm_matmul_init_with(pd, &gemm_batched_f32_ops);
}

static tsr_status_t gemm_matmul_execute(const struct tsr_primitive_desc *pd,
                                        const tsr_exec_ctx_t *ctx) {
    return gemm_batched_execute(pd, ctx, matmul_epilogue_init);
}

const tsr_impl_t tsr_gemm_matmul_f32_impl = {
        .name = "gemm:f32",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_matmul_init,
        .execute = gemm_matmul_execute,
        .fini = gemm_batched_plan_destroy,
};
