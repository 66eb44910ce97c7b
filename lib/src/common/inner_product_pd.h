/* Named accessors over an inner product primitive descriptor. The
 * reduction runs over IC and every spatial point: K = IC * ID * IH * IW. */
#ifndef TSR_COMMON_INNER_PRODUCT_PD_H
#define TSR_COMMON_INNER_PRODUCT_PD_H

#include "op_md.h"
#include "primitive.h"

static inline int ip_with_bias(const struct tsr_primitive_desc *pd) {
    return op_md_is_present(&pd->op.ip.bias_desc);
}
static inline int ip_src_ndims(const struct tsr_primitive_desc *pd) {
    return pd->op.ip.src_desc.ndims;
}
static inline tsr_dim_t ip_MB(const struct tsr_primitive_desc *pd) {
    return pd->op.ip.src_desc.dims[0];
}
static inline tsr_dim_t ip_IC(const struct tsr_primitive_desc *pd) {
    return pd->op.ip.src_desc.dims[1];
}
static inline tsr_dim_t ip_OC(const struct tsr_primitive_desc *pd) {
    return pd->op.ip.dst_desc.dims[1];
}
/* Product of the spatial dims (1 for 2D src). */
static inline tsr_dim_t ip_spatial(const struct tsr_primitive_desc *pd) {
    tsr_dim_t s = 1;
    for (int d = 2; d < ip_src_ndims(pd); d++)
        s *= pd->op.ip.src_desc.dims[d];
    return s;
}
static inline tsr_dim_t ip_K(const struct tsr_primitive_desc *pd) {
    return ip_IC(pd) * ip_spatial(pd);
}

/* Checks a descriptor the way tsr_inner_product_forward_desc_init does.
 * Returns tsr_success, tsr_invalid_arguments or tsr_unimplemented (a
 * backward propagation kind). */
tsr_status_t tsr_ip_desc_validate(const tsr_inner_product_desc_t *desc);

#endif
