/* A batch of f32 GEMMs sharing one shape, with the fused epilogue: the
 * engine under "gemm:f32" of both matmul and inner product (an inner
 * product is one GEMM: MB x K times K x OC).
 *
 * Each GEMM computes the dst matrix (b.., 0..M-1, 0..N-1) of a dst whose
 * last dim is the channel; rows of the GEMM are the dst's second-to-last
 * dim. The plan is made at pd init (it decides acceptance and the
 * scratchpad) and used read-only at execution. */
#ifndef TSR_CPU_MATMUL_GEMM_BATCHED_F32_H
#define TSR_CPU_MATMUL_GEMM_BATCHED_F32_H

#include <stddef.h>
#include <stdint.h>

#include "common/primitive.h"
#include "cpu/common/epilogue_f32.h"

/* How a GEMM reads an operand of `rows` x `cols` whose element (i, j) is at
 * i * stride_r + j * stride_c: as stored (trans 0, leading dim ld) or
 * transposed. Returns 0 when neither form describes it. */
int gemm_matrix_view(int64_t rows, int64_t cols, int64_t stride_r,
                     int64_t stride_c, int *trans, int64_t *ld);

typedef struct {
    int64_t M, N, K;
    int transa, transb;
    int64_t lda, ldb;
    /* Batch: dst batch dims and each operand's element step per batch
     * index (0 where it broadcasts). nbatch_dims is dst ndims - 2. */
    int nbatch_dims;
    int64_t batch, batch_dims[TSR_MAX_NDIMS];
    int64_t a_bstep[TSR_MAX_NDIMS], b_bstep[TSR_MAX_NDIMS];
    int64_t a_off0, b_off0; /* element offsets of the operands' origin */
    /* > 0: B is the weights laid out as the f32 GEMM's packed panels of
     * this width (tsr_gemm_f32_prepacked_nr), read in place; transb and
     * ldb unused. Set by the caller in the shape. */
    int b_panels_nr;
    /* C is dst itself (f32, unit stride along N, no old values read), with
     * leading dim ldc; otherwise C is a scratch matrix and the epilogue
     * stores into dst. */
    int c_is_dst;
    int64_t ldc;
    /* Bias fused by the GEMM itself (f32, dense along N, no other
     * attribute); otherwise the epilogue applies it. */
    int gemm_bias;
    int with_epilogue;
    int nthr;
    size_t thr_gemm_scratch, c_buf_bytes;
    /* GEMMs run one per thread (batch >= threads) or one after another,
     * each over all threads. */
    int batch_parallel;
} gemm_batched_plan_t;

/* What a "gemm:f32" primitive accepts before looking at layouts: f32
 * source and weights, a data type combination of op_data_types_ok, no
 * source or weights zero points. */
int gemm_batched_accepts(const struct tsr_primitive_desc *pd, int with_bias);

/* Makes pd->impl_data the plan of `shape` (M, N, K and the batch fields
 * set by the caller) whose A (M x K) has element strides a_sm, a_sk and B
 * (K x N) b_sk, b_sn from the src and weights origins in pd->md[] (all
 * resolved); decides C, bias and epilogue and books pd->scratchpad_size.
 * `ep` is the initialized epilogue. tsr_unimplemented when a GEMM cannot
 * read an operand. */
tsr_status_t gemm_batched_plan_create(struct tsr_primitive_desc *pd,
                                      const tsr_epilogue_t *ep,
                                      const gemm_batched_plan_t *shape,
                                      int64_t a_sm, int64_t a_sk, int64_t b_sk,
                                      int64_t b_sn);

/* Frees the plan: the primitives' fini. */
void gemm_batched_plan_destroy(struct tsr_primitive_desc *pd);

/* Runs every GEMM of the plan in pd->impl_data on the arguments in ctx,
 * through the epilogue `epilogue_init` sets up. */
tsr_status_t gemm_batched_execute(const struct tsr_primitive_desc *pd,
                                  const tsr_exec_ctx_t *ctx,
                                  tsr_epilogue_init_fn epilogue_init);

/* The data-type specific half of a GEMM-based inner product or matmul:
 * acceptance, and the plan once layouts and operand strides are known (as
 * gemm_batched_accepts and gemm_batched_plan_create). The layout half,
 * shared by every data type, is gemm_ip_init_with / gemm_matmul_init_with
 * (gemm_inner_product_f32.c, gemm_matmul_f32.c). */
