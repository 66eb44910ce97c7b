/* From benchdnn attributes to the library's: masks, deterministic
 * per-channel values, binary src1 shapes, and tsr_primitive_attr_t. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "common/checked_math.h"

int attr_policy_mask(bench_policy_t policy, bench_qarg_t arg, int ndims,
                     int wei_oc_mask, int data_oc_last) {
    switch (policy) {
    case POLICY_COMMON:
        return 0;
    case POLICY_PER_OC:
        if (arg == QARG_WEI)
            return wei_oc_mask;
        return data_oc_last ? 1 << (ndims - 1) : 1 << 1;
    case POLICY_PER_DIM_0:
        return 1 << 0;
    case POLICY_PER_DIM_1:
        return 1 << 1;
    case POLICY_PER_DIM_01:
        return (1 << 0) | (1 << 1);
    case POLICY_PER_TENSOR:
        return (1 << ndims) - 1;
    case POLICY_PER_DIM_2:
        return 1 << 2;
    case POLICY_PER_DIM_3:
        return 1 << 3;
    case POLICY_PER_DIM_23:
        return (1 << 2) | (1 << 3);
    case POLICY_PER_DIM_023:
        return (1 << 0) | (1 << 2) | (1 << 3);
    case POLICY_PER_DIM_03:
        return (1 << 0) | (1 << 3);
    }
    return 0;
}

int64_t attr_mask_count(int mask, int ndims, const int64_t *dims) {
    int64_t count = 1;
    for (int d = 0; d < ndims; d++)
        if ((mask & (1 << d)) && !bench_mul_i64(count, dims[d], &count))
            return INT64_MAX; /* no memory check passes that many */
    return count;
}

int64_t attr_mask_index(int mask, int ndims, const int64_t *dims,
                        const int64_t *pos) {
    int64_t idx = 0;
    for (int d = 0; d < ndims; d++)
        if (mask & (1 << d))
            idx = idx * dims[d] + pos[d];
    return idx;
}

int attr_qarg2tsr(bench_qarg_t arg) {
    switch (arg) {
    case QARG_SRC:
        return TSR_ARG_SRC;
    case QARG_WEI:
        return TSR_ARG_WEIGHTS;
    default:
        return TSR_ARG_DST;
    }
}

float attr_scale_value(const bench_scale_t *s, int64_t i) {
    if (s->policy == POLICY_COMMON)
        return s->scale;
    return ldexpf(s->scale, (int)(i % 5) - 2);
}

