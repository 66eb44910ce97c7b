/* Binary operation descriptors: validation, and the kind's entry. */
#include <stdio.h>
#include <string.h>

#include "op_md.h"
#include "primitive.h"
#include "verbose.h"

/* Every library data type (binary takes any combination). */
static int binary_md_ok(const tsr_memory_desc_t *md, int ndims) {
    return ndims >= 1 && ndims <= TSR_MAX_NDIMS && op_md_is_usable(md, ndims);
}

/* Each source dim equals dst's or is 1 (broadcast). */
static int broadcasts_to(const tsr_memory_desc_t *src,
                         const tsr_memory_desc_t *dst) {
    for (int d = 0; d < dst->ndims; d++)
        if (src->dims[d] != dst->dims[d] && src->dims[d] != 1)
            return 0;
    return 1;
}

static tsr_status_t binary_desc_validate(const tsr_binary_desc_t *desc) {
    if (desc->primitive_kind != tsr_binary ||
        !tsr_is_binary_alg(desc->alg_kind))
        return tsr_invalid_arguments;
    const tsr_memory_desc_t *src0 = &desc->src_desc[0],
                            *src1 = &desc->src_desc[1], *dst = &desc->dst_desc;
    const int ndims = src0->ndims;
    if (!binary_md_ok(src0, ndims) || !binary_md_ok(src1, ndims) ||
        !binary_md_ok(dst, ndims))
        return tsr_invalid_arguments;
    return broadcasts_to(src0, dst) && broadcasts_to(src1, dst)
                   ? tsr_success
                   : tsr_invalid_arguments;
}

tsr_status_t tsr_binary_desc_init(tsr_binary_desc_t *binary_desc,
                                  tsr_alg_kind_t alg_kind,
                                  const tsr_memory_desc_t *src0_desc,
                                  const tsr_memory_desc_t *src1_desc,
                                  const tsr_memory_desc_t *dst_desc) {
    if (!binary_desc || !src0_desc || !src1_desc || !dst_desc)
        return tsr_invalid_arguments;
    tsr_binary_desc_t d;
    memset(&d, 0, sizeof(d));
    d.primitive_kind = tsr_binary;
    d.alg_kind = alg_kind;
    d.src_desc[0] = *src0_desc;
    d.src_desc[1] = *src1_desc;
    d.dst_desc = *dst_desc;
    const tsr_status_t st = binary_desc_validate(&d);
    if (st != tsr_success)
        return st;
    *binary_desc = d;
    return tsr_success;
}

extern const tsr_impl_t *const tsr_binary_impl_list[];

static tsr_status_t binary_validate(const tsr_op_desc_t *op) {
    return binary_desc_validate(&op->binary);
}

static void binary_set_args(struct tsr_primitive_desc *pd) {
    const tsr_binary_desc_t *d = &pd->op.binary;
    tsr_pd_set_arg(pd, TSR_MD_SRC, &d->src_desc[0], tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_SRC_1, &d->src_desc[1], tsr_arg_input);
    tsr_pd_set_arg(pd, TSR_MD_DST, &d->dst_desc, tsr_arg_output);
}

static const tsr_impl_t *const *binary_impl_list(const tsr_op_desc_t *op) {
    (void)op;
    return tsr_binary_impl_list;
}

static tsr_prop_kind_t binary_prop_kind(const tsr_op_desc_t *op) {
    (void)op; /* binary has no propagation kind, as in oneDNN */
    return tsr_prop_kind_undef;
}

/* "alg:binary_add,2x16x7x7:1x16x1x1": the algorithm and both sources'
 * dims, as benchdnn writes the problem. */
static void binary_verbose_problem(const struct tsr_primitive_desc *pd,
                                   char *buf, size_t len) {
    const tsr_binary_desc_t *d = &pd->op.binary;
    char aux[64];
    snprintf(aux, sizeof(aux), "alg:binary_%s", tsr_alg_kind2str(d->alg_kind));
    const tsr_memory_desc_t *mds[2] = {&d->src_desc[0], &d->src_desc[1]};
    tsr_verbose_multi_dims_problem(aux, mds, 2, buf, len);
}

const tsr_prim_kind_info_t tsr_binary_kind = {
        .kind = tsr_binary,
        .name = "binary",
        .op_desc_size = sizeof(tsr_binary_desc_t),
        .validate = binary_validate,
        .set_args = binary_set_args,
        .impl_list = binary_impl_list,
        .prop_kind = binary_prop_kind,
        .verbose_problem = binary_verbose_problem,
};
