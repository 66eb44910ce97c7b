/* Post-op chains: creation, appending and reading back. Appends validate
 * their whole input first and leave the chain unchanged on error. */
#include <stdlib.h>

#include "attr.h"
#include "memory_desc.h"

static int data_type_is_valid(tsr_data_type_t dt) {
    return dt >= tsr_f16 && dt <= tsr_u8;
}

/* A binary post-op's src1 descriptor enters through the API like any
 * other: the one validation, however it was built (broadcast against the
 * destination is checked at primitive creation). The layout must be
 * concrete: src1 is user data, nothing reorders it. */
static int src1_desc_is_valid(const tsr_memory_desc_t *md) {
    return md->format_kind == tsr_format_kind_blocked &&
           data_type_is_valid(md->data_type) && md_is_valid(md);
}

/* The entry at `index` when it exists and is of `kind`, else NULL. */
static const tsr_post_op_t *entry_of_kind(const_tsr_post_ops_t post_ops,
                                          int index, tsr_post_op_kind_t kind) {
    if (!post_ops || index < 0 || index >= post_ops->len)
        return NULL;
    const tsr_post_op_t *e = &post_ops->entry[index];
    return e->kind == kind ? e : NULL;
}

tsr_status_t tsr_post_ops_create(tsr_post_ops_t *post_ops) {
    if (!post_ops)
        return tsr_invalid_arguments;
    struct tsr_post_ops *p = calloc(1, sizeof(*p));
    if (!p)
        return tsr_out_of_memory;
    *post_ops = p;
    return tsr_success;
}

tsr_status_t tsr_post_ops_destroy(tsr_post_ops_t post_ops) {
    free(post_ops);
    return tsr_success;
}

int tsr_post_ops_len(const_tsr_post_ops_t post_ops) {
    return post_ops ? post_ops->len : -1;
}

tsr_post_op_kind_t tsr_post_ops_get_kind(const_tsr_post_ops_t post_ops,
                                         int index) {
    if (!post_ops || index < 0 || index >= post_ops->len)
        return tsr_post_op_undef;
    return post_ops->entry[index].kind;
}

tsr_status_t tsr_post_ops_append_sum(tsr_post_ops_t post_ops, float scale,
                                     int32_t zero_point,
                                     tsr_data_type_t data_type) {
    if (!post_ops || post_ops->len >= TSR_MAX_POST_OPS)
        return tsr_invalid_arguments;
    if (data_type != tsr_data_type_undef && !data_type_is_valid(data_type))
        return tsr_invalid_arguments;
    tsr_post_op_t *e = &post_ops->entry[post_ops->len];
    e->kind = tsr_post_op_sum;
    e->sum.scale = scale;
    e->sum.zero_point = zero_point;
    e->sum.dt = data_type;
    post_ops->len++;
    return tsr_success;
}

tsr_status_t tsr_post_ops_append_eltwise(tsr_post_ops_t post_ops, float scale,
                                         tsr_alg_kind_t alg, float alpha,
                                         float beta) {
    if (!post_ops || post_ops->len >= TSR_MAX_POST_OPS ||
        !tsr_is_eltwise_alg(alg))
        return tsr_invalid_arguments;
    tsr_post_op_t *e = &post_ops->entry[post_ops->len];
    e->kind = tsr_post_op_eltwise;
    e->eltwise.alg = alg;
    e->eltwise.alpha = alpha;
    e->eltwise.beta = beta;
    e->eltwise.scale = scale;
    post_ops->len++;
    return tsr_success;
}

tsr_status_t tsr_post_ops_append_binary(tsr_post_ops_t post_ops,
                                        tsr_alg_kind_t alg,
                                        const tsr_memory_desc_t *src1_desc) {
    if (!post_ops || !src1_desc || post_ops->len >= TSR_MAX_POST_OPS ||
        !tsr_is_binary_alg(alg) || !src1_desc_is_valid(src1_desc))
        return tsr_invalid_arguments;
    tsr_post_op_t *e = &post_ops->entry[post_ops->len];
    e->kind = tsr_post_op_binary;
    e->binary.alg = alg;
    e->binary.src1_desc = *src1_desc;
    post_ops->len++;
    return tsr_success;
}

tsr_status_t tsr_post_ops_append_prelu(tsr_post_ops_t post_ops, int mask) {
    if (!post_ops || post_ops->len >= TSR_MAX_POST_OPS || mask < 0 ||
        mask >= (1 << TSR_MAX_NDIMS))
        return tsr_invalid_arguments;
    tsr_post_op_t *e = &post_ops->entry[post_ops->len];
    e->kind = tsr_post_op_prelu;
    e->prelu.mask = mask;
    post_ops->len++;
    return tsr_success;
}

tsr_status_t tsr_post_ops_get_params_sum(const_tsr_post_ops_t post_ops,
                                         int index, float *scale,
                                         int32_t *zero_point,
                                         tsr_data_type_t *data_type) {
    const tsr_post_op_t *e = entry_of_kind(post_ops, index, tsr_post_op_sum);
    if (!e || !scale || !zero_point || !data_type)
        return tsr_invalid_arguments;
    *scale = e->sum.scale;
    *zero_point = e->sum.zero_point;
    *data_type = e->sum.dt;
    return tsr_success;
}

tsr_status_t tsr_post_ops_get_params_eltwise(const_tsr_post_ops_t post_ops,
                                             int index, float *scale,
                                             tsr_alg_kind_t *alg, float *alpha,
                                             float *beta) {
    const tsr_post_op_t *e =
            entry_of_kind(post_ops, index, tsr_post_op_eltwise);
    if (!e || !scale || !alg || !alpha || !beta)
        return tsr_invalid_arguments;
    *scale = e->eltwise.scale;
    *alg = e->eltwise.alg;
    *alpha = e->eltwise.alpha;
    *beta = e->eltwise.beta;
    return tsr_success;
}

tsr_status_t
tsr_post_ops_get_params_binary(const_tsr_post_ops_t post_ops, int index,
                               tsr_alg_kind_t *alg,
                               const tsr_memory_desc_t **src1_desc) {
    const tsr_post_op_t *e = entry_of_kind(post_ops, index, tsr_post_op_binary);
    if (!e || !alg || !src1_desc)
        return tsr_invalid_arguments;
    *alg = e->binary.alg;
    *src1_desc = &e->binary.src1_desc;
    return tsr_success;
}

tsr_status_t tsr_post_ops_get_params_prelu(const_tsr_post_ops_t post_ops,
                                           int index, int *mask) {
    const tsr_post_op_t *e = entry_of_kind(post_ops, index, tsr_post_op_prelu);
    if (!e || !mask)
        return tsr_invalid_arguments;
    *mask = e->prelu.mask;
    return tsr_success;
}
