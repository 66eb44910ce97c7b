/* One "dst = src x weights" task on the library: objects, memories and
 * their fills, the run, the check against mm_ref, and the timing. Every
 * exit path releases what was created; the outcome lands in `res`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dnn_mem.h"
#include "common/fill_compare.h"
#include "common/perf_report.h"
#include "common/timer.h"
#include "matmul/mm_task.h"

#define MAX_EXEC_ARGS (16 + BENCH_MAX_POST_OPS)

typedef struct {
    const mm_task_t *t;
    conv_prb_t rules; /* fill and comparison rules */
    tsr_primitive_attr_t attr;
    tsr_primitive_desc_t pd;
    tsr_primitive_t prim;
    dnn_mem_t src, wei, bia, dst, scratchpad;
    dnn_mem_t scales[QARG_COUNT], zps[QARG_COUNT];
    dnn_mem_t bin[BENCH_MAX_POST_OPS];
    float *src_f, *wei_f, *bia_f, *dst_init_f, *dst_old_f, *ref_f, *got_f;
    float *bin_f[BENCH_MAX_POST_OPS];
    int nargs;
    tsr_exec_arg_t args[MAX_EXEC_ARGS];
} mm_run_t;

void mm_task_rules_prb(const mm_task_t *t, conv_prb_t *p) {
    memset(p, 0, sizeof(*p));
    conv_desc_t *d = &p->desc;
    d->g = d->mb = 1;
    d->ic = t->K;
    d->oc = t->N;
    for (int i = 0; i < CONV_NSPATIAL; i++)
        d->in[i] = d->out[i] = d->ker[i] = d->str[i] = 1;
    d->ndims = 3;
    p->dir = t->with_bias ? CONV_FWD_B : CONV_FWD_D;
    p->cfg = t->cfg;
    p->bia.dt = t->bia_dt;
    p->attr = *t->attr;
}

double mm_task_ops(const mm_task_t *t) {
    return 2.0 * (double)t->batch * (double)t->M * (double)t->N * (double)t->K;
}

static int64_t dims_nelems(int ndims, const int64_t *dims) {
    int64_t n = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    return n;
}

static void cleanup(mm_run_t *r) {
    dnn_mem_t *mems[] = {&r->src, &r->wei, &r->bia, &r->dst, &r->scratchpad};
    for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
        dnn_mem_free(mems[i]);
    for (int i = 0; i < QARG_COUNT; i++) {
        dnn_mem_free(&r->scales[i]);
        dnn_mem_free(&r->zps[i]);
    }
    for (int i = 0; i < BENCH_MAX_POST_OPS; i++) {
        dnn_mem_free(&r->bin[i]);
        free(r->bin_f[i]);
    }
    float *bufs[] = {r->src_f,     r->wei_f, r->bia_f, r->dst_init_f,
                     r->dst_old_f, r->ref_f, r->got_f};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        free(bufs[i]);
    if (r->prim)
        tsr_primitive_destroy(r->prim);
    if (r->pd)
        tsr_primitive_desc_destroy(r->pd);
    if (r->attr)
        tsr_primitive_attr_destroy(r->attr);
}

