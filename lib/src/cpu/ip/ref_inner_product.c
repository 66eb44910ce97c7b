/* Reference forward inner product, "ref:any": every layout (through the
 * generic offset function), spatial or not, and every data-type
 * combination of benchdnn's ip configurations.
 *
 * An inner product is a matmul with K = IC * spatial: for one output point
 * (n, oc) the shared reference driver (cpu/common/ref_dot.h) sums over ic
 * (outer) and the spatial points (inner, logical order), then applies the
 * shared epilogue with dst dim 1 (OC) as the channel. */
#include "common/inner_product_pd.h"
#include "cpu/common/ref_dot.h"
#include "cpu/ip/ip_epilogue.h"

static tsr_status_t ref_ip_init(struct tsr_primitive_desc *pd) {
    return tsr_ref_dot_init(pd, ip_with_bias(pd), ip_epilogue_init);
}

/* k runs over (ic, spatial..) in row-major order: src[n, ic, ..] and
 * wei[oc, ic, ..] share every coordinate after the first. */
static void ip_positions(const tsr_memory_desc_t *src_md,
                         const tsr_memory_desc_t *wei_md, const tsr_dim_t *dpos,
                         tsr_dim_t k, tsr_dim_t *spos, tsr_dim_t *wpos) {
    (void)wei_md;
    spos[0] = dpos[0];
    wpos[0] = dpos[1];
    tsr_dim_t rest = k;
    for (int d = src_md->ndims - 1; d >= 1; d--) {
        spos[d] = wpos[d] = rest % src_md->dims[d];
        rest /= src_md->dims[d];
    }
}

static tsr_status_t ref_ip_execute(const struct tsr_primitive_desc *pd,
                                   const tsr_exec_ctx_t *ctx) {
    return tsr_ref_dot_execute(pd, ctx, ip_epilogue_init, ip_K(pd),
                               ip_positions);
}

const tsr_impl_t tsr_ref_inner_product_fwd_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_ip_init,
        .execute = ref_ip_execute,
        .fini = NULL,
};
