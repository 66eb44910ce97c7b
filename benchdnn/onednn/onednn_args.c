/* oneDNN's side of the argument-keyed pipeline (see onednn_args.h and
 * common/bench_args_lib.h). */
#include "onednn/onednn_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_args_lib.h"
#include "common/layout_tag.h"

typedef struct {
    dnnl_primitive_attr_t attr;
    dnnl_primitive_desc_t pd, fwd_pd;
    dnnl_primitive_t prim, fwd_prim;
    /* Wrappers of the harness' buffers: r->mems[i], the scratchpad, the
     * binary post-op inputs. */
    dnnl_memory_t mems[BENCH_ARGS_MAX];
    dnnl_memory_t scratchpad, bin[BENCH_MAX_POST_OPS];
    int nargs, fwd_nargs;
    dnnl_exec_arg_t args[BENCH_EXEC_MAX_ARGS], fwd_args[BENCH_EXEC_MAX_ARGS];
} onednn_state_t;

static onednn_state_t *state(bench_args_run_t *r, res_t *res) {
    if (r->lib_state)
        return r->lib_state;
    if (!onednn_engine() || !onednn_stream())
        bench_set_state(res, STATE_FAILED,
                        "cannot create the oneDNN CPU engine");
    else if (!(r->lib_state = calloc(1, sizeof(onednn_state_t))))
        bench_set_state(res, STATE_SKIPPED, "not enough memory");
    return r->lib_state;
}

static const onednn_state_t *cstate(const bench_args_run_t *r) {
    return r->lib_state;
}

/* ------------------------------------------------------------------------ */
/* What drivers call */

int onednn_args_md(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, res_t *res) {
    char resolved[64];
    bench_resolve_tag(tag, ndims, resolved, sizeof(resolved));
    if (onednn_md_init(md, ndims, dims, dt, resolved, res->reason) == 0)
        return 1;
    res->state = STATE_UNIMPLEMENTED;
    return 0;
}

dnnl_primitive_attr_t onednn_args_attr_shape(bench_args_run_t *r,
                                             const bench_attr_t *attr,
                                             const onednn_attr_shape_t *shape,
                                             res_t *res) {
    onednn_state_t *st = state(r, res);
    if (!st)
        return NULL;
    if (!st->attr &&
        onednn_attr_create(attr, shape, &st->attr, res->reason) != 0) {
        st->attr = NULL;
        res->state = STATE_UNIMPLEMENTED;
    }
    return st->attr;
}

dnnl_primitive_attr_t onednn_args_attr(bench_args_run_t *r,
                                       const bench_attr_t *attr, int ndims,
                                       const int64_t *dims, res_t *res) {
    onednn_attr_shape_t shape;
    memset(&shape, 0, sizeof(shape));
    for (int q = 0; q < QARG_COUNT; q++) {
        shape.ndims[q] = ndims;
        for (int k = 0; k < ndims; k++)
            shape.dims[q][k] = dims[k];
    }
    return onednn_args_attr_shape(r, attr, &shape, res);
}

int onednn_args_create_fwd_pd(bench_args_run_t *r, const_dnnl_op_desc_t op,
                              res_t *res) {
    onednn_state_t *st = state(r, res);
    if (!st)
        return 0;
    const dnnl_status_t s = dnnl_primitive_desc_create(&st->fwd_pd, op, NULL,
                                                       onednn_engine(), NULL);
    if (s != dnnl_success) {
        st->fwd_pd = NULL;
        bench_set_state(res, onednn_status_state(s),
                        "oneDNN forward primitive descriptor: %s",
                        dnnl_status2str(s));
        return 0;
    }
    return 1;
}

