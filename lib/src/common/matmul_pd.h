/* Named accessors over a matmul primitive descriptor: the last two dims are
 * M x K (src), K x N (weights), M x N (dst); the ones before are batch
 * dims, broadcast where src or weights have 1. */
#ifndef TSR_COMMON_MATMUL_PD_H
#define TSR_COMMON_MATMUL_PD_H

#include "op_md.h"
#include "primitive.h"

static inline int matmul_with_bias(const struct tsr_primitive_desc *pd) {
    return op_md_is_present(&pd->op.matmul.bias_desc);
}
static inline int matmul_ndims(const struct tsr_primitive_desc *pd) {
    return pd->op.matmul.dst_desc.ndims;
}
static inline tsr_dim_t matmul_M(const struct tsr_primitive_desc *pd) {
    return pd->op.matmul.dst_desc.dims[matmul_ndims(pd) - 2];
}
static inline tsr_dim_t matmul_N(const struct tsr_primitive_desc *pd) {
    return pd->op.matmul.dst_desc.dims[matmul_ndims(pd) - 1];
}
static inline tsr_dim_t matmul_K(const struct tsr_primitive_desc *pd) {
    return pd->op.matmul.src_desc.dims[matmul_ndims(pd) - 1];
}
/* Number of (M x N) matrices in dst. */
static inline tsr_dim_t matmul_batch(const struct tsr_primitive_desc *pd) {
    tsr_dim_t b = 1;
    for (int d = 0; d < matmul_ndims(pd) - 2; d++)
        b *= pd->op.matmul.dst_desc.dims[d];
    return b;
}

/* Checks a descriptor the way tsr_matmul_desc_init does. */
tsr_status_t tsr_matmul_desc_validate(const tsr_matmul_desc_t *desc);

#endif
