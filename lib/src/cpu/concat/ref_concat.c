/* The reference concat: any layouts and data types, one point at a time
 * through the generic offset function; each source's rows of the innermost
 * logical dim are spread over the threads. */
#include "common/memory_desc.h"
#include "concat.h"

static tsr_status_t ref_concat_execute(const struct tsr_primitive_desc *pd,
                                       const tsr_exec_ctx_t *ctx) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    char *dst = tsr_ctx_data(ctx, TSR_ARG_DST);
    const size_t dst_esize = tsr_data_type_size(dst_md->data_type);
    const int ndims = dst_md->ndims, axis = desc->concat_dimension;
    tsr_dim_t axis_offset = 0;
    for (int i = 0; i < desc->n; i++) {
        const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        const char *src = tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i);
        const size_t src_esize = tsr_data_type_size(src_md->data_type);
        const tsr_dim_t row_len = src_md->dims[ndims - 1];
        const tsr_dim_t rows = tsr_memory_desc_nelems(src_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >=                \
                                              CONCAT_PARALLEL_MIN)
        for (tsr_dim_t row = 0; row < rows; row++) {
            tsr_dim_t pos[TSR_MAX_NDIMS];
            md_l2pos(src_md, row * row_len, pos);
            for (tsr_dim_t x = 0; x < row_len; x++) {
                pos[ndims - 1] = x;
                const char *from =
                        src + (size_t)md_off_v(src_md, pos) * src_esize;
                pos[axis] += axis_offset;
                char *to = dst + (size_t)md_off_v(dst_md, pos) * dst_esize;
                pos[axis] -= axis_offset;
                concat_copy_elems(src_md->data_type, from, dst_md->data_type,
                                  to, 1);
            }
        }
        axis_offset += src_md->dims[axis];
    }
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

const tsr_impl_t tsr_ref_concat_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = concat_init_common,
        .execute = ref_concat_execute,
        .fini = NULL,
};