int onednn_args_create_pd(bench_args_run_t *r, const_dnnl_op_desc_t op,
                          res_t *res) {
    onednn_state_t *st = state(r, res);
    if (!st || (!st->attr && !onednn_args_attr(r, r->battr, 0, NULL, res)))
        return 0;
    res->state =
            onednn_pd_create(&st->pd, op, st->attr, st->fwd_pd, res->impl_name,
                             sizeof(res->impl_name), res->reason);
    if (res->state != STATE_PASSED)
        return 0;
    res->state = STATE_UNTESTED;
    return 1;
}

int onednn_args_create_pd_with_hint(bench_args_run_t *r,
                                    const_dnnl_op_desc_t fwd,
                                    const_dnnl_op_desc_t op, res_t *res) {
    onednn_state_t *st = state(r, res);
    if (!st || !onednn_args_create_fwd_pd(r, fwd, res))
        return 0;
    const int ok = onednn_args_create_pd(r, op, res);
    /* oneDNN keeps what it needs of the hint in the pd. */
    dnnl_primitive_desc_destroy(st->fwd_pd);
    st->fwd_pd = NULL;
    return ok;
}

int onednn_args_adopt_pd(bench_args_run_t *r, dnnl_primitive_desc_t pd,
                         res_t *res) {
    onednn_state_t *st = state(r, res);
    if (!st) {
        dnnl_primitive_desc_destroy(pd);
        return 0;
    }
    st->pd = pd;
    res->state = onednn_pd_adopt(pd, res->impl_name, sizeof(res->impl_name),
                                 res->reason);
    if (res->state != STATE_PASSED)
        return 0;
    res->state = STATE_UNTESTED;
    return 1;
}

static tsr_data_type_t tsr_dt(dnnl_data_type_t dt) {
    switch (dt) {
    case dnnl_f16:
        return tsr_f16;
    case dnnl_bf16:
        return tsr_bf16;
    case dnnl_f32:
        return tsr_f32;
    case dnnl_s32:
        return tsr_s32;
    case dnnl_s8:
        return tsr_s8;
    case dnnl_u8:
        return tsr_u8;
    default:
        return tsr_data_type_undef;
    }
}

int onednn_md_to_tsr(const dnnl_memory_desc_t *in, tsr_memory_desc_t *out,
                     char *reason) {
    const size_t len = ONEDNN_REASON_LEN;
    memset(out, 0, sizeof(*out));
    if (in->format_kind != dnnl_blocked || in->ndims > TSR_MAX_NDIMS ||
        tsr_dt(in->data_type) == tsr_data_type_undef) {
        snprintf(reason, len, "oneDNN chose a layout the harness cannot read");
        return -1;
    }
    if (in->extra.flags != dnnl_memory_extra_flag_none) {
        snprintf(reason, len,
                 "oneDNN chose a layout with extra data (flags %#x)",
                 (unsigned)in->extra.flags);
        return -1;
    }
    const dnnl_blocking_desc_t *b = &in->format_desc.blocking;
    out->ndims = in->ndims;
    out->data_type = tsr_dt(in->data_type);
    out->offset0 = in->offset0;
    out->format_kind = tsr_format_kind_blocked;
    for (int d = 0; d < in->ndims; d++) {
        out->dims[d] = in->dims[d];
        out->padded_dims[d] = in->padded_dims[d];
        out->padded_offsets[d] = in->padded_offsets[d];
        out->blocking.strides[d] = b->strides[d];
    }
    out->blocking.inner_nblks = b->inner_nblks;
    for (int k = 0; k < b->inner_nblks; k++) {
        out->blocking.inner_blks[k] = b->inner_blks[k];
        out->blocking.inner_idxs[k] = b->inner_idxs[k];
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The pipeline's calls */

static int is_forward(const_dnnl_primitive_desc_t pd, int *training) {
    dnnl_prop_kind_t prop = dnnl_prop_kind_undef;
    /* Sum, concat and reorder have no propagation kind: forward. */
    if (dnnl_primitive_desc_query(pd, dnnl_query_prop_kind, 0, &prop) !=
        dnnl_success)
        prop = dnnl_forward_inference;
    *training = prop == dnnl_forward_training;
    return prop == dnnl_forward_training || prop == dnnl_forward_inference ||
           prop == dnnl_prop_kind_undef;
}

/* Whether a forward-training normalization computes its statistics. */
static int computes_stats(const_dnnl_primitive_desc_t pd) {
    const dnnl_batch_normalization_desc_t *bn = NULL;
    const dnnl_layer_normalization_desc_t *ln = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_batch_normalization_d, 0,
                                  &bn) == dnnl_success &&
        bn)
        return !(bn->flags & dnnl_use_global_stats);
    if (dnnl_primitive_desc_query(pd, dnnl_query_layer_normalization_d, 0,
                                  &ln) == dnnl_success &&
        ln)
        return !(ln->flags & dnnl_use_global_stats);
    return 0;
}