static void set_state(res_t *res, res_state_t state, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

static void set_state(res_t *res, res_state_t state, const char *fmt, ...) {
    res->state = state;
    va_list args;
    va_start(args, fmt);
    vsnprintf(res->reason, sizeof(res->reason), fmt, args);
    va_end(args);
}

static void set_status_state(res_t *res, tsr_status_t st, const char *what) {
    set_state(res,
              st == tsr_unimplemented   ? STATE_UNIMPLEMENTED
              : st == tsr_out_of_memory ? STATE_SKIPPED
                                        : STATE_INVALID_ARGUMENTS,
              "%s: %s", what, tsr_status2str(st));
}

/* ------------------------------------------------------------------------ */
/* Creation */

/* What the harness decides before touching the library. */
static int check_supported(const mm_task_t *t, res_t *res) {
    const bench_attr_t *a = t->attr;
    if (t->cfg.unsupported[0]) {
        set_state(res, STATE_UNIMPLEMENTED,
                  "data type %s is not supported by the library",
                  t->cfg.unsupported);
        return 0;
    }
    const char *why = attr_unsupported(a);
    if (why) {
        set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    /* Scales must factor out of the sum: src common, weights over the
     * output channel only. */
    if (a->scales[QARG_SRC].set &&
        a->scales[QARG_SRC].policy != POLICY_COMMON) {
        set_state(res, STATE_SKIPPED,
                  "src scales with policy %s: the reference does not "
                  "support it",
                  policy2str(a->scales[QARG_SRC].policy));
        return 0;
    }
    if (a->scales[QARG_WEI].set &&
        (mm_task_q_mask(t, a->scales[QARG_WEI].policy, QARG_WEI) &
         ~t->wei_oc_mask)) {
        set_state(res, STATE_SKIPPED,
                  "wei scales with policy %s: the reference does not "
                  "support it",
                  policy2str(a->scales[QARG_WEI].policy));
        return 0;
    }
    return 1;
}

static const char *const arg_names[3] = {"src", "wei", "dst"};

static int init_md(const mm_task_t *t, int which, tsr_memory_desc_t *md,
                   res_t *res) {
    const int ndims = which == MM_SRC   ? t->src_ndims
                      : which == MM_WEI ? t->wei_ndims
                                        : t->dst_ndims;
    const int64_t *dims = which == MM_SRC   ? t->src_dims
                          : which == MM_WEI ? t->wei_dims
                                            : t->dst_dims;
    const tsr_data_type_t dt = which == MM_SRC   ? t->cfg.src
                               : which == MM_WEI ? t->cfg.wei
                                                 : t->cfg.dst;
    tsr_status_t st;
    if (t->has_strides[which]) {
        st = tsr_memory_desc_init_by_strides(md, ndims, dims, dt,
                                             t->strides[which]);
        if (st != tsr_success)
            set_state(res, STATE_INVALID_ARGUMENTS,
                      "--strides for %s do not describe its %d dims",
                      arg_names[which], ndims);
        return st == tsr_success;
    }
    char resolved[64];
    conv_resolve_tag(t->tag[which], ndims, resolved, sizeof(resolved));
    st = tsr_memory_desc_init_by_tag(md, ndims, dims, dt, resolved);
    if (st != tsr_success)
        set_state(res, STATE_INVALID_ARGUMENTS,
                  "--%ctag=%s does not describe a %d-dimensional tensor",
                  arg_names[which][0], t->tag[which], ndims);
    return st == tsr_success;
}

static int create_pd(mm_run_t *r, res_t *res) {
    const mm_task_t *t = r->t;
    tsr_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!init_md(t, MM_SRC, &src_md, res) ||
        !init_md(t, MM_WEI, &wei_md, res) || !init_md(t, MM_DST, &dst_md, res))
        return 0;
    if (t->with_bias) {
        /* The inner product's bias is 1D (OC). */
        const int ndims = t->is_ip ? 1 : t->dst_ndims;
        const int64_t *dims = t->is_ip ? &t->N : t->bia_dims;
        tsr_status_t st = tsr_memory_desc_init_by_strides(&bia_md, ndims, dims,
                                                          t->bia_dt, NULL);
        if (st != tsr_success) {
            set_status_state(res, st, "bias memory descriptor");
            return 0;
        }
    }
    const tsr_memory_desc_t *bia = t->with_bias ? &bia_md : NULL;
    tsr_inner_product_desc_t ipd;
    tsr_matmul_desc_t mmd;
    const void *op;
    tsr_status_t st;
    if (t->is_ip) {
        st = tsr_inner_product_forward_desc_init(&ipd, t->ip_prop, &src_md,
                                                 &wei_md, bia, &dst_md);
        op = &ipd;
    } else {
        st = tsr_matmul_desc_init(&mmd, &src_md, &wei_md, bia, &dst_md);
        op = &mmd;
    }
    if (st != tsr_success) {
        set_status_state(res, st,
                         t->is_ip ? "inner product descriptor"
                                  : "matmul descriptor");
        return 0;
    }
    st = attr_create_tsr(t->attr, t->dst_ndims, t->dst_dims, t->wei_oc_mask,
                         &r->attr);
    if (st != tsr_success) {
        set_status_state(res, st, "attributes");
        return 0;
    }
    st = tsr_primitive_desc_create(&r->pd, op, r->attr, bench_engine());
    if (st != tsr_success) {
        r->pd = NULL;
        set_status_state(res, st, "primitive descriptor");
        return 0;
    }
    while (!bench_impl_allowed(tsr_primitive_desc_impl_name(r->pd))) {
        if (tsr_primitive_desc_next_impl(r->pd) != tsr_success) {
            set_state(res, STATE_SKIPPED, "skip-impl option hit");
            return 0;
        }
    }
    snprintf(res->impl_name, sizeof(res->impl_name), "%s",
             tsr_primitive_desc_impl_name(r->pd));
    return 1;
}

static const tsr_memory_desc_t *pd_md(const mm_run_t *r, tsr_query_t q) {
    return tsr_primitive_desc_query_md(r->pd, q);
}

static size_t memory_estimate(const mm_run_t *r) {
    const mm_task_t *t = r->t;
    const tsr_query_t qs[] = {tsr_query_src_md, tsr_query_weights_md,
                              tsr_query_bias_md, tsr_query_dst_md};
    size_t bytes = 0;
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
        bytes += tsr_memory_desc_get_size(pd_md(r, qs[i]));
    size_t scratch = 0;
    if (tsr_primitive_desc_query_scratchpad_size(r->pd, &scratch) ==
        tsr_success)
        bytes += scratch;
    /* f32 copies, and the reference's double copies of src and weights. */
    const double in = (double)dims_nelems(t->src_ndims, t->src_dims) +
                      (double)dims_nelems(t->wei_ndims, t->wei_dims);
    const double out = (double)dims_nelems(t->dst_ndims, t->dst_dims);
    return bytes + (size_t)((3.0 * in + 4.0 * out) * sizeof(float));
}

/* ------------------------------------------------------------------------ */
/* Memories and fills */

static void add_arg(mm_run_t *r, int arg, const dnn_mem_t *m) {
    r->args[r->nargs].arg = arg;
    r->args[r->nargs].memory = m->mem;
    r->nargs++;
}

static float *alloc_f32(int64_t n) {
    return malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
}

static int make_filled(mm_run_t *r, const tsr_memory_desc_t *md,
                       conv_data_kind_t kind, dnn_mem_t *m, float **values) {
    const int64_t n = tsr_memory_desc_nelems(md);
    conv_fill_t fill;
    conv_fill_cfg(&r->rules, kind, &fill);
    *values = alloc_f32(n);
    if (!*values || dnn_mem_create(m, md) != tsr_success)
        return 0;
    fill_int_values(*values, n, fill.lo, fill.hi, fill.density, fill.seed);
    dnn_mem_from_f32(m, *values);
    dnn_mem_to_f32(m, *values);
    return 1;
}

/* dst as the first sum post-op reads it. */
static void read_dst_old(mm_run_t *r) {
    const bench_attr_t *a = r->t->attr;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_sum)
            continue;
        dnn_mem_t view = r->dst;
        if (a->post_ops[i].dt != tsr_data_type_undef)
            view.md.data_type = a->post_ops[i].dt;
        dnn_mem_to_f32(&view, r->dst_old_f);
        return;
    }
}

