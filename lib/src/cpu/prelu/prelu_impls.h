/* The PReLU implementations, for the lists in prelu_list.c. */
#ifndef TSR_CPU_PRELU_PRELU_IMPLS_H
#define TSR_CPU_PRELU_PRELU_IMPLS_H

#include "common/primitive.h"

extern const tsr_impl_t tsr_dense_prelu_fwd_avx512_impl,
        tsr_dense_prelu_fwd_avx2_impl, tsr_dense_prelu_fwd_c_impl;
extern const tsr_impl_t tsr_dense_prelu_bwd_avx512_impl,
        tsr_dense_prelu_bwd_avx2_impl, tsr_dense_prelu_bwd_c_impl;
extern const tsr_impl_t tsr_ref_prelu_fwd_impl, tsr_ref_prelu_bwd_impl;

#endif