/* oneDNN's queries give descriptors, not directions: what a pd writes
 * follows from its propagation kind. */
static tsr_arg_usage_t usage_of(const_dnnl_primitive_desc_t pd, int arg) {
    int training;
    if (is_forward(pd, &training)) {
        if (arg == DNNL_ARG_DST || arg == DNNL_ARG_WORKSPACE)
            return tsr_arg_output;
        if ((arg == DNNL_ARG_MEAN || arg == DNNL_ARG_VARIANCE) && training &&
            computes_stats(pd))
            return tsr_arg_output;
        return tsr_arg_input;
    }
    switch (arg) {
    case DNNL_ARG_DIFF_SRC:
    case DNNL_ARG_DIFF_SRC_1:
    case DNNL_ARG_DIFF_WEIGHTS:
    case DNNL_ARG_DIFF_BIAS:
    case DNNL_ARG_DIFF_SCALE:
    case DNNL_ARG_DIFF_SHIFT:
        return tsr_arg_output;
    default:
        return tsr_arg_input;
    }
}

static const dnnl_memory_desc_t *arg_md(const_dnnl_primitive_desc_t pd,
                                        int arg) {
    const dnnl_memory_desc_t *md =
            dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
    return md && md->ndims > 0 ? md : NULL;
}

/* An input layout oneDNN keeps to itself (see onednn_md_to_tsr). */
static int owned_layout(const dnnl_memory_desc_t *md) {
    return md->format_kind != dnnl_blocked ||
           md->extra.flags != dnnl_memory_extra_flag_none;
}

/* The harness' plain stand-in of an owned layout: dims and data type. */
static int plain_tsr_md(const dnnl_memory_desc_t *in, tsr_memory_desc_t *out,
                        char *reason) {
    if (in->ndims > TSR_MAX_NDIMS ||
        tsr_memory_desc_init_by_strides(out, in->ndims, in->dims,
                                        tsr_dt(in->data_type),
                                        NULL) != tsr_success) {
        snprintf(reason, ONEDNN_REASON_LEN,
                 "oneDNN chose a layout the harness cannot read");
        return -1;
    }
    return 0;
}

static int lib_has_fwd(const bench_args_run_t *r) {
    return cstate(r) && cstate(r)->fwd_pd;
}

static int lib_arg(const bench_args_run_t *r, int fwd, int arg,
                   tsr_arg_usage_t *usage, tsr_memory_desc_t *md, res_t *res) {
    const onednn_state_t *st = cstate(r);
    const_dnnl_primitive_desc_t pd = fwd ? st->fwd_pd : st->pd;
    const dnnl_memory_desc_t *dmd = arg_md(pd, arg);
    *usage = tsr_arg_unused;
    if (!dmd)
        return 1;
    const tsr_arg_usage_t u = usage_of(pd, arg);
    const int plain = u == tsr_arg_input && owned_layout(dmd);
    if ((plain ? plain_tsr_md(dmd, md, res->reason)
               : onednn_md_to_tsr(dmd, md, res->reason)) != 0) {
        res->state = STATE_UNIMPLEMENTED;
        return 0;
    }
    *usage = u;
    return 1;
}

