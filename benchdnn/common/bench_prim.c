/* Pipeline steps independent of tensor names (see bench_prim.h). */
#include "common/bench_prim.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/bench_args.h"
#include "common/checked_math.h"

void bench_exec_args_add(tsr_exec_arg_t *args, int *nargs, int arg,
                         const dnn_mem_t *m) {
    if (*nargs >= BENCH_EXEC_MAX_ARGS)
        return;
    args[*nargs].arg = arg;
    args[*nargs].memory = m->mem;
    (*nargs)++;
}

int bench_create_pd(tsr_primitive_desc_t *pd, const void *op_desc,
                    const_tsr_primitive_attr_t attr,
                    const_tsr_primitive_desc_t hint, int filter_impl,
                    res_t *res) {
    tsr_status_t st = tsr_primitive_desc_create_with_hint(pd, op_desc, attr,
                                                          bench_engine(), hint);
    if (st != tsr_success) {
        *pd = NULL;
        bench_set_status_state(res, st,
                               filter_impl ? "primitive descriptor"
                                           : "forward primitive descriptor");
        return 0;
    }
    if (!filter_impl)
        return 1;
    while (!bench_impl_allowed(tsr_primitive_desc_impl_name(*pd))) {
        if (tsr_primitive_desc_next_impl(*pd) != tsr_success) {
            bench_set_state(res, STATE_SKIPPED, "skip-impl option hit");
            return 0; /* *pd stays for the caller to destroy */
        }
    }
    snprintf(res->impl_name, sizeof(res->impl_name), "%s",
             tsr_primitive_desc_impl_name(*pd));
    return 1;
}

static const int fixed_arg_ids[] = {
        TSR_ARG_SRC,        TSR_ARG_SRC_1,      TSR_ARG_SRC_2,
        TSR_ARG_WEIGHTS,    TSR_ARG_BIAS,       TSR_ARG_DST,
        TSR_ARG_MEAN,       TSR_ARG_VARIANCE,   TSR_ARG_SCALE,
        TSR_ARG_SHIFT,      TSR_ARG_WORKSPACE,  TSR_ARG_DIFF_SRC,
        TSR_ARG_DIFF_SRC_1, TSR_ARG_DIFF_DST,   TSR_ARG_DIFF_WEIGHTS,
        TSR_ARG_DIFF_BIAS,  TSR_ARG_DIFF_SCALE, TSR_ARG_DIFF_SHIFT,
};
static const char *const fixed_arg_names[] = {
        "src",      "src_1",      "src_2",      "wei",      "bia",
        "dst",      "mean",       "var",        "scale",    "shift",
        "ws",       "diff_src",   "diff_src_1", "diff_dst", "diff_wei",
        "diff_bia", "diff_scale", "diff_shift",
};
#define N_FIXED_ARGS ((int)(sizeof(fixed_arg_ids) / sizeof(fixed_arg_ids[0])))

int bench_arg_id_count(void) {
    return N_FIXED_ARGS + TSR_MAX_MULTIPLE_SRC;
}

int bench_arg_id(int i) {
    return i < N_FIXED_ARGS ? fixed_arg_ids[i]
                            : TSR_ARG_MULTIPLE_SRC + (i - N_FIXED_ARGS);
}

const char *bench_arg_name(int arg, char *buf, size_t len) {
    for (int i = 0; i < N_FIXED_ARGS; i++)
        if (fixed_arg_ids[i] == arg)
            return fixed_arg_names[i];
    if (arg >= TSR_ARG_MULTIPLE_SRC &&
        arg < TSR_ARG_MULTIPLE_SRC + TSR_MAX_MULTIPLE_SRC)
        snprintf(buf, len, "msrc%d", arg - TSR_ARG_MULTIPLE_SRC);
    else
        snprintf(buf, len, "arg%d", arg);
    return buf;
}

size_t bench_pd_memory_bytes(const_tsr_primitive_desc_t pd) {
    size_t bytes = 0;
    for (int i = 0; i < bench_arg_id_count(); i++) {
        const int arg = bench_arg_id(i);
        if (tsr_primitive_desc_query_arg_usage(pd, arg) != tsr_arg_unused)
            bytes = bench_add_size_sat(
                    bytes, tsr_memory_desc_get_size(
                                   tsr_primitive_desc_query_arg_md(pd, arg)));
    }
    size_t scratch = 0;
    if (tsr_primitive_desc_query_scratchpad_size(pd, &scratch) == tsr_success)
        bytes = bench_add_size_sat(bytes, scratch);
    return bytes;
}

static int make_quant_memory(const bench_attr_t *a, int64_t count, int is_zp,
                             int qarg, dnn_mem_t *m, tsr_exec_arg_t *args,
                             int *nargs) {
    if (count < 0)
        return 1;
    tsr_memory_desc_t md;
    float *values = bench_alloc_f32(count);
    int ok = values &&
             tsr_memory_desc_init_by_tag(&md, 1, &count,
                                         is_zp ? tsr_s32 : tsr_f32,
                                         "a") == tsr_success &&
             dnn_mem_create(m, &md) == tsr_success;
    if (ok) {
        for (int64_t i = 0; i < count; i++)
            values[i] = is_zp ? (float)attr_zp_value(&a->zero_points[qarg], i)
                              : attr_scale_value(&a->scales[qarg], i);
        dnn_mem_from_f32(m, values);
        bench_exec_args_add(
                args, nargs,
                (is_zp ? TSR_ARG_ATTR_ZERO_POINTS : TSR_ARG_ATTR_SCALES) |
                        attr_qarg2tsr((bench_qarg_t)qarg),
                m);
    }
    free(values);
    return ok;
}

