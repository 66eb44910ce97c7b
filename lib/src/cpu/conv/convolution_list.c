/* Convolution implementations, best first. The dispatcher skips entries
 * whose ISA the CPU (or the cap) does not allow; the reference accepts
 * every forward problem and comes last. */
#include "common/primitive.h"

extern const tsr_impl_t tsr_dw_convolution_f32_fwd_impl;
extern const tsr_impl_t tsr_dw_convolution_s8_fwd_impl;
extern const tsr_impl_t tsr_gemm_convolution_s8_fwd_impl;
extern const tsr_impl_t tsr_gemm_convolution_f32_fwd_impl;
extern const tsr_impl_t tsr_direct_convolution_f32_fwd_impl;
extern const tsr_impl_t tsr_ref_convolution_fwd_impl;

const tsr_impl_t *const tsr_convolution_impl_list[] = {
        &tsr_dw_convolution_f32_fwd_impl,
        &tsr_dw_convolution_s8_fwd_impl,
        &tsr_gemm_convolution_s8_fwd_impl,
        &tsr_direct_convolution_f32_fwd_impl,
        &tsr_gemm_convolution_f32_fwd_impl,
        &tsr_ref_convolution_fwd_impl,
        NULL,
};
