/* The shared steps of running one problem (see bench_run.h). */
#include "common/bench_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked_math.h"
#include "common/timer.h"

void bench_set_state(res_t *res, res_state_t state, const char *fmt, ...) {
    res->state = state;
    va_list args;
    va_start(args, fmt);
    vsnprintf(res->reason, sizeof(res->reason), fmt, args);
    va_end(args);
}

void bench_set_status_state(res_t *res, tsr_status_t st, const char *what) {
    bench_set_state(res,
                    st == tsr_unimplemented   ? STATE_UNIMPLEMENTED
                    : st == tsr_out_of_memory ? STATE_SKIPPED
                                              : STATE_INVALID_ARGUMENTS,
                    "%s: %s", what, tsr_status2str(st));
}

float *bench_alloc_f32(int64_t n) {
    const size_t bytes = bench_bytes_sat(n > 0 ? n : 1, sizeof(float));
    return bytes == SIZE_MAX ? NULL : malloc(bytes);
}

void bench_f32_free(bench_f32_t *f) {
    float *bufs[] = {f->src,     f->wei, f->bia, f->dst_init,
                     f->dst_old, f->ref, f->got};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        free(bufs[i]);
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++)
        free(f->bin[i]);
}

bench_ref_args_t bench_f32_ref_args(const bench_f32_t *f) {
    const bench_ref_args_t args = {
            .src = f->src,
            .wei = f->wei,
            .bia = f->bia,
            .dst_old = f->dst_old,
            .bin_src1 = f->bin,
            .dst = f->ref,
    };
    return args;
}

int bench_f32_alloc_dst(bench_f32_t *f, int64_t n) {
    f->dst_old = bench_alloc_f32(n);
    f->ref = bench_alloc_f32(n);
    f->got = bench_alloc_f32(n);
    return f->dst_old && f->ref && f->got;
}

void bench_compare_bitwise(const compare_cfg_t *cmp, const float *first,
                           const float *second_run, int64_t n, res_t *res) {
    compare_cfg_t exact = *cmp;
    exact.threshold = exact.abs_threshold = 0.f;
    exact.zero_trust = 1.f; /* all zeros still reproduce bit for bit */
    res_t second = *res;
    compare_f32(first, second_run, n, &exact, &second);
    if (second.state == STATE_FAILED)
        *res = second;
    else if (res->state == STATE_EXECUTED)
        res->state = STATE_PASSED;
}

/* ------------------------------------------------------------------------ */
/* Creation */

static void cleanup(bench_run_t *r) {
    dnn_mem_t *mems[] = {&r->src, &r->wei, &r->bia, &r->dst, &r->scratchpad};
    for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        dnn_mem_free(mems[i]);
    bench_attr_mems_free(&r->attr_mems);
    bench_f32_free(&r->f);
    if (r->prim)
        tsr_primitive_destroy(r->prim);
    if (r->pd)
        tsr_primitive_desc_destroy(r->pd);
    if (r->attr)
        tsr_primitive_attr_destroy(r->attr);
}

int bench_run_create_pd(bench_run_t *r, const void *op_desc, res_t *res) {
    return bench_create_pd(&r->pd, op_desc, r->attr, NULL, 1, res);
}

const tsr_memory_desc_t *bench_run_md(const bench_run_t *r, tsr_query_t q) {
    return tsr_primitive_desc_query_md(r->pd, q);
}

static double md_bytes(const bench_run_t *r, tsr_query_t q) {
    return (double)tsr_memory_desc_get_size(bench_run_md(r, q));
}

/* Bytes the problem needs: library memories and the harness' copies. */
static size_t memory_estimate(const bench_run_t *r,
                              const bench_run_ops_t *ops) {
    return bench_bytes_from_double((double)bench_pd_memory_bytes(r->pd) +
                                   ops->harness_elems(r) *
                                           (double)sizeof(float));
}

/* ------------------------------------------------------------------------ */
/* Memories and fills */

static void add_arg(bench_run_t *r, int arg, const dnn_mem_t *m) {
    bench_exec_args_add(r->args, &r->nargs, arg, m);
}

/* Creates the memory of `q`, fills it per `kind`, keeps the values as the
 * memory holds them (dense f32) in *values and passes it as `arg`. */
static int make_filled(bench_run_t *r, tsr_query_t q, bench_data_kind_t kind,
                       int arg, dnn_mem_t *m, float **values) {
    const tsr_memory_desc_t *md = bench_run_md(r, q);
    const int64_t n = tsr_memory_desc_nelems(md);
    const fill_rule_t *fill = &r->fill[kind];
    *values = bench_alloc_f32(n);
    if (!*values || dnn_mem_create(m, md) != tsr_success)
        return 0;
    fill_int_values(*values, n, fill->lo, fill->hi, fill->density, fill->seed);
    if (dnn_mem_from_f32(m, *values) != tsr_success)
        return 0;
    dnn_mem_to_f32(m, *values);
    add_arg(r, arg, m);
    return 1;
}

/* dst as the first sum post-op reads it: the stored bits decoded with the
 * sum's data type. */
