/* Reorder between two descriptors with the same dense layout: the buffers
 * are walked as flat arrays, so the only work is the type conversion and
 * the scales, zero points and sum (one value each: mask 0). */
#include "common/memory_desc.h"
#include "common/utils.h"
#include "reorder_common.h"

/* Elements per work item: large enough to amortize the calls, small
 * enough for the f32 staging buffers to stay in L1. */
enum { COPY_CHUNK = 2048 };

/* Dense: the padded points fill [offset0, offset0 + product) exactly. */
static int md_is_dense(const tsr_memory_desc_t *md) {
    tsr_dim_t product = 1;
    for (int d = 0; d < md->ndims; d++)
        product *= md->padded_dims[d];
    return md_nelems_padded(md) - md->offset0 == product;
}

static tsr_status_t copy_init(struct tsr_primitive_desc *pd) {
    reorder_conf_t conf;
    tsr_status_t st = reorder_conf_init(&conf, pd);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    if (!md_same_layout(src, dst) || !md_is_dense(src) || !md_is_dense(dst) ||
        !reorder_conf_is_uniform(&conf))
        return tsr_unimplemented;
    return tsr_success;
}

static tsr_status_t copy_execute(const struct tsr_primitive_desc *pd,
                                 const tsr_exec_ctx_t *ctx) {
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    reorder_conf_t conf;
    reorder_values_t values;
    void *src_data, *dst_data;
    tsr_status_t st =
            reorder_exec_setup(&conf, &values, &src_data, &dst_data, pd, ctx);
    if (st != tsr_success)
        return st;
    const char *src = src_data;
    char *dst = dst_data;

    const size_t src_esize = tsr_data_type_size(conf.src_dt);
    const size_t dst_esize = tsr_data_type_size(conf.dst_dt);
    src += (size_t)src_md->offset0 * src_esize;
    dst += (size_t)dst_md->offset0 * dst_esize;
    const tsr_dim_t n = md_nelems_padded(src_md) - src_md->offset0;
    const tsr_dim_t nchunks = tsr_div_up(n, COPY_CHUNK);
#pragma omp parallel for schedule(static) if (n >= REORDER_PARALLEL_MIN)
    for (tsr_dim_t c = 0; c < nchunks; c++) {
        const tsr_dim_t start = c * COPY_CHUNK;
        const tsr_dim_t len = TSR_MIN(COPY_CHUNK, n - start);
        const char *s = src + (size_t)start * src_esize;
        char *d = dst + (size_t)start * dst_esize;
        if (conf.move_only) {
            reorder_copy_strided(src_esize, s, 1, d, 1, len);
            continue;
        }
        float buf[COPY_CHUNK], old[COPY_CHUNK];
        tsr_cvt_to_f32_strided(conf.src_dt, s, 1, buf, 1, len);
        if (conf.has_sum)
            tsr_cvt_to_f32_strided(conf.sum_dt, d, 1, old, 1, len);
        reorder_apply_uniform(&conf, &values, buf, old, len);
        tsr_cvt_from_f32_strided(conf.dst_dt, buf, 1, d, 1, len,
                                 conf.round_mode);
    }
    /* Zero points or a sum can make the padded tail non-zero. */
    md_zero_pad(dst_md, dst_data);
    return tsr_success;
}

const tsr_impl_t tsr_simple_reorder_copy_impl = {
        .name = "simple:copy",
        .isa = tsr_cpu_isa_generic,
        .init = copy_init,
        .execute = copy_execute,
        .fini = NULL,
};
