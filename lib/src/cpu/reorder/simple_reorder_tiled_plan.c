/* Planning of the tiled reorder: which side is walked in tiles (X), the
 * tile and its offsets in the other side (A), the order of the outer dims
 * and the row tiles are lined up along, and the scale / zero-point index
 * tables. See simple_reorder_tiled.c for how the plan is walked. */
#include <stdlib.h>

#include "common/memory_desc.h"
#include "common/utils.h"
#include "simple_reorder_tiled.h"

static int md_is_plain(const tsr_memory_desc_t *md) {
    return md->blocking.inner_nblks == 0;
}

/* Tile of a blocked X: its inner blocks, the innermost block taking the
 * lowest part of its dim's index. */
static void plan_blocked_tile(tiled_plan_t *p, const tsr_memory_desc_t *x,
                              const tsr_memory_desc_t *a) {
    const tsr_blocking_desc_t *blk = &x->blocking;
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(x, blocks);
    for (tsr_dim_t i = 0; i < p->tile_size; i++) {
        tsr_dim_t *pos = &p->tile_pos[i * p->ndims];
        tsr_dim_t rest = i, below[TSR_MAX_NDIMS];
        for (int d = 0; d < p->ndims; d++)
            below[d] = 1;
        for (int k = blk->inner_nblks - 1; k >= 0; k--) {
            const int d = (int)blk->inner_idxs[k];
            pos[d] += (rest % blk->inner_blks[k]) * below[d];
            rest /= blk->inner_blks[k];
            below[d] *= blk->inner_blks[k];
        }
    }
    p->x_tile_stride = 1;
    p->nouter = p->ndims;
    for (int d = 0; d < p->ndims; d++) {
        p->dim[d] = d;
        p->extent[d] = x->padded_dims[d] / blocks[d];
        p->x_stride[d] = blk->strides[d];
        p->a_stride[d] = a->blocking.strides[d] * blocks[d];
        p->mult[d] = blocks[d];
    }
}

/* The innermost dim of a plain descriptor: the smallest stride among
 * the dims longer than 1. */
static int plain_innermost_dim(const tsr_memory_desc_t *md) {
    int r = md->ndims - 1;
    for (int d = 0; d < md->ndims; d++)
        if (md->dims[d] > 1 &&
            (md->dims[r] == 1 ||
             md->blocking.strides[d] < md->blocking.strides[r]))
            r = d;
    return r;
}

/* A run of the innermost dim: all of it when short, else a multiple of 8
 * (the transposes' block) that divides it, so that no run is partial, or
 * failing that the longest run. */
static tsr_dim_t plain_tile_size(const tsr_memory_desc_t *x) {
    const tsr_dim_t len = x->dims[plain_innermost_dim(x)];
    if (len <= TILED_PLAIN_TILE)
        return len;
    for (tsr_dim_t t = TILED_PLAIN_TILE; t >= 8; t -= 8)
        if (len % t == 0)
            return t;
    return TILED_PLAIN_TILE;
}

/* Tile of a plain X: a run along its innermost dim. */
static void plan_plain_tile(tiled_plan_t *p, const tsr_memory_desc_t *x,
                            const tsr_memory_desc_t *a) {
    const int r = plain_innermost_dim(x);
    for (tsr_dim_t i = 0; i < p->tile_size; i++)
        p->tile_pos[i * p->ndims + r] = i;
    p->x_tile_stride = x->blocking.strides[r];
    p->nouter = p->ndims;
    for (int d = 0; d < p->ndims; d++) {
        const tsr_dim_t step = d == r ? p->tile_size : 1;
        p->dim[d] = d;
        p->extent[d] = tsr_div_up(x->dims[d], step);
        p->x_stride[d] = x->blocking.strides[d] * step;
        p->a_stride[d] = a->blocking.strides[d] * step;
        p->mult[d] = step;
    }
}

static tsr_dim_t abs_dim(tsr_dim_t v) {
    return v < 0 ? -v : v;
}

