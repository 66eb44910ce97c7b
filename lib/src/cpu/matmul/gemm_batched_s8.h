/* A batch of int8 GEMMs sharing one shape, with the fused f32 epilogue: the
 * engine under "gemm:s8" of both matmul and inner product. The plan and
 * its execution reuse gemm_batched_f32's (views, batch walk, threading,
 * tile store); this adds what int8 changes: u8/s8 sources, s8 weights, the
 * s32 accumulators converted to f32 per finished tile, and the source and
 * weights zero points folded into the exact s32 sums (the engine's column
 * offsets and a per-row term, see gemm_batched_s8.c). */
#ifndef TSR_CPU_MATMUL_GEMM_BATCHED_S8_H
#define TSR_CPU_MATMUL_GEMM_BATCHED_S8_H

#include "cpu/matmul/gemm_batched_f32.h"

/* acceptance and plan creation, for gemm_ip_init_with and
 * gemm_matmul_init_with: u8/s8 source, s8 weights, a data type combination
 * of op_data_types_ok, a common source zero point, common or per-N (per
 * OC) weights zero points. */
extern const gemm_batched_ops_t gemm_batched_s8_ops;

/* Runs every GEMM of the plan in pd->impl_data (freed by
 * gemm_batched_plan_destroy) through the epilogue `epilogue_init` sets
 * up. */
tsr_status_t gemm_batched_s8_execute(const struct tsr_primitive_desc *pd,
                                     const tsr_exec_ctx_t *ctx,
                                     tsr_epilogue_init_fn epilogue_init);

#endif
