/* Row kernels of the dense binary and PReLU forward paths:
 *   dst[r][i] = op(scale0 * src0[r][i], scale1 * src1[r][i or 0])
 * over `rows` rows of n elements, src0 and dst rows `ld` elements apart,
 * src1 rows `src1_ld` apart, src1 either contiguous along a row or one
 * value per row (src1_bcast). Each element is loaded as f32, computed in
 * f32 and stored rounded (integer dst, per the round mode) and saturated,
 * giving exactly the bits of the scalar formula (binary_kernel_op) with
 * tsr_load_f32 / tsr_store_f32. The op is a binary algorithm, or
 * tsr_eltwise_relu for PReLU (src1 the weights: a > 0 ? a : w * a). */
#ifndef TSR_CPU_BINARY_BINARY_KERNEL_H
#define TSR_CPU_BINARY_BINARY_KERNEL_H

#include <stdint.h>

#include "common/attr.h"
#include "cpu/binary/bcast_plan.h"

typedef struct {
    tsr_alg_kind_t op;
    tsr_data_type_t src0_dt, src1_dt, dst_dt;
    float scale0, scale1;
    tsr_round_mode_t round_mode;
    /* Non-temporal stores: for tensors far beyond the caches. */
    int nt_store;
    int64_t ld, src1_ld;
    int src1_bcast;
} binary_kernel_t;

static inline float binary_kernel_prelu(float a, float w) {
    return a > 0.f ? a : w * a;
}

/* The scalar formula every kernel reproduces. */
static inline float binary_kernel_op(tsr_alg_kind_t op, float a, float b) {
    return op == tsr_eltwise_relu ? binary_kernel_prelu(a, b)
                                  : tsr_binary_fwd(op, a, b);
}

typedef void (*binary_kernel_fn)(const binary_kernel_t *k, const void *src0,
                                 const void *src1, void *dst, int64_t rows,
                                 int64_t n);

/* Portable C: every data type. */
void binary_kernel_rows_c(const binary_kernel_t *k, const void *src0,
                          const void *src1, void *dst, int64_t rows, int64_t n);
/* f32, bf16, s32, s8 and u8 only (binary_kernel_vec_dt_ok); only called
 * when the CPU has the ISA. */
void binary_kernel_rows_avx2(const binary_kernel_t *k, const void *src0,
                             const void *src1, void *dst, int64_t rows,
                             int64_t n);
void binary_kernel_rows_avx512(const binary_kernel_t *k, const void *src0,
                               const void *src1, void *dst, int64_t rows,
                               int64_t n);

/* fn over the whole walk of `plan` with k (its ld, src1_ld and src1_bcast
 * taken from the plan), from the tensors' first elements (offset0
 * applied). */
void binary_kernel_run_plan(const bcast_plan_t *plan, binary_kernel_fn fn,
                            const binary_kernel_t *k, const void *src0,
                            const void *src1, void *dst);

static inline int binary_kernel_vec_dt_ok(tsr_data_type_t dt) {
    return dt == tsr_f32 || dt == tsr_bf16 || dt == tsr_s32 || dt == tsr_s8 ||
           dt == tsr_u8;
}

#endif