/* Orders the outer dims from the source's outermost, so that the source
 * is read in order (a read that skips lines wastes what the prefetchers
 * bring), and picks the row dim: one along which A's offsets step evenly,
 * without a tail (so whole rows stay on the fast path), then the one whose
 * step is shortest on the side that is not already contiguous: A's when
 * A's tile is scattered (the loops then run along the row), X's when A's
 * tile is a contiguous run (whole rows of X are then one run too). */
static void plan_outer_order(tiled_plan_t *p) {
    const tsr_dim_t *src_stride = p->x_is_dst ? p->a_stride : p->x_stride;
    for (int i = 1; i < p->nouter; i++)
        for (int j = i; j > 0 && src_stride[j] > src_stride[j - 1]; j--) {
            const int t = p->dim[j];
            p->dim[j] = p->dim[j - 1];
            p->dim[j - 1] = t;
            tsr_dim_t *fields[] = {p->extent, p->x_stride, p->a_stride,
                                   p->mult};
            for (size_t f = 0; f < sizeof(fields) / sizeof(*fields); f++) {
                const tsr_dim_t v = fields[f][j];
                fields[f][j] = fields[f][j - 1];
                fields[f][j - 1] = v;
            }
        }
    const tsr_dim_t *first = p->a_tile_contiguous ? p->x_stride : p->a_stride;
    const tsr_dim_t *second = p->a_tile_contiguous ? p->a_stride : p->x_stride;
    /* Along a dim A blocks, A's offsets do not step evenly: such a row
     * holds a single tile, so it comes last in preference. */
    tsr_dim_t a_blocks[TSR_MAX_NDIMS];
    md_dim_blocks(&p->a_md, a_blocks);
    p->row = p->nouter - 1;
    int best_rank = -1;
    for (int j = 0; j < p->nouter; j++) {
        if (p->extent[j] <= 1)
            continue;
        const int no_tail = p->extent[j] * p->mult[j] == p->dims[p->dim[j]];
        const int rank = 2 * (a_blocks[p->dim[j]] == 1) + no_tail;
        const tsr_dim_t f = abs_dim(first[j]), f_best = abs_dim(first[p->row]);
        const int cheaper =
                f < f_best ||
                (f == f_best && abs_dim(second[j]) < abs_dim(second[p->row]));
        if (rank > best_rank || (rank == best_rank && cheaper)) {
            p->row = j;
            best_rank = rank;
        }
    }
    p->row_chunk = a_blocks[p->dim[p->row]] == 1
                           ? TSR_MAX(1, TILED_BUF / p->tile_size)
                           : 1;
}

/* Value-index tables: the index of a quantity with mask m is linear in the
 * logical point, with coefficient q_step[d] on dim d. */
static void plan_q_tables(tiled_plan_t *p, const reorder_conf_t *conf) {
    for (int k = 0; k < REORDER_NQ; k++) {
        tsr_dim_t step = 1;
        for (int d = p->ndims - 1; d >= 0; d--) {
            const int in_mask = conf->has[k] && (conf->mask[k] >> d) & 1;
            p->q_step[k][d] = in_mask ? step : 0;
            if (in_mask)
                step *= p->dims[d];
        }
        for (tsr_dim_t i = 0; i < p->tile_size; i++) {
            tsr_dim_t idx = 0;
            for (int d = 0; d < p->ndims; d++)
                idx += p->tile_pos[i * p->ndims + d] * p->q_step[k][d];
            p->tile_qidx[k][i] = idx;
        }
    }
}

/* Whether A's offset of (work item origin + tile element) is the sum of
 * the two, so that one table serves every tile. The origin is a multiple
 * of the tile extent (tile_max + 1) on each dim; offsets add up across
 * dims, and along one dim they do when A's blocks and the tile nest. The
 * pattern repeats with A's block, which bounds the check. */