typedef struct {
    int (*accepts)(const struct tsr_primitive_desc *pd, int with_bias);
    tsr_status_t (*plan_create)(struct tsr_primitive_desc *pd,
                                const tsr_epilogue_t *ep,
                                const gemm_batched_plan_t *shape, int64_t a_sm,
                                int64_t a_sk, int64_t b_sk, int64_t b_sn);
    /* The width of the packed B panels this data type's GEMM reads in
     * place (an inner product's "any" weights are laid out so); NULL when
     * it reads none. */
    int (*panels_nr)(void);
} gemm_batched_ops_t;

/* The f32 half: gemm_batched_accepts and gemm_batched_plan_create. */
extern const gemm_batched_ops_t gemm_batched_f32_ops;

tsr_status_t gemm_ip_init_with(struct tsr_primitive_desc *pd,
                               const gemm_batched_ops_t *ops);
tsr_status_t gemm_matmul_init_with(struct tsr_primitive_desc *pd,
                                   const gemm_batched_ops_t *ops);

/* Pieces of the plan and its execution other batched GEMMs (int8) reuse. */

/* Sets the operand origins and GEMM views (trans, ld) of `plan` from the
 * element strides (B's unless b_panels_nr); 0 when a GEMM cannot read an
 * operand. */
int gemm_batched_plan_views(const struct tsr_primitive_desc *pd,
                            gemm_batched_plan_t *plan, int64_t a_sm,
                            int64_t a_sk, int64_t b_sk, int64_t b_sn);

/* Sets nthr and batch_parallel, rounds the per-thread thr_gemm_scratch
 * and c_buf_bytes (set by the caller, SIZE_MAX for a size that overflows)
 * to 64 bytes and books pd->scratchpad_size for them; 0 (nothing booked)
 * when the total overflows. */
int gemm_batched_plan_book(struct tsr_primitive_desc *pd,
                           gemm_batched_plan_t *plan);

/* What a GEMM's epilogue callback needs for one GEMM of the batch. */
typedef struct {
    const tsr_epilogue_t *ep;
    const tsr_epilogue_rt_t *rt;
    const tsr_memory_desc_t *dst_md;
    void *dst;
    tsr_dim_t pos[TSR_MAX_NDIMS]; /* batch coordinates */
    /* 1: the epilogue is uniform along M and dst is plain, so a tile's
     * rows go to the epilogue in one call (gemm_batched_rows_uniform). */
    int rows_uniform;
} gemm_batched_tile_t;

/* The rows_uniform of a tile of this epilogue and dst. */
int gemm_batched_rows_uniform(const tsr_epilogue_t *ep,
                              const tsr_memory_desc_t *dst_md);

/* The dst coordinates of element (m, n) of the tile's GEMM. */
void gemm_batched_tile_pos(const gemm_batched_tile_t *t, int64_t m, int64_t n,
                           tsr_dim_t *pos);

/* The epilogue on one finished f32 tile of C (m x n at row m0, column n0
 * of the GEMM, row stride ldc), stored into dst; c is work space. */
void gemm_batched_store_tile(const gemm_batched_tile_t *t, float *c,
                             int64_t ldc, int64_t m0, int64_t n0, int64_t m,
                             int64_t n);

/* Runs GEMM `b` of the batch: scratch (gemm_scratch_size bytes) for the
 * GEMM engine, c_buf (the plan's c_buf_bytes) private to this GEMM, team
 * as the engine's team_nthr (1: one thread runs the whole GEMM, 0: the
 * GEMM spreads over all threads itself). */
typedef tsr_status_t (*gemm_batched_one_fn)(const void *arg, int64_t b,
                                            void *gemm_scratch,
                                            size_t gemm_scratch_size,
                                            void *c_buf, int team);

/* Every GEMM of the batch, one per thread or one after another, with the
 * scratchpad cut as gemm_batched_plan_book booked it. */
tsr_status_t gemm_batched_run(const gemm_batched_plan_t *plan, void *scratchpad,
                              gemm_batched_one_fn one, const void *arg);

/* Batch coordinates of GEMM `b` (dense index over the dst batch dims) into
 * pos[0..nbatch_dims), and its operands' element offsets. */
void gemm_batched_locate(const gemm_batched_plan_t *plan, int64_t b,
                         tsr_dim_t *pos, int64_t *a_off, int64_t *b_off);

#endif
