/* Reference matmul, "ref:any": 2D to 6D with batch broadcast, every layout
 * (strides express transposes; the generic offset function reads them) and
 * every data-type combination of benchdnn's matmul configurations.
 *
 * For one dst point (b.., m, n) the shared reference driver
 * (cpu/common/ref_dot.h) sums src[b.., m, k] * wei[b.., k, n] over k,
 * reading batch index 0 of a src or weights batch dim of size 1, then
 * applies the shared epilogue with the last dst dim (N) as the channel
 * (bias broadcast over its dims of size 1). */
#include "common/matmul_pd.h"
#include "cpu/common/ref_dot.h"
#include "cpu/matmul/matmul_epilogue.h"

static tsr_status_t ref_matmul_init(struct tsr_primitive_desc *pd) {
    return tsr_ref_dot_init(pd, matmul_with_bias(pd), matmul_epilogue_init);
}

static void matmul_positions(const tsr_memory_desc_t *src_md,
                             const tsr_memory_desc_t *wei_md,
                             const tsr_dim_t *dpos, tsr_dim_t k,
                             tsr_dim_t *spos, tsr_dim_t *wpos) {
    const int nd = src_md->ndims;
    for (int d = 0; d < nd - 2; d++) {
        spos[d] = src_md->dims[d] == 1 ? 0 : dpos[d];
        wpos[d] = wei_md->dims[d] == 1 ? 0 : dpos[d];
    }
    spos[nd - 2] = dpos[nd - 2];
    wpos[nd - 1] = dpos[nd - 1];
    spos[nd - 1] = wpos[nd - 2] = k;
}

static tsr_status_t ref_matmul_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    return tsr_ref_dot_execute(pd, ctx, matmul_epilogue_init, matmul_K(pd),
                               matmul_positions);
}

const tsr_impl_t tsr_ref_matmul_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_matmul_init,
        .execute = ref_matmul_execute,
        .fini = NULL,
};
