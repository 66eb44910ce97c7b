/* "gemm:f32": the f32 inner product as one GEMM,
 *   dst (MB x OC) = src (MB x K) * weights^T (K x OC),  K = IC * spatial,
 * with bias and the attributes fused in the GEMM epilogue. src and the
 * weights must flatten over (IC, spatial) in the same order (plain or
 * channels-last) with that chain dense; "any" weights get src's order with
 * OC innermost (K x OC row-major), which the GEMM reads untransposed. */
#include <stdlib.h>

#include "common/convolution_pd.h"
#include "common/memory_desc.h"
#include "cpu/ip/ip_epilogue.h"
#include "cpu/matmul/gemm_batched_f32.h"

/* Element step of the innermost of dims first..ndims-1 when, taken from
 * the smallest stride up, they form one dense chain (each stride the
 * previous one's times its dim; size-1 dims ignored); -1 otherwise. Any
 * order of the dims works (channels-last included) as long as src and the
 * weights share it, which the caller checks. */
static int64_t chain_unit_stride(const tsr_memory_desc_t *md, int first) {
    if (md->blocking.inner_nblks != 0)
        return -1;
    int used[TSR_MAX_NDIMS] = {0};
    int64_t unit = -1, expect = -1;
    for (int step = first; step < md->ndims; step++) {
        int next = -1;
        for (int d = first; d < md->ndims; d++)
            if (!used[d] && md->dims[d] > 1 &&
                (next < 0 ||
                 md->blocking.strides[d] < md->blocking.strides[next]))
                next = d;
        if (next < 0)
            break;
        used[next] = 1;
        const int64_t s = md->blocking.strides[next];
        if (unit < 0)
            unit = s;
        else if (s != expect)
            return -1;
        expect = s * md->dims[next];
    }
    return unit < 0 ? 1 : unit;
}

/* "any" weights: the (IC, spatial) dims in src's order (logical when src
 * is "any" too), then OC innermost, so the GEMM reads them as K x OC
 * row-major. */
static tsr_status_t choose_weights_layout(tsr_memory_desc_t *wei,
                                          const tsr_memory_desc_t *src) {
    if (!md_is_any(wei))
        return tsr_success;
    int order[TSR_MAX_NDIMS];
    const int nd = wei->ndims;
    for (int d = 1; d < nd; d++)
        order[d - 1] = d;
    /* Outer to inner by src stride (a stable insertion sort keeps the
     * logical order for equal strides). */
    for (int i = 1; !md_is_any(src) && i < nd - 1; i++)
        for (int j = i; j > 0 && src->blocking.strides[order[j]] >
                                         src->blocking.strides[order[j - 1]];
             j--) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    order[nd - 1] = 0;
    return md_init_blocked(wei, nd, wei->dims, wei->data_type, order, 0, NULL,
                           NULL);
}

static tsr_status_t gemm_ip_init(struct tsr_primitive_desc *pd) {
    const tsr_inner_product_desc_t *d = &pd->op.ip;
    if (d->src_desc.data_type != tsr_f32 ||
        d->weights_desc.data_type != tsr_f32 ||
        !op_data_types_ok(tsr_f32, tsr_f32,
                          ip_with_bias(pd) ? d->bias_desc.data_type : tsr_f32,
                          d->dst_desc.data_type))
        return tsr_unimplemented;
    if (pd->attr.zero_points[TSR_QARG_SRC].set ||
        pd->attr.zero_points[TSR_QARG_WEIGHTS].set)
        return tsr_unimplemented;
    tsr_status_t st =
            choose_weights_layout(&pd->md[TSR_MD_WEIGHTS], &pd->md[TSR_MD_SRC]);
    if (st == tsr_success)
        st = tsr_conv_resolve_any_plain(pd);
    if (st != tsr_success)
        return st;
    tsr_epilogue_t ep;
    if (ip_epilogue_init(pd, &ep) != tsr_success)
        return tsr_unimplemented;

    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (dst->blocking.inner_nblks != 0)
        return tsr_unimplemented;
    /* src and weights must walk (IC, spatial) alike. */
    for (int dim = 1; dim < src->ndims; dim++)
        for (int other = 1; other < src->ndims; other++)
            if (src->dims[dim] > 1 && src->dims[other] > 1 &&
                (src->blocking.strides[dim] < src->blocking.strides[other]) !=
                        (wei->blocking.strides[dim] <
                         wei->blocking.strides[other]))
                return tsr_unimplemented;
    const int64_t src_k = chain_unit_stride(src, 1);
    const int64_t wei_k = chain_unit_stride(wei, 1);
    if (src_k < 0 || wei_k < 0 || src->blocking.inner_nblks != 0)
        return tsr_unimplemented;

    gemm_batched_plan_t *plan = calloc(1, sizeof(*plan));
    if (!plan)
        return tsr_out_of_memory;
    plan->M = ip_MB(pd);
    plan->N = ip_OC(pd);
    plan->K = ip_K(pd);
    plan->batch = 1;
    plan->a_off0 = src->offset0;
    plan->b_off0 = wei->offset0;
    if (!gemm_matrix_view(plan->M, plan->K, src->blocking.strides[0], src_k,
                          &plan->transa, &plan->lda) ||
        !gemm_matrix_view(plan->K, plan->N, wei_k, wei->blocking.strides[0],
                          &plan->transb, &plan->ldb)) {
        free(plan);
        return tsr_unimplemented;
    }
    gemm_batched_plan_finish(plan, pd, &ep);
    pd->impl_data = plan;
    return tsr_success;
}

static tsr_status_t gemm_ip_execute(const struct tsr_primitive_desc *pd,
                                    const tsr_exec_ctx_t *ctx) {
    /* Set up again per run: it points into the pd's own attributes. */
    tsr_epilogue_t ep;
    tsr_status_t st = ip_epilogue_init(pd, &ep);
    if (st != tsr_success)
        return st;
    return gemm_batched_execute(pd->impl_data, pd, &ep, ctx);
}

static void gemm_ip_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

const tsr_impl_t tsr_gemm_inner_product_f32_impl = {
        .name = "gemm:f32",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_ip_init,
        .execute = gemm_ip_execute,
        .fini = gemm_ip_fini,
};