static int make_quant_memory(mm_run_t *r, int qarg, int is_zp, dnn_mem_t *m) {
    const mm_task_t *t = r->t;
    const bench_attr_t *a = t->attr;
    const int set = is_zp ? a->zero_points[qarg].set : a->scales[qarg].set;
    if (!set)
        return 1;
    const bench_policy_t policy =
            is_zp ? a->zero_points[qarg].policy : a->scales[qarg].policy;
    const int mask = mm_task_q_mask(t, policy, qarg);
    const int ndims = qarg == QARG_SRC   ? t->src_ndims
                      : qarg == QARG_WEI ? t->wei_ndims
                                         : t->dst_ndims;
    const int64_t *dims = qarg == QARG_SRC   ? t->src_dims
                          : qarg == QARG_WEI ? t->wei_dims
                                             : t->dst_dims;
    int64_t count = attr_mask_count(mask, ndims, dims);
    tsr_memory_desc_t md;
    float *values = alloc_f32(count);
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
        add_arg(r,
                (is_zp ? TSR_ARG_ATTR_ZERO_POINTS : TSR_ARG_ATTR_SCALES) |
                        attr_qarg2tsr((bench_qarg_t)qarg),
                m);
    }
    free(values);
    return ok;
}

static int make_binary_memories(mm_run_t *r) {
    const bench_attr_t *a = r->t->attr;
    const_tsr_post_ops_t ops;
    if (a->n_post_ops == 0)
        return 1;
    if (tsr_primitive_attr_get_post_ops(r->attr, &ops) != tsr_success)
        return 0;
    for (int i = 0; i < a->n_post_ops; i++) {
        if (a->post_ops[i].kind != tsr_post_op_binary)
            continue;
        tsr_alg_kind_t alg;
        const tsr_memory_desc_t *md;
        if (tsr_post_ops_get_params_binary(ops, i, &alg, &md) != tsr_success)
            return 0;
        const int64_t n = tsr_memory_desc_nelems(md);
        r->bin_f[i] = alloc_f32(n);
        if (!r->bin_f[i] || dnn_mem_create(&r->bin[i], md) != tsr_success)
            return 0;
        conv_fill_binary_src1(alg, md->data_type, i, r->bin_f[i], n);
        dnn_mem_from_f32(&r->bin[i], r->bin_f[i]);
        dnn_mem_to_f32(&r->bin[i], r->bin_f[i]);
        add_arg(r, TSR_ARG_ATTR_MULTIPLE_POST_OP(i) | TSR_ARG_SRC_1,
                &r->bin[i]);
    }
    return 1;
}

