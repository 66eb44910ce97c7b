/* Shuffle as a gather through a table, for the layouts where simple:rows
 * would move rows shorter than a cache line: a blocked axis (nChw16c,
 * nChw8c) and channels-last data, in the layouts of shuffle_shape_t.
 * Output channel b reads input channel perm(b) at the
 * same point: the table holds that input channel's offset, and the output
 * is written contiguously, a tile of points at a time so that the input
 * rows the tile reads stay in the caches. Padded lanes are zeroed at the
 * end. */
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "shuffle.h"

/* Bytes of output written per work item: the input it reads (as much)
 * stays in L2. */
enum { TILE_BYTES = 1 << 16 };

/* The shape, or 0 when the layouts do not fit or rows of a cache line or
 * more make simple:rows the better choice. */
static int gather_shape_init(shuffle_shape_t *sh, const shuffle_conf_t *conf,
                             const struct tsr_primitive_desc *pd) {
    if (!shuffle_shape_init(sh, conf, pd))
        return 0;
    return sh->blk > 1 || (size_t)sh->points * sh->esize < 64;
}

static tsr_status_t gather_shuffle_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = shuffle_init_common(pd);
    if (st != tsr_success)
        return st;
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_shape_t sh;
    if (!gather_shape_init(&sh, &conf, pd))
        return tsr_unimplemented;
    pd->scratchpad_size = (size_t)(sh.blocks * sh.blk) * sizeof(int64_t);
    return tsr_success;
}

/* Writes output points [s0, s1) of outer index o, every channel. `src`
 * holds, per output channel (padded), the offset of its input channel's
 * first point (channel 0's for a padded lane, zeroed afterwards). Inlined
 * per element size so that each move is one load and store. */
static inline __attribute__((always_inline)) void
gather_tile(const char *in, char *out, size_t esize, const shuffle_shape_t *sh,
            const int64_t *src, tsr_dim_t o, tsr_dim_t s0, tsr_dim_t s1) {
    const tsr_dim_t blk = sh->blk, row = sh->points * blk;
    const size_t outer_bytes = (size_t)(sh->blocks * row) * esize;
    const char *in_o = in + (size_t)o * outer_bytes;
    char *out_o = out + (size_t)o * outer_bytes;
    if (row == 1) { /* channels-last: one gather of the channels */
        tsr_dim_t b = 0;
        if (esize == 4) {
            /* Four loads, one store: a store per element is what limits
             * this loop. */
            typedef uint32_t v4u __attribute__((vector_size(16)));
            const uint32_t *from = (const uint32_t *)in_o;
            for (; b + 4 <= sh->blocks; b += 4) {
                const v4u v = {from[src[b]], from[src[b + 1]],
                               from[src[b + 2]], from[src[b + 3]]};
                memcpy(out_o + (size_t)b * 4, &v, sizeof(v));
            }
        }
        for (; b < sh->blocks; b++)
            memcpy(out_o + (size_t)b * esize, in_o + (size_t)src[b] * esize,
                   esize);
        return;
    }
    for (tsr_dim_t ob = 0; ob < sh->blocks; ob++) {
        const int64_t *src_b = src + ob * blk;
        char *to = out_o + (size_t)(ob * row + s0 * blk) * esize;
        for (tsr_dim_t s = s0; s < s1; s++) {
            const char *from = in_o + (size_t)(s * blk) * esize;
            for (tsr_dim_t l = 0; l < blk; l++, to += esize)
                memcpy(to, from + (size_t)src_b[l] * esize, esize);
        }
    }
}

static void gather_tile_any(const char *in, char *out, size_t esize,
                            const shuffle_shape_t *sh, const int64_t *src,
                            tsr_dim_t o, tsr_dim_t s0, tsr_dim_t s1) {
    switch (esize) {
    case 1:
        gather_tile(in, out, 1, sh, src, o, s0, s1);
        break;
    case 2:
        gather_tile(in, out, 2, sh, src, o, s0, s1);
        break;
    case 4:
        gather_tile(in, out, 4, sh, src, o, s0, s1);
        break;
    default:
        gather_tile(in, out, esize, sh, src, o, s0, s1);
        break;
    }
}

static tsr_status_t gather_shuffle_execute(const struct tsr_primitive_desc *pd,
                                           const tsr_exec_ctx_t *ctx) {
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_shape_t sh;
    if (!gather_shape_init(&sh, &conf, pd))
        return tsr_runtime_error;
    const tsr_dim_t A = conf.axis_size, padded = sh.blocks * sh.blk;
    int64_t *src = ctx->scratchpad;
    for (tsr_dim_t b = 0; b < padded; b++) {
        const tsr_dim_t a = b < A ? shuffle_source(&conf, b) : 0;
        src[b] = (a / sh.blk) * sh.points * sh.blk + a % sh.blk;
    }
    const tsr_memory_desc_t *in_md = &pd->md[conf.in_slot];
    const tsr_memory_desc_t *out_md = &pd->md[conf.out_slot];
    const char *in = (const char *)tsr_ctx_data(ctx, conf.in_arg) +
                     (size_t)in_md->offset0 * sh.esize;
    char *out = (char *)tsr_ctx_data(ctx, conf.out_arg) +
                (size_t)out_md->offset0 * sh.esize;
    /* Work items: a tile of points of one outer index; with few points per
     * outer index (channels-last), several outer indices per item. */
    const size_t point_bytes = (size_t)padded * sh.esize;
    const tsr_dim_t tile = TSR_MAX(
            1, TSR_MIN(sh.points, (tsr_dim_t)(TILE_BYTES / point_bytes)));
    const tsr_dim_t tiles = tsr_div_up(sh.points, tile);
    const tsr_dim_t outer_per_item =
            tiles > 1 ? 1
                      : TSR_MAX(1, (tsr_dim_t)(TILE_BYTES /
                                               (point_bytes * sh.points)));
    const tsr_dim_t items = tsr_div_up(sh.outer, outer_per_item) * tiles;
    const int nthr = sh.outer * sh.points * padded < SHUFFLE_PARALLEL_MIN
                             ? 1
                             : omp_get_max_threads();
#pragma omp parallel for num_threads(nthr) schedule(static)
    for (tsr_dim_t item = 0; item < items; item++) {
        const tsr_dim_t o0 = item / tiles * outer_per_item;
        const tsr_dim_t s0 = item % tiles * tile;
        const tsr_dim_t s1 = TSR_MIN(sh.points, s0 + tile);
        const tsr_dim_t o1 = TSR_MIN(sh.outer, o0 + outer_per_item);
        for (tsr_dim_t o = o0; o < o1; o++)
            gather_tile_any(in, out, sh.esize, &sh, src, o, s0, s1);
    }
    md_zero_pad(out_md, tsr_ctx_data(ctx, conf.out_arg));
    return tsr_success;
}

const tsr_impl_t tsr_gather_shuffle_impl = {
        .name = "simple:gather",
        .isa = tsr_cpu_isa_generic,
        .init = gather_shuffle_init,
        .execute = gather_shuffle_execute,
        .fini = NULL,
};
