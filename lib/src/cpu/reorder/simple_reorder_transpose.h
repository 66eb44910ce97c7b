/* The transposing reorder's plan (simple_reorder_transpose.c) and its
 * AVX-512 kernel (simple_reorder_transpose_avx512.c). */
#ifndef TSR_CPU_REORDER_SIMPLE_REORDER_TRANSPOSE_H
#define TSR_CPU_REORDER_SIMPLE_REORDER_TRANSPOSE_H

#include "reorder_common.h"

/* Bytes of a source row or destination column moved per chunk at most,
 * and of a chunk's staging buffer. */
enum { TRANSPOSE_RUN_BYTES = 256, TRANSPOSE_STAGE_BYTES = 16384 };

/* The problem as a batch of matrix transposes: element (r, c) of a matrix
 * sits at r * src_row_stride + c in the source (its rows contiguous) and
 * at r + c * dst_col_stride in the destination (its columns contiguous).
 * The batch dims are ordered from the source's outermost. */
typedef struct {
    tsr_dim_t rows, cols;
    tsr_dim_t src_row_stride, dst_col_stride;
    int nbatch;
    tsr_dim_t batch_extent[2 * TSR_MAX_NDIMS];
    tsr_dim_t batch_src_stride[2 * TSR_MAX_NDIMS];
    tsr_dim_t batch_dst_stride[2 * TSR_MAX_NDIMS];
    /* Work items: chunks of chunk_rows x chunk_cols (multiples of 16),
     * whole cache lines on both sides. */
    tsr_dim_t chunk_rows, chunk_cols;
    tsr_dim_t row_chunks, col_chunks, items;
} transpose_plan_t;

/* What the kernel applies to each element: dst = alpha * (src - src_zp)
 * (+ dst_zp when has_dst_zp), converted with round_mode; nothing for a
 * bit-exact move. */
typedef struct {
    tsr_data_type_t src_dt, dst_dt;
    int move_only, has_dst_zp;
    float alpha, src_zp, dst_zp;
    tsr_round_mode_t round_mode;
    int stream; /* non-temporal stores for whole destination lines */
} transpose_op_t;

/* Runs work items [begin, end) of the plan. AVX-512 machines only. */
void transpose_items_avx512(const transpose_plan_t *plan,
                            const transpose_op_t *op, const char *src,
                            char *dst, tsr_dim_t begin, tsr_dim_t end);

#endif
