/* Shuffle implementations, best first; the reference accepts everything
 * and comes last. */
#include "shuffle.h"

const tsr_impl_t *const tsr_shuffle_impl_list[] = {
        &tsr_permute_shuffle_impl,
        &tsr_gather_shuffle_impl,
        &tsr_simple_shuffle_impl,
        &tsr_ref_shuffle_impl,
        NULL,
};
