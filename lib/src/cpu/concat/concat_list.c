/* Concat implementations, best first; the reference accepts everything
 * and comes last. */
#include "concat.h"

const tsr_impl_t *const tsr_concat_impl_list[] = {
        &tsr_simple_concat_impl,
        &tsr_blocked_concat_avx512_impl,
        &tsr_blocked_concat_generic_impl,
        &tsr_ref_concat_impl,
        NULL,
};
