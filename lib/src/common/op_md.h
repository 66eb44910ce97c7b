/* Checks on the memory descriptors an operation descriptor holds, shared by
 * the convolution, inner product and matmul descriptor validation. */
#ifndef TSR_COMMON_OP_MD_H
#define TSR_COMMON_OP_MD_H

#include "memory_desc.h"
#include "tessera.h"

/* A valid descriptor (md_is_valid) of rank `ndims` whose layout is either
 * given (blocked) or left to the primitive (any). */
static inline int op_md_is_usable(const tsr_memory_desc_t *md, int ndims) {
    return md->ndims == ndims && md_is_valid(md);
}

/* A bias descriptor is present when it was set at all. */
static inline int op_md_is_present(const tsr_memory_desc_t *md) {
    return md->format_kind != tsr_format_kind_undef && md->ndims != 0;
}

/* An optional 1D bias: absent, or usable with one entry per channel. */
static inline int op_bias_1d_ok(const tsr_memory_desc_t *bia,
                                tsr_dim_t channels) {
    return !op_md_is_present(bia) ||
           (op_md_is_usable(bia, 1) && bia->dims[0] == channels);
}

/* How a forward-only primitive answers a propagation kind: forward kinds
 * pass, backward ones are valid but unimplemented, the rest invalid. */
static inline tsr_status_t op_forward_prop_kind_status(tsr_prop_kind_t pk) {
    switch (pk) {
    case tsr_forward_training:
    case tsr_forward_inference:
        return tsr_success;
    case tsr_backward_data:
    case tsr_backward_weights:
    case tsr_backward_bias:
        return tsr_unimplemented;
    default:
        return tsr_invalid_arguments;
    }
}

/* Accumulator type: s32 for 8-bit integer sources, f32 otherwise. */
static inline tsr_data_type_t op_accum_data_type(tsr_data_type_t src) {
    return (src == tsr_u8 || src == tsr_s8) ? tsr_s32 : tsr_f32;
}

/* Copies the argument descriptors of a desc_init call into an op
 * descriptor's fields (bias left zero when NULL) and returns the
 * accumulator type. */
static inline tsr_data_type_t op_copy_arg_mds(
        tsr_memory_desc_t *src, tsr_memory_desc_t *wei, tsr_memory_desc_t *bia,
        tsr_memory_desc_t *dst, const tsr_memory_desc_t *src_desc,
        const tsr_memory_desc_t *weights_desc,
        const tsr_memory_desc_t *bias_desc, const tsr_memory_desc_t *dst_desc) {
    *src = *src_desc;
    *wei = *weights_desc;
    if (bias_desc)
        *bia = *bias_desc;
    *dst = *dst_desc;
    return op_accum_data_type(src_desc->data_type);
}

static inline int op_dt_is_int8(tsr_data_type_t dt) {
    return dt == tsr_u8 || dt == tsr_s8;
}
static inline int op_dt_is_float(tsr_data_type_t dt) {
    return dt == tsr_f32 || dt == tsr_bf16 || dt == tsr_f16;
}

/* The data type combinations of benchdnn's configurations: floating
 * src/weights with floating or 8-bit dst, or u8/s8 src with s8 weights and
 * any dst; bias floating, or (8-bit src) also s32/s8/u8. `bia` is
 * tsr_f32 when there is no bias. */
static inline int op_data_types_ok(tsr_data_type_t src, tsr_data_type_t wei,
                                   tsr_data_type_t bia, tsr_data_type_t dst) {
    if (op_dt_is_int8(src))
        return wei == tsr_s8 &&
               (dst == tsr_s32 || op_dt_is_int8(dst) || op_dt_is_float(dst)) &&
               (bia == tsr_s32 || op_dt_is_int8(bia) || op_dt_is_float(bia));
    if (op_dt_is_float(src))
        return op_dt_is_float(wei) &&
               (op_dt_is_float(dst) || op_dt_is_int8(dst)) &&
               op_dt_is_float(bia);
    return 0;
}

#endif
