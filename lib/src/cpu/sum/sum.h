/* Sum implementations and what they share. */
#ifndef TSR_CPU_SUM_SUM_H
#define TSR_CPU_SUM_SUM_H

#include <stdint.h>

#include "common/primitive.h"

extern const tsr_impl_t tsr_ref_sum_impl;
extern const tsr_impl_t tsr_simple_sum_dense_impl;
extern const tsr_impl_t tsr_sum_f32_avx2_impl;
extern const tsr_impl_t tsr_sum_f32_avx512_impl;

/* Below this many elements one thread does the whole sum. */
enum { SUM_PARALLEL_MIN = 1 << 15 };

/* The checks and choices every sum implementation makes first: default
 * attributes (scratchpad mode aside), dst "any" resolved to source 0's
 * layout. */
tsr_status_t sum_init_common(struct tsr_primitive_desc *pd);

/* 1 when every source and dst share one dense layout (so the buffers are
 * walked as flat arrays of sum_dense_nelems elements), and, with f32_only,
 * all of them are f32. */
int sum_is_dense(const struct tsr_primitive_desc *pd, int f32_only);
tsr_dim_t sum_dense_nelems(const struct tsr_primitive_desc *pd);

/* dst[j] = scales[0] * srcs[0][j] + ... + scales[n-1] * srcs[n-1][j] for
 * j < len, multiplied and added in that order (no fused multiply-add, so
 * every implementation gives the reference's bits). `stream` asks for
 * stores that bypass the caches (dst is not read again soon). */
typedef void (*sum_f32_kernel_t)(float *dst, const float *const *srcs,
                                 const float *scales, int n, tsr_dim_t len,
                                 int stream);
void sum_f32_avx2(float *dst, const float *const *srcs, const float *scales,
                  int n, tsr_dim_t len, int stream);
void sum_f32_avx512(float *dst, const float *const *srcs, const float *scales,
                    int n, tsr_dim_t len, int stream);

/* The same sum over sources and dst each f32, bf16 or f16 (converted in
 * registers, dst rounded to nearest even); dst may alias a source of its
 * data type. */
typedef void (*sum_typed_kernel_t)(void *dst, tsr_data_type_t dst_dt,
                                   const void *const *srcs,
                                   const tsr_data_type_t *src_dts,
                                   const float *scales, int n, tsr_dim_t len,
                                   int stream);
void sum_typed_avx2(void *dst, tsr_data_type_t dst_dt, const void *const *srcs,
                    const tsr_data_type_t *src_dts, const float *scales, int n,
                    tsr_dim_t len, int stream);
void sum_typed_avx512(void *dst, tsr_data_type_t dst_dt,
                      const void *const *srcs, const tsr_data_type_t *src_dts,
                      const float *scales, int n, tsr_dim_t len, int stream);

/* The elements of elem_size bytes before dst's first `align`-byte
 * boundary, at most len: streaming stores, which need that alignment,
 * start there. */
static inline tsr_dim_t sum_stream_head(const void *dst, size_t elem_size,
                                        size_t align, tsr_dim_t len) {
    const tsr_dim_t head =
            (tsr_dim_t)((align - (uintptr_t)dst % align) % align / elem_size);
    return head < len ? head : len;
}

/* Runs `kernel` over the dense f32 buffers of the pd, threads on
 * contiguous chunks. */
tsr_status_t sum_f32_dense_execute(const struct tsr_primitive_desc *pd,
                                   const tsr_exec_ctx_t *ctx,
                                   sum_f32_kernel_t kernel);

#endif
