/* Eltwise implementations per direction, best first; the reference accepts
 * every layout and comes last. */
#include "eltwise_pd.h"

const tsr_impl_t *const tsr_eltwise_fwd_impl_list[] = {
        &tsr_dense_eltwise_fwd_avx512_impl,
        &tsr_dense_eltwise_fwd_avx2_impl,
        &tsr_dense_eltwise_fwd_generic_impl,
        &tsr_ref_eltwise_fwd_impl,
        NULL,
};

const tsr_impl_t *const tsr_eltwise_bwd_impl_list[] = {
        &tsr_dense_eltwise_bwd_avx512_impl,
        &tsr_dense_eltwise_bwd_avx2_impl,
        &tsr_dense_eltwise_bwd_generic_impl,
        &tsr_ref_eltwise_bwd_impl,
        NULL,
};
