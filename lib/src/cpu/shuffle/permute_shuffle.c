/* Shuffle by vector permutes, for the layouts of shuffle_shape_t where the
 * channels of a point are short and scattered: a blocked axis (nChw16c,
 * nChw8c; a vector per block) and channels-last data (the channels of a
 * point cut into vectors). Output vector v of a point takes its channels
 * from a few input vectors of the same point (at most PERMUTE_MAX_ENTRIES,
 * else simple:gather runs); a table built per execution lists them with
 * the permute controls, so the kernel moves whole vectors.
 * Lanes outside the channels (a blocked layout's padding) come out zero.
 * Work items are tiles of points of one outer index, or runs of outer
 * indices for channels-last data; threads take contiguous ranges. */
#include <omp.h>
#include <string.h>

#include "common/utils.h"
#include "permute_shuffle.h"

/* Channels of the shuffled axis at most: the tables and init's scan of
 * them grow with the axis, meant for channel vectors of real models. */
enum { PERMUTE_MAX_AXIS = 1 << 16 };
/* Output bytes per work item: the input it reads stays in L2. */
enum { TILE_BYTES = 1 << 16 };
/* Outputs this large do not stay in the last-level cache. */
#define PERMUTE_STREAM_MIN_BYTES ((size_t)32 << 20)

/* Lanes per vector for the shape; 0 when the kernel has no vector of
 * that size. A blocked axis uses its block. */
static tsr_dim_t permute_lanes(const shuffle_shape_t *sh) {
    /* Channels-last 4-byte data moves faster through simple:gather's
     * packed stores: the permutes of 16-lane vectors cost more there. */
    if (sh->blk == 1)
        return sh->points == 1 && sh->esize < 4
                       ? (sh->esize == 1 ? 16 : 64 / (tsr_dim_t)sh->esize)
                       : 0;
    const tsr_dim_t bytes = sh->blk * (tsr_dim_t)sh->esize;
    const int ok = sh->esize == 1 ? bytes <= 16 : bytes <= 64;
    return ok && bytes >= 8 && sh->esize <= 4 ? sh->blk : 0;
}

static int permute_shape(shuffle_shape_t *sh, tsr_dim_t *lanes,
                         const shuffle_conf_t *conf,
                         const struct tsr_primitive_desc *pd) {
    if (!shuffle_shape_init(sh, conf, pd))
        return 0;
    *lanes = permute_lanes(sh);
    return *lanes != 0;
}

/* Output vectors per point. */
static tsr_dim_t permute_nvec(const shuffle_shape_t *sh, tsr_dim_t lanes) {
    return sh->blk == 1 ? tsr_div_up(sh->blocks, lanes) : sh->blocks;
}

static size_t permute_table_bytes(const shuffle_shape_t *sh, tsr_dim_t lanes) {
    const size_t nvec = (size_t)permute_nvec(sh, lanes);
    return nvec * PERMUTE_MAX_ENTRIES * sizeof(permute_entry_t) +
           nvec * sizeof(permute_vector_t) + 64;
}

/* The most input vectors one output vector reads. */
static tsr_dim_t permute_max_inputs(const shuffle_conf_t *conf,
                                    const shuffle_shape_t *sh,
                                    tsr_dim_t lanes) {
    const tsr_dim_t A = conf->axis_size, nvec = permute_nvec(sh, lanes);
    tsr_dim_t most = 0;
    for (tsr_dim_t v = 0; v < nvec; v++) {
        tsr_dim_t inputs[64], n = 0;
        for (tsr_dim_t l = 0; l < lanes && v * lanes + l < A; l++) {
            const tsr_dim_t j = shuffle_source(conf, v * lanes + l) / lanes;
            tsr_dim_t k = 0;
            while (k < n && inputs[k] != j)
                k++;
            if (k == n)
                inputs[n++] = j;
        }
        most = TSR_MAX(most, n);
    }
    return most;
}

static tsr_status_t permute_shuffle_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = shuffle_init_common(pd);
    if (st != tsr_success)
        return st;
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_shape_t sh;
    tsr_dim_t lanes;
    if (conf.axis_size > PERMUTE_MAX_AXIS ||
        !permute_shape(&sh, &lanes, &conf, pd) ||
        permute_max_inputs(&conf, &sh, lanes) > PERMUTE_MAX_ENTRIES)
        return tsr_unimplemented;
    pd->scratchpad_size = permute_table_bytes(&sh, lanes);
    return tsr_success;
}

/* Sets lane l of an entry's control to input lane `from`. */
static void set_control(permute_entry_t *e, size_t esize, tsr_dim_t l,
                        tsr_dim_t from) {
    switch (esize) {
    case 4: {
        const uint32_t v = (uint32_t)from;
        memcpy(e->idx + 4 * l, &v, 4);
        break;
    }
    case 2: {
        const uint16_t v = (uint16_t)from;
        memcpy(e->idx + 2 * l, &v, 2);
        break;
    }
    default:
        e->idx[l] = (uint8_t)from;
        break;
    }
}

