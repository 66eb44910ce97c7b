/* "gemm:f32": the f32 inner product as one GEMM,
 *   dst (MB x OC) = src (MB x K) * weights^T (K x OC),  K = IC * spatial,
 * with bias and the attributes fused in the GEMM epilogue. src and the
 * weights must flatten over (IC, spatial) in the same order (plain or
 * channels-last) with that chain dense. "any" weights get src's order,
 * then as the GEMM's packed B panels when the data type's GEMM reads
 * them in place (f32: O<K dims><nr>o, written once by the reorder, so no
 * execution packs B and a single sample streams each panel whole),
 * otherwise with OC innermost (K x OC row-major), which the GEMM reads
 * untransposed. This layout half (gemm_ip_init_with) also serves
 * "gemm:s8". */

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

/* The (IC, spatial) dims of the weights in src's order, outer to inner
 * (logical when src is "any"), into order[0 .. ndims - 1). */
static void k_dims_order(const tsr_memory_desc_t *wei,
                         const tsr_memory_desc_t *src, int *order) {
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
}

/* "any" weights: the K dims in src's order, then OC innermost, so the
 * GEMM reads them as K x OC row-major. */
static tsr_status_t choose_weights_layout(tsr_memory_desc_t *wei,
                                          const tsr_memory_desc_t *src) {
    if (!md_is_any(wei))
        return tsr_success;
    int order[TSR_MAX_NDIMS];
    const int nd = wei->ndims;
    k_dims_order(wei, src, order);
    order[nd - 1] = 0;
    return md_init_blocked(wei, nd, wei->dims, wei->data_type, order, 0, NULL,
                           NULL);
}

/* The weights as packed B panels of width nr: OC blocks outermost, then
 * the K dims in src's order, nr output channels innermost, so element
 * (k, oc) is at (oc / nr) * K * nr + k * nr + oc % nr. */
static tsr_status_t panels_md(const tsr_memory_desc_t *wei,
                              const tsr_memory_desc_t *src, int nr,
                              tsr_memory_desc_t *pp) {
    int order[TSR_MAX_NDIMS];
    const int nd = wei->ndims;
    order[0] = 0;
    k_dims_order(wei, src, order + 1);
    const tsr_dim_t blk = nr;
    const int idx = 0;
    return md_init_blocked(pp, nd, wei->dims, wei->data_type, order, 1, &blk,
                           &idx);
}

/* 1 when the weights are (or, being "any", become) the panels of the
 * GEMM of `ops`; *nr is their width. */
static int weights_as_panels(tsr_memory_desc_t *wei,
                             const tsr_memory_desc_t *src,
                             const gemm_batched_ops_t *ops, int *nr) {
    *nr = ops->panels_nr ? ops->panels_nr() : 0;
    tsr_memory_desc_t pp;
    if (*nr <= 0 || panels_md(wei, src, *nr, &pp) != tsr_success)
        return 0;
    if (md_is_any(wei))
        *wei = pp;
    return md_same_layout(wei, &pp) && wei->data_type == pp.data_type;
}

tsr_status_t gemm_ip_init_with(struct tsr_primitive_desc *pd,
                               const gemm_batched_ops_t *ops) {
    if (!ops->accepts(pd, ip_with_bias(pd)))
        return tsr_unimplemented;
    tsr_status_t st = tsr_success;
    int nr;
    const int panels = weights_as_panels(&pd->md[TSR_MD_WEIGHTS],
                                         &pd->md[TSR_MD_SRC], ops, &nr);
    if (!panels)
        st = choose_weights_layout(&pd->md[TSR_MD_WEIGHTS],
                                   &pd->md[TSR_MD_SRC]);
    if (st == tsr_success)
        st = tsr_pd_resolve_any_plain(pd);
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
    const gemm_batched_plan_t shape = {.M = ip_MB(pd),
                                       .N = ip_OC(pd),
                                       .K = ip_K(pd),
                                       .batch = 1,
                                       .b_panels_nr = panels ? nr : 0};
    const int64_t src_k = chain_unit_stride(src, 1);
    if (panels)
        return src_k < 0 ? tsr_unimplemented
                         : ops->plan_create(pd, &ep, &shape,
                                            src->blocking.strides[0], src_k, 0,
                                            0);
    /* src and weights must walk (IC, spatial) alike. */
    for (int dim = 1; dim < src->ndims; dim++)
        for (int other = 1; other < src->ndims; other++)
            if (src->dims[dim] > 1 && src->dims[other] > 1 &&
                (src->blocking.strides[dim] < src->blocking.strides[other]) !=
                        (wei->blocking.strides[dim] <
                         wei->blocking.strides[other]))
                return tsr_unimplemented;
    const int64_t wei_k = chain_unit_stride(wei, 1);
    if (src_k < 0 || wei_k < 0)
        return tsr_unimplemented;
    return ops->plan_create(pd, &ep, &shape, src->blocking.strides[0], src_k,
                            wei_k, wei->blocking.strides[0]);
}

static tsr_status_t gemm_ip_init(struct tsr_primitive_desc *pd) {
    return gemm_ip_init_with(pd, &gemm_batched_f32_ops);
}

static tsr_status_t gemm_ip_execute(const struct tsr_primitive_desc *pd,
                                    const tsr_exec_ctx_t *ctx) {
    return gemm_batched_execute(pd, ctx, ip_epilogue_init);
}

const tsr_impl_t tsr_gemm_inner_product_f32_impl = {
        .name = "gemm:f32",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_ip_init,
        .execute = gemm_ip_execute,
        .fini = gemm_batched_plan_destroy,
};
