/* The reference reorder: any layout to any layout, any pair of data types,
 * every reorder attribute. One element at a time through the generic
 * offset function; rows of the innermost logical dim are spread over the
 * threads. */
#include "common/memory_desc.h"
#include "reorder_common.h"

static tsr_status_t ref_reorder_init(struct tsr_primitive_desc *pd) {
    reorder_conf_t conf;
    return reorder_conf_init(&conf, pd);
}

static tsr_status_t ref_reorder_execute(const struct tsr_primitive_desc *pd,
                                        const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    reorder_conf_t conf;
    reorder_values_t values;
    void *src, *dst;
    tsr_status_t st = reorder_exec_setup(&conf, &values, &src, &dst, pd, ctx);
    if (st != tsr_success)
        return st;

    const int ndims = src_md->ndims;
    const tsr_dim_t *dims = src_md->dims;
    const tsr_dim_t row_len = dims[ndims - 1];
    const tsr_dim_t rows = tsr_memory_desc_nelems(src_md) / row_len;
#pragma omp parallel for schedule(static) if (rows * row_len >=                \
                                              REORDER_PARALLEL_MIN)
    for (tsr_dim_t row = 0; row < rows; row++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        md_l2pos(src_md, row * row_len, pos);
        for (tsr_dim_t i = 0; i < row_len; i++) {
            pos[ndims - 1] = i;
            reorder_element(&conf, &values, ndims, dims, pos, src,
                            md_off_v(src_md, pos), dst, md_off_v(dst_md, pos));
        }
    }
    md_zero_pad(dst_md, dst);
    return tsr_success;
}

const tsr_impl_t tsr_ref_reorder_impl = {
        .name = "ref:any",
        .isa = tsr_cpu_isa_generic,
        .init = ref_reorder_init,
        .execute = ref_reorder_execute,
        .fini = NULL,
};
