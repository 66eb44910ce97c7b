/* The convolution driver's oneDNN path: the problem as a oneDNN 2.x
 * convolution, filled with the same values as Tessera's run, checked by
 * the same reference and comparison, timed by the same timer. oneDNN's
 * dilation counts from 0 as the descriptor's does, so it passes through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_run.h"
#include "common/timer.h"
#include "conv/conv.h"
#include "onednn/onednn.h"
#include "onednn/onednn_common.h"

#define MAX_EXEC_ARGS (8 + BENCH_MAX_POST_OPS)

/* Everything one problem owns; zero-initialized, cleanup frees what is
 * set. */
typedef struct {
    const conv_prb_t *p;
    dnnl_primitive_attr_t attr;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t src, wei, bia, dst, scratchpad;
    dnnl_memory_t bin[BENCH_MAX_POST_OPS];
    bench_f32_t f;
    int nargs;
    dnnl_exec_arg_t args[MAX_EXEC_ARGS];
} conv_onednn_t;

static void cleanup(conv_onednn_t *r) {
    dnnl_memory_t mems[] = {r->src, r->wei, r->bia, r->dst, r->scratchpad};
    for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        if (mems[i])
            dnnl_memory_destroy(mems[i]);
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++)
        if (r->bin[i])
            dnnl_memory_destroy(r->bin[i]);
    bench_f32_free(&r->f);
    if (r->prim)
        dnnl_primitive_destroy(r->prim);
    if (r->pd)
        dnnl_primitive_desc_destroy(r->pd);
    if (r->attr)
        dnnl_primitive_attr_destroy(r->attr);
}

/* ------------------------------------------------------------------------ */
/* Creation */

static int init_md(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, res_t *res) {
    char resolved[64];
    bench_resolve_tag(tag, ndims, resolved, sizeof(resolved));
    if (onednn_md_init(md, ndims, dims, dt, resolved, res->reason) == 0)
        return 1;
    res->state = STATE_UNIMPLEMENTED;
    return 0;
}

static int create_pd(conv_onednn_t *r, res_t *res) {
    const conv_prb_t *p = r->p;
    const conv_desc_t *d = &p->desc;
    onednn_attr_shape_t shape;
    memset(&shape, 0, sizeof(shape));
    shape.ndims[QARG_SRC] = conv_src_dims(p, shape.dims[QARG_SRC]);
    shape.ndims[QARG_WEI] = conv_wei_dims(p, shape.dims[QARG_WEI]);
    shape.ndims[QARG_DST] = conv_dst_dims(p, shape.dims[QARG_DST]);
    shape.wei_oc_mask = conv_wei_oc_mask(p);
    shape.dst_oc_mask = 1 << 1;
    shape.with_bias = conv_prb_with_bias(p);

    dnnl_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!init_md(&src_md, shape.ndims[QARG_SRC], shape.dims[QARG_SRC],
                 p->cfg.src, p->stag, res) ||
        !init_md(&wei_md, shape.ndims[QARG_WEI], shape.dims[QARG_WEI],
                 p->cfg.wei, p->wtag, res) ||
        !init_md(&dst_md, shape.ndims[QARG_DST], shape.dims[QARG_DST],
                 p->cfg.dst, p->dtag, res))
        return 0;
    if (shape.with_bias && !init_md(&bia_md, 1, &d->oc, p->bia.dt, "a", res))
        return 0;

    /* The spatial parameters the problem has: the last ndims - 2. */
    const int first = CONV_NSPATIAL - (d->ndims - 2);
    const dnnl_alg_kind_t algs[] = {dnnl_convolution_direct,
                                    dnnl_convolution_winograd,
                                    dnnl_convolution_auto};
    /* oneDNN reads its parameters as full dnnl_dims_t arrays. */
    dnnl_dims_t strides = {0}, dilates = {0}, pad_l = {0}, pad_r = {0};
    for (int i = first; i < CONV_NSPATIAL; i++) {
        strides[i - first] = d->str[i];
        dilates[i - first] = d->dil[i];
        pad_l[i - first] = d->pad[i];
        pad_r[i - first] = d->pad_r[i];
    }
    dnnl_convolution_desc_t cd;
    const dnnl_status_t st = dnnl_dilated_convolution_forward_desc_init(
            &cd,
            p->dir == CONV_FWD_I ? dnnl_forward_inference
                                 : dnnl_forward_training,
            algs[p->alg], &src_md, &wei_md, shape.with_bias ? &bia_md : NULL,
            &dst_md, strides, dilates, pad_l, pad_r);
    if (st != dnnl_success) {
        bench_set_state(res, onednn_status_state(st),
                        "convolution descriptor: %s", dnnl_status2str(st));
        return 0;
    }
    if (onednn_attr_create(&p->attr, &shape, &r->attr, res->reason) != 0) {
        r->attr = NULL;
        res->state = STATE_UNIMPLEMENTED;
        return 0;
    }
    res->state = onednn_pd_create(&r->pd, &cd, r->attr, res->impl_name,
                                  sizeof(res->impl_name), res->reason);
    if (res->state != STATE_PASSED)
        return 0;
    res->state = STATE_UNTESTED;
    return 1;
}

