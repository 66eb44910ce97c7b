/* PReLU implementations per direction, best first; the reference accepts
 * everything and comes last. */
#include <stddef.h>

#include "cpu/prelu/prelu_impls.h"

const tsr_impl_t *const tsr_prelu_fwd_impl_list[] = {
        &tsr_dense_prelu_fwd_avx512_impl,
        &tsr_dense_prelu_fwd_avx2_impl,
        &tsr_dense_prelu_fwd_c_impl,
        &tsr_ref_prelu_fwd_impl,
        NULL,
};

const tsr_impl_t *const tsr_prelu_bwd_impl_list[] = {
        &tsr_dense_prelu_bwd_avx512_impl,
        &tsr_dense_prelu_bwd_avx2_impl,
        &tsr_dense_prelu_bwd_c_impl,
        &tsr_ref_prelu_bwd_impl,
        NULL,
};
