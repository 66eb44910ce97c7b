/* Reorder implementations, best first; the reference accepts everything
 * and comes last. */
#include "reorder_common.h"

const tsr_impl_t *const tsr_reorder_impl_list[] = {
        &tsr_simple_reorder_copy_impl,
        &tsr_simple_reorder_transpose_impl,
        &tsr_simple_reorder_tiled_impl,
        &tsr_ref_reorder_impl,
        NULL,
};
