/* Matmul implementations, best first; the reference accepts every problem
 * and comes last. */
#include "common/primitive.h"

extern const tsr_impl_t tsr_gemm_matmul_f32_impl;
extern const tsr_impl_t tsr_gemm_matmul_s8_impl;
extern const tsr_impl_t tsr_ref_matmul_impl;

const tsr_impl_t *const tsr_matmul_impl_list[] = {
        &tsr_gemm_matmul_f32_impl,
        &tsr_gemm_matmul_s8_impl,
        &tsr_ref_matmul_impl,
        NULL,
};
