/* oneDNN side of the harness: engine, types, tags, attributes, memories
 * and implementation selection (see onednn_common.h). */
#include "onednn/onednn_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"

static dnnl_engine_t engine;
static dnnl_stream_t stream;

static void set_reason(char *reason, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));

static void set_reason(char *reason, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(reason, ONEDNN_REASON_LEN, fmt, args);
    va_end(args);
}

dnnl_engine_t onednn_engine(void) {
    if (engine)
        return engine;
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success)
        engine = NULL;
    else
        atexit(onednn_release); /* main knows nothing of oneDNN */
    return engine;
}

dnnl_stream_t onednn_stream(void) {
    if (!stream && onednn_engine() &&
        dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) !=
                dnnl_success)
        stream = NULL;
    return stream;
}

void onednn_release(void) {
    if (stream)
        dnnl_stream_destroy(stream);
    if (engine)
        dnnl_engine_destroy(engine);
    stream = NULL;
    engine = NULL;
}

res_state_t onednn_status_state(dnnl_status_t st) {
    return st == dnnl_unimplemented   ? STATE_UNIMPLEMENTED
           : st == dnnl_out_of_memory ? STATE_SKIPPED
                                      : STATE_INVALID_ARGUMENTS;
}

dnnl_data_type_t onednn_dt(tsr_data_type_t dt) {
    switch (dt) {
    case tsr_f16:
        return dnnl_f16;
    case tsr_bf16:
        return dnnl_bf16;
    case tsr_f32:
        return dnnl_f32;
    case tsr_s32:
        return dnnl_s32;
    case tsr_s8:
        return dnnl_s8;
    case tsr_u8:
        return dnnl_u8;
    default:
        return dnnl_data_type_undef;
    }
}

/* ------------------------------------------------------------------------ */
/* Format tags */

/* Tessera's letter form of `tag` for rank `ndims`. Dims of 128 keep every
 * stride distinct, so the letter order is unambiguous. */
static int tag_letters(const char *tag, int ndims, char *buf, size_t len) {
    tsr_dims_t dims;
    for (int d = 0; d < ndims; d++)
        dims[d] = 128;
    tsr_memory_desc_t md;
    return tsr_memory_desc_init_by_tag(&md, ndims, dims, tsr_f32, tag) ==
                                   tsr_success &&
                           tsr_memory_desc_layout_str(&md, buf, len) ==
                                   tsr_success
                   ? 0
                   : -1;
}

static int find_onednn_tag(const char *letters, dnnl_format_tag_t *out) {
    for (int t = dnnl_format_tag_undef + 1; t < dnnl_format_tag_last; t++) {
        if (t == dnnl_format_tag_any)
            continue;
        const char *name = dnnl_fmt_tag2str((dnnl_format_tag_t)t);
        if (name && strcmp(name, letters) == 0) {
            *out = (dnnl_format_tag_t)t;
            return 0;
        }
    }
    return -1;
}

/* A plain layout oneDNN has no tag for, by the strides Tessera gives it;
 * dnnl_unimplemented for a blocked one. */
static dnnl_status_t plain_by_strides(dnnl_memory_desc_t *md, int ndims,
                                      const dnnl_dims_t dims,
                                      dnnl_data_type_t dt, const char *tag) {
    tsr_memory_desc_t tmd;
    if (tsr_memory_desc_init_by_tag(&tmd, ndims, dims, tsr_f32, tag) !=
                tsr_success ||
        tmd.blocking.inner_nblks != 0)
        return dnnl_unimplemented;
    dnnl_dims_t strides;
    for (int i = 0; i < ndims; i++)
        strides[i] = tmd.blocking.strides[i];
    return dnnl_memory_desc_init_by_strides(md, ndims, dims, dt, strides);
}

