/* Shuffle as a permutation of contiguous rows. When input and output share
 * one dense layout and the axis is not blocked, the elements inside the
 * axis (the dims after it in the layout's order, and the inner blocks) are
 * one contiguous row per (outer index, axis index), and the shuffle moves
 * whole rows: row (o, q * g + r) of the input to row (o, r * A / g + q)
 * of the output. Threads split the (o, q) pairs into contiguous ranges. */
#include <omp.h>
#include <string.h>

#include "common/dense_layout.h"
#include "common/memory_desc.h"
#include "common/utils.h"
#include "shuffle.h"

typedef struct {
    tsr_dim_t outer; /* indices of the dims before the axis */
    size_t row_bytes;
} shuffle_rows_t;

/* The rows of the problem, or 0 when its layouts do not allow them. */
static int shuffle_rows_init(shuffle_rows_t *rows, const shuffle_conf_t *conf,
                             const struct tsr_primitive_desc *pd) {
    const tsr_memory_desc_t *in = &pd->md[conf->in_slot];
    const tsr_memory_desc_t *out = &pd->md[conf->out_slot];
    int order[TSR_MAX_NDIMS];
    md_outer_order(in, order);
    tsr_dim_t blocks[TSR_MAX_NDIMS];
    md_dim_blocks(in, blocks);
    if (!md_same_layout(in, out) || !md_is_dense_in_order(in, order) ||
        blocks[conf->axis] != 1)
        return 0;
    int axis_pos = 0;
    while (order[axis_pos] != conf->axis)
        axis_pos++;
    tsr_dim_t outer = 1, inner = md_inner_block_elems(in);
    for (int j = 0; j < in->ndims; j++) {
        if (j < axis_pos)
            outer *= md_outer_extent(in, order[j]);
        else if (j > axis_pos)
            inner *= md_outer_extent(in, order[j]);
    }
    rows->outer = outer;
    rows->row_bytes = (size_t)inner * tsr_data_type_size(in->data_type);
    return 1;
}

static tsr_status_t simple_shuffle_init(struct tsr_primitive_desc *pd) {
    tsr_status_t st = shuffle_init_common(pd);
    if (st != tsr_success)
        return st;
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_rows_t rows;
    return shuffle_rows_init(&rows, &conf, pd) ? tsr_success
                                               : tsr_unimplemented;
}

/* Moves the rows of pairs [begin, end): the input rows q * g .. q * g +
 * g - 1 of outer index o to output rows q, q + A / g, ... Inlined with a
 * constant row_bytes for short rows (a single element of channels-last
 * data), so that each move is one load and store. */
static inline void move_pairs(const char *in, char *out, size_t row_bytes,
                              tsr_dim_t A, tsr_dim_t g, tsr_dim_t begin,
                              tsr_dim_t end) {
    const tsr_dim_t per_group = A / g;
    tsr_dim_t o = begin / per_group, q = begin % per_group;
    /* Whole outer indices are walked output row by output row, so short
     * rows are stored contiguously. */
    for (tsr_dim_t pair = begin; pair < end;) {
        const char *from = in + (size_t)(o * A) * row_bytes;
        char *to = out + (size_t)(o * A) * row_bytes;
        if (q == 0 && end - pair >= per_group) {
            for (tsr_dim_t r = 0; r < g; r++)
                for (tsr_dim_t p = 0; p < per_group; p++)
                    memcpy(to + (size_t)(r * per_group + p) * row_bytes,
                           from + (size_t)(p * g + r) * row_bytes, row_bytes);
            pair += per_group;
        } else {
            for (tsr_dim_t r = 0; r < g; r++)
                memcpy(to + (size_t)(r * per_group + q) * row_bytes,
                       from + (size_t)(q * g + r) * row_bytes, row_bytes);
            pair++;
            if (++q < per_group)
                continue;
        }
        q = 0;
        o++;
    }
}

static void move_pairs_any(const char *in, char *out, size_t row_bytes,
                           tsr_dim_t A, tsr_dim_t g, tsr_dim_t begin,
                           tsr_dim_t end) {
    switch (row_bytes) {
    case 1:
        move_pairs(in, out, 1, A, g, begin, end);
        break;
    case 2:
        move_pairs(in, out, 2, A, g, begin, end);
        break;
    case 4:
        move_pairs(in, out, 4, A, g, begin, end);
        break;
    case 8:
        move_pairs(in, out, 8, A, g, begin, end);
        break;
    default:
        move_pairs(in, out, row_bytes, A, g, begin, end);
        break;
    }
}

static tsr_status_t simple_shuffle_execute(const struct tsr_primitive_desc *pd,
                                           const tsr_exec_ctx_t *ctx) {
    shuffle_conf_t conf;
    shuffle_conf_init(&conf, pd);
    shuffle_rows_t rows;
    if (!shuffle_rows_init(&rows, &conf, pd))
        return tsr_runtime_error;
    const tsr_memory_desc_t *in_md = &pd->md[conf.in_slot];
    const tsr_memory_desc_t *out_md = &pd->md[conf.out_slot];
    const size_t esize = tsr_data_type_size(in_md->data_type);
    const char *in = (const char *)tsr_ctx_data(ctx, conf.in_arg) +
                     (size_t)in_md->offset0 * esize;
    char *out = (char *)tsr_ctx_data(ctx, conf.out_arg) +
                (size_t)out_md->offset0 * esize;
    const tsr_dim_t A = conf.axis_size, g = conf.group;
    const size_t row_bytes = rows.row_bytes;
    const tsr_dim_t pairs = rows.outer * (A / g);
    const int nthr = (tsr_dim_t)(row_bytes / esize) * rows.outer * A <
                                     SHUFFLE_PARALLEL_MIN
                             ? 1
                             : omp_get_max_threads();
#pragma omp parallel num_threads(nthr)
    {
        const tsr_dim_t chunk = tsr_div_up(pairs, omp_get_num_threads());
        const tsr_dim_t begin = TSR_MIN(pairs, chunk * omp_get_thread_num());
        const tsr_dim_t end = TSR_MIN(pairs, begin + chunk);
        move_pairs_any(in, out, row_bytes, A, g, begin, end);
    }
    return tsr_success;
}

const tsr_impl_t tsr_simple_shuffle_impl = {
        .name = "simple:rows",
        .isa = tsr_cpu_isa_generic,
        .init = simple_shuffle_init,
        .execute = simple_shuffle_execute,
        .fini = NULL,
};
