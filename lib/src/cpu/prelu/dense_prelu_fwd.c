/* Dense PReLU forward: src and dst of one dense layout, weights of that
 * layout and shape or plain and broadcast along any dims (per channel,
 * scalar, ...: see cpu/binary/bcast_plan.h). The binary row kernels do
 * the work, with PReLU as their op (tsr_eltwise_relu, the weights as
 * alpha). */
#include <stdlib.h>

#include "common/memory_desc.h"
#include "cpu/binary/bcast_plan.h"
#include "cpu/binary/binary_kernel.h"
#include "cpu/prelu/prelu_common.h"
#include "cpu/prelu/prelu_impls.h"

typedef struct {
    bcast_plan_t plan;
    binary_kernel_fn kernel;
} dense_prelu_fwd_t;

static void dense_prelu_fwd_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
}

static tsr_status_t init_with(struct tsr_primitive_desc *pd,
                              binary_kernel_fn kernel, int vec_types_only) {
    if (prelu_is_bwd(pd) || !prelu_attr_ok(&pd->attr))
        return tsr_unimplemented;
    const tsr_status_t st = prelu_resolve_any(pd);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_same_layout(src, dst))
        return tsr_unimplemented;
    if (vec_types_only && (!binary_kernel_vec_dt_ok(src->data_type) ||
                           !binary_kernel_vec_dt_ok(wei->data_type) ||
                           !binary_kernel_vec_dt_ok(dst->data_type)))
        return tsr_unimplemented;
    dense_prelu_fwd_t *d = calloc(1, sizeof(*d));
    if (!d)
        return tsr_out_of_memory;
    if (!bcast_plan_init(&d->plan, dst, wei)) {
        free(d);
        return tsr_unimplemented;
    }
    d->kernel = kernel;
    pd->impl_data = d;
    return tsr_success;
}

static tsr_status_t execute(const struct tsr_primitive_desc *pd,
                            const tsr_exec_ctx_t *ctx) {
    const dense_prelu_fwd_t *d = pd->impl_data;
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *wei_md = &pd->md[TSR_MD_WEIGHTS];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    const char *src = tsr_ctx_data(ctx, TSR_ARG_SRC);
    const char *wei = tsr_ctx_data(ctx, TSR_ARG_WEIGHTS);
    char *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    const binary_kernel_t k = {
            .op = tsr_eltwise_relu,
            .src0_dt = src_md->data_type,
            .src1_dt = wei_md->data_type,
            .dst_dt = dst_md->data_type,
            .scale0 = 1.f,
            .scale1 = 1.f,
            .round_mode = pd->attr.round_mode,
    };
    binary_kernel_run_plan(
            &d->plan, d->kernel, &k,
            src + src_md->offset0 * (tsr_dim_t)tsr_data_type_size(k.src0_dt),
            wei + wei_md->offset0 * (tsr_dim_t)tsr_data_type_size(k.src1_dt),
            dst + dst_md->offset0 * (tsr_dim_t)tsr_data_type_size(k.dst_dt));
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

static tsr_status_t init_avx512(struct tsr_primitive_desc *pd) {
    return init_with(pd, binary_kernel_rows_avx512, 1);
}
static tsr_status_t init_avx2(struct tsr_primitive_desc *pd) {
    return init_with(pd, binary_kernel_rows_avx2, 1);
}
static tsr_status_t init_c(struct tsr_primitive_desc *pd) {
    return init_with(pd, binary_kernel_rows_c, 0);
}

const tsr_impl_t tsr_dense_prelu_fwd_avx512_impl = {
        .name = "avx512_core:dense",
        .isa = tsr_cpu_isa_avx512_core,
        .init = init_avx512,
        .execute = execute,
        .fini = dense_prelu_fwd_fini,
};

const tsr_impl_t tsr_dense_prelu_fwd_avx2_impl = {
        .name = "avx2:dense",
        .isa = tsr_cpu_isa_avx2,
        .init = init_avx2,
        .execute = execute,
        .fini = dense_prelu_fwd_fini,
};

const tsr_impl_t tsr_dense_prelu_fwd_c_impl = {
        .name = "simple:dense",
        .isa = tsr_cpu_isa_generic,
        .init = init_c,
        .execute = execute,
        .fini = dense_prelu_fwd_fini,
};