/* Prelu post-op `i`'s weights over the dst among the arguments, in
 * m->bin[i], their values in *values. */
static int make_prelu_weights(bench_attr_mems_t *m, const_tsr_post_ops_t ops,
                              int i, float **values, tsr_exec_arg_t *args,
                              int *nargs) {
    const tsr_memory_desc_t *dst = NULL;
    for (int k = 0; k < *nargs && !dst; k++)
        if (args[k].arg == TSR_ARG_DST &&
            tsr_memory_get_desc(args[k].memory, &dst) != tsr_success)
            return 0;
    int mask;
    tsr_memory_desc_t md;
    if (!dst || tsr_post_ops_get_params_prelu(ops, i, &mask) != tsr_success ||
        attr_prelu_weights_md(mask, dst->ndims, dst->dims, &md) != tsr_success)
        return 0;
    const int64_t n = tsr_memory_desc_nelems(&md);
    if (!(*values = bench_alloc_f32(n)) ||
        dnn_mem_create(&m->bin[i], &md) != tsr_success)
        return 0;
    for (int64_t j = 0; j < n; j++)
        (*values)[j] = attr_prelu_weight_value(j);
    dnn_mem_from_f32(&m->bin[i], *values);
    bench_exec_args_add(args, nargs,
                        TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_WEIGHTS,
                        &m->bin[i]);
    return 1;
}

static int make_binary_memories(bench_attr_mems_t *m, const bench_attr_t *a,
                                const_tsr_primitive_attr_t attr,
                                bench_fill_binary_src1_fn fill,
                                float *bin_f32[BENCH_MAX_POST_OPS],
                                tsr_exec_arg_t *args, int *nargs) {
    const_tsr_post_ops_t post_ops;
    if (a->n_post_ops == 0)
        return 1;
    if (tsr_primitive_attr_get_post_ops(attr, &post_ops) != tsr_success)
        return 0;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind == tsr_post_op_prelu &&
            !make_prelu_weights(m, post_ops, i, &bin_f32[i], args, nargs))
            return 0;
        if (a->post_ops[i].kind != tsr_post_op_binary)
            continue;
        tsr_alg_kind_t alg;
        const tsr_memory_desc_t *md;
        if (tsr_post_ops_get_params_binary(post_ops, i, &alg, &md) !=
            tsr_success)
            return 0;
        const int64_t n = tsr_memory_desc_nelems(md);
        bin_f32[i] = bench_alloc_f32(n);
        if (!bin_f32[i] || dnn_mem_create(&m->bin[i], md) != tsr_success)
            return 0;
        fill(alg, md->data_type, i, bin_f32[i], n);
        dnn_mem_from_f32(&m->bin[i], bin_f32[i]);
        dnn_mem_to_f32(&m->bin[i], bin_f32[i]);
        bench_exec_args_add(args, nargs,
                            TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1,
                            &m->bin[i]);
    }
    return 1;
}

int bench_attr_mems_create(bench_attr_mems_t *m, const bench_attr_t *battr,
                           const_tsr_primitive_attr_t attr,
                           const int64_t scale_count[QARG_COUNT],
                           const int64_t zp_count[QARG_COUNT],
                           bench_fill_binary_src1_fn fill_binary_src1,
                           float *bin_f32[BENCH_MAX_POST_OPS],
                           tsr_exec_arg_t *args, int *nargs) {
    for (int q = 0; q < QARG_COUNT; q++)
        if (!make_quant_memory(battr, scale_count[q], 0, q, &m->scales[q], args,
                               nargs) ||
            !make_quant_memory(battr, zp_count[q], 1, q, &m->zps[q], args,
                               nargs))
            return 0;
    return make_binary_memories(m, battr, attr, fill_binary_src1, bin_f32, args,
                                nargs);
}

void bench_attr_mems_free(bench_attr_mems_t *m) {
    for (int i = 0; i < QARG_COUNT; i++) {
        dnn_mem_free(&m->scales[i]);
        dnn_mem_free(&m->zps[i]);
    }
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++)
        dnn_mem_free(&m->bin[i]);
}

int bench_scratchpad_create(dnn_mem_t *m, const_tsr_primitive_desc_t pd,
                            const bench_attr_t *battr, tsr_exec_arg_t *args,
                            int *nargs) {
    if (!battr->scratchpad_user)
        return 1;
    const tsr_memory_desc_t *md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    if (!md || tsr_memory_desc_get_size(md) == 0)
        return 1;
    if (dnn_mem_create(m, md) != tsr_success)
        return 0;
    bench_exec_args_add(args, nargs, TSR_ARG_SCRATCHPAD, m);
    return 1;
}

tsr_data_type_t bench_sum_dt(const bench_attr_t *battr) {
    for (int i = 0; i < battr->n_post_ops; i++)
        if (battr->post_ops[i].kind == tsr_post_op_sum)
            return battr->post_ops[i].dt;
    return tsr_data_type_undef;
}