static size_t md_size(const conv_onednn_t *r, dnnl_query_t q, int index) {
    return onednn_pd_md_size(r->pd, q, index);
}

/* Bytes the problem needs: oneDNN's memories and the harness' f32 copies
 * (inputs, dst before, reference, result). */
static size_t memory_estimate(const conv_onednn_t *r) {
    const conv_prb_t *p = r->p;
    const size_t bytes = md_size(r, dnnl_query_src_md, 0) +
                         md_size(r, dnnl_query_weights_md, 0) +
                         md_size(r, dnnl_query_weights_md, 1) +
                         md_size(r, dnnl_query_dst_md, 0) +
                         md_size(r, dnnl_query_scratchpad_md, 0);
    const double f32_elems = (double)conv_src_nelems(p) +
                             (double)conv_wei_nelems(p) + (double)p->desc.oc +
                             4.0 * (double)conv_dst_nelems(p);
    return bytes + (size_t)(f32_elems * sizeof(float));
}

/* ------------------------------------------------------------------------ */
/* Memories and fills */

static void add_arg(conv_onednn_t *r, int arg, dnnl_memory_t mem) {
    r->args[r->nargs].arg = arg;
    r->args[r->nargs].memory = mem;
    r->nargs++;
}

/* Creates the memory the pd asks for at (q, index), fills it per `kind`
 * (the values Tessera's run gets) and keeps what it holds in *values. */
static int make_filled(conv_onednn_t *r, dnnl_query_t q, int index,
                       conv_data_kind_t kind, int arg, dnnl_memory_t *mem,
                       float **values, res_t *res) {
    const dnnl_memory_desc_t *md =
            dnnl_primitive_desc_query_md(r->pd, q, index);
    const int64_t n = onednn_md_nelems(md);
    conv_fill_t fill;
    conv_fill_cfg(r->p, kind, &fill);
    *values = bench_alloc_f32(n);
    if (!*values || onednn_mem_create(mem, md, res->reason) != 0)
        return 0;
    fill_int_values(*values, n, fill.lo, fill.hi, fill.density, fill.seed);
    if (onednn_mem_from_f32(*mem, *values, res->reason) != 0)
        return 0;
    if (arg)
        add_arg(r, arg, *mem);
    return 1;
}

/* dst as the first sum post-op reads it: the bits decoded with the sum's
 * data type. */
static int read_dst_old(conv_onednn_t *r, res_t *res) {
    const bench_attr_t *a = &r->p->attr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_sum)
            continue;
        const tsr_data_type_t dt = a->post_ops[i].dt != tsr_data_type_undef
                                           ? a->post_ops[i].dt
                                           : r->p->cfg.dst;
        return onednn_mem_to_f32_as(r->dst, onednn_dt(dt), r->f.dst_old,
                                    res->reason) == 0;
    }
    return 1;
}

static int make_binary_memories(conv_onednn_t *r, res_t *res) {
    const bench_attr_t *a = &r->p->attr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_binary)
            continue;
        const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1;
        const dnnl_memory_desc_t *md = dnnl_primitive_desc_query_md(
                r->pd, dnnl_query_exec_arg_md, arg);
        if (!md)
            return 0;
        const int64_t n = onednn_md_nelems(md);
        r->f.bin[i] = bench_alloc_f32(n);
        if (!r->f.bin[i] || onednn_mem_create(&r->bin[i], md, res->reason) != 0)
            return 0;
        conv_fill_binary_src1(a->post_ops[i].alg, a->post_ops[i].dt, i,
                              r->f.bin[i], n);
        if (onednn_mem_from_f32(r->bin[i], r->f.bin[i], res->reason) != 0)
            return 0;
        add_arg(r, arg, r->bin[i]);
    }
    return 1;
}

