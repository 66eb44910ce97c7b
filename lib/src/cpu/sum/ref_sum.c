/* The reference sum: any layouts and data types, one point at a time
 * through the generic offset function, in f32; rows of the innermost
 * logical dim are spread over the threads. */
#include "common/data_type.h"
#include "common/memory_desc.h"
#include "sum.h"

static tsr_status_t ref_sum_execute(const struct tsr_primitive_desc *pd,
                                    const tsr_exec_ctx_t *ctx) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    const void *srcs[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < desc->n; i++)
        srcs[i] = tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i);
    void *dst = tsr_ctx_data(ctx, TSR_ARG_DST);

    const int ndims = dst_md->ndims;
    const tsr_dim_t row_len = dst_md->dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(dst_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >=                \
                                              SUM_PARALLEL_MIN)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(dst_md, row * row_len, pos);
        for (tsr_dim_t x = 0; x < row_len; x++) {
            pos[ndims - 1] = x;
            float acc = 0.f;
            for (int i = 0; i < desc->n; i++) {
                const tsr_memory_desc_t *src_md =
                        &pd->md[TSR_MD_MULTIPLE_SRC + i];
                const float v = desc->scales[i] *
                                tsr_load_f32_inline(src_md->data_type, srcs[i],
                                                    md_off_v(src_md, pos));
                acc = i == 0 ? v : acc + v;
            }
            tsr_store_f32_inline(dst_md->data_type, dst, md_off_v(dst_md, pos),
                                 acc, tsr_round_nearest);
        }
    }
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

const tsr_impl_t tsr_ref_sum_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = sum_init_common,
        .execute = ref_sum_execute,
        .fini = NULL,
};
