/* Sum: dst = sum over i of scales[i] * src_i. Creation (its primitive
 * descriptor is created directly, as reorder's), and its kind entry. */
#include "multi_src.h"
#include "verbose.h"

extern const tsr_impl_t *const tsr_sum_impl_list[];

tsr_status_t tsr_sum_primitive_desc_create(tsr_primitive_desc_t *primitive_desc,
                                           const tsr_memory_desc_t *dst_desc,
                                           int n, const float *scales,
                                           const tsr_memory_desc_t *src_descs,
                                           const_tsr_primitive_attr_t attr,
                                           tsr_engine_t engine) {
    return tsr_multi_src_pd_create(primitive_desc, tsr_sum, dst_desc, n, scales,
                                   0, src_descs, attr, engine);
}

static tsr_status_t sum_validate(const tsr_op_desc_t *op) {
    const tsr_multi_src_desc_t *desc = &op->multi;
    tsr_status_t st = tsr_multi_src_validate_mds(desc);
    if (st != tsr_success)
        return st;
    const tsr_memory_desc_t *src0 = &desc->src_descs[0];
    for (int d = 0; d < src0->ndims; d++) {
        if (desc->dst_desc.dims[d] != src0->dims[d])
            return tsr_invalid_arguments;
        for (int i = 1; i < desc->n; i++)
            if (desc->src_descs[i].dims[d] != src0->dims[d])
                return tsr_invalid_arguments;
    }
    return tsr_success;
}

static const tsr_impl_t *const *sum_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_sum_impl_list;
}

const tsr_prim_kind_info_t tsr_sum_kind = {
        .kind = tsr_sum,
        .name = "sum",
        .validate = sum_validate,
        .set_args = tsr_multi_src_set_args,
        .impl_list = sum_impl_list,
        .prop_kind = tsr_multi_src_prop_kind,
        .verbose_problem = tsr_verbose_dims_problem,
};
