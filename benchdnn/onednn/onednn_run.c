/* One problem on oneDNN: creation, memories and fills, execution, checks
 * and timing (see onednn_run.h). */
#include "onednn/onednn_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/layout_tag.h"
#include "onednn/onednn_args.h"
#include "common/timer.h"

static void cleanup(onednn_run_t *r) {
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

int onednn_run_md_init(dnnl_memory_desc_t *md, int ndims, const int64_t *dims,
                       tsr_data_type_t dt, const char *tag, res_t *res) {
    return onednn_args_md(md, ndims, dims, dt, tag, res);
}

int onednn_run_create_pd(onednn_run_t *r, const_dnnl_op_desc_t op_desc,
                         const onednn_attr_shape_t *shape, res_t *res) {
    if (onednn_attr_create(r->battr, shape, &r->attr, res->reason) != 0) {
        r->attr = NULL;
        res->state = STATE_UNIMPLEMENTED;
        return 0;
    }
    res->state =
            onednn_pd_create(&r->pd, op_desc, r->attr, NULL, res->impl_name,
                             sizeof(res->impl_name), res->reason);
    if (res->state != STATE_PASSED)
        return 0;
    res->state = STATE_UNTESTED;
    return 1;
}

static const dnnl_memory_desc_t *query_md(const onednn_run_t *r, dnnl_query_t q,
                                          int index) {
    return dnnl_primitive_desc_query_md(r->pd, q, index);
}

static size_t md_size(const onednn_run_t *r, dnnl_query_t q, int index) {
    return onednn_pd_md_size(r->pd, q, index);
}

static double md_nelems(const onednn_run_t *r, dnnl_query_t q, int index) {
    const dnnl_memory_desc_t *md = query_md(r, q, index);
    return md && md->ndims > 0 ? (double)onednn_md_nelems(md) : 0.0;
}

/* Bytes the problem needs: oneDNN's memories and the harness' f32 copies
 * (inputs, dst before, reference, result) and the reference's own. */
static size_t memory_estimate(const onednn_run_t *r,
                              const onednn_run_ops_t *ops) {
    const size_t bytes = md_size(r, dnnl_query_src_md, 0) +
                         md_size(r, dnnl_query_weights_md, 0) +
                         md_size(r, dnnl_query_weights_md, 1) +
                         md_size(r, dnnl_query_dst_md, 0) +
                         md_size(r, dnnl_query_scratchpad_md, 0);
    double f32_elems = md_nelems(r, dnnl_query_src_md, 0) +
                       md_nelems(r, dnnl_query_weights_md, 0) +
                       md_nelems(r, dnnl_query_weights_md, 1) +
                       4.0 * md_nelems(r, dnnl_query_dst_md, 0);
    if (ops->ref_elems)
        f32_elems += ops->ref_elems(r->prb);
    return bench_add_size_sat(
            bytes, bench_bytes_from_double(f32_elems * sizeof(float)));
}

/* ------------------------------------------------------------------------ */
/* Memories and fills */

static void add_arg(onednn_run_t *r, int arg, dnnl_memory_t mem) {
    r->args[r->nargs].arg = arg;
    r->args[r->nargs].memory = mem;
    r->nargs++;
}

/* Creates the memory the pd asks for at (q, index), fills it per `kind`
 * (the values Tessera's run gets), keeps what it holds in *values and
 * passes it as `arg`. */
static int make_filled(onednn_run_t *r, dnnl_query_t q, int index,
                       bench_data_kind_t kind, int arg, dnnl_memory_t *mem,
                       float **values, res_t *res) {
    const dnnl_memory_desc_t *md = query_md(r, q, index);
    const int64_t n = onednn_md_nelems(md);
    const fill_rule_t *fill = &r->fill[kind];
    *values = bench_alloc_f32(n);
    if (!*values || onednn_mem_create(mem, md, res->reason) != 0)
        return 0;
    fill_int_values(*values, n, fill->lo, fill->hi, fill->density, fill->seed);
    if (onednn_mem_from_f32(*mem, *values, res->reason) != 0)
        return 0;
    add_arg(r, arg, *mem);
    return 1;
}

/* dst as the first sum post-op reads it: the bits decoded with the sum's
 * data type (dst's own when the sum names none). */
static int read_dst_old(onednn_run_t *r, res_t *res) {
    const bench_attr_t *a = r->battr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_sum)
            continue;
        if (a->post_ops[i].dt == tsr_data_type_undef)
            return onednn_mem_to_f32(r->dst, r->f.dst_old, res->reason) == 0;
        return onednn_mem_to_f32_as(r->dst, onednn_dt(a->post_ops[i].dt),
                                    r->f.dst_old, res->reason) == 0;
    }
    return 1;
}

static int make_binary_memories(onednn_run_t *r, const onednn_run_ops_t *ops,
                                res_t *res) {
    const bench_attr_t *a = r->battr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_binary)
            continue;
        const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1;
        const dnnl_memory_desc_t *md = query_md(r, dnnl_query_exec_arg_md, arg);
        if (!md)
            return 0;
        const int64_t n = onednn_md_nelems(md);
        r->f.bin[i] = bench_alloc_f32(n);
        if (!r->f.bin[i] || onednn_mem_create(&r->bin[i], md, res->reason) != 0)
            return 0;
        ops->fill_binary_src1(a->post_ops[i].alg, a->post_ops[i].dt, i,
                              r->f.bin[i], n);
        if (onednn_mem_from_f32(r->bin[i], r->f.bin[i], res->reason) != 0)
            return 0;
        add_arg(r, arg, r->bin[i]);
    }
    return 1;
}