static int a_offsets_split(const tsr_memory_desc_t *a,
                           const tsr_dim_t *tile_max) {
    /* Checks at most (a block of A over a tile): larger blocks go to the
     * other implementations, so that init stays short. */
    enum { MAX_CHECKS = 1 << 18 };
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(a, blocks);
    for (int d = 0; d < a->ndims; d++) {
        const tsr_dim_t extent = tile_max[d] + 1;
        if (blocks[d] == 1)
            continue;
        if (blocks[d] > MAX_CHECKS / extent)
            return 0;
        tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
        for (tsr_dim_t base = 0; base < blocks[d] * extent; base += extent)
            for (tsr_dim_t t = 0; t < extent; t++) {
                pos[d] = base;
                const tsr_dim_t at_base = md_off_v(a, pos);
                pos[d] = t;
                const tsr_dim_t at_t = md_off_v(a, pos);
                pos[d] = base + t;
                if (md_off_v(a, pos) != at_base + at_t - a->offset0)
                    return 0;
            }
    }
    return 1;
}

tsr_status_t tiled_plan_create(const struct tsr_primitive_desc *pd,
                               tiled_plan_t **plan) {
    const tsr_memory_desc_t *src = &pd->md[TSR_MD_SRC];
    const tsr_memory_desc_t *dst = &pd->md[TSR_MD_DST];
    reorder_conf_t conf;
    tsr_status_t st = reorder_conf_init(&conf, pd);
    if (st != tsr_success)
        return st;
    /* X is the destination, unless only the source is blocked. */
    const int x_is_dst = !(md_is_plain(dst) && !md_is_plain(src));
    const tsr_memory_desc_t *x = x_is_dst ? dst : src;
    const tsr_memory_desc_t *a = x_is_dst ? src : dst;
    const int x_blocked = !md_is_plain(x);
    tsr_dim_t tile_size = 1;
    for (int k = 0; k < x->blocking.inner_nblks; k++)
        tile_size *= x->blocking.inner_blks[k];
    if (!x_blocked)
        tile_size = plain_tile_size(x);
    if (tile_size > TILED_BUF)
        return tsr_unimplemented;

    const int ndims = x->ndims;
    const size_t tables = (size_t)tile_size * (size_t)(1 + ndims + REORDER_NQ);
    tiled_plan_t *p = calloc(1, sizeof(*p) + tables * sizeof(tsr_dim_t));
    if (!p)
        return tsr_out_of_memory;
    tsr_dim_t *table = (tsr_dim_t *)(p + 1);
    p->a_tile_off = table;
    p->tile_pos = table + tile_size;
    for (int k = 0; k < REORDER_NQ; k++)
        p->tile_qidx[k] = table + tile_size * (1 + ndims + k);
    p->x_is_dst = x_is_dst;
    p->x_blocked = x_blocked;
    p->ndims = ndims;
    p->tile_size = tile_size;
    for (int d = 0; d < ndims; d++)
        p->dims[d] = x->dims[d];
    p->x_offset0 = x->offset0;
    p->a_md = *a;
    if (x_blocked)
        plan_blocked_tile(p, x, a);
    else
        plan_plain_tile(p, x, a);
    for (tsr_dim_t i = 0; i < tile_size; i++)
        for (int d = 0; d < ndims; d++)
            p->tile_max[d] =
                    TSR_MAX(p->tile_max[d], p->tile_pos[i * ndims + d]);
    if (!a_offsets_split(a, p->tile_max)) {
        free(p);
        return tsr_unimplemented;
    }
    p->a_tile_contiguous = 1;
    for (tsr_dim_t i = 0; i < tile_size; i++) {
        p->a_tile_off[i] = md_off_v(a, &p->tile_pos[i * ndims]) - a->offset0;
        p->a_tile_contiguous &= p->a_tile_off[i] == i;
    }
    plan_outer_order(p);
    plan_q_tables(p, &conf);
    p->use_avx2 = tsr_mayiuse(tsr_cpu_isa_avx2);
    *plan = p;
    return tsr_success;
}
