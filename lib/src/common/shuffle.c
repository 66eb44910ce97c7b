/* Shuffle: a permutation of the indices of one dim. Descriptor
 * initialization, validation and its kind entry. Forward reads src and
 * writes dst; backward reads diff_dst and writes diff_src, which the
 * descriptor holds in its src_desc / dst_desc. */
#include <stdio.h>
#include <string.h>

#include "dense_layout.h"
#include "memory_desc.h"
#include "primitive.h"
#include "verbose.h"

extern const tsr_impl_t *const tsr_shuffle_impl_list[];

static int shuffle_is_forward(const tsr_shuffle_desc_t *desc) {
    return tsr_prop_kind_is_forward(desc->prop_kind);
}

/* `in` is the argument the primitive reads (src, or diff_dst backward);
 * the other may be "any". Both have the same dims and data type. */
static tsr_status_t shuffle_check(const tsr_shuffle_desc_t *desc) {
    if (desc->primitive_kind != tsr_shuffle ||
        (!shuffle_is_forward(desc) && desc->prop_kind != tsr_backward_data))
        return tsr_invalid_arguments;
    const int forward = shuffle_is_forward(desc);
    const tsr_memory_desc_t *in = forward ? &desc->src_desc : &desc->dst_desc;
    const tsr_memory_desc_t *out = forward ? &desc->dst_desc : &desc->src_desc;
    if (!md_is_usable_blocked(in) || out->ndims != in->ndims ||
        out->data_type != in->data_type || !md_is_valid(out))
        return tsr_invalid_arguments;
    for (int d = 0; d < in->ndims; d++)
        if (out->dims[d] != in->dims[d])
            return tsr_invalid_arguments;
    if (desc->axis < 0 || desc->axis >= in->ndims || desc->group_size <= 0 ||
        in->dims[desc->axis] % desc->group_size != 0)
        return tsr_invalid_arguments;
    return tsr_success;
}

/* The descriptor's other argument when the user passed none (or left its
 * data type undefined): "any" with the given one's dims and type. */
static void shuffle_fill_out(tsr_memory_desc_t *out,
                             const tsr_memory_desc_t *user_out,
                             const tsr_memory_desc_t *in) {
    if (user_out && !md_is_zero(user_out)) {
        *out = *user_out;
    } else {
        memset(out, 0, sizeof(*out));
        out->ndims = in->ndims;
        memcpy(out->dims, in->dims, sizeof(out->dims));
        memcpy(out->padded_dims, in->dims, sizeof(out->padded_dims));
        out->format_kind = tsr_format_kind_any;
    }
    if (md_is_any(out) && out->data_type == tsr_data_type_undef)
        out->data_type = in->data_type;
}

static tsr_status_t shuffle_desc_init(tsr_shuffle_desc_t *shuffle_desc,
                                      tsr_prop_kind_t prop_kind,
                                      const tsr_memory_desc_t *in,
                                      const tsr_memory_desc_t *out, int axis,
                                      tsr_dim_t group_size) {
    if (!shuffle_desc || !in)
        return tsr_invalid_arguments;
    tsr_shuffle_desc_t desc;
    memset(&desc, 0, sizeof(desc));
    desc.primitive_kind = tsr_shuffle;
    desc.prop_kind = prop_kind;
    desc.axis = axis;
    desc.group_size = group_size;
    const int forward = tsr_prop_kind_is_forward(prop_kind);
    tsr_memory_desc_t *desc_in = forward ? &desc.src_desc : &desc.dst_desc;
    tsr_memory_desc_t *desc_out = forward ? &desc.dst_desc : &desc.src_desc;
    *desc_in = *in;
    shuffle_fill_out(desc_out, out, in);
    tsr_status_t st = shuffle_check(&desc);
    if (st == tsr_success)
        *shuffle_desc = desc;
    return st;
}

tsr_status_t tsr_shuffle_forward_desc_init(tsr_shuffle_desc_t *shuffle_desc,
                                           tsr_prop_kind_t prop_kind,
                                           const tsr_memory_desc_t *src_desc,
                                           const tsr_memory_desc_t *dst_desc,
                                           int axis, tsr_dim_t group_size) {
    if (!tsr_prop_kind_is_forward(prop_kind))
        return tsr_invalid_arguments;
    return shuffle_desc_init(shuffle_desc, prop_kind, src_desc, dst_desc, axis,
                             group_size);
}

tsr_status_t
tsr_shuffle_backward_desc_init(tsr_shuffle_desc_t *shuffle_desc,
                               const tsr_memory_desc_t *diff_src_desc,
                               const tsr_memory_desc_t *diff_dst_desc, int axis,
                               tsr_dim_t group_size) {
    return shuffle_desc_init(shuffle_desc, tsr_backward_data, diff_dst_desc,
                             diff_src_desc, axis, group_size);
}

static tsr_status_t shuffle_validate(const tsr_op_desc_t *op) {
    return shuffle_check(&op->shuffle);
}

static void shuffle_set_args(struct tsr_primitive_desc *pd) {
    const tsr_shuffle_desc_t *desc = &pd->op.shuffle;
    if (shuffle_is_forward(desc)) {
        tsr_pd_set_arg(pd, TSR_MD_SRC, &desc->src_desc, tsr_arg_input);
        tsr_pd_set_arg(pd, TSR_MD_DST, &desc->dst_desc, tsr_arg_output);
    } else {
        tsr_pd_set_arg(pd, TSR_MD_DIFF_DST, &desc->dst_desc, tsr_arg_input);
        tsr_pd_set_arg(pd, TSR_MD_DIFF_SRC, &desc->src_desc, tsr_arg_output);
    }
}

static const tsr_impl_t *const *shuffle_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_shuffle_impl_list;
}

static tsr_prop_kind_t shuffle_prop_kind(const tsr_op_desc_t *op) {
    return op->shuffle.prop_kind;
}

/* "axis:1 group:4,2x12x32x17". */
static void shuffle_verbose_problem(const struct tsr_primitive_desc *pd,
                                    char *buf, size_t len) {
    char dims[256];
    tsr_verbose_dims_problem(pd, dims, sizeof(dims));
    snprintf(buf, len, "axis:%d group:%lld%s", pd->op.shuffle.axis,
             (long long)pd->op.shuffle.group_size, dims);
}

const tsr_prim_kind_info_t tsr_shuffle_kind = {
        .kind = tsr_shuffle,
        .name = "shuffle",
        .op_desc_size = sizeof(tsr_shuffle_desc_t),
        .validate = shuffle_validate,
        .set_args = shuffle_set_args,
        .impl_list = shuffle_impl_list,
        .prop_kind = shuffle_prop_kind,
        .verbose_problem = shuffle_verbose_problem,
};
