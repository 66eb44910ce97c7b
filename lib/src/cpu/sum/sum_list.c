/* Sum implementations, best first; the reference accepts everything and
 * comes last. */
#include "sum.h"

const tsr_impl_t *const tsr_sum_impl_list[] = {
        &tsr_sum_f32_avx512_impl,
        &tsr_sum_f32_avx2_impl,
        &tsr_simple_sum_dense_impl,
        &tsr_ref_sum_impl,
        NULL,
};