static int make_memories(mm_run_t *r) {
    const mm_task_t *t = r->t;
    if (!make_filled(r, pd_md(r, tsr_query_src_md), CONV_DATA_SRC, &r->src,
                     &r->src_f) ||
        !make_filled(r, pd_md(r, tsr_query_weights_md), CONV_DATA_WEI, &r->wei,
                     &r->wei_f) ||
        !make_filled(r, pd_md(r, tsr_query_dst_md), CONV_DATA_DST, &r->dst,
                     &r->dst_init_f))
        return 0;
    add_arg(r, TSR_ARG_SRC, &r->src);
    add_arg(r, TSR_ARG_WEIGHTS, &r->wei);
    add_arg(r, TSR_ARG_DST, &r->dst);
    if (t->with_bias) {
        if (!make_filled(r, pd_md(r, tsr_query_bias_md), CONV_DATA_BIA, &r->bia,
                         &r->bia_f))
            return 0;
        add_arg(r, TSR_ARG_BIAS, &r->bia);
    }
    const int64_t ndst = dims_nelems(t->dst_ndims, t->dst_dims);
    r->dst_old_f = alloc_f32(ndst);
    r->ref_f = alloc_f32(ndst);
    r->got_f = alloc_f32(ndst);
    if (!r->dst_old_f || !r->ref_f || !r->got_f)
        return 0;
    read_dst_old(r);
    if (t->attr->scratchpad_user) {
        const tsr_memory_desc_t *md = pd_md(r, tsr_query_scratchpad_md);
        if (md && tsr_memory_desc_get_size(md) > 0) {
            if (dnn_mem_create(&r->scratchpad, md) != tsr_success)
                return 0;
            add_arg(r, TSR_ARG_SCRATCHPAD, &r->scratchpad);
        }
    }
    for (int q = 0; q < QARG_COUNT; q++)
        if (!make_quant_memory(r, q, 0, &r->scales[q]) ||
            !make_quant_memory(r, q, 1, &r->zps[q]))
            return 0;
    return make_binary_memories(r);
}

/* ------------------------------------------------------------------------ */
/* Execution and checks */

static int exec_once(void *ctx) {
    mm_run_t *r = ctx;
    return tsr_primitive_execute(r->prim, bench_stream(), r->nargs, r->args) !=
           tsr_success;
}

static int run_into(mm_run_t *r, float *out, res_t *res) {
    dnn_mem_from_f32(&r->dst, r->dst_init_f);
    tsr_status_t st =
            tsr_primitive_execute(r->prim, bench_stream(), r->nargs, r->args);
    if (st != tsr_success) {
        set_state(res, STATE_FAILED, "execution failed: %s",
                  tsr_status2str(st));
        return 0;
    }
    dnn_mem_to_f32(&r->dst, out);
    return 1;
}

