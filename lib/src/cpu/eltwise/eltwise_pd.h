/* What the eltwise implementations share: the checks every one makes, the
 * choice of layouts for "any", the post-ops, and the f32 kernels over
 * contiguous runs (one set per ISA). */
#ifndef TSR_CPU_ELTWISE_ELTWISE_PD_H
#define TSR_CPU_ELTWISE_ELTWISE_PD_H

#include <stdint.h>

#include "common/attr.h"
#include "common/primitive.h"

static inline const tsr_eltwise_desc_t *
eltwise_desc(const struct tsr_primitive_desc *pd) {
    return &pd->op.eltwise;
}
static inline int eltwise_is_fwd(const struct tsr_primitive_desc *pd) {
    return tsr_prop_kind_is_forward(eltwise_desc(pd)->prop_kind);
}
/* The slot of the data tensor backward reads: DST for *_use_dst_for_bwd. */
static inline int eltwise_bwd_data_slot(const struct tsr_primitive_desc *pd) {
    return tsr_eltwise_bwd_uses_dst(eltwise_desc(pd)->alg_kind) ? TSR_MD_DST
                                                                : TSR_MD_SRC;
}

/* The problem as the kernels take it: forward with the forward algorithm
 * (the *_use_dst_for_bwd ones mapped), backward with the algorithm as
 * given; alpha and beta resolved (tsr_eltwise_resolve_params). */
typedef struct {
    tsr_alg_kind_t alg;
    float alpha, beta;
} eltwise_op_t;

void eltwise_op_init(eltwise_op_t *op, tsr_alg_kind_t alg, float alpha,
                     float beta, int forward);

/* Data types, algorithm and attributes any implementation can run; then
 * "any" resolved to the layout of src (forward) or diff_dst (backward). */
tsr_status_t eltwise_init_common(struct tsr_primitive_desc *pd);

/* The post-ops' runtime operands. */
typedef struct {
    const void *bin_src1[TSR_MAX_POST_OPS];
} eltwise_post_ops_rt_t;

/* Fetches the binary post-ops' src1; tsr_invalid_arguments when one is
 * missing. */
tsr_status_t eltwise_post_ops_resolve(const struct tsr_primitive_desc *pd,
                                      const tsr_exec_ctx_t *ctx,
                                      eltwise_post_ops_rt_t *rt);

/* Kernels on n contiguous f32 values (any n; dst may be src, diff_src may
 * be diff_dst or data). */
typedef void (*eltwise_fwd_f32_fn)(const eltwise_op_t *op, float *dst,
                                   const float *src, int64_t n);
typedef void (*eltwise_bwd_f32_fn)(const eltwise_op_t *op, float *diff_src,
                                   const float *diff_dst, const float *data,
                                   int64_t n);

void tsr_eltwise_fwd_f32_generic(const eltwise_op_t *op, float *dst,
                                 const float *src, int64_t n);
void tsr_eltwise_bwd_f32_generic(const eltwise_op_t *op, float *diff_src,
                                 const float *diff_dst, const float *data,
                                 int64_t n);
/* The same writing dst with non-temporal stores: for tensors far larger
 * than the caches, whose lines would only be evicted before reuse. */
void tsr_eltwise_fwd_f32_nt_avx2(const eltwise_op_t *op, float *dst,
                                 const float *src, int64_t n);
void tsr_eltwise_fwd_f32_nt_avx512(const eltwise_op_t *op, float *dst,
                                   const float *src, int64_t n);
void tsr_eltwise_fwd_f32_avx2(const eltwise_op_t *op, float *dst,
                              const float *src, int64_t n);
void tsr_eltwise_bwd_f32_avx2(const eltwise_op_t *op, float *diff_src,
                              const float *diff_dst, const float *data,
                              int64_t n);
void tsr_eltwise_fwd_f32_avx512(const eltwise_op_t *op, float *dst,
                                const float *src, int64_t n);
void tsr_eltwise_bwd_f32_avx512(const eltwise_op_t *op, float *diff_src,
                                const float *diff_dst, const float *data,
                                int64_t n);

/* Forward on n contiguous values of an integer type dt (s8, u8, s32), dst
 * of the same type, rounded to nearest even and saturated; returns 0 (and
 * writes nothing) for an algorithm without an integer kernel. */
typedef int (*eltwise_fwd_int_fn)(const eltwise_op_t *op, tsr_data_type_t dt,
                                  void *dst, const void *src, int64_t n);
int tsr_eltwise_fwd_int_avx2(const eltwise_op_t *op, tsr_data_type_t dt,
                             void *dst, const void *src, int64_t n);
int tsr_eltwise_fwd_int_avx512(const eltwise_op_t *op, tsr_data_type_t dt,
                               void *dst, const void *src, int64_t n);

extern const tsr_impl_t tsr_ref_eltwise_fwd_impl, tsr_ref_eltwise_bwd_impl;
extern const tsr_impl_t tsr_dense_eltwise_fwd_avx512_impl,
        tsr_dense_eltwise_fwd_avx2_impl, tsr_dense_eltwise_fwd_generic_impl;
extern const tsr_impl_t tsr_dense_eltwise_bwd_avx512_impl,
        tsr_dense_eltwise_bwd_avx2_impl, tsr_dense_eltwise_bwd_generic_impl;

#endif