static int make_memories(onednn_run_t *r, const onednn_run_ops_t *ops,
                         res_t *res) {
    if (!make_filled(r, dnnl_query_src_md, 0, BENCH_DATA_SRC, DNNL_ARG_SRC,
                     &r->src, &r->f.src, res) ||
        !make_filled(r, dnnl_query_weights_md, 0, BENCH_DATA_WEI,
                     DNNL_ARG_WEIGHTS, &r->wei, &r->f.wei, res) ||
        !make_filled(r, dnnl_query_dst_md, 0, BENCH_DATA_DST, DNNL_ARG_DST,
                     &r->dst, &r->f.dst_init, res))
        return 0;
    if (r->with_bias &&
        !make_filled(r, dnnl_query_weights_md, 1, BENCH_DATA_BIA, DNNL_ARG_BIAS,
                     &r->bia, &r->f.bia, res))
        return 0;
    const int64_t ndst = onednn_md_nelems(query_md(r, dnnl_query_dst_md, 0));
    if (!bench_f32_alloc_dst(&r->f, ndst) || !read_dst_old(r, res))
        return 0;
    if (r->battr->scratchpad_user &&
        md_size(r, dnnl_query_scratchpad_md, 0) > 0) {
        if (onednn_mem_create(&r->scratchpad,
                              query_md(r, dnnl_query_scratchpad_md, 0),
                              res->reason) != 0)
            return 0;
        add_arg(r, DNNL_ARG_SCRATCHPAD, r->scratchpad);
    }
    return make_binary_memories(r, ops, res);
}

/* ------------------------------------------------------------------------ */
/* Execution and checks */

static int exec_once(void *ctx) {
    onednn_run_t *r = ctx;
    return dnnl_primitive_execute(r->prim, onednn_stream(), r->nargs,
                                  r->args) != dnnl_success ||
           dnnl_stream_wait(onednn_stream()) != dnnl_success;
}

/* Restores dst's initial contents (the sum post-op reads them), runs and
 * reads the result into `out`. */
static int run_into(onednn_run_t *r, float *out, res_t *res) {
    if (onednn_mem_from_f32(r->dst, r->f.dst_init, res->reason) != 0 ||
        exec_once(r) != 0 || onednn_mem_to_f32(r->dst, out, res->reason) != 0) {
        if (!res->reason[0])
            snprintf(res->reason, sizeof(res->reason), "execution failed");
        res->state = STATE_FAILED;
        return 0;
    }
    return 1;
}

static void report_perf(onednn_run_t *r, const onednn_run_ops_t *ops,
                        const char *repro, res_t *res) {
    if (bench_time(&res->timer, exec_once, r) != 0) {
        bench_set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    const double ibytes = (double)md_size(r, dnnl_query_src_md, 0) +
                          (double)md_size(r, dnnl_query_weights_md, 0) +
                          (double)md_size(r, dnnl_query_weights_md, 1);
    const double obytes = (double)md_size(r, dnnl_query_dst_md, 0);
    ops->report_perf(r->prb, repro, res->impl_name, ibytes, obytes,
                     &res->timer);
}

void onednn_run_problem(const onednn_run_ops_t *ops, const void *prb,
                        const bench_attr_t *attr, int with_bias,
                        const char *repro, res_t *res) {
    onednn_run_t run;
    memset(&run, 0, sizeof(run));
    onednn_run_t *r = &run;
    r->prb = prb;
    r->battr = attr;
    r->with_bias = with_bias;
    const int mode = bench_settings.mode;
    if (!onednn_engine() || !onednn_stream()) {
        bench_set_state(res, STATE_FAILED,
                        "cannot create the oneDNN CPU engine");
        return;
    }
    const double t0 = bench_now_ms(); /* creation time: pd and primitive */
    if (!ops->create(r, res))
        goto out;
    if (!bench_mem_check(memory_estimate(r, ops), res))
        goto out;
    const dnnl_status_t st = dnnl_primitive_create(&r->prim, r->pd);
    if (st != dnnl_success) {
        r->prim = NULL;
        bench_set_state(res, onednn_status_state(st), "primitive: %s",
                        dnnl_status2str(st));
        goto out;
    }
    res->timer.ctime_ms = bench_now_ms() - t0;
    if (mode & MODE_INIT) {
        res->state = STATE_INITIALIZED;
        goto out;
    }
    if (!make_memories(r, ops, res)) {
        if (!res->reason[0])
            snprintf(res->reason, sizeof(res->reason),
                     "not enough memory for the buffers");
        res->state = STATE_SKIPPED;
        goto out;
    }
    res->state = STATE_EXECUTED;
    if ((mode & MODE_CORR) && run_into(r, r->f.got, res))
        ops->check(prb, &r->f, res);
    if ((mode & MODE_BITWISE) && res->state != STATE_FAILED &&
        run_into(r, r->f.ref, res) && run_into(r, r->f.got, res))
        ops->compare_bitwise(prb, r->f.ref, r->f.got, res);
    if ((mode & MODE_PERF) && res->state != STATE_FAILED)
        report_perf(r, ops, repro, res);
out:
    cleanup(r);
}