int onednn_md_init(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, char *reason) {
    dnnl_dims_t d;
    for (int i = 0; i < ndims; i++)
        d[i] = dims[i];
    dnnl_format_tag_t dnnl_tag = dnnl_format_tag_any;
    char letters[256] = "any";
    if (strcmp(tag, "any") != 0 &&
        tag_letters(tag, ndims, letters, sizeof(letters)) != 0) {
        set_reason(reason, "tag %s does not describe a %d-dimensional tensor",
                   tag, ndims);
        return -1;
    }
    dnnl_status_t st;
    if (strcmp(tag, "any") == 0 || find_onednn_tag(letters, &dnnl_tag) == 0)
        st = dnnl_memory_desc_init_by_tag(md, ndims, d, onednn_dt(dt),
                                          dnnl_tag);
    else if ((st = plain_by_strides(md, ndims, d, onednn_dt(dt), tag)) ==
             dnnl_unimplemented) {
        set_reason(reason, "oneDNN %d.%d has no format tag %s%s%s%s",
                   DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, letters,
                   strcmp(letters, tag) ? " (" : "",
                   strcmp(letters, tag) ? tag : "",
                   strcmp(letters, tag) ? ")" : "");
        return -1;
    }
    if (st != dnnl_success) {
        set_reason(reason, "memory descriptor (%s, tag %s): %s",
                   tsr_data_type2str(dt), tag, dnnl_status2str(st));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Attributes */

dnnl_alg_kind_t onednn_eltwise_alg(tsr_alg_kind_t alg, float alpha,
                                   float beta) {
    static const struct {
        tsr_alg_kind_t tsr;
        dnnl_alg_kind_t dnnl;
    } algs[] = {
            {tsr_eltwise_relu, dnnl_eltwise_relu},
            {tsr_eltwise_tanh, dnnl_eltwise_tanh},
            {tsr_eltwise_elu, dnnl_eltwise_elu},
            {tsr_eltwise_square, dnnl_eltwise_square},
            {tsr_eltwise_abs, dnnl_eltwise_abs},
            {tsr_eltwise_sqrt, dnnl_eltwise_sqrt},
            {tsr_eltwise_linear, dnnl_eltwise_linear},
            {tsr_eltwise_bounded_relu, dnnl_eltwise_bounded_relu},
            {tsr_eltwise_soft_relu, dnnl_eltwise_soft_relu},
            {tsr_eltwise_logistic, dnnl_eltwise_logistic},
            {tsr_eltwise_exp, dnnl_eltwise_exp},
            {tsr_eltwise_gelu_tanh, dnnl_eltwise_gelu_tanh},
            {tsr_eltwise_swish, dnnl_eltwise_swish},
            {tsr_eltwise_log, dnnl_eltwise_log},
            {tsr_eltwise_clip, dnnl_eltwise_clip},
            {tsr_eltwise_clip_v2, dnnl_eltwise_clip_v2},
            {tsr_eltwise_pow, dnnl_eltwise_pow},
            {tsr_eltwise_gelu_erf, dnnl_eltwise_gelu_erf},
            {tsr_eltwise_round, dnnl_eltwise_round},
            {tsr_eltwise_logsigmoid, dnnl_eltwise_logsigmoid},
            {tsr_eltwise_mish, dnnl_eltwise_mish},
            {tsr_eltwise_relu_use_dst_for_bwd,
             dnnl_eltwise_relu_use_dst_for_bwd},
            {tsr_eltwise_tanh_use_dst_for_bwd,
             dnnl_eltwise_tanh_use_dst_for_bwd},
            {tsr_eltwise_elu_use_dst_for_bwd, dnnl_eltwise_elu_use_dst_for_bwd},
            {tsr_eltwise_sqrt_use_dst_for_bwd,
             dnnl_eltwise_sqrt_use_dst_for_bwd},
            {tsr_eltwise_logistic_use_dst_for_bwd,
             dnnl_eltwise_logistic_use_dst_for_bwd},
            {tsr_eltwise_exp_use_dst_for_bwd, dnnl_eltwise_exp_use_dst_for_bwd},
            {tsr_eltwise_clip_v2_use_dst_for_bwd,
             dnnl_eltwise_clip_v2_use_dst_for_bwd},
    };
    /* oneDNN 2.6's soft_relu has no parameter: log(1 + e^x), what alpha 1
     * (or 0, the v2 spelling) means. */
    if (alg == tsr_eltwise_soft_relu && alpha != 1.f && alpha != 0.f)
        return dnnl_alg_kind_undef;
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
        if (algs[i].tsr == alg)
            return algs[i].dnnl;
    /* oneDNN 2.6's hardswish has no parameters: x * relu6(x + 3) / 6. */
    if (alg == tsr_eltwise_hardswish && alpha == 1.f / 6 && beta == 0.5f)
        return dnnl_eltwise_hardswish;
    return dnnl_alg_kind_undef;
}

dnnl_alg_kind_t onednn_binary_alg(tsr_alg_kind_t alg) {
    return alg >= tsr_binary_add && alg <= tsr_binary_ne
                   ? (dnnl_alg_kind_t)(dnnl_binary_add + (alg - tsr_binary_add))
                   : dnnl_alg_kind_undef;
}

static int append_post_op(dnnl_post_ops_t ops, const bench_post_op_t *po,
                          const onednn_attr_shape_t *shape, char *reason) {
    dnnl_status_t st = dnnl_unimplemented;
    if (po->kind == tsr_post_op_sum) {
        st = dnnl_post_ops_append_sum_v3(ops, po->scale, po->zero_point,
                                         onednn_dt(po->dt));
    } else if (po->kind == tsr_post_op_eltwise) {
        const dnnl_alg_kind_t alg =
                onednn_eltwise_alg(po->alg, po->alpha, po->beta);
        if (alg == dnnl_alg_kind_undef) {
            set_reason(reason, "oneDNN 2.6 has no post-op eltwise %s%s",
                       tsr_alg_kind2str(po->alg),
                       po->alg == tsr_eltwise_hardswish
                               ? " with alpha and beta other than 1/6, 1/2"
                               : "");
            return -1;
        }
        st = dnnl_post_ops_append_eltwise(ops, po->scale, alg, po->alpha,
                                          po->beta);
    } else if (po->kind == tsr_post_op_binary) {
        const int dn = shape->ndims[QARG_DST];
        int64_t dims[TSR_MAX_NDIMS];
        attr_binary_src1_dims(po->policy, dn, shape->data_oc_last,
                              shape->dims[QARG_DST], dims);
        dnnl_memory_desc_t md;
        const char *tag = po->tag[0] ? po->tag : "any";
        if (onednn_md_init(&md, dn, dims, po->dt, tag, reason) != 0)
            return -1;
        if (md.format_kind == dnnl_format_kind_any) {
            /* "any" for src1 means plain (dense row-major). */
            dnnl_dims_t d;
            for (int i = 0; i < dn; i++)
                d[i] = dims[i];
            dnnl_memory_desc_init_by_strides(&md, dn, d, onednn_dt(po->dt),
                                             NULL);
        }
        st = dnnl_post_ops_append_binary(ops, onednn_binary_alg(po->alg), &md);
    } else if (po->kind == tsr_post_op_prelu) {
        /* The harness makes no prelu weights memory for oneDNN yet. */
        set_reason(reason, "post-op prelu is not compared with oneDNN yet");
        return -1;
    }
    if (st != dnnl_success) {
        set_reason(reason, "post-op %s: %s",
                   po->text[0] ? po->text : tsr_alg_kind2str(po->alg),
                   dnnl_status2str(st));
        return -1;
    }
    return 0;
}

static int set_post_ops(dnnl_primitive_attr_t a, const bench_attr_t *attr,
                        const onednn_attr_shape_t *shape, char *reason) {
    dnnl_post_ops_t ops;
    if (dnnl_post_ops_create(&ops) != dnnl_success) {
        set_reason(reason, "cannot create oneDNN post-ops");
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < attr->n_post_ops && rc == 0; i++)
        rc = append_post_op(ops, &attr->post_ops[i], shape, reason);
    if (rc == 0 && dnnl_primitive_attr_set_post_ops(a, ops) != dnnl_success) {
        set_reason(reason, "oneDNN rejected the post-ops");
        rc = -1;
    }
    dnnl_post_ops_destroy(ops);
    return rc;
}

/* Room for `count` attribute values of `size` bytes: allocated only when
 * the byte count fits and passes the memory check (the count comes from
 * user dims); NULL with the reason otherwise. */
static void *alloc_values(int64_t count, size_t size, const char *what,
                          char *reason) {
    const size_t bytes = bench_bytes_sat(count, size);
    res_t unfit;
    if (bytes == SIZE_MAX || !bench_mem_check(bytes, &unfit)) {
        set_reason(reason, "%lld %s values: not enough memory",
                   (long long)count, what);
        return NULL;
    }
    void *values = malloc(bytes);
    if (!values)
        set_reason(reason, "%lld %s values: out of memory", (long long)count,
                   what);
    return values;
}

/* Output scales from values attr_scale_value gives over `count` points. */
static int set_output_scales(dnnl_primitive_attr_t a, int64_t count, int mask,
                             const float *values, char *reason) {
    const dnnl_status_t st =
            dnnl_primitive_attr_set_output_scales(a, count, mask, values);
    if (st != dnnl_success) {
        set_reason(reason, "output scales: %s", dnnl_status2str(st));
        return -1;
    }
    return 0;
}

static int set_legacy_oscale(dnnl_primitive_attr_t a, const bench_scale_t *s,
                             const onednn_attr_shape_t *shape, char *reason) {
    const int dn = shape->ndims[QARG_DST];
    const int mask = attr_policy_mask(s->policy, QARG_DST, dn,
                                      shape->wei_oc_mask, shape->data_oc_last);
    const int64_t count = attr_mask_count(mask, dn, shape->dims[QARG_DST]);
    float *values = alloc_values(count, sizeof(float), "output scale", reason);
    if (!values)
        return -1;
    for (int64_t i = 0; i < count; i++)
        values[i] = attr_scale_value(s, i);
    const int rc = set_output_scales(a, count, mask, values, reason);
    free(values);
    return rc;
}

/* v3.x scales as 2.x output scales: acc * src * wei[oc] / dst[oc] with the
 * same result only when nothing sits between the scales (see header). */
static int set_arg_scales(dnnl_primitive_attr_t a, const bench_attr_t *attr,
                          const onednn_attr_shape_t *shape, char *reason) {
    const bench_scale_t *src = &attr->scales[QARG_SRC],
                        *wei = &attr->scales[QARG_WEI],
                        *dst = &attr->scales[QARG_DST];
    const char *why = NULL;
    if (attr->oscale.set)
        why = "both --attr-oscale and --attr-scales";
    else if (shape->with_bias && (src->set || wei->set))
        why = "src or weights scales with a bias (2.x scales the bias too)";
    else if (dst->set && attr->n_post_ops > 0)
        why = "dst scales with post-ops (2.x scales before the post-ops)";
    else if (src->set && src->policy != POLICY_COMMON)
        why = "src scales other than common";
    else if (wei->set && wei->policy != POLICY_COMMON &&
             wei->policy != POLICY_PER_OC)
        why = "weights scales other than common or per_oc";
    else if (dst->set && dst->policy != POLICY_COMMON &&
             dst->policy != POLICY_PER_OC)
        why = "dst scales other than common or per_oc";
    if (why) {
        set_reason(reason, "oneDNN 2.6 cannot express %s", why);
        return -1;
    }
    const int per_oc = (wei->set && wei->policy == POLICY_PER_OC) ||
                       (dst->set && dst->policy == POLICY_PER_OC);
    const int dn = shape->ndims[QARG_DST];
    const int mask = per_oc ? shape->dst_oc_mask : 0;
    const int64_t count = attr_mask_count(mask, dn, shape->dims[QARG_DST]);
    float *values = alloc_values(count, sizeof(float), "scale", reason);
    if (!values)
        return -1;
    /* Per-oc weights values are indexed by output channel (with groups
     * the (g, oc) mask flattens to the same index). */
    for (int64_t oc = 0; oc < count; oc++) {
        float v = 1.f;
        if (src->set)
            v *= attr_scale_value(src, 0);
        if (wei->set)
            v *= attr_scale_value(wei, oc);
        if (dst->set)
            v /= attr_scale_value(dst, oc);
        values[oc] = v;
    }
    const int rc = set_output_scales(a, count, mask, values, reason);
    free(values);
    return rc;
}

static int set_zero_points(dnnl_primitive_attr_t a, const bench_attr_t *attr,
                           const onednn_attr_shape_t *shape, char *reason) {
    static const int args[QARG_COUNT] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS,
                                         DNNL_ARG_DST};
    for (int q = 0; q < QARG_COUNT; q++) {
        const bench_zp_t *z = &attr->zero_points[q];
        if (!z->set)
            continue;
        const int mask =
                attr_policy_mask(z->policy, (bench_qarg_t)q, shape->ndims[q],
                                 shape->wei_oc_mask, shape->data_oc_last);
        const int64_t count =
                attr_mask_count(mask, shape->ndims[q], shape->dims[q]);
        int32_t *values =
                alloc_values(count, sizeof(int32_t), "zero point", reason);
        if (!values)
            return -1;
        for (int64_t i = 0; i < count; i++)
            values[i] = attr_zp_value(z, i);
        const dnnl_status_t st = dnnl_primitive_attr_set_zero_points(
                a, args[q], count, mask, values);
        free(values);
        if (st != dnnl_success) {
            set_reason(reason,
                       "oneDNN rejected the %s zero points (mask %d): %s",
                       q == QARG_SRC   ? "src"
                       : q == QARG_WEI ? "weights"
                                       : "dst",
                       mask, dnnl_status2str(st));
            return -1;
        }
    }
    return 0;
}

static int fill_attr(dnnl_primitive_attr_t a, const bench_attr_t *attr,
                     const onednn_attr_shape_t *shape, char *reason) {
    if (attr->round_mode != tsr_round_nearest) {
        set_reason(reason, "oneDNN 2.6 has no --attr-round-mode");
        return -1;
    }
    if (attr->scratchpad_user &&
        dnnl_primitive_attr_set_scratchpad_mode(a, dnnl_scratchpad_mode_user) !=
                dnnl_success) {
        set_reason(reason, "oneDNN rejected the user scratchpad mode");
        return -1;
    }
    if (attr->oscale.set &&
        set_legacy_oscale(a, &attr->oscale, shape, reason) != 0)
        return -1;
    const int any_scales = attr->scales[QARG_SRC].set ||
                           attr->scales[QARG_WEI].set ||
                           attr->scales[QARG_DST].set;
    if (any_scales && set_arg_scales(a, attr, shape, reason) != 0)
        return -1;
    if (set_zero_points(a, attr, shape, reason) != 0)
        return -1;
    return attr->n_post_ops > 0 ? set_post_ops(a, attr, shape, reason) : 0;
}

int onednn_attr_create(const bench_attr_t *attr,
                       const onednn_attr_shape_t *shape,
                       dnnl_primitive_attr_t *out, char *reason) {
    dnnl_primitive_attr_t a;
    if (dnnl_primitive_attr_create(&a) != dnnl_success) {
        set_reason(reason, "cannot create oneDNN attributes");
        return -1;
    }
    if (fill_attr(a, attr, shape, reason) != 0) {
        dnnl_primitive_attr_destroy(a);
        return -1;
    }
    *out = a;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Memories */

int onednn_mem_create(dnnl_memory_t *mem, const dnnl_memory_desc_t *md,
                      char *reason) {
    const dnnl_status_t st =
            dnnl_memory_create(mem, md, onednn_engine(), DNNL_MEMORY_ALLOCATE);
    if (st != dnnl_success) {
        *mem = NULL;
        set_reason(reason, "oneDNN memory: %s", dnnl_status2str(st));
        return -1;
    }
    return 0;
}

/* Runs a oneDNN reorder from (from_md, from) to (to_md, to). */
static int reorder(const dnnl_memory_desc_t *from_md, void *from,
                   const dnnl_memory_desc_t *to_md, void *to, char *reason) {
    dnnl_memory_t src = NULL, dst = NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_status_t st = dnnl_memory_create(&src, from_md, onednn_engine(), from);
    if (st == dnnl_success)
        st = dnnl_memory_create(&dst, to_md, onednn_engine(), to);
    if (st == dnnl_success)
        st = dnnl_reorder_primitive_desc_create(&pd, from_md, onednn_engine(),
                                                to_md, onednn_engine(), NULL);
    if (st == dnnl_success)
        st = dnnl_primitive_create(&prim, pd);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}};
        st = dnnl_primitive_execute(prim, onednn_stream(), 2, args);
    }
    if (st == dnnl_success)
        st = dnnl_stream_wait(onednn_stream());
    if (prim)
        dnnl_primitive_destroy(prim);
    if (pd)
        dnnl_primitive_desc_destroy(pd);
    if (dst)
        dnnl_memory_destroy(dst);
    if (src)
        dnnl_memory_destroy(src);
    if (st != dnnl_success) {
        set_reason(reason, "oneDNN reorder %s -> %s: %s",
                   dnnl_dt2str(from_md->data_type),
                   dnnl_dt2str(to_md->data_type), dnnl_status2str(st));
        return -1;
    }
    return 0;
}