static uint64_t low_lanes(tsr_dim_t n) {
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* The entries of every output vector. */
static void build_table(permute_plan_t *p, const shuffle_conf_t *conf,
                        const shuffle_shape_t *sh, void *scratchpad) {
    const tsr_dim_t A = conf->axis_size, V = p->lanes;
    const int plain = sh->blk == 1;
    char *base = (char *)(((uintptr_t)scratchpad + 63) / 64 * 64);
    permute_entry_t *entries = (permute_entry_t *)base;
    permute_vector_t *vectors =
            (permute_vector_t *)(entries + p->nvec * PERMUTE_MAX_ENTRIES);
    int64_t n = 0;
    for (tsr_dim_t v = 0; v < p->nvec; v++) {
        vectors[v].first = n;
        vectors[v].store =
                plain ? low_lanes(TSR_MIN(V, A - v * V)) : low_lanes(V);
        for (tsr_dim_t l = 0; l < V && v * V + l < A; l++) {
            const tsr_dim_t a = shuffle_source(conf, v * V + l);
            const tsr_dim_t j = a / V;
            int64_t e = vectors[v].first;
            while (e < n && entries[e].in_off != j * p->vec_stride)
                e++;
            if (e == n) {
                memset(&entries[n], 0, sizeof(entries[n]));
                entries[n].in_off = j * p->vec_stride;
                entries[n].load =
                        plain ? low_lanes(TSR_MIN(V, A - j * V)) : low_lanes(V);
                n++;
            }
            entries[e].take |= (uint64_t)1 << l;
            set_control(&entries[e], p->esize, l, a % V);
        }
        vectors[v].count = n - vectors[v].first;
    }
    p->entries = entries;
    p->vectors = vectors;
}

static tsr_status_t permute_shuffle_execute(const struct tsr_primitive_desc *pd,
                                            const tsr_exec_ctx_t *ctx) {
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_shape_t sh;
    tsr_dim_t lanes;
    if (!permute_shape(&sh, &lanes, &conf, pd) || !ctx->scratchpad)
        return tsr_runtime_error;
    const tsr_memory_desc_t *in_md = &pd->md[conf.in_slot];
    const tsr_memory_desc_t *out_md = &pd->md[conf.out_slot];
    permute_plan_t p = {.esize = sh.esize, .lanes = lanes};
    p.nvec = permute_nvec(&sh, lanes);
    p.vec_stride = sh.blk == 1 ? lanes : sh.points * lanes;
    p.outer_stride = sh.blocks * sh.points * sh.blk;
    /* Only whole 64-byte vectors: the kernel writes a vector per row at a
     * time, and partial lines would leave the write-combining buffers
     * half full. */
    p.stream = lanes * (tsr_dim_t)sh.esize == 64 &&
               tsr_memory_desc_get_size(out_md) >= PERMUTE_STREAM_MIN_BYTES;
    build_table(&p, &conf, &sh, ctx->scratchpad);

    const size_t point_bytes = (size_t)(p.nvec * lanes) * sh.esize;
    p.outer = sh.outer;
    p.points = sh.points;
    p.tile = TSR_MAX(1,
                     TSR_MIN(sh.points, (tsr_dim_t)(TILE_BYTES / point_bytes)));
    p.tiles = tsr_div_up(sh.points, p.tile);
    p.outer_per_item =
            p.tiles > 1 ? 1
                        : TSR_MAX(1, (tsr_dim_t)(TILE_BYTES /
                                                 (point_bytes * sh.points)));
    const tsr_dim_t items = tsr_div_up(sh.outer, p.outer_per_item) * p.tiles;
    const char *in = (const char *)tsr_ctx_data(ctx, conf.in_arg) +
                     (size_t)in_md->offset0 * sh.esize;
    char *out = (char *)tsr_ctx_data(ctx, conf.out_arg) +
                (size_t)out_md->offset0 * sh.esize;
    const int parallel =
            sh.outer * sh.points * p.nvec * lanes >= SHUFFLE_PARALLEL_MIN;
#pragma omp parallel if (parallel)
    {
        const tsr_dim_t nthr = omp_get_num_threads();
        const tsr_dim_t ithr = omp_get_thread_num();
        permute_items_avx512(&p, in, out, items * ithr / nthr,
                             items * (ithr + 1) / nthr);
    }
    return tsr_success;
}

const tsr_impl_t tsr_permute_shuffle_impl = {
        .name = "simple:permute",
        .isa = tsr_cpu_isa_avx512_core,
        .init = permute_shuffle_init,
        .execute = permute_shuffle_execute,
        .fini = NULL,
};
