/* Concat as block copies. When dst and every source are dense in one
 * order of outer dims with the same inner blocks, and each source starts
 * on a whole block of the axis, dst is a sequence of rows (one per index
 * of the dims outside the axis), each made of one contiguous piece of
 * every source in turn. The threads split dst into equal contiguous
 * ranges and copy (or convert) the pieces that fall in theirs. Padding is
 * copied from the sources, where it is zero. */
#include <omp.h>
#include <string.h>

#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "concat.h"

/* Thread ranges start at multiples of this many elements, so threads do
 * not share a cache line of dst for any data type. */
enum { RANGE_ALIGN = 64 };

typedef struct {
    tsr_dim_t outer;   /* dst rows */
    tsr_dim_t dst_row; /* elements of a dst row */
    /* Elements of each source's piece of a row, and where it starts in
     * the dst row. */
    tsr_dim_t piece[TSR_MAX_MULTIPLE_SRC];
    tsr_dim_t start[TSR_MAX_MULTIPLE_SRC];
} concat_rows_t;

/* The rows of the problem, or 0 when its layouts do not allow them. */
static int concat_rows_init(concat_rows_t *rows,
                            const struct tsr_primitive_desc *pd) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    const int ndims = dst->ndims, axis = desc->concat_dimension;
    int order[TSR_MAX_NDIMS];
    md_outer_order(dst, order);
    if (!md_is_dense_in_order(dst, order))
        return 0;
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(dst, blocks);
    int axis_pos = 0;
    while (order[axis_pos] != axis)
        axis_pos++;
    tsr_dim_t outer = 1, inner = md_inner_block_elems(dst);
    for (int j = 0; j < ndims; j++) {
        if (j < axis_pos)
            outer *= md_outer_extent(dst, order[j]);
        else if (j > axis_pos)
            inner *= md_outer_extent(dst, order[j]);
    }
    rows->outer = outer;
    rows->dst_row = md_outer_extent(dst, axis) * inner;
    tsr_dim_t axis_offset = 0;
    for (int i = 0; i < desc->n; i++) {
        const tsr_memory_desc_t *src = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        if (!concat_same_inner_blocks(src, dst) ||
            !md_is_dense_in_order(src, order) ||
            axis_offset % blocks[axis] != 0)
            return 0;
        rows->piece[i] = md_outer_extent(src, axis) * inner;
        rows->start[i] = axis_offset / blocks[axis] * inner;
        axis_offset += src->dims[axis];
    }
    return 1;
}

static tsr_status_t simple_concat_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = concat_init_common(pd);
    if (st != tsr_success)
        return st;
    concat_rows_t rows;
    return concat_rows_init(&rows, pd) ? tsr_success : tsr_unimplemented;
}

/* memcpy inlined for the short pieces of channels-last rows (a call per
 * piece of 32 bytes costs more than the move). */
static inline void copy_bytes(char *to, const char *from, size_t n) {
    for (; n >= 64; n -= 64, to += 64, from += 64)
        memcpy(to, from, 64);
    if (n >= 32) {
        memcpy(to, from, 32);
        n -= 32, to += 32, from += 32;
    }
    if (n > 0)
        memcpy(to, from, n);
}

/* Copies the dst elements [begin, end): the pieces of the rows they hold. */
static void copy_range(const concat_rows_t *rows,
                       const struct tsr_primitive_desc *pd,
                       const char *const *srcs, char *dst, tsr_dim_t begin,
                       tsr_dim_t end) {
    const int n = pd->op.multi.n;
    const tsr_data_type_t dst_dt = pd->md[TSR_MD_DST].data_type;
    const size_t dst_esize = tsr_data_type_size(dst_dt);
    tsr_data_type_t src_dt[TSR_MAX_MULTIPLE_SRC];
    size_t src_esize[TSR_MAX_MULTIPLE_SRC];
    for (int k = 0; k < n; k++) {
        src_dt[k] = pd->md[TSR_MD_MULTIPLE_SRC + k].data_type;
        src_esize[k] = tsr_data_type_size(src_dt[k]);
    }
    tsr_dim_t row = begin / rows->dst_row, col = begin % rows->dst_row;
    int i = 0;
    while (col >= rows->start[i] + rows->piece[i])
        i++;
    for (tsr_dim_t pos = begin; pos < end;) {
        const tsr_dim_t within = col - rows->start[i];
        const tsr_dim_t len = TSR_MIN(rows->piece[i] - within, end - pos);
        const tsr_dim_t src_pos = row * rows->piece[i] + within;
        const char *from = srcs[i] + (size_t)src_pos * src_esize[i];
        char *to = dst + (size_t)pos * dst_esize;
        if (src_dt[i] == dst_dt)
            copy_bytes(to, from, (size_t)len * dst_esize);
        else
            concat_copy_elems(src_dt[i], from, dst_dt, to, len);
        pos += len;
        col += len;
        if (col == rows->start[i] + rows->piece[i] && ++i == n) {
            i = 0;
            col = 0;
            row++;
        }
    }
}

static tsr_status_t simple_concat_execute(const struct tsr_primitive_desc *pd,
                                          const tsr_exec_ctx_t *ctx) {
    concat_rows_t rows;
    if (!concat_rows_init(&rows, pd))
        return tsr_runtime_error;
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const char *srcs[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < desc->n; i++) {
        const tsr_memory_desc_t *md = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        srcs[i] = (const char *)tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i) +
                  (size_t)md->offset0 * tsr_data_type_size(md->data_type);
    }
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    char *dst = (char *)tsr_ctx_data(ctx, TSR_ARG_DST) +
                (size_t)dst_md->offset0 * tsr_data_type_size(dst_md->data_type);
    const tsr_dim_t total = rows.outer * rows.dst_row;
    const int nthr = total < CONCAT_PARALLEL_MIN ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(nthr)
    {
        const tsr_dim_t chunk = tsr_rnd_up(
                tsr_div_up(total, omp_get_num_threads()), RANGE_ALIGN);
        const tsr_dim_t begin = TSR_MIN(total, chunk * omp_get_thread_num());
        const tsr_dim_t end = TSR_MIN(total, begin + chunk);
        if (begin < end)
            copy_range(&rows, pd, srcs, dst, begin, end);
    }
    return tsr_success;
}

const tsr_impl_t tsr_simple_concat_impl = {
        .name = "simple:copy",
        .isa = tsr_cpu_isa_generic,
        .init = simple_concat_init,
        .execute = simple_concat_execute,
        .fini = NULL,
};