/* mem's descriptor and buffer. */
static int mem_parts(dnnl_memory_t mem, dnnl_memory_desc_t *md, void **handle,
                     char *reason) {
    const dnnl_memory_desc_t *md_ptr;
    if (dnnl_memory_get_memory_desc(mem, &md_ptr) != dnnl_success ||
        dnnl_memory_get_data_handle(mem, handle) != dnnl_success) {
        set_reason(reason, "cannot query a oneDNN memory");
        return -1;
    }
    *md = *md_ptr;
    return 0;
}

int64_t onednn_md_nelems(const dnnl_memory_desc_t *md) {
    return bench_prod_i64_sat(md->dims, md->ndims);
}

/* Dense row-major descriptor of md's dims with data type `dt`. */
static int plain_md(const dnnl_memory_desc_t *md, dnnl_data_type_t dt,
                    dnnl_memory_desc_t *out, char *reason) {
    if (dnnl_memory_desc_init_by_strides(out, md->ndims, md->dims, dt, NULL) !=
        dnnl_success) {
        set_reason(reason, "cannot describe a plain oneDNN memory");
        return -1;
    }
    return 0;
}

int onednn_mem_from_f32(dnnl_memory_t mem, float *values, char *reason) {
    dnnl_memory_desc_t md, f32_md, dt_md;
    void *handle;
    if (mem_parts(mem, &md, &handle, reason) != 0 ||
        plain_md(&md, dnnl_f32, &f32_md, reason) != 0 ||
        plain_md(&md, md.data_type, &dt_md, reason) != 0)
        return -1;
    const size_t typed_bytes =
            bench_add_size_sat(dnnl_memory_desc_get_size(&dt_md), 1);
    void *typed = typed_bytes == SIZE_MAX ? NULL : malloc(typed_bytes);
    if (!typed) {
        set_reason(reason, "out of memory");
        return -1;
    }
    /* oneDNN's s8-source kernels without VNNI store the weights scaled by
     * scale_adjust (0.5, against overflow) and undo it on the result:
     * values that are multiples of 1 / scale_adjust stay exact. */
    if (md.extra.flags & dnnl_memory_extra_flag_scale_adjust) {
        const float adjust = md.extra.scale_adjust;
        const int64_t n = onednn_md_nelems(&md);
        for (int64_t i = 0; i < n; i++)
            values[i] = nearbyintf(values[i] * adjust) / adjust;
    }
    /* Through a plain memory of mem's type: the values read back are what
     * mem holds, without the scaling above, which only the primitive
     * itself undoes. */
    int rc = reorder(&f32_md, values, &dt_md, typed, reason);
    if (rc == 0)
        rc = reorder(&dt_md, typed, &f32_md, values, reason);
    if (rc == 0)
        rc = reorder(&dt_md, typed, &md, handle, reason);
    free(typed);
    return rc;
}

