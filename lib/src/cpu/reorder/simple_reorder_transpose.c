/* Reorder as a batch of matrix transposes, converted in registers:
 * nchw <-> nhwc, nchw <-> nChw16c, oihw -> OIhw16i16o and the like, with
 * any pair of data types and one scale and zero point for all elements.
 *
 * The logical dims are split at the inner blocks into fine dims, each with
 * a stride in both layouts; fine dims adjacent in both are merged. The one
 * contiguous in the source gives the matrix columns, the one contiguous in
 * the destination its rows, the rest is the batch. Chunks of whole cache
 * lines on both sides are the work items; threads take contiguous ranges
 * of them. */
#include <omp.h>
#include <stdlib.h>

#include "common/isa.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "simple_reorder_transpose.h"

/* Destinations this large do not stay in the last-level cache: whole lines
 * are written with non-temporal stores. */
#define TRANSPOSE_STREAM_MIN_BYTES ((size_t)32 << 20)

typedef struct {
    tsr_dim_t extent, src_stride, dst_stride;
} fine_dim_t;

/* The block of dim d in md and its stride there; 0 when d is blocked more
 * than once. */
static tsr_dim_t dim_block(const tsr_memory_desc_t *md, int d,
                           tsr_dim_t *inner_stride) {
    const tsr_blocking_desc_t *b = &md->blocking;
    tsr_dim_t block = 1, stride = 1;
    *inner_stride = 1;
    for (int k = b->inner_nblks - 1; k >= 0; k--) {
        if (b->inner_idxs[k] == d) {
            if (block != 1)
                return 0;
            block = b->inner_blks[k];
            *inner_stride = stride;
        }
        stride *= b->inner_blks[k];
    }
    return block;
}

/* The fine dims of the pair, extents of 1 left out; 0 when a dim is padded
 * or blocked on both sides. */
static int collect_fine_dims(const tsr_memory_desc_t *src,
                             const tsr_memory_desc_t *dst, fine_dim_t *f,
                             int *n) {
    *n = 0;
    for (int d = 0; d < src->ndims; d++) {
        tsr_dim_t src_inner, dst_inner;
        const tsr_dim_t bs = dim_block(src, d, &src_inner);
        const tsr_dim_t bd = dim_block(dst, d, &dst_inner);
        const tsr_dim_t len = src->dims[d];
        if (bs == 0 || bd == 0 || (bs > 1 && bd > 1) ||
            src->padded_dims[d] != len || dst->padded_dims[d] != len)
            return 0;
        const tsr_dim_t ss = src->blocking.strides[d];
        const tsr_dim_t ds = dst->blocking.strides[d];
        if (bs == 1 && bd == 1) {
            f[(*n)++] = (fine_dim_t){len, ss, ds};
            continue;
        }
        const tsr_dim_t blk = TSR_MAX(bs, bd);
        f[(*n)++] = (fine_dim_t){len / blk, bs > 1 ? ss : ss * blk,
                                 bd > 1 ? ds : ds * blk};
        f[(*n)++] = (fine_dim_t){blk, bs > 1 ? src_inner : ss,
                                 bd > 1 ? dst_inner : ds};
    }
    int kept = 0;
    for (int i = 0; i < *n; i++)
        if (f[i].extent > 1)
            f[kept++] = f[i];
    *n = kept;
    return 1;
}

/* Sorts from the source's outermost and merges neighbours that are
 * contiguous in both layouts. */
static void merge_fine_dims(fine_dim_t *f, int *n) {
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && f[j].src_stride > f[j - 1].src_stride; j--) {
            const fine_dim_t t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
        }
    int kept = 0;
    for (int i = 0; i < *n; i++) {
        fine_dim_t *last = kept ? &f[kept - 1] : NULL;
        if (last && last->src_stride == f[i].extent * f[i].src_stride &&
            last->dst_stride == f[i].extent * f[i].dst_stride) {
            last->extent *= f[i].extent;
            last->src_stride = f[i].src_stride;
            last->dst_stride = f[i].dst_stride;
        } else {
            f[kept++] = f[i];
        }
    }
    *n = kept;
}