/* Inputs of an owned layout: oneDNN's memory, filled by its reorder from
 * the plain values (computing the compensation), which also gives back
 * the values the primitive reads (see onednn_mem_from_f32). */
static int lib_store(bench_args_run_t *r, int i, float *values) {
    onednn_state_t *st = r->lib_state;
    const bench_arg_mem_t *m = &r->mems[i];
    const dnnl_memory_desc_t *md =
            arg_md(m->usage ? st->pd : st->fwd_pd, m->arg);
    if (!md || !owned_layout(md))
        return -1;
    char reason[ONEDNN_REASON_LEN];
    return onednn_mem_create(&st->mems[i], md, reason) == 0 &&
           onednn_mem_from_f32(st->mems[i], values, reason) == 0;
}

static size_t pd_bytes(const_dnnl_primitive_desc_t pd) {
    if (!pd)
        return 0;
    size_t bytes = onednn_pd_md_size(pd, dnnl_query_scratchpad_md, 0);
    for (int i = 0; i < bench_arg_id_count(); i++) {
        const dnnl_memory_desc_t *md = arg_md(pd, bench_arg_id(i));
        if (md)
            bytes += dnnl_memory_desc_get_size(md);
    }
    return bytes;
}

static size_t lib_pd_bytes(const bench_args_run_t *r) {
    return pd_bytes(cstate(r)->pd) + pd_bytes(cstate(r)->fwd_pd);
}

static int create_primitive(dnnl_primitive_t *prim,
                            const_dnnl_primitive_desc_t pd, const char *what,
                            res_t *res) {
    const dnnl_status_t s = dnnl_primitive_create(prim, pd);
    if (s == dnnl_success)
        return 1;
    *prim = NULL;
    bench_set_state(res, onednn_status_state(s), "oneDNN %s: %s", what,
                    dnnl_status2str(s));
    return 0;
}

static int lib_create_primitives(bench_args_run_t *r, res_t *res) {
    onednn_state_t *st = r->lib_state;
    return create_primitive(&st->prim, st->pd, "primitive", res) &&
           (!st->fwd_pd || create_primitive(&st->fwd_prim, st->fwd_pd,
                                            "forward primitive", res));
}

static void add_arg(dnnl_exec_arg_t *args, int *n, int arg, dnnl_memory_t mem) {
    if (*n == BENCH_EXEC_MAX_ARGS)
        return;
    args[*n].arg = arg;
    args[*n].memory = mem;
    (*n)++;
}

/* A oneDNN memory over the buffer of `m`. */
static int wrap(dnnl_memory_t *mem, const dnnl_memory_desc_t *md,
                const dnn_mem_t *m) {
    return dnnl_memory_create(mem, md, onednn_engine(), m->data) ==
           dnnl_success;
}

/* A harness buffer for `md` wrapped in *mem (scratchpad, post-op input). */
static int make_mem(dnn_mem_t *m, dnnl_memory_t *mem,
                    const dnnl_memory_desc_t *md, res_t *res) {
    tsr_memory_desc_t tmd;
    return onednn_md_to_tsr(md, &tmd, res->reason) == 0 &&
           dnn_mem_create(m, &tmd) == tsr_success && wrap(mem, md, m);
}

static int bind_binary_post_ops(bench_args_run_t *r,
                                const bench_args_ops_t *ops, res_t *res) {
    onednn_state_t *st = r->lib_state;
    const bench_attr_t *a = r->battr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_binary)
            continue;
        const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1;
        const dnnl_memory_desc_t *md = arg_md(st->pd, arg);
        dnn_mem_t *m = &r->attr_mems.bin[i];
        if (!md || !make_mem(m, &st->bin[i], md, res))
            return 0;
        const int64_t n = tsr_memory_desc_nelems(&m->md);
        if (!(r->bin_f32[i] = bench_alloc_f32(n)))
            return 0;
        ops->fill_binary_src1(a->post_ops[i].alg, m->md.data_type, i,
                              r->bin_f32[i], n);
        dnn_mem_from_f32(m, r->bin_f32[i]);
        dnn_mem_to_f32(m, r->bin_f32[i]);
        add_arg(st->args, &st->nargs, arg, st->bin[i]);
    }
    return 1;
}