int onednn_mem_to_f32_as(dnnl_memory_t mem, dnnl_data_type_t dt, float *dst,
                         char *reason) {
    dnnl_memory_desc_t md, f32_md;
    void *handle;
    if (mem_parts(mem, &md, &handle, reason) != 0 ||
        plain_md(&md, dnnl_f32, &f32_md, reason) != 0)
        return -1;
    md.data_type = dt;
    return reorder(&md, handle, &f32_md, dst, reason);
}

int onednn_mem_to_f32(dnnl_memory_t mem, float *dst, char *reason) {
    dnnl_memory_desc_t md;
    void *handle;
    if (mem_parts(mem, &md, &handle, reason) != 0)
        return -1;
    return onednn_mem_to_f32_as(mem, md.data_type, dst, reason);
}

/* ------------------------------------------------------------------------ */
/* Implementations */

res_state_t onednn_pd_create(dnnl_primitive_desc_t *pd, const_dnnl_op_desc_t op,
                             const_dnnl_primitive_attr_t attr,
                             const_dnnl_primitive_desc_t hint, char *impl_name,
                             size_t len, char *reason) {
    *pd = NULL;
    dnnl_primitive_desc_iterator_t it;
    dnnl_status_t st = dnnl_primitive_desc_iterator_create(
            &it, op, attr, onednn_engine(), hint);
    if (st != dnnl_success) {
        set_reason(reason, "oneDNN primitive descriptor: %s",
                   dnnl_status2str(st));
        return onednn_status_state(st);
    }
    res_state_t state = STATE_SKIPPED;
    set_reason(reason, "skip-impl option hit");
    do {
        dnnl_primitive_desc_t candidate =
                dnnl_primitive_desc_iterator_fetch(it);
        const char *name = NULL;
        if (!candidate)
            break;
        if (dnnl_primitive_desc_query(candidate, dnnl_query_impl_info_str, 0,
                                      &name) != dnnl_success)
            name = "unknown";
        snprintf(impl_name, len, "onednn:%s", name);
        if (bench_impl_allowed(impl_name)) {
            *pd = candidate;
            state = STATE_PASSED;
            reason[0] = '\0';
            break;
        }
        dnnl_primitive_desc_destroy(candidate);
    } while (dnnl_primitive_desc_iterator_next(it) == dnnl_success);
    dnnl_primitive_desc_iterator_destroy(it);
    if (state != STATE_PASSED)
        impl_name[0] = '\0';
    return state;
}

res_state_t onednn_pd_adopt(dnnl_primitive_desc_t pd, char *impl_name,
                            size_t len, char *reason) {
    const char *name = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name) !=
        dnnl_success)
        name = "unknown";
    snprintf(impl_name, len, "onednn:%s", name);
    if (bench_impl_allowed(impl_name))
        return STATE_PASSED;
    impl_name[0] = '\0';
    set_reason(reason, "skip-impl option hit");
    return STATE_SKIPPED;
}

size_t onednn_pd_md_size(const_dnnl_primitive_desc_t pd, dnnl_query_t what,
                         int index) {
    const dnnl_memory_desc_t *md =
            dnnl_primitive_desc_query_md(pd, what, index);
    return md ? dnnl_memory_desc_get_size(md) : 0;
}