static tsr_status_t plan_create(const struct tsr_primitive_desc *pd,
                                transpose_plan_t *p) {
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    fine_dim_t f[2 * TSR_MAX_NDIMS];
    int n = 0;
    if (!collect_fine_dims(src, dst, f, &n))
        return tsr_unimplemented;
    merge_fine_dims(f, &n);
    int col = -1, row = -1;
    for (int i = 0; i < n; i++) {
        if (f[i].src_stride == 1)
            col = i;
        if (f[i].dst_stride == 1)
            row = i;
    }
    if (col < 0 || row < 0 || col == row)
        return tsr_unimplemented;
    memset(p, 0, sizeof(*p));
    p->rows = f[row].extent;
    p->cols = f[col].extent;
    p->src_row_stride = f[row].src_stride;
    p->dst_col_stride = f[col].dst_stride;
    for (int i = 0; i < n; i++) {
        if (i == row || i == col)
            continue;
        p->batch_extent[p->nbatch] = f[i].extent;
        p->batch_src_stride[p->nbatch] = f[i].src_stride;
        p->batch_dst_stride[p->nbatch] = f[i].dst_stride;
        p->nbatch++;
    }
    /* Each strided source row and destination column moves a run of
     * several lines per chunk (a line per stream at a time keeps too many
     * DRAM pages open), as long as the chunk's staging fits in L1. */
    const tsr_dim_t src_esize = (tsr_dim_t)tsr_data_type_size(src->data_type);
    const tsr_dim_t dst_esize = (tsr_dim_t)tsr_data_type_size(dst->data_type);
    p->chunk_cols = TRANSPOSE_RUN_BYTES / src_esize;
    p->chunk_rows = TRANSPOSE_RUN_BYTES / dst_esize;
    /* Few rows (a 16-channel block): longer runs of the source rows. */
    if (p->rows <= 16) {
        p->chunk_rows = 16 * TSR_MAX(1, 4 / dst_esize); /* a 64-byte line */
        p->chunk_cols = TRANSPOSE_STAGE_BYTES / (p->chunk_rows * dst_esize);
    }
    while (p->chunk_cols * p->chunk_rows * dst_esize > TRANSPOSE_STAGE_BYTES) {
        if (p->chunk_cols * src_esize >= p->chunk_rows * dst_esize)
            p->chunk_cols /= 2;
        else
            p->chunk_rows /= 2;
    }
    p->row_chunks = tsr_div_up(p->rows, p->chunk_rows);
    p->col_chunks = tsr_div_up(p->cols, p->chunk_cols);
    p->items = p->row_chunks * p->col_chunks;
    for (int i = 0; i < p->nbatch; i++)
        p->items *= p->batch_extent[i];
    return tsr_success;
}

static tsr_status_t transpose_init(struct tsr_primitive_desc *pd) {
    reorder_conf_t conf;
    tsr_status_t st = reorder_conf_init(&conf, pd);
    if (st != tsr_success)
        return st;
    if (conf.has_sum || !reorder_conf_is_uniform(&conf))
        return tsr_unimplemented;
    transpose_plan_t plan;
    st = plan_create(pd, &plan);
    if (st != tsr_success)
        return st;
    /* 4-byte moves between plain layouts with at most 16 of one dim
     * (nchw <-> nhwc of a 3-channel image): simple:tiled runs them
     * faster. To or from blocks (nChw16c, OIhw16i16o) this kernel does. */
    if (conf.move_only && tsr_data_type_size(conf.src_dt) == 4 &&
        (plan.rows <= 16 || plan.cols <= 16) &&
        pd->md[TSR_MD_SRC].blocking.inner_nblks == 0 &&
        pd->md[TSR_MD_DST].blocking.inner_nblks == 0)
        return tsr_unimplemented;
    transpose_plan_t *p = malloc(sizeof(*p));
    if (!p)
        return tsr_out_of_memory;
    *p = plan;
    pd->impl_data = p;
    return tsr_success;
}

static void transpose_fini(struct tsr_primitive_desc *pd) {
    free(pd->impl_data);
    pd->impl_data = NULL;
}

static tsr_status_t transpose_execute(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx) {
    const transpose_plan_t *p = pd->impl_data;
    const tsr_memory_desc_t *src_md = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    reorder_conf_t conf;
    reorder_values_t values;
    void *src, *dst;
    tsr_status_t st = reorder_exec_setup(&conf, &values, &src, &dst, pd, ctx);
    if (st != tsr_success)
        return st;
    const transpose_op_t op = {
            .src_dt = conf.src_dt,
            .dst_dt = conf.dst_dt,
            .move_only = conf.move_only,
            .has_dst_zp = conf.has[REORDER_DST_ZP],
            .alpha = reorder_q_value(&values, REORDER_SRC_SCALE, 0) /
                     reorder_q_value(&values, REORDER_DST_SCALE, 0),
            .src_zp = reorder_q_value(&values, REORDER_SRC_ZP, 0),
            .dst_zp = reorder_q_value(&values, REORDER_DST_ZP, 0),
            .round_mode = conf.round_mode,
            .stream = tsr_memory_desc_get_size(dst_md) >=
                      TRANSPOSE_STREAM_MIN_BYTES,
    };
    const char *s = (const char *)src +
                    (size_t)src_md->offset0 * tsr_data_type_size(op.src_dt);
    char *d = (char *)dst +
              (size_t)dst_md->offset0 * tsr_data_type_size(op.dst_dt);
    const tsr_dim_t items = p->items;
    const int parallel = tsr_memory_desc_nelems(src_md) >= REORDER_PARALLEL_MIN;
#pragma omp parallel if (parallel)
    {
        const tsr_dim_t nthr = omp_get_num_threads();
        const tsr_dim_t ithr = omp_get_thread_num();
        const tsr_dim_t begin = items * ithr / nthr;
        const tsr_dim_t end = items * (ithr + 1) / nthr;
        transpose_items_avx512(p, &op, s, d, begin, end);
    }
    return tsr_success;
}

const tsr_impl_t tsr_simple_reorder_transpose_impl = {
        .name = "simple:transpose",
        .isa = tsr_cpu_isa_avx512_core,
        .init = transpose_init,
        .execute = transpose_execute,
        .fini = transpose_fini,
};