/* dst coordinates of a dense index ("2,0,5"), for mismatch lines. */
static void dst_idx2str(const void *ctx, int64_t idx, char *buf, size_t len) {
    const mm_task_t *t = ctx;
    int64_t pos[MM_MAX_NDIMS];
    for (int d = t->dst_ndims - 1; d >= 0; d--) {
        pos[d] = idx % t->dst_dims[d];
        idx /= t->dst_dims[d];
    }
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    for (int d = 0; d < t->dst_ndims && used < len; d++) {
        int n = snprintf(buf + used, len - used, "%s%lld", d ? "," : "",
                         (long long)pos[d]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static void compare_cfg_init(const mm_run_t *r, compare_cfg_t *cmp) {
    conv_compare_cfg(&r->rules, cmp);
    cmp->idx2str = dst_idx2str;
    cmp->idx_ctx = r->t;
}

static void check_correctness(mm_run_t *r, res_t *res) {
    const mm_task_t *t = r->t;
    if (!run_into(r, r->got_f, res))
        return;
    const mm_ref_args_t args = {
            .src = r->src_f,
            .wei = r->wei_f,
            .bia = r->bia_f,
            .dst_old = r->dst_old_f,
            .bin_src1 = r->bin_f,
            .dst = r->ref_f,
    };
    if (mm_ref(t, &args) != 0) {
        set_state(res, STATE_SKIPPED, "not enough memory for the reference");
        return;
    }
    compare_cfg_t cmp;
    compare_cfg_init(r, &cmp);
    compare_f32(r->ref_f, r->got_f, dims_nelems(t->dst_ndims, t->dst_dims),
                &cmp, res);
}

static void check_bitwise(mm_run_t *r, res_t *res) {
    const mm_task_t *t = r->t;
    if (!run_into(r, r->ref_f, res) || !run_into(r, r->got_f, res))
        return;
    compare_cfg_t cmp;
    compare_cfg_init(r, &cmp);
    cmp.threshold = cmp.abs_threshold = 0.f;
    cmp.zero_trust = 1.f; /* all zeros still reproduce bit for bit */
    res_t second = *res;
    compare_f32(r->ref_f, r->got_f, dims_nelems(t->dst_ndims, t->dst_dims),
                &cmp, &second);
    if (second.state == STATE_FAILED)
        *res = second;
    else if (res->state == STATE_EXECUTED)
        res->state = STATE_PASSED;
}

static void report_perf(mm_run_t *r, res_t *res, const char *repro) {
    const mm_task_t *t = r->t;
    if (bench_time(&res->timer, exec_once, r) != 0) {
        set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    char attr[1024] = "";
    attr_to_repro(t->attr, 0, attr, sizeof(attr));
    perf_fields_t f;
    memset(&f, 0, sizeof(f));
    f.impl = res->impl_name;
    f.name = t->name;
    f.prb = repro;
    f.desc = t->desc;
    f.dir = t->dir;
    f.dt = t->cfg.text;
    f.tag = t->tags_text;
    f.alg = "";
    f.attr = attr[0] == ' ' ? attr + 1 : attr;
    f.mb = t->mb;
    f.ops = mm_task_ops(t);
    f.ibytes =
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_src_md)) +
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_weights_md)) +
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_bias_md));
    f.obytes = (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_dst_md));
    /* csv: the GEMM shape as columns. */
    static const char *const names[] = {"batch", "m", "n", "k"};
    const int64_t values[] = {t->batch, t->M, t->N, t->K};
    char text[4][24];
    for (int i = 0; i < 4; i++) {
        snprintf(text[i], sizeof(text[i]), "%lld", (long long)values[i]);
        f.extra_name[i] = names[i];
        f.extra_value[i] = text[i];
    }
    f.n_extra = 4;
    perf_report(&f, &res->timer);
}

void mm_task_run(const mm_task_t *t, const char *repro, res_t *res) {
    mm_run_t r;
    memset(&r, 0, sizeof(r));
    r.t = t;
    mm_task_rules_prb(t, &r.rules);
    const int mode = bench_settings.mode;
    const double t0 = bench_now_ms();
    if (!check_supported(t, res) || !create_pd(&r, res))
        goto out;
    if (!bench_mem_check(memory_estimate(&r), res))
        goto out;
    tsr_status_t st = tsr_primitive_create(&r.prim, r.pd);
    if (st != tsr_success) {
        r.prim = NULL;
        set_status_state(res, st, "primitive");
        goto out;
    }
    res->timer.ctime_ms = bench_now_ms() - t0;
    if (mode & MODE_INIT) {
        res->state = STATE_INITIALIZED;
        goto out;
    }
    if (!make_memories(&r)) {
        set_state(res, STATE_SKIPPED, "not enough memory for the buffers");
        goto out;
    }
    res->state = STATE_EXECUTED;
    if (mode & MODE_CORR)
        check_correctness(&r, res);
    if ((mode & MODE_BITWISE) && res->state != STATE_FAILED)
        check_bitwise(&r, res);
    if ((mode & MODE_PERF) && res->state != STATE_FAILED)
        report_perf(&r, res, repro);
out:
    cleanup(&r);
}
