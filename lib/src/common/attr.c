/* Primitive attributes: the public setters and getters, and the internal
 * copy / default helpers. Every setter validates all of its input before
 * touching the attributes, so a failed call leaves them as they were. */
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "checked_math.h"
#include "memory_desc.h"

/* A mask may only name dims a descriptor can have. */
static int mask_is_valid(int mask) {
    return mask >= 0 && mask < (1 << TSR_MAX_NDIMS);
}

static const int arg_of_qarg[TSR_QARG_COUNT] = {
        [TSR_QARG_SRC] = TSR_ARG_SRC,
        [TSR_QARG_WEIGHTS] = TSR_ARG_WEIGHTS,
        [TSR_QARG_DST] = TSR_ARG_DST,
        [TSR_QARG_SRC_1] = TSR_ARG_SRC_1,
};

int tsr_qarg_from_arg(int arg) {
    for (int q = 0; q < TSR_QARG_COUNT; q++)
        if (arg_of_qarg[q] == arg)
            return q;
    return -1;
}

int tsr_qarg_arg(int qarg) {
    return qarg >= 0 && qarg < TSR_QARG_COUNT ? arg_of_qarg[qarg] : -1;
}

void tsr_attr_init_default(struct tsr_primitive_attr *attr) {
    memset(attr, 0, sizeof(*attr));
    attr->scratchpad_mode = tsr_scratchpad_mode_library;
    attr->round_mode = tsr_round_nearest;
}

/* Bytes of `count` output scales: 1 and *bytes when count is one a
 * descriptor's dims can yield (1 to TSR_MAX_ELEMS) and the byte size fits
 * in size_t, else 0. */
static int output_scales_bytes(tsr_dim_t count, size_t *bytes) {
    return count > 0 && count <= TSR_MAX_ELEMS && (uint64_t)count <= SIZE_MAX &&
           tsr_mul_size((size_t)count, sizeof(float), bytes);
}

tsr_status_t tsr_attr_copy(struct tsr_primitive_attr *dst,
                           const struct tsr_primitive_attr *src) {
    float *values = NULL;
    if (src->output_scales.set) {
        size_t bytes;
        if (!output_scales_bytes(src->output_scales.count, &bytes))
            return tsr_invalid_arguments;
        values = malloc(bytes);
        if (!values)
            return tsr_out_of_memory;
        memcpy(values, src->output_scales.values, bytes);
    }
    *dst = *src;
    dst->output_scales.values = values;
    return tsr_success;
}

void tsr_attr_fini(struct tsr_primitive_attr *attr) {
    free(attr->output_scales.values);
    attr->output_scales.values = NULL;
}

int tsr_attr_has_default_values(const struct tsr_primitive_attr *attr) {
    if (attr->output_scales.set || attr->post_ops.len != 0 ||
        attr->round_mode != tsr_round_nearest)
        return 0;
    for (int i = 0; i < TSR_QARG_COUNT; i++)
        if (attr->scales[i].set || attr->zero_points[i].set)
            return 0;
    return 1;
}

static int any_arg_scales_set(const struct tsr_primitive_attr *attr) {
    for (int i = 0; i < TSR_QARG_COUNT; i++)
        if (attr->scales[i].set)
            return 1;
    return 0;
}

