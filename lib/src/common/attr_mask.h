/* Scale and zero-point masks: bit d of a mask selects logical dim d of the
 * argument the values belong to; the values are dense, row-major over the
 * selected dims. */
#ifndef TSR_COMMON_ATTR_MASK_H
#define TSR_COMMON_ATTR_MASK_H

#include "checked_math.h"
#include "memory_desc.h"
#include "tessera.h"

/* Number of values a mask needs over `dims`; 0 when it names a dim beyond
 * ndims, or when the count would exceed TSR_MAX_ELEMS (dims not yet
 * validated). */
static inline tsr_dim_t tsr_mask_nelems(int mask, int ndims,
                                        const tsr_dim_t *dims) {
    if (mask >> ndims)
        return 0;
    tsr_dim_t n = 1;
    for (int d = 0; d < ndims; d++)
        if ((mask & (1 << d)) &&
            (!tsr_mul_i64(n, dims[d], &n) || n <= 0 || n > TSR_MAX_ELEMS))
            return 0;
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
