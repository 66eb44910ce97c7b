/* Reorder: creation from two memory descriptors, and its kind entry. */
#include <stdlib.h>
#include <string.h>

#include "dense_layout.h"
#include "memory_desc.h"
#include "primitive.h"
#include "verbose.h"

extern const tsr_impl_t *const tsr_reorder_impl_list[];

tsr_status_t tsr_reorder_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const tsr_memory_desc_t *src_desc,
        tsr_engine_t src_engine, const tsr_memory_desc_t *dst_desc,
        tsr_engine_t dst_engine, const_tsr_primitive_attr_t attr) {
    if (!primitive_desc || !src_desc || !dst_desc ||
        !tsr_engine_is_cpu(src_engine) || !tsr_engine_is_cpu(dst_engine))
        return tsr_invalid_arguments;
    if (!md_is_usable_blocked(src_desc) || !md_is_usable_blocked(dst_desc) ||
        src_desc->ndims != dst_desc->ndims)
        return tsr_invalid_arguments;
    for (int d = 0; d < src_desc->ndims; d++)
        if (src_desc->dims[d] != dst_desc->dims[d])
            return tsr_invalid_arguments;
    tsr_op_desc_t *op = calloc(1, sizeof(*op));
    if (!op)
        return tsr_out_of_memory;
    op->reorder.kind = tsr_reorder;
    op->reorder.src_desc = *src_desc;
    op->reorder.dst_desc = *dst_desc;
    tsr_status_t st = tsr_pd_create(primitive_desc, op, attr, dst_engine, NULL);
    free(op);
    return st;
}
static tsr_status_t reorder_validate(const tsr_op_desc_t *op) {
    (void)op; /* checked by tsr_reorder_primitive_desc_create */
    return tsr_success;
}

static void reorder_set_args(struct tsr_primitive_desc *pd) {
    tsr_pd_set_arg(pd, TSR_MD_SRC, &pd->op.reorder.src_desc, tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DST, &pd->op.reorder.dst_desc, tsr_arg_output);
}

static const tsr_impl_t *const *reorder_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_reorder_impl_list;
}

static tsr_prop_kind_t reorder_prop_kind(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_prop_kind_undef;
}

const tsr_prim_kind_info_t tsr_reorder_kind = {
        .kind = tsr_reorder,
        .name = "reorder",
        .validate = reorder_validate,
        .set_args = reorder_set_args,
        .impl_list = reorder_impl_list,
        .prop_kind = reorder_prop_kind,
        .verbose_problem = tsr_verbose_dims_problem,
};
