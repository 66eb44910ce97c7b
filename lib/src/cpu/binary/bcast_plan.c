/* The broadcast walk (see bcast_plan.h). */
#include <string.h>

#include <omp.h>

#include "common/memory_desc.h"
#include "common/utils.h"
#include "cpu/binary/bcast_plan.h"

/* Below this many points one thread walks the whole tensor. */
#define BCAST_PARALLEL_MIN ((tsr_dim_t)1 << 15)

typedef struct {
    tsr_dim_t size, stride, op_stride;
    int dim; /* logical dim */
} pdim_t;

/* The physical dims of `md` of more than one point, outermost first, with
 * their element strides and the logical step each is worth (in `mult`). */
static int physical_dims(const tsr_memory_desc_t *md, pdim_t *pd,
                         tsr_dim_t *mult) {
    const tsr_blocking_desc_t *blk = &md->blocking;
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(md, blocks);
    int n = 0;
    for (int d = 0; d < md->ndims; d++) {
        const tsr_dim_t size = md->padded_dims[d] / blocks[d];
        if (size == 1)
            continue;
        /* Insertion by stride, largest first. */
        int at = n;
        while (at > 0 && pd[at - 1].stride < blk->strides[d]) {
            pd[at] = pd[at - 1];
            mult[at] = mult[at - 1];
            at--;
        }
        pd[at] = (pdim_t){size, blk->strides[d], 0, d};
        mult[at] = blocks[d];
        n++;
    }
    tsr_dim_t inner_stride = 1;
    for (int k = blk->inner_nblks - 1; k >= 0; k--)
        inner_stride *= blk->inner_blks[k];
    for (int k = 0; k < blk->inner_nblks; k++) {
        inner_stride /= blk->inner_blks[k];
        const int d = (int)blk->inner_idxs[k];
        tsr_dim_t m = 1;
        for (int j = k + 1; j < blk->inner_nblks; j++)
            if (blk->inner_idxs[j] == d)
                m *= blk->inner_blks[j];
        if (blk->inner_blks[k] == 1)
            continue;
        pd[n] = (pdim_t){blk->inner_blks[k], inner_stride, 0, d};
        mult[n] = m;
        n++;
    }
    /* Dense: each dim steps over everything inside it. */
    tsr_dim_t expect = 1;
    for (int k = n - 1; k >= 0; k--) {
        if (pd[k].stride != expect)
            return -1;
        expect *= pd[k].size;
    }
    return n;
}

/* The one padded dim the operand varies along (-1: none), or -2 when the
 * walk cannot skip its padding: more than one such dim, or one not split
 * into a single innermost block. */
static int hazard_dim(const tsr_memory_desc_t *data,
                      const tsr_memory_desc_t *op, int op_same_layout) {
    if (op_same_layout)
        return -1;
    int hazard = -1;
    for (int d = 0; d < data->ndims; d++) {
        if (data->padded_dims[d] == data->dims[d] || op->dims[d] == 1)
            continue;
        const tsr_blocking_desc_t *blk = &data->blocking;
        if (hazard != -1 || blk->inner_nblks != 1 || blk->inner_idxs[0] != d)
            return -2;
        hazard = d;
    }
    return hazard;
}

int bcast_plan_init(bcast_plan_t *p, const tsr_memory_desc_t *data,
                    const tsr_memory_desc_t *op) {
    memset(p, 0, sizeof(*p));
    if (data->format_kind != tsr_format_kind_blocked ||
        op->format_kind != tsr_format_kind_blocked || op->ndims != data->ndims)
        return 0;
    pdim_t pd[BCAST_MAX_PDIMS];
    tsr_dim_t mult[BCAST_MAX_PDIMS];
    const int np = physical_dims(data, pd, mult);
    if (np < 0)
        return 0;
    const int op_same_layout =
            bcast_same_dims(data, op) && md_same_layout(data, op);
    if (!op_same_layout && op->blocking.inner_nblks != 0)
        return 0;
    for (int k = 0; k < np; k++) {
        const int d = pd[k].dim;
        pd[k].op_stride = op_same_layout ? pd[k].stride
                          : op->dims[d] == 1
                                  ? 0
                                  : mult[k] * op->blocking.strides[d];
    }
    const int hazard = hazard_dim(data, op, op_same_layout);
    if (hazard == -2)
        return 0;

    /* The run, from the innermost dim up. */
    int k = np - 1;
    p->len = 1;
    p->op_bcast = 1;
    if (k >= 0) {
        if (pd[k].op_stride != 0 && pd[k].op_stride != 1)
            return 0;
        p->op_bcast = pd[k].op_stride == 0;
        p->len = pd[k].size;
        k--;
        while (hazard < 0 && k >= 0 &&
               pd[k].op_stride == (p->op_bcast ? 0 : p->len)) {
            p->len *= pd[k].size;
            k--;
        }
    }
    /* Rows: the dims above whose operand strides stay regular. */
    p->nrows = 1;
    p->ld = p->len;
    if (k >= 0 && pd[k].dim != hazard) {
        p->op_ld = pd[k].op_stride;
        p->nrows = pd[k].size;
        k--;
        while (k >= 0 && pd[k].dim != hazard &&
               pd[k].op_stride == p->op_ld * p->nrows) {
            p->nrows *= pd[k].size;
            k--;
        }
    }
    /* Outer points. */
    p->nouter = k + 1;
    p->n_outer = 1;
    p->tail_outer = -1;
    p->valid_end = p->len;
    for (int j = 0; j <= k; j++) {
        p->outer_size[j] = pd[j].size;
        p->outer_stride[j] = pd[j].stride;
        p->outer_op_stride[j] = pd[j].op_stride;
        p->n_outer *= pd[j].size;
        if (pd[j].dim == hazard)
            p->tail_outer = j;
    }
    if (hazard >= 0)
        p->valid_end = data->dims[hazard];
    p->total = p->n_outer * p->nrows * p->len;
    return 1;
}