tsr_status_t tsr_primitive_attr_create(tsr_primitive_attr_t *attr) {
    if (!attr)
        return tsr_invalid_arguments;
    struct tsr_primitive_attr *a = malloc(sizeof(*a));
    if (!a)
        return tsr_out_of_memory;
    tsr_attr_init_default(a);
    *attr = a;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_clone(tsr_primitive_attr_t *attr,
                                      const_tsr_primitive_attr_t existing) {
    if (!attr || !existing)
        return tsr_invalid_arguments;
    struct tsr_primitive_attr *a = malloc(sizeof(*a));
    if (!a)
        return tsr_out_of_memory;
    tsr_status_t st = tsr_attr_copy(a, existing);
    if (st != tsr_success) {
        free(a);
        return st;
    }
    *attr = a;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_destroy(tsr_primitive_attr_t attr) {
    if (attr) {
        tsr_attr_fini(attr);
        free(attr);
    }
    return tsr_success;
}

tsr_status_t
tsr_primitive_attr_set_scratchpad_mode(tsr_primitive_attr_t attr,
                                       tsr_scratchpad_mode_t mode) {
    if (!attr || (mode != tsr_scratchpad_mode_library &&
                  mode != tsr_scratchpad_mode_user))
        return tsr_invalid_arguments;
    attr->scratchpad_mode = mode;
    return tsr_success;
}

tsr_status_t
tsr_primitive_attr_get_scratchpad_mode(const_tsr_primitive_attr_t attr,
                                       tsr_scratchpad_mode_t *mode) {
    if (!attr || !mode)
        return tsr_invalid_arguments;
    *mode = attr->scratchpad_mode;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_set_output_scales(tsr_primitive_attr_t attr,
                                                  tsr_dim_t count, int mask,
                                                  const float *scales) {
    if (!attr || !scales || !mask_is_valid(mask))
        return tsr_invalid_arguments;
    /* The two scale models describe the same multiplier: mixing them would
     * leave its meaning ambiguous. */
    if (any_arg_scales_set(attr))
        return tsr_invalid_arguments;
    /* count must equal a product of dst dims (checked at primitive
     * creation): one beyond any descriptor's is refused before the copy. */
    size_t bytes;
    if (!output_scales_bytes(count, &bytes))
        return tsr_invalid_arguments;
    float *values = malloc(bytes);
    if (!values)
        return tsr_out_of_memory;
    memcpy(values, scales, bytes);
    free(attr->output_scales.values);
    attr->output_scales.set = 1;
    attr->output_scales.mask = mask;
    attr->output_scales.count = count;
    attr->output_scales.values = values;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_set_scales_mask(tsr_primitive_attr_t attr,
                                                int arg, int mask) {
    int q = tsr_qarg_from_arg(arg);
    if (!attr || q < 0 || !mask_is_valid(mask))
        return tsr_invalid_arguments;
    if (attr->output_scales.set)
        return tsr_invalid_arguments;
    attr->scales[q].set = 1;
    attr->scales[q].mask = mask;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_set_zero_points_mask(tsr_primitive_attr_t attr,
                                                     int arg, int mask) {
    int q = tsr_qarg_from_arg(arg);
    if (!attr || q < 0 || !mask_is_valid(mask))
        return tsr_invalid_arguments;
    attr->zero_points[q].set = 1;
    attr->zero_points[q].mask = mask;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_set_round_mode(tsr_primitive_attr_t attr,
                                               tsr_round_mode_t mode) {
    if (!attr || (mode != tsr_round_nearest && mode != tsr_round_down))
        return tsr_invalid_arguments;
    attr->round_mode = mode;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_get_round_mode(const_tsr_primitive_attr_t attr,
                                               tsr_round_mode_t *mode) {
    if (!attr || !mode)
        return tsr_invalid_arguments;
    *mode = attr->round_mode;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_set_post_ops(tsr_primitive_attr_t attr,
                                             const_tsr_post_ops_t post_ops) {
    if (!attr || !post_ops)
        return tsr_invalid_arguments;
    if (post_ops->len < 0 || post_ops->len > TSR_MAX_POST_OPS)
        return tsr_invalid_arguments;
    attr->post_ops = *post_ops;
    return tsr_success;
}

tsr_status_t tsr_primitive_attr_get_post_ops(const_tsr_primitive_attr_t attr,
                                             const_tsr_post_ops_t *post_ops) {
    if (!attr || !post_ops)
        return tsr_invalid_arguments;
    *post_ops = &attr->post_ops;
    return tsr_success;
}