int32_t attr_zp_value(const bench_zp_t *z, int64_t i) {
    if (z->policy == POLICY_COMMON)
        return z->value;
    /* In int64, saturated: a base at either end of int32 stays in it. */
    const int64_t v = (int64_t)z->value + i % 3 - 1;
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

void attr_binary_src1_dims(bench_policy_t policy, int ndims, int data_oc_last,
                           const int64_t *dst_dims, int64_t *src1_dims) {
    const int mask = attr_policy_mask(policy, QARG_DST, ndims, 0, data_oc_last);
    for (int d = 0; d < ndims; d++)
        src1_dims[d] = (mask & (1 << d)) ? dst_dims[d] : 1;
}

float attr_prelu_weight_value(int64_t i) {
    const float w = ldexpf(1.f, (int)(i % 7) - 3);
    return i % 10 == 3 ? -w : w;
}

tsr_status_t attr_prelu_weights_md(int mask, int ndims, const int64_t *dst_dims,
                                   tsr_memory_desc_t *md) {
    tsr_dims_t dims;
    for (int d = 0; d < ndims; d++)
        dims[d] = (mask & (1 << d)) ? dst_dims[d] : 1;
    return tsr_memory_desc_init_by_strides(md, ndims, dims, tsr_f32, NULL);
}

static tsr_status_t set_output_scales(tsr_primitive_attr_t a,
                                      const bench_scale_t *s, int ndims,
                                      const int64_t *dims, int wei_oc_mask,
                                      int data_oc_last) {
    const int mask = attr_policy_mask(s->policy, QARG_DST, ndims, wei_oc_mask,
                                      data_oc_last);
    const int64_t count = attr_mask_count(mask, ndims, dims);
    /* Memory first: a per-channel count comes from user dims. */
    const size_t bytes = bench_bytes_sat(count, sizeof(float));
    res_t unfit;
    if (bytes == SIZE_MAX || !bench_mem_check(bytes, &unfit))
        return tsr_out_of_memory;
    float *values = malloc(bytes);
    if (!values)
        return tsr_out_of_memory;
    for (int64_t i = 0; i < count; i++)
        values[i] = attr_scale_value(s, i);
    tsr_status_t st =
            tsr_primitive_attr_set_output_scales(a, count, mask, values);
    free(values);
    return st;
}

static tsr_status_t append_binary(tsr_post_ops_t ops, const bench_post_op_t *po,
                                  int ndims, int data_oc_last,
                                  const int64_t *dst_dims) {
    tsr_dims_t src1_dims;
    tsr_memory_desc_t md;
    tsr_status_t st;
    attr_binary_src1_dims(po->policy, ndims, data_oc_last, dst_dims, src1_dims);
    if (!po->tag[0] || !strcmp(po->tag, "any"))
        st = tsr_memory_desc_init_by_strides(&md, ndims, src1_dims, po->dt,
                                             NULL);
    else
        st = tsr_memory_desc_init_by_tag(&md, ndims, src1_dims, po->dt,
                                         po->tag);
    if (st != tsr_success)
        return st;
    return tsr_post_ops_append_binary(ops, po->alg, &md);
}

static tsr_status_t build_post_ops(tsr_primitive_attr_t a,
                                   const bench_attr_t *attr, int ndims,
                                   int data_oc_last, const int64_t *dst_dims) {
    tsr_post_ops_t ops;
    tsr_status_t st = tsr_post_ops_create(&ops);
    if (st != tsr_success)
        return st;
    for (int i = 0; i < attr->n_post_ops && st == tsr_success; i++) {
        const bench_post_op_t *po = &attr->post_ops[i];
        switch (po->kind) {
        case tsr_post_op_sum:
            st = tsr_post_ops_append_sum(ops, po->scale, po->zero_point,
                                         po->dt);
            break;
        case tsr_post_op_eltwise:
            st = tsr_post_ops_append_eltwise(ops, po->scale, po->alg, po->alpha,
                                             po->beta);
            break;
        case tsr_post_op_binary:
            st = append_binary(ops, po, ndims, data_oc_last, dst_dims);
            break;
        case tsr_post_op_prelu:
            st = tsr_post_ops_append_prelu(
                    ops, attr_policy_mask(po->policy, QARG_DST, ndims, 0,
                                          data_oc_last));
            break;
        default:
            st = tsr_unimplemented;
            break;
        }
    }
    if (st == tsr_success)
        st = tsr_primitive_attr_set_post_ops(a, ops);
    tsr_post_ops_destroy(ops);
    return st;
}

static tsr_status_t fill_attr(tsr_primitive_attr_t a, const bench_attr_t *attr,
                              int ndims, const int64_t *dims, int wei_oc_mask,
                              int data_oc_last, const int *qarg_ndims) {
    tsr_status_t st = tsr_success;
    if (attr->scratchpad_user)
        st = tsr_primitive_attr_set_scratchpad_mode(a,
                                                    tsr_scratchpad_mode_user);
    if (st == tsr_success && attr->round_mode != tsr_round_nearest)
        st = tsr_primitive_attr_set_round_mode(a, attr->round_mode);
    if (st == tsr_success && attr->oscale.set)
        st = set_output_scales(a, &attr->oscale, ndims, dims, wei_oc_mask,
                               data_oc_last);
    for (int q = 0; q < QARG_COUNT && st == tsr_success; q++) {
        const bench_scale_t *s = &attr->scales[q];
        if (!s->set)
            continue;
        /* Weights have their own rank: per-tensor is not expressible from
         * the dst shape alone. */
        if (q == QARG_WEI && s->policy == POLICY_PER_TENSOR)
            return tsr_unimplemented;
        st = tsr_primitive_attr_set_scales_mask(
                a, attr_qarg2tsr((bench_qarg_t)q),
                attr_policy_mask(s->policy, (bench_qarg_t)q,
                                 qarg_ndims ? qarg_ndims[q] : ndims,
                                 wei_oc_mask, data_oc_last));
    }
    for (int q = 0; q < QARG_COUNT && st == tsr_success; q++) {
        const bench_zp_t *z = &attr->zero_points[q];
        if (!z->set)
            continue;
        if (q == QARG_WEI && z->policy == POLICY_PER_TENSOR)
            return tsr_unimplemented;
        st = tsr_primitive_attr_set_zero_points_mask(
                a, attr_qarg2tsr((bench_qarg_t)q),
                attr_policy_mask(z->policy, (bench_qarg_t)q,
                                 qarg_ndims ? qarg_ndims[q] : ndims,
                                 wei_oc_mask, data_oc_last));
    }
    if (st == tsr_success && attr->n_post_ops > 0)
        st = build_post_ops(a, attr, ndims, data_oc_last, dims);
    return st;
}

tsr_status_t attr_create_tsr(const bench_attr_t *attr, int dst_ndims,
                             const int64_t *dst_dims, int wei_oc_mask,
                             int data_oc_last, const int *qarg_ndims,
                             tsr_primitive_attr_t *out) {
    tsr_primitive_attr_t a;
    tsr_status_t st = tsr_primitive_attr_create(&a);
    if (st != tsr_success)
        return st;
    st = fill_attr(a, attr, dst_ndims, dst_dims, wei_oc_mask, data_oc_last,
                   qarg_ndims);
    if (st != tsr_success) {
        tsr_primitive_attr_destroy(a);
        return st;
    }
    *out = a;
    return tsr_success;
}
