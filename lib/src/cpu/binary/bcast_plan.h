/* A walk over a dense tensor (binary's src0 and dst, PReLU's src and dst:
 * one layout) together with a broadcast operand (binary's src1, PReLU's
 * weights) whose element offset is an affine function of the tensor's
 * physical position: an operand of the tensor's own layout and dims, or a
 * plain (unblocked, any strides) one broadcast along any dims.
 *
 * The tensor's physical dims (outer dims by stride, then inner blocks) are
 * cut, from the innermost, into a run of `len` elements contiguous in the
 * tensor along which the operand is either contiguous too or constant,
 * `nrows` rows of runs (tensor rows `ld` elements apart, operand rows
 * `op_ld` apart), and outer points. Where a blocked dim is padded and the
 * operand varies along it, the run is that block and its points in the
 * padding are skipped (the operand has no element there); otherwise the
 * padding is computed like the rest, and the caller zeroes it after. */
#ifndef TSR_CPU_BINARY_BCAST_PLAN_H
#define TSR_CPU_BINARY_BCAST_PLAN_H

#include "common/primitive.h"

#define BCAST_MAX_PDIMS (2 * TSR_MAX_NDIMS)

/* 1 when both descriptors have the same rank and dims. */
static inline int bcast_same_dims(const tsr_memory_desc_t *a,
                                  const tsr_memory_desc_t *b) {
    if (a->ndims != b->ndims)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (a->dims[d] != b->dims[d])
            return 0;
    return 1;
}

typedef struct {
    tsr_dim_t len;
    int op_bcast; /* operand constant along a run, else contiguous */
    tsr_dim_t nrows, ld, op_ld;
    int nouter;
    tsr_dim_t outer_size[BCAST_MAX_PDIMS];
    tsr_dim_t outer_stride[BCAST_MAX_PDIMS], outer_op_stride[BCAST_MAX_PDIMS];
    /* Points of a run inside the logical tensor: min(len, valid_end -
     * len * index of outer dim tail_outer), or valid_end itself when
     * tail_outer is -1. */
    int tail_outer;
    tsr_dim_t valid_end;
    tsr_dim_t n_outer, total; /* total = n_outer * nrows * len */
} bcast_plan_t;

/* 0 when `data` is not dense or `op` has no affine offset (then the
 * reference does the job). Offsets exclude offset0. */
int bcast_plan_init(bcast_plan_t *p, const tsr_memory_desc_t *data,
                    const tsr_memory_desc_t *op);

/* Called for `rows` rows of n points from tensor element data_off and
 * operand element op_off (further rows ld and op_ld on). */
typedef void (*bcast_rows_fn)(void *ctx, tsr_dim_t data_off, tsr_dim_t op_off,
                              tsr_dim_t rows, tsr_dim_t n);

/* Calls fn over the whole tensor, split among the threads into equal
 * ranges of positions (a multiple of 64 elements each). */
void bcast_plan_run(const bcast_plan_t *p, bcast_rows_fn fn, void *ctx);

/* The same walk cut into `nchunks` fixed ranges (a multiple of 64
 * positions each, the last shorter), each walked whole by one thread and
 * in the same calls whatever the thread count, so what a caller reduces
 * per chunk does not depend on it. fn also gets the chunk's index. */
typedef void (*bcast_chunk_rows_fn)(void *ctx, tsr_dim_t chunk,
                                    tsr_dim_t data_off, tsr_dim_t op_off,
                                    tsr_dim_t rows, tsr_dim_t n);
void bcast_plan_run_chunks(const bcast_plan_t *p, tsr_dim_t nchunks,
                           bcast_chunk_rows_fn fn, void *ctx);

#endif