static int lib_bind(bench_args_run_t *r, const bench_args_ops_t *ops,
                    res_t *res) {
    onednn_state_t *st = r->lib_state;
    for (int i = 0; i < r->nmems; i++) {
        const bench_arg_mem_t *m = &r->mems[i];
        const dnn_mem_t *buf = m->alias >= 0 ? &r->mems[m->alias].mem : &m->mem;
        const dnnl_memory_desc_t *md =
                arg_md(m->usage ? st->pd : st->fwd_pd, m->arg);
        if (!md || (!st->mems[i] && !wrap(&st->mems[i], md, buf)))
            return 0;
        if (m->usage != tsr_arg_unused)
            add_arg(st->args, &st->nargs, m->arg, st->mems[i]);
        if (m->fwd_usage != tsr_arg_unused)
            add_arg(st->fwd_args, &st->fwd_nargs, m->arg, st->mems[i]);
    }
    if (r->battr->scratchpad_user &&
        onednn_pd_md_size(st->pd, dnnl_query_scratchpad_md, 0) > 0) {
        const dnnl_memory_desc_t *md = dnnl_primitive_desc_query_md(
                st->pd, dnnl_query_scratchpad_md, 0);
        if (!make_mem(&r->scratchpad, &st->scratchpad, md, res))
            return 0;
        add_arg(st->args, &st->nargs, DNNL_ARG_SCRATCHPAD, st->scratchpad);
    }
    return bind_binary_post_ops(r, ops, res);
}

static int lib_execute(const bench_args_run_t *r, int fwd, char *why,
                       size_t len) {
    const onednn_state_t *st = cstate(r);
    dnnl_status_t s = dnnl_primitive_execute(
            fwd ? st->fwd_prim : st->prim, onednn_stream(),
            fwd ? st->fwd_nargs : st->nargs, fwd ? st->fwd_args : st->args);
    if (s == dnnl_success)
        s = dnnl_stream_wait(onednn_stream());
    if (s == dnnl_success)
        return 1;
    snprintf(why, len, "oneDNN: %s", dnnl_status2str(s));
    return 0;
}

static void lib_release(bench_args_run_t *r) {
    onednn_state_t *st = r->lib_state;
    if (!st)
        return;
    for (int i = 0; i < BENCH_ARGS_MAX; i++)
        if (st->mems[i])
            dnnl_memory_destroy(st->mems[i]);
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++)
        if (st->bin[i])
            dnnl_memory_destroy(st->bin[i]);
    if (st->scratchpad)
        dnnl_memory_destroy(st->scratchpad);
    if (st->prim)
        dnnl_primitive_destroy(st->prim);
    if (st->fwd_prim)
        dnnl_primitive_destroy(st->fwd_prim);
    if (st->pd)
        dnnl_primitive_desc_destroy(st->pd);
    if (st->fwd_pd)
        dnnl_primitive_desc_destroy(st->fwd_pd);
    if (st->attr)
        dnnl_primitive_attr_destroy(st->attr);
    free(st);
    r->lib_state = NULL;
}

const bench_args_lib_t bench_args_onednn_lib = {
        .has_fwd = lib_has_fwd,
        .arg = lib_arg,
        .pd_bytes = lib_pd_bytes,
        .store = lib_store,
        .create_primitives = lib_create_primitives,
        .bind = lib_bind,
        .execute = lib_execute,
        .release = lib_release,
};