static int make_memories(conv_onednn_t *r, res_t *res) {
    const conv_prb_t *p = r->p;
    if (!make_filled(r, dnnl_query_src_md, 0, CONV_DATA_SRC, DNNL_ARG_SRC,
                     &r->src, &r->f.src, res) ||
        !make_filled(r, dnnl_query_weights_md, 0, CONV_DATA_WEI,
                     DNNL_ARG_WEIGHTS, &r->wei, &r->f.wei, res) ||
        !make_filled(r, dnnl_query_dst_md, 0, CONV_DATA_DST, DNNL_ARG_DST,
                     &r->dst, &r->f.dst_init, res))
        return 0;
    if (conv_prb_with_bias(p) &&
        !make_filled(r, dnnl_query_weights_md, 1, CONV_DATA_BIA, DNNL_ARG_BIAS,
                     &r->bia, &r->f.bia, res))
        return 0;
    const int64_t ndst = conv_dst_nelems(p);
    if (!bench_f32_alloc_dst(&r->f, ndst) || !read_dst_old(r, res))
        return 0;
    if (p->attr.scratchpad_user &&
        md_size(r, dnnl_query_scratchpad_md, 0) > 0) {
        if (onednn_mem_create(&r->scratchpad,
                              dnnl_primitive_desc_query_md(
                                      r->pd, dnnl_query_scratchpad_md, 0),
                              res->reason) != 0)
            return 0;
        add_arg(r, DNNL_ARG_SCRATCHPAD, r->scratchpad);
    }
    return make_binary_memories(r, res);
}

/* ------------------------------------------------------------------------ */
/* Execution and checks */

static int exec_once(void *ctx) {
    conv_onednn_t *r = ctx;
    return dnnl_primitive_execute(r->prim, onednn_stream(), r->nargs,
                                  r->args) != dnnl_success ||
           dnnl_stream_wait(onednn_stream()) != dnnl_success;
}

/* Restores dst's initial contents (the sum post-op reads them), runs and
 * reads the result into `out`. */
static int run_into(conv_onednn_t *r, float *out, res_t *res) {
    if (onednn_mem_from_f32(r->dst, r->f.dst_init, res->reason) != 0 ||
        exec_once(r) != 0 || onednn_mem_to_f32(r->dst, out, res->reason) != 0) {
        if (!res->reason[0])
            snprintf(res->reason, sizeof(res->reason), "execution failed");
        res->state = STATE_FAILED;
        return 0;
    }
    return 1;
}

static void check_correctness(conv_onednn_t *r, res_t *res) {
    if (!run_into(r, r->f.got, res))
        return;
    conv_check_against_ref(r->p, &r->f, res);
}

static void report_perf(conv_onednn_t *r, res_t *res, const char *repro) {
    if (bench_time(&res->timer, exec_once, r) != 0) {
        bench_set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    const double ibytes = (double)md_size(r, dnnl_query_src_md, 0) +
                          (double)md_size(r, dnnl_query_weights_md, 0) +
                          (double)md_size(r, dnnl_query_weights_md, 1);
    const double obytes = (double)md_size(r, dnnl_query_dst_md, 0);
    conv_report_perf(r->p, repro, res->impl_name, ibytes, obytes, &res->timer);
}

void conv_onednn_run_problem(const conv_prb_t *p, const char *repro,
                             res_t *res) {
    conv_onednn_t r;
    memset(&r, 0, sizeof(r));
    r.p = p;
    const int mode = bench_settings.mode;
    if (!onednn_engine() || !onednn_stream()) {
        bench_set_state(res, STATE_FAILED,
                        "cannot create the oneDNN CPU engine");
        return;
    }
    const double t0 = bench_now_ms(); /* creation time: pd and primitive */
    if (!conv_check_supported(p, "the harness' reference is forward only",
                              "harness", res) ||
        !create_pd(&r, res))
        goto out;
    conv_quant_t quant;
    if (conv_quant_init(p, &quant, res->reason, sizeof(res->reason)) != 0) {
        res->state = STATE_SKIPPED;
        goto out;
    }
    if (!bench_mem_check(memory_estimate(&r), res))
        goto out;
    const dnnl_status_t st = dnnl_primitive_create(&r.prim, r.pd);
    if (st != dnnl_success) {
        r.prim = NULL;
        bench_set_state(res, onednn_status_state(st), "primitive: %s",
                        dnnl_status2str(st));
        goto out;
    }
    res->timer.ctime_ms = bench_now_ms() - t0;
    if (mode & MODE_INIT) {
        res->state = STATE_INITIALIZED;
        goto out;
    }
    if (!make_memories(&r, res)) {
        if (!res->reason[0])
            snprintf(res->reason, sizeof(res->reason),
                     "not enough memory for the buffers");
        res->state = STATE_SKIPPED;
        goto out;
    }
    res->state = STATE_EXECUTED;
    if (mode & MODE_CORR)
        check_correctness(&r, res);
    if ((mode & MODE_BITWISE) && res->state != STATE_FAILED &&
        run_into(&r, r.f.ref, res) && run_into(&r, r.f.got, res))
        conv_compare_bitwise(p, r.f.ref, r.f.got, res);
    if ((mode & MODE_PERF) && res->state != STATE_FAILED)
        report_perf(&r, res, repro);
out:
    cleanup(&r);
}
