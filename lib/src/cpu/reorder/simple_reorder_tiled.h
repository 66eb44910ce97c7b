/* The tiled reorder's plan, built once per primitive descriptor
 * (simple_reorder_tiled_plan.c) and walked at execution
 * (simple_reorder_tiled.c), and its ISA kernels. */
#ifndef TSR_CPU_REORDER_SIMPLE_REORDER_TILED_H
#define TSR_CPU_REORDER_SIMPLE_REORDER_TILED_H

#include "reorder_common.h"

/* f32 staging per work item; it also bounds the tile size. */
enum { TILED_BUF = 4096 };
/* The longest run of a plain X's innermost dim taken as a tile. */
enum { TILED_PLAIN_TILE = 64 };
/* Rows shorter than this walk a scattered A tile through its table. */
enum { TILED_SHORT_ROW = 8 };
/* Tiles up to this size get per-element scale and zero-point values
 * looked up once per work item. */
enum { TILED_MAX_COLUMNS = 1024 };

typedef struct {
    int x_is_dst; /* X is the destination (A the source), or the reverse */
    int x_blocked;
    int ndims;
    tsr_dim_t dims[TSR_MAX_NDIMS];
    tsr_dim_t x_offset0;
    /* A's offsets: per work item from its descriptor, inside a work item
     * from the tile table and the row step. */
    tsr_memory_desc_t a_md;

    /* The tile: tile_size elements, x_tile_stride apart in X. */
    tsr_dim_t tile_size, x_tile_stride;
    int a_tile_contiguous; /* a_tile_off[i] == i */
    tsr_dim_t *a_tile_off; /* [tile_size] */
    tsr_dim_t *tile_pos;   /* [tile_size][ndims]: logical offsets */
    tsr_dim_t tile_max[TSR_MAX_NDIMS];
    /* Per quantity: value-index offset of each tile element, and the
     * value-index step of one unit of each logical dim. */
    tsr_dim_t *tile_qidx[REORDER_NQ]; /* [tile_size] each */
    tsr_dim_t q_step[REORDER_NQ][TSR_MAX_NDIMS];

    /* Outer dims, ordered from the source's outermost; `row` is the one tiles
     * are lined up along, the others are iterated over. */
    int nouter;
    int dim[TSR_MAX_NDIMS];
    tsr_dim_t extent[TSR_MAX_NDIMS], x_stride[TSR_MAX_NDIMS],
            a_stride[TSR_MAX_NDIMS], mult[TSR_MAX_NDIMS];
    int row;
    tsr_dim_t row_chunk; /* tiles per work item along the row */
    int use_avx2;        /* the AVX2 transposes may run */
} tiled_plan_t;

/* Plans the reorder of pd->md[]; tsr_unimplemented when the layouts are not
 * for this implementation. The plan is one allocation (free()). */
tsr_status_t tiled_plan_create(const struct tsr_primitive_desc *pd,
                               tiled_plan_t **plan);

/* Transposes of 4-byte elements between a set of rows (`t` rows of `n`
 * consecutive elements at offsets row_off[i]) and a matrix of `n` rows of
 * `t` consecutive elements, `mat_stride` apart:
 *   gather:  mat[w * mat_stride + i] = rows[row_off[i] + w]
 *   scatter: rows[row_off[i] + w] = mat[w * mat_stride + i]
 * for i < t, w < n. AVX2 machines only. */
void tiled_gather_transpose4_avx2(const void *rows, const tsr_dim_t *row_off,
                                  void *mat, tsr_dim_t mat_stride, tsr_dim_t t,
                                  tsr_dim_t n);
void tiled_scatter_transpose4_avx2(const void *mat, tsr_dim_t mat_stride,
                                   void *rows, const tsr_dim_t *row_off,
                                   tsr_dim_t t, tsr_dim_t n);

#endif
