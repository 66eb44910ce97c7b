/* Inner product implementations, best first; the reference accepts every
 * forward problem and comes last. */
#include "common/primitive.h"

extern const tsr_impl_t tsr_gemm_inner_product_f32_impl;
extern const tsr_impl_t tsr_gemm_inner_product_s8_impl;
extern const tsr_impl_t tsr_ref_inner_product_fwd_impl;

const tsr_impl_t *const tsr_inner_product_impl_list[] = {
        &tsr_gemm_inner_product_f32_impl,
        &tsr_gemm_inner_product_s8_impl,
        &tsr_ref_inner_product_fwd_impl,
        NULL,
};
