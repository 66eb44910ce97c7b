/* Concat along a blocked axis whose sources need not start on a whole
 * block (channel counts that are not multiples of 16 or 8 in nChw16c /
 * nChw8c, padded channels). dst and every source are dense in one outer
 * order, with one inner block, on the axis, and one data type. dst is a
 * sequence of rows, one per (outer index, axis block), each a run of
 * points of one block; a point's lanes come from at most a few source
 * blocks, the same for every point of the row, so a row is a few shifted
 * copies of source rows merged by lane masks. The threads split dst into
 * contiguous ranges of whole cache lines. */
#include <omp.h>
#include <string.h>

#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "concat.h"

typedef void (*blocked_row_fn)(char *dst, size_t nbytes, int point_bytes,
                               const concat_lane_run_t *runs, int nruns,
                               int stream);

/* From this many bytes of dst on, rows bypass the caches. */
#define STREAM_MIN_BYTES (32 * 1024 * 1024)

typedef struct {
    int n, blk, esize, point_bytes;
    tsr_dim_t outer;  /* indices of the dims outside the axis */
    tsr_dim_t inner;  /* elements of a row: points times blk */
    tsr_dim_t blocks; /* dst blocks of the axis */
    tsr_dim_t axis_total;
    tsr_dim_t src_dims[TSR_MAX_MULTIPLE_SRC];   /* along the axis */
    tsr_dim_t src_blocks[TSR_MAX_MULTIPLE_SRC]; /* padded, in blocks */
} blocked_concat_t;

/* The problem's shape, or 0 when the layouts do not fit. */
static int blocked_concat_init_shape(blocked_concat_t *bc,
                                     const struct tsr_primitive_desc *pd) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    const int ndims = dst->ndims, axis = desc->concat_dimension;
    if (dst->blocking.inner_nblks != 1 || dst->blocking.inner_idxs[0] != axis)
        return 0;
    int order[TSR_MAX_NDIMS];
    md_outer_order(dst, order);
    if (!md_is_dense_in_order(dst, order))
        return 0;
    bc->n = desc->n;
    bc->blk = (int)dst->blocking.inner_blks[0];
    bc->esize = (int)tsr_data_type_size(dst->data_type);
    bc->point_bytes = bc->blk * bc->esize;
    /* Points must tile a cache line for the lane masks. */
    if (bc->point_bytes > 64 || (bc->point_bytes & (bc->point_bytes - 1)))
        return 0;
    int axis_pos = 0;
    while (order[axis_pos] != axis)
        axis_pos++;
    bc->outer = 1;
    bc->inner = bc->blk;
    for (int j = 0; j < ndims; j++) {
        if (j < axis_pos)
            bc->outer *= md_outer_extent(dst, order[j]);
        else if (j > axis_pos)
            bc->inner *= md_outer_extent(dst, order[j]);
    }
    bc->blocks = md_outer_extent(dst, axis);
    bc->axis_total = dst->dims[axis];
    for (int i = 0; i < desc->n; i++) {
        const tsr_memory_desc_t *src = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        if (src->data_type != dst->data_type ||
            src->blocking.inner_nblks != 1 ||
            src->blocking.inner_idxs[0] != axis ||
            src->blocking.inner_blks[0] != bc->blk ||
            !md_is_dense_in_order(src, order))
            return 0;
        bc->src_dims[i] = src->dims[axis];
        bc->src_blocks[i] = md_outer_extent(src, axis);
    }
    return 1;
}

static uint64_t lane_mask(int point_bytes, int lo, int hi) {
    const uint64_t run = hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1);
    uint64_t mask = 0;
    for (int p = 0; p < 64; p += point_bytes)
        mask |= run << (p + lo);
    return mask;
}

/* The lane runs of dst row (o, block); returns their count. */
static int row_lane_runs(const blocked_concat_t *bc, const char *const *srcs,
                         tsr_dim_t o, tsr_dim_t block,
                         concat_lane_run_t *runs) {
    int nruns = 0, i = 0, prev_i = -1;
    tsr_dim_t axis_offset = 0, prev_sblock = -1;
    for (int l = 0; l < bc->blk; l++) {
        const tsr_dim_t c = block * bc->blk + l;
        while (i < bc->n && c >= axis_offset + bc->src_dims[i])
            axis_offset += bc->src_dims[i++];
        const int src_i = i < bc->n ? i : -1;
        const tsr_dim_t cs = c - axis_offset;
        const tsr_dim_t sblock = src_i < 0 ? -1 : cs / bc->blk;
        if (nruns > 0 && src_i == prev_i && sblock == prev_sblock) {
            runs[nruns - 1].hi += bc->esize;
            continue;
        }
        concat_lane_run_t *run = &runs[nruns++];
        run->lo = l * bc->esize;
        run->hi = run->lo + bc->esize;
        run->src = NULL;
        if (src_i >= 0) {
            const tsr_dim_t first =
                    (o * bc->src_blocks[src_i] + sblock) * bc->inner +
                    cs % bc->blk - l;
            run->src = srcs[src_i] + first * bc->esize;
        }
        prev_i = src_i;
        prev_sblock = sblock;
    }
    for (int k = 0; k < nruns; k++)
        runs[k].mask = lane_mask(bc->point_bytes, runs[k].lo, runs[k].hi);
    return nruns;
}

