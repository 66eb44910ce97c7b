/* Creation, validation and arguments that sum and concat share. */
#include <stdlib.h>
#include <string.h>

#include "checked_math.h"
#include "dense_layout.h"
#include "memory_desc.h"
#include "multi_src.h"

int tsr_concat_axis_total(const tsr_multi_src_desc_t *desc, tsr_dim_t *total) {
    const int axis = desc->concat_dimension;
    if (axis < 0 || axis >= TSR_MAX_NDIMS || desc->n < 1 ||
        desc->n > TSR_MAX_MULTIPLE_SRC)
        return 0;
    tsr_dim_t sum = 0;
    for (int i = 0; i < desc->n; i++) {
        const tsr_dim_t a = desc->src_descs[i].dims[axis];
        if (a <= 0 || !tsr_add_i64(sum, a, &sum) || sum > TSR_MAX_ELEMS)
            return 0;
    }
    *total = sum;
    return 1;
}

/* A derived concat dst: the sum of the sources' axis sizes (left as is
 * for an axis out of range, -1 when the sum is out of range, for validate
 * to refuse). */
static void concat_dst_dims(tsr_multi_src_desc_t *desc) {
    const int axis = desc->concat_dimension;
    if (axis < 0 || axis >= desc->dst_desc.ndims || axis >= TSR_MAX_NDIMS)
        return;
    tsr_dim_t total;
    if (!tsr_concat_axis_total(desc, &total))
        total = -1;
    desc->dst_desc.dims[axis] = total;
    desc->dst_desc.padded_dims[axis] = total;
}

tsr_status_t tsr_multi_src_pd_create(struct tsr_primitive_desc **pd,
                                     tsr_primitive_kind_t kind,
                                     const tsr_memory_desc_t *dst_desc, int n,
                                     const float *scales, int concat_dimension,
                                     const tsr_memory_desc_t *src_descs,
                                     const_tsr_primitive_attr_t attr,
                                     tsr_engine_t engine) {
    if (!pd || !src_descs || (kind == tsr_sum && !scales) || n < 1 ||
        n > TSR_MAX_MULTIPLE_SRC || !tsr_engine_is_cpu(engine))
        return tsr_invalid_arguments;
    /* Large (64 source descriptors): not on the stack. */
    tsr_op_desc_t *op = calloc(1, sizeof(*op));
    if (!op)
        return tsr_out_of_memory;
    tsr_multi_src_desc_t *desc = &op->multi;
    desc->kind = kind;
    desc->n = n;
    desc->concat_dimension = concat_dimension;
    for (int i = 0; i < n; i++) {
        desc->src_descs[i] = src_descs[i];
        if (scales)
            desc->scales[i] = scales[i];
    }
    if (dst_desc && !md_is_zero(dst_desc)) {
        desc->dst_desc = *dst_desc;
    } else {
        desc->dst_desc = src_descs[0];
        memset(&desc->dst_desc.blocking, 0, sizeof(desc->dst_desc.blocking));
        memset(&desc->dst_desc.extra, 0, sizeof(desc->dst_desc.extra));
        desc->dst_desc.offset0 = 0;
        desc->dst_desc.format_kind = tsr_format_kind_any;
        memcpy(desc->dst_desc.padded_dims, desc->dst_desc.dims,
               sizeof(desc->dst_desc.dims));
        if (kind == tsr_concat)
            concat_dst_dims(desc);
    }
    if (md_is_any(&desc->dst_desc) &&
        desc->dst_desc.data_type == tsr_data_type_undef)
        desc->dst_desc.data_type = src_descs[0].data_type;
    tsr_status_t st = tsr_pd_create(pd, op, attr, engine, NULL);
    free(op);
    return st;
}

tsr_status_t tsr_multi_src_validate_mds(const tsr_multi_src_desc_t *desc) {
    if (desc->n < 1 || desc->n > TSR_MAX_MULTIPLE_SRC)
        return tsr_invalid_arguments;
    const int ndims = desc->src_descs[0].ndims;
    for (int i = 0; i < desc->n; i++)
        if (!md_is_usable_blocked(&desc->src_descs[i]) ||
            desc->src_descs[i].ndims != ndims)
            return tsr_invalid_arguments;
    const tsr_memory_desc_t *dst = &desc->dst_desc;
    if (dst->ndims != ndims || tsr_data_type_size(dst->data_type) == 0)
        return tsr_invalid_arguments;
    /* An "any" dst (derived from the sources or given) is validated like
     * any descriptor: its dims' product within the library's limit. */
    if (md_is_any(dst))
        return md_is_valid(dst) ? tsr_success : tsr_invalid_arguments;
    return md_is_usable_blocked(dst) ? tsr_success : tsr_invalid_arguments;
}

void tsr_multi_src_set_args(struct tsr_primitive_desc *pd) {
    const tsr_multi_src_desc_t *desc = &pd->op.multi;
    for (int i = 0; i < desc->n; i++)
        tsr_pd_set_arg(pd, TSR_MD_MULTIPLE_SRC + i, &desc->src_descs[i],
                       tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DST, &desc->dst_desc, tsr_arg_output);
}

tsr_prop_kind_t tsr_multi_src_prop_kind(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_prop_kind_undef;
}
