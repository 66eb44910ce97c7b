/* Scale and zero-point masks: bit d of a mask selects logical dim d of the
 * argument the values belong to; the values are dense, row-major over the
 * selected dims. */
#ifndef TSR_COMMON_ATTR_MASK_H
#define TSR_COMMON_ATTR_MASK_H

#include "tessera.h"

/* Number of values a mask needs over `dims`; 0 when it names a dim beyond
 * ndims. */
static inline tsr_dim_t tsr_mask_nelems(int mask, int ndims,
                                        const tsr_dim_t *dims) {
    if (mask >> ndims)
        return 0;
    tsr_dim_t n = 1;
    for (int d = 0; d < ndims; d++)
        if (mask & (1 << d))
            n *= dims[d];
    return n;
}

/* Index of the value for logical point `pos`. */
static inline tsr_dim_t tsr_mask_index(int mask, int ndims,
                                       const tsr_dim_t *dims,
                                       const tsr_dim_t *pos) {
    tsr_dim_t idx = 0;
    for (int d = 0; d < ndims; d++)
        if (mask & (1 << d))
            idx = idx * dims[d] + pos[d];
    return idx;
}

#endif
