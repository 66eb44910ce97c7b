/* Binary implementations, best first; the reference accepts everything
 * and comes last. */
#include <stddef.h>

#include "cpu/binary/binary_impls.h"

const tsr_impl_t *const tsr_binary_impl_list[] = {
        &tsr_dense_binary_avx512_impl,
        &tsr_dense_binary_avx2_impl,
        &tsr_dense_binary_c_impl,
        &tsr_ref_binary_impl,
        NULL,
};