static void read_dst_old(bench_run_t *r) {
    const bench_attr_t *a = r->battr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_sum)
            continue;
        dnn_mem_t view = r->dst;
        if (a->post_ops[i].dt != tsr_data_type_undef)
            view.md.data_type = a->post_ops[i].dt;
        dnn_mem_to_f32(&view, r->f.dst_old);
        return;
    }
}

static int make_memories(bench_run_t *r, const bench_run_ops_t *ops) {
    if (!make_filled(r, tsr_query_src_md, BENCH_DATA_SRC, TSR_ARG_SRC, &r->src,
                     &r->f.src) ||
        !make_filled(r, tsr_query_weights_md, BENCH_DATA_WEI, TSR_ARG_WEIGHTS,
                     &r->wei, &r->f.wei) ||
        !make_filled(r, tsr_query_dst_md, BENCH_DATA_DST, TSR_ARG_DST, &r->dst,
                     &r->f.dst_init))
        return 0;
    if (r->with_bias && !make_filled(r, tsr_query_bias_md, BENCH_DATA_BIA,
                                     TSR_ARG_BIAS, &r->bia, &r->f.bia))
        return 0;
    if (!bench_f32_alloc_dst(&r->f, r->dst_nelems))
        return 0;
    read_dst_old(r);
    if (!bench_scratchpad_create(&r->scratchpad, r->pd, r->battr, r->args,
                                 &r->nargs))
        return 0;
    return bench_attr_mems_create(
            &r->attr_mems, r->battr, r->attr, r->scale_count, r->zp_count,
            ops->fill_binary_src1, r->f.bin, r->args, &r->nargs);
}

/* ------------------------------------------------------------------------ */
/* Execution and checks */

static int exec_once(void *ctx) {
    bench_run_t *r = ctx;
    return tsr_primitive_execute(r->prim, bench_stream(), r->nargs, r->args) !=
           tsr_success;
}

/* Restores dst's initial contents (the sum post-op reads them), runs and
 * reads the result into `out`. */
static int run_into(bench_run_t *r, float *out, res_t *res) {
    dnn_mem_from_f32(&r->dst, r->f.dst_init);
    tsr_status_t st =
            tsr_primitive_execute(r->prim, bench_stream(), r->nargs, r->args);
    if (st != tsr_success) {
        bench_set_state(res, STATE_FAILED, "execution failed: %s",
                        tsr_status2str(st));
        return 0;
    }
    dnn_mem_to_f32(&r->dst, out);
    return 1;
}

static void check_bitwise(bench_run_t *r, const bench_run_ops_t *ops,
                          res_t *res) {
    if (!run_into(r, r->f.ref, res) || !run_into(r, r->f.got, res))
        return;
    compare_cfg_t cmp;
    int64_t n;
    ops->bitwise_cfg(r, &cmp, &n);
    bench_compare_bitwise(&cmp, r->f.ref, r->f.got, n, res);
}

static void report_perf(bench_run_t *r, const bench_run_ops_t *ops,
                        const char *repro, res_t *res) {
    if (bench_time(&res->timer, exec_once, r) != 0) {
        bench_set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    const double ibytes = md_bytes(r, tsr_query_src_md) +
                          md_bytes(r, tsr_query_weights_md) +
                          md_bytes(r, tsr_query_bias_md);
    ops->report_perf(r, repro, ibytes, md_bytes(r, tsr_query_dst_md), res);
}

void bench_run_problem(const bench_run_ops_t *ops, const void *prb,
                       const bench_attr_t *attr, int with_bias,
                       int64_t dst_nelems, const char *repro, res_t *res) {
    bench_run_t run;
    memset(&run, 0, sizeof(run));
    bench_run_t *r = &run;
    r->prb = prb;
    r->battr = attr;
    r->with_bias = with_bias;
    r->dst_nelems = dst_nelems;
    for (int q = 0; q < QARG_COUNT; q++)
        r->scale_count[q] = r->zp_count[q] = -1;
    const int mode = bench_settings.mode;
    const double t0 = bench_now_ms(); /* creation time: pd and primitive */
    if (!ops->create(r, res))
        goto out;
    if (!bench_mem_check(memory_estimate(r, ops), res))
        goto out;
    tsr_status_t st = tsr_primitive_create(&r->prim, r->pd);
    if (st != tsr_success) {
        r->prim = NULL;
        bench_set_status_state(res, st, "primitive");
        goto out;
    }
    res->timer.ctime_ms = bench_now_ms() - t0;
    if (mode & MODE_INIT) {
        res->state = STATE_INITIALIZED;
        goto out;
    }
    if (!make_memories(r, ops)) {
        bench_set_state(res, STATE_SKIPPED,
                        "not enough memory for the buffers");
        goto out;
    }
    res->state = STATE_EXECUTED;
    if ((mode & MODE_CORR) && run_into(r, r->f.got, res))
        ops->check(r, res);
    if ((mode & MODE_BITWISE) && res->state != STATE_FAILED)
        check_bitwise(r, ops, res);
    if ((mode & MODE_PERF) && res->state != STATE_FAILED)
        report_perf(r, ops, repro, res);
out:
    cleanup(r);
}