static tsr_status_t blocked_concat_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = concat_init_common(pd);
    if (st != tsr_success)
        return st;
    blocked_concat_t bc;
    return blocked_concat_init_shape(&bc, pd) ? tsr_success : tsr_unimplemented;
}

static tsr_status_t blocked_concat_execute(const struct tsr_primitive_desc *pd,
                                           const tsr_exec_ctx_t *ctx,
                                           blocked_row_fn row_fn) {
    blocked_concat_t bc;
    if (!blocked_concat_init_shape(&bc, pd))
        return tsr_runtime_error;
    const char *srcs[TSR_MAX_MULTIPLE_SRC];
    for (int i = 0; i < bc.n; i++) {
        const tsr_memory_desc_t *md = &pd->md[TSR_MD_MULTIPLE_SRC + i];
        srcs[i] = (const char *)tsr_ctx_data(ctx, TSR_ARG_MULTIPLE_SRC + i) +
                  (size_t)md->offset0 * bc.esize;
    }
    const tsr_memory_desc_t *dst_md = &pd->md[TSR_MD_DST];
    char *dst = (char *)tsr_ctx_data(ctx, TSR_ARG_DST) +
                (size_t)dst_md->offset0 * bc.esize;
    const tsr_dim_t row_bytes = bc.inner * bc.esize;
    const tsr_dim_t total = bc.outer * bc.blocks * row_bytes;
    const int nthr =
            total / bc.esize < CONCAT_PARALLEL_MIN ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(nthr)
    {
        /* Ranges of whole cache lines, hence of whole points. */
        const tsr_dim_t chunk =
                tsr_rnd_up(tsr_div_up(total, omp_get_num_threads()), 64);
        const tsr_dim_t begin = TSR_MIN(total, chunk * omp_get_thread_num());
        const tsr_dim_t end = TSR_MIN(total, begin + chunk);
        concat_lane_run_t runs[64];
        for (tsr_dim_t pos = begin; pos < end;) {
            const tsr_dim_t row = pos / row_bytes, x = pos % row_bytes;
            const tsr_dim_t len = TSR_MIN(row_bytes - x, end - pos);
            const int nruns = row_lane_runs(&bc, srcs, row / bc.blocks,
                                            row % bc.blocks, runs);
            for (int k = 0; k < nruns; k++)
                if (runs[k].src)
                    runs[k].src += x;
            row_fn(dst + pos, (size_t)len, bc.point_bytes, runs, nruns,
                   total >= STREAM_MIN_BYTES);
            pos += len;
        }
    }
    return tsr_success;
}

void concat_blocked_row_generic(char *dst, size_t nbytes, int point_bytes,
                                const concat_lane_run_t *runs, int nruns,
                                int stream) {
    (void)stream;
    for (size_t x = 0; x < nbytes; x += (size_t)point_bytes)
        for (int k = 0; k < nruns; k++) {
            const concat_lane_run_t *r = &runs[k];
            if (r->src)
                memcpy(dst + x + r->lo, r->src + x + r->lo,
                       (size_t)(r->hi - r->lo));
            else
                memset(dst + x + r->lo, 0, (size_t)(r->hi - r->lo));
        }
}

static tsr_status_t
blocked_concat_execute_generic(const struct tsr_primitive_desc *pd,
                               const tsr_exec_ctx_t *ctx) {
    return blocked_concat_execute(pd, ctx, concat_blocked_row_generic);
}

static tsr_status_t
blocked_concat_execute_avx512(const struct tsr_primitive_desc *pd,
                              const tsr_exec_ctx_t *ctx) {
    return blocked_concat_execute(pd, ctx, concat_blocked_row_avx512);
}

const tsr_impl_t tsr_blocked_concat_avx512_impl = {
        .name = "avx512_core:blocked",
        .isa = tsr_cpu_isa_avx512_core,
        .init = blocked_concat_init,
        .execute = blocked_concat_execute_avx512,
        .fini = NULL,
};

const tsr_impl_t tsr_blocked_concat_generic_impl = {
        .name = "simple:blocked",
        .isa = tsr_cpu_isa_generic,
        .init = blocked_concat_init,
        .execute = blocked_concat_execute_generic,
        .fini = NULL,
};