/* The offsets and valid run length of outer point o. */
static void outer_point(const bcast_plan_t *p, tsr_dim_t o, tsr_dim_t *off,
                        tsr_dim_t *op_off, tsr_dim_t *valid) {
    *off = 0;
    *op_off = 0;
    *valid = p->tail_outer < 0 ? TSR_MIN(p->len, p->valid_end) : p->len;
    for (int j = p->nouter - 1; j >= 0; j--) {
        const tsr_dim_t idx = o % p->outer_size[j];
        o /= p->outer_size[j];
        *off += idx * p->outer_stride[j];
        *op_off += idx * p->outer_op_stride[j];
        if (j == p->tail_outer)
            *valid = TSR_MIN(p->len, p->valid_end - idx * p->len);
    }
}

/* Positions [start, end) of the walk, in calls as long as possible. */
static void walk_range(const bcast_plan_t *p, tsr_dim_t start, tsr_dim_t end,
                       bcast_rows_fn fn, void *ctx) {
    const tsr_dim_t block = p->nrows * p->len;
    tsr_dim_t pos = start;
    while (pos < end) {
        const tsr_dim_t o = pos / block, rem = pos - o * block;
        const tsr_dim_t r = rem / p->len, c = rem - r * p->len;
        tsr_dim_t off, op_off, valid;
        outer_point(p, o, &off, &op_off, &valid);
        off += r * p->ld;
        op_off += r * p->op_ld;
        if (c == 0 && end - pos >= p->len) {
            const tsr_dim_t nr = TSR_MIN(p->nrows - r, (end - pos) / p->len);
            if (valid > 0)
                fn(ctx, off, op_off, nr, valid);
            pos += nr * p->len;
        } else {
            const tsr_dim_t n = TSR_MIN(p->len - c, end - pos);
            const tsr_dim_t hi = TSR_MIN(c + n, valid);
            if (hi > c)
                fn(ctx, off + c, op_off + (p->op_bcast ? 0 : c), 1, hi - c);
            pos += n;
        }
    }
}

void bcast_plan_run(const bcast_plan_t *p, bcast_rows_fn fn, void *ctx) {
    if (p->total < BCAST_PARALLEL_MIN) {
        walk_range(p, 0, p->total, fn, ctx);
        return;
    }
#pragma omp parallel
    {
        const tsr_dim_t nthr = omp_get_num_threads();
        const tsr_dim_t ithr = omp_get_thread_num();
        const tsr_dim_t chunk = tsr_rnd_up(tsr_div_up(p->total, nthr), 64);
        const tsr_dim_t start = TSR_MIN(ithr * chunk, p->total);
        const tsr_dim_t end = TSR_MIN(start + chunk, p->total);
        walk_range(p, start, end, fn, ctx);
    }
}

typedef struct {
    bcast_chunk_rows_fn fn;
    void *ctx;
    tsr_dim_t chunk;
} chunk_ctx_t;

static void chunk_rows(void *ctx, tsr_dim_t data_off, tsr_dim_t op_off,
                       tsr_dim_t rows, tsr_dim_t n) {
    const chunk_ctx_t *c = ctx;
    c->fn(c->ctx, c->chunk, data_off, op_off, rows, n);
}

void bcast_plan_run_chunks(const bcast_plan_t *p, tsr_dim_t nchunks,
                           bcast_chunk_rows_fn fn, void *ctx) {
    const tsr_dim_t size = tsr_rnd_up(tsr_div_up(p->total, nchunks), 64);
#pragma omp parallel for schedule(static) if (nchunks > 1 &&                   \
                                              p->total >= BCAST_PARALLEL_MIN)
    for (tsr_dim_t c = 0; c < nchunks; c++) {
        chunk_ctx_t cc = {fn, ctx, c};
        const tsr_dim_t start = TSR_MIN(c * size, p->total);
        walk_range(p, start, TSR_MIN(start + size, p->total), chunk_rows, &cc);
    }
}
