/* Concat: the sources one after another along one dim. Creation (its
 * primitive descriptor is created directly, as reorder's), and its kind
 * entry. */
#include <stdio.h>

#include "multi_src.h"
#include "utils.h"

extern const tsr_impl_t *const tsr_concat_impl_list[];

tsr_status_t tsr_concat_primitive_desc_create(
        tsr_primitive_desc_t *primitive_desc, const tsr_memory_desc_t *dst_desc,
        int n, int concat_dimension, const tsr_memory_desc_t *src_descs,
        const_tsr_primitive_attr_t attr, tsr_engine_t engine) {
    return tsr_multi_src_pd_create(primitive_desc, tsr_concat, dst_desc, n,
                                   NULL, concat_dimension, src_descs, attr,
                                   engine);
}

static tsr_status_t concat_validate(const tsr_op_desc_t *op) {
    const tsr_multi_src_desc_t *desc = &op->multi;
    tsr_status_t st = tsr_multi_src_validate_mds(desc);
    if (st != tsr_success)
        return st;
    const int axis = desc->concat_dimension;
    const tsr_memory_desc_t *src0 = &desc->src_descs[0];
    tsr_dim_t axis_total;
    if (axis < 0 || axis >= src0->ndims ||
        !tsr_concat_axis_total(desc, &axis_total))
        return tsr_invalid_arguments;
    for (int i = 0; i < desc->n; i++) {
        const tsr_memory_desc_t *src = &desc->src_descs[i];
        for (int d = 0; d < src0->ndims; d++)
            if (d != axis && src->dims[d] != src0->dims[d])
                return tsr_invalid_arguments;
    }
    for (int d = 0; d < src0->ndims; d++)
        if (desc->dst_desc.dims[d] != (d == axis ? axis_total : src0->dims[d]))
            return tsr_invalid_arguments;
    return tsr_success;
}

static const tsr_impl_t *const *concat_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_concat_impl_list;
}

/* Appends to buf at *pos, truncating (and then stopping) when full. */
static void append_int(char *buf, size_t len, size_t *pos, const char *sep,
                       long long value) {
    if (*pos + 1 >= len)
        return;
    const int written = snprintf(buf + *pos, len - *pos, "%s%lld", sep, value);
    *pos = written < 0 ? len : TSR_MIN(*pos + (size_t)written, len);
}

/* "axis:1,2x16x3x4:2x8x3x4" (the sources' dims). */
static void concat_verbose_problem(const struct tsr_primitive_desc *pd,
                                   char *buf, size_t len) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    size_t pos = 0;
    buf[0] = '\0';
    append_int(buf, len, &pos, "axis:", desc->concat_dimension);
    for (int i = 0; i < desc->n; i++)
        for (int d = 0; d < desc->src_descs[i].ndims; d++)
            append_int(buf, len, &pos,
                       d > 0   ? "x"
                       : i > 0 ? ":"
                               : ",",
                       (long long)desc->src_descs[i].dims[d]);
}

const tsr_prim_kind_info_t tsr_concat_kind = {
        .kind = tsr_concat,
        .name = "concat",
        .validate = concat_validate,
        .set_args = tsr_multi_src_set_args,
        .impl_list = concat_impl_list,
        .prop_kind = tsr_multi_src_prop_kind,
        .verbose_problem = concat_verbose_problem,
};
