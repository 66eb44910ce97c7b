/* Matmul operation descriptors: shape validation with batch broadcast. */
#include <string.h>

#include "matmul_pd.h"
#include "verbose.h"

tsr_status_t tsr_matmul_desc_validate(const tsr_matmul_desc_t *desc) {
    if (desc->primitive_kind != tsr_matmul)
        return tsr_invalid_arguments;
    const tsr_memory_desc_t *src = &desc->src_desc, *wei = &desc->weights_desc,
                            *dst = &desc->dst_desc;
    const int nd = dst->ndims;
    if (nd < 2 || nd > 6 || !op_md_is_usable(src, nd) ||
        !op_md_is_usable(wei, nd) || !op_md_is_usable(dst, nd))
        return tsr_invalid_arguments;
    const tsr_dim_t M = dst->dims[nd - 2], N = dst->dims[nd - 1];
    const tsr_dim_t K = src->dims[nd - 1];
    if (src->dims[nd - 2] != M || wei->dims[nd - 2] != K ||
        wei->dims[nd - 1] != N)
        return tsr_invalid_arguments;
    for (int d = 0; d < nd - 2; d++) {
        const tsr_dim_t s = src->dims[d], w = wei->dims[d], o = dst->dims[d];
        if ((s != o && s != 1) || (w != o && w != 1) || o != (s > w ? s : w))
            return tsr_invalid_arguments;
    }
    if (op_md_is_present(&desc->bias_desc)) {
        const tsr_memory_desc_t *bia = &desc->bias_desc;
        if (!op_md_is_usable(bia, nd))
            return tsr_invalid_arguments;
        for (int d = 0; d < nd; d++)
            if (bia->dims[d] != dst->dims[d] && bia->dims[d] != 1)
                return tsr_invalid_arguments;
    }
    return tsr_success;
}

tsr_status_t tsr_matmul_desc_init(tsr_matmul_desc_t *matmul_desc,
                                  const tsr_memory_desc_t *src_desc,
                                  const tsr_memory_desc_t *weights_desc,
                                  const tsr_memory_desc_t *bias_desc,
                                  const tsr_memory_desc_t *dst_desc) {
    if (!matmul_desc || !src_desc || !weights_desc || !dst_desc)
        return tsr_invalid_arguments;
    tsr_matmul_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_matmul;
    d.accum_data_type = op_copy_arg_mds(&d.src_desc, &d.weights_desc,
                                        &d.bias_desc, &d.dst_desc, src_desc,
                                        weights_desc, bias_desc, dst_desc);
    tsr_status_t st = tsr_matmul_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *matmul_desc = d;
    return tsr_success;
}

extern const tsr_impl_t *const tsr_matmul_impl_list[];

static tsr_status_t matmul_validate(const tsr_op_desc_t *op) {
    return tsr_matmul_desc_validate(&op->matmul);
}

static void matmul_set_args(struct tsr_primitive_desc *pd) {
    const tsr_matmul_desc_t *d = &pd->op.matmul;
    tsr_pd_set_args_fwd(pd, &d->src_desc, &d->weights_desc, &d->bias_desc,
                        &d->dst_desc);
}

static const tsr_impl_t *const *matmul_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_matmul_impl_list;
}

static tsr_prop_kind_t matmul_prop_kind(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_prop_kind_undef;
}

const tsr_prim_kind_info_t tsr_matmul_kind = {
        .kind = tsr_matmul,
        .name = "matmul",
        .op_desc_size = sizeof(tsr_matmul_desc_t),
        .validate = matmul_validate,
        .set_args = matmul_set_args,
        .impl_list = matmul_impl_list,
        .prop_kind = matmul_prop_kind,
        .verbose_problem = tsr_verbose_matmul_problem,
};
