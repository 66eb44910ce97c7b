/* "gemm:s8": the int8 inner product as one int8 GEMM,
 *   dst (MB x OC) = src (MB x K) * weights^T (K x OC),  K = IC * spatial,
 * u8/s8 src and s8 weights accumulated exactly in s32, then converted to
 * f32 tile by tile for the fused epilogue (bias, scales, zero points,
 * post-ops, rounding). Layout rules and "any" are those of "gemm:f32"
 * (gemm_ip_init_with); a common src zero point is folded into the
 * reduction. Weights chosen for "any" carry their per-channel sums (see
 * tsr_memory_extra_desc_t), so no execution has to sum them. */

#include "common/memory_desc.h"
#include "cpu/ip/ip_epilogue.h"
#include "cpu/matmul/gemm_batched_s8.h"

static tsr_status_t gemm_ip_s8_init(struct tsr_primitive_desc *pd) {
    tsr_memory_desc_t *wei = &pd->md[TSR_MD_WEIGHTS];
    const int wei_any = md_is_any(wei);
    const tsr_status_t st = gemm_ip_init_with(pd, &gemm_batched_s8_ops);
    /* Weights it lays out itself also carry their sums per output channel,
     * written once by the reorder into them (the column sums of B the
     * GEMM needs for a src zero point and for shifted s8 sources). */
    if (st == tsr_success && wei_any && wei->data_type == tsr_s8) {
        wei->extra.flags = tsr_memory_extra_flag_compensation;
        wei->extra.compensation_mask = 1;
    }
    return st;
}

static tsr_status_t gemm_ip_s8_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    return gemm_batched_s8_execute(pd, ctx, ip_epilogue_init);
}

const tsr_impl_t tsr_gemm_inner_product_s8_impl = {
        .name = "gemm:s8",
        .isa = tsr_cpu_isa_generic,
        .init = gemm_ip_s8_init,
        .execute = gemm_ip_s8_execute,
        .fini = gemm_batched_plan_destroy,
};
