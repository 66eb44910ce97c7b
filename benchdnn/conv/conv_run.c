/* One convolution problem: library objects, memories and their fills, the
 * run, the check against the reference, and the timing. Every exit path
 * releases what was created; the outcome lands in `res`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dnn_mem.h"
#include "common/perf_report.h"
#include "common/timer.h"
#include "conv/conv.h"

#define MAX_EXEC_ARGS (16 + BENCH_MAX_POST_OPS)

/* Everything one problem owns. Zero-initialized; cleanup frees what is
 * set. */
typedef struct {
    const conv_prb_t *p;
    tsr_primitive_attr_t attr;
    tsr_primitive_desc_t pd;
    tsr_primitive_t prim;
    dnn_mem_t src, wei, bia, dst, scratchpad;
    dnn_mem_t scales[QARG_COUNT], zps[QARG_COUNT];
    dnn_mem_t bin[BENCH_MAX_POST_OPS];
    float *src_f, *wei_f, *bia_f, *dst_init_f, *dst_old_f, *ref_f, *got_f;
    float *bin_f[BENCH_MAX_POST_OPS];
    conv_quant_t quant;
    int nargs;
    tsr_exec_arg_t args[MAX_EXEC_ARGS];
} conv_run_t;

static void cleanup(conv_run_t *r) {
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

/* Library status of a creation step -> problem state. */
static void set_status_state(res_t *res, tsr_status_t st, const char *what) {
    set_state(res,
              st == tsr_unimplemented   ? STATE_UNIMPLEMENTED
              : st == tsr_out_of_memory ? STATE_SKIPPED
                                        : STATE_INVALID_ARGUMENTS,
              "%s: %s", what, tsr_status2str(st));
}

/* ------------------------------------------------------------------------ */
/* Creation */

/* Checks what the harness itself decides before touching the library. */
static int check_supported(const conv_prb_t *p, res_t *res) {
    if (p->dir != CONV_FWD_B && p->dir != CONV_FWD_D && p->dir != CONV_FWD_I) {
        set_state(res, STATE_UNIMPLEMENTED,
                  "%s: the library has forward convolution only",
                  conv_dir2str(p->dir));
        return 0;
    }
    if (p->cfg.unsupported[0] ||
        (conv_prb_with_bias(p) && p->bia.unsupported[0])) {
        set_state(res, STATE_UNIMPLEMENTED,
                  "data type %s is not supported by the library",
                  p->cfg.unsupported[0] ? p->cfg.unsupported
                                        : p->bia.unsupported);
        return 0;
    }
    const char *why = attr_unsupported(&p->attr);
    if (why) {
        set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    return 1;
}

static int init_md(tsr_memory_desc_t *md, int ndims, const int64_t *dims,
                   tsr_data_type_t dt, const char *tag, const char *option,
                   res_t *res) {
    char resolved[64];
    conv_resolve_tag(tag, ndims, resolved, sizeof(resolved));
    tsr_status_t st =
            tsr_memory_desc_init_by_tag(md, ndims, dims, dt, resolved);
    if (st == tsr_success)
        return 1;
    set_state(res, STATE_INVALID_ARGUMENTS,
              "%s=%s does not describe a %d-dimensional tensor", option, tag,
              ndims);
    return 0;
}

/* Memory descriptors, op descriptor, attributes and the primitive
 * descriptor of the first implementation --impl/--skip-impl allow. */
static int create_pd(conv_run_t *r, res_t *res) {
    const conv_prb_t *p = r->p;
    const conv_desc_t *d = &p->desc;
    int64_t sdims[TSR_MAX_NDIMS], wdims[TSR_MAX_NDIMS], ddims[TSR_MAX_NDIMS];
    const int sn = conv_src_dims(p, sdims), wn = conv_wei_dims(p, wdims),
              dn = conv_dst_dims(p, ddims);
    tsr_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!init_md(&src_md, sn, sdims, p->cfg.src, p->stag, "--stag", res) ||
        !init_md(&wei_md, wn, wdims, p->cfg.wei, p->wtag, "--wtag", res) ||
        !init_md(&dst_md, dn, ddims, p->cfg.dst, p->dtag, "--dtag", res))
        return 0;
    const int with_bias = conv_prb_with_bias(p);
    if (with_bias && !init_md(&bia_md, 1, &d->oc, p->bia.dt, "a", "bias", res))
        return 0;

    /* The spatial parameters the problem has: the last ndims - 2. */
    const int first = CONV_NSPATIAL - (d->ndims - 2);
    tsr_convolution_desc_t cd;
    const tsr_alg_kind_t algs[] = {tsr_convolution_direct,
                                   tsr_convolution_winograd,
                                   tsr_convolution_auto};
    tsr_status_t st = tsr_convolution_forward_desc_init(
            &cd,
            p->dir == CONV_FWD_I ? tsr_forward_inference : tsr_forward_training,
            algs[p->alg], &src_md, &wei_md, with_bias ? &bia_md : NULL, &dst_md,
            d->str + first, d->dil + first, d->pad + first, d->pad_r + first);
    if (st != tsr_success) {
        set_status_state(res, st, "convolution descriptor");
        return 0;
    }
    st = attr_create_tsr(&p->attr, dn, ddims, conv_wei_oc_mask(p), &r->attr);
    if (st != tsr_success) {
        set_status_state(res, st, "attributes");
        return 0;
    }
    st = tsr_primitive_desc_create(&r->pd, &cd, r->attr, bench_engine());
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

static const tsr_memory_desc_t *pd_md(const conv_run_t *r, tsr_query_t q) {
    return tsr_primitive_desc_query_md(r->pd, q);
}

/* Bytes the problem needs: library memories and the harness' f32 copies
 * (inputs, dst before, reference, result). */
static size_t memory_estimate(const conv_run_t *r) {
    const conv_prb_t *p = r->p;
    const tsr_query_t qs[] = {tsr_query_src_md, tsr_query_weights_md,
                              tsr_query_bias_md, tsr_query_dst_md};
    size_t bytes = 0;
    for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
        bytes += tsr_memory_desc_get_size(pd_md(r, qs[i]));
    size_t scratch = 0;
    if (tsr_primitive_desc_query_scratchpad_size(r->pd, &scratch) ==
        tsr_success)
        bytes += scratch;
    const double f32_elems = (double)conv_src_nelems(p) +
                             (double)conv_wei_nelems(p) + (double)p->desc.oc +
                             4.0 * (double)conv_dst_nelems(p);
    return bytes + (size_t)(f32_elems * sizeof(float));
}

/* ------------------------------------------------------------------------ */
/* Memories and fills */

static void add_arg(conv_run_t *r, int arg, const dnn_mem_t *m) {
    r->args[r->nargs].arg = arg;
    r->args[r->nargs].memory = m->mem;
    r->nargs++;
}

static float *alloc_f32(int64_t n) {
    return malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
}

/* Creates the memory of `md`, fills it per `kind` and keeps the values as
 * the memory holds them (dense f32) in *values. */
static int make_filled(conv_run_t *r, const tsr_memory_desc_t *md,
                       conv_data_kind_t kind, dnn_mem_t *m, float **values) {
    const int64_t n = tsr_memory_desc_nelems(md);
    conv_fill_t fill;
    conv_fill_cfg(r->p, kind, &fill);
    *values = alloc_f32(n);
    if (!*values || dnn_mem_create(m, md) != tsr_success)
        return 0;
    fill_int_values(*values, n, fill.lo, fill.hi, fill.density, fill.seed);
    dnn_mem_from_f32(m, *values);
    dnn_mem_to_f32(m, *values);
    return 1;
}

/* dst as the first sum post-op reads it: the stored bits decoded with the
 * sum's data type. */
static void read_dst_old(conv_run_t *r) {
    const bench_attr_t *a = &r->p->attr;
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

static int make_quant_memory(conv_run_t *r, const conv_q_entry_t *e, int is_zp,
                             int qarg, dnn_mem_t *m) {
    if (!e->set)
        return 1;
    tsr_memory_desc_t md;
    float *values = alloc_f32(e->count);
    int ok = values &&
             tsr_memory_desc_init_by_tag(&md, 1, &e->count,
                                         is_zp ? tsr_s32 : tsr_f32,
                                         "a") == tsr_success &&
             dnn_mem_create(m, &md) == tsr_success;
    if (ok) {
        const bench_attr_t *a = &r->p->attr;
        for (int64_t i = 0; i < e->count; i++)
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

static int make_binary_memories(conv_run_t *r) {
    const bench_attr_t *a = &r->p->attr;
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

static int make_memories(conv_run_t *r) {
    const conv_prb_t *p = r->p;
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
    if (conv_prb_with_bias(p)) {
        if (!make_filled(r, pd_md(r, tsr_query_bias_md), CONV_DATA_BIA, &r->bia,
                         &r->bia_f))
            return 0;
        add_arg(r, TSR_ARG_BIAS, &r->bia);
    }
    const int64_t ndst = conv_dst_nelems(p);
    r->dst_old_f = alloc_f32(ndst);
    r->ref_f = alloc_f32(ndst);
    r->got_f = alloc_f32(ndst);
    if (!r->dst_old_f || !r->ref_f || !r->got_f)
        return 0;
    read_dst_old(r);
    if (p->attr.scratchpad_user) {
        const tsr_memory_desc_t *md = pd_md(r, tsr_query_scratchpad_md);
        if (md && tsr_memory_desc_get_size(md) > 0) {
            if (dnn_mem_create(&r->scratchpad, md) != tsr_success)
                return 0;
            add_arg(r, TSR_ARG_SCRATCHPAD, &r->scratchpad);
        }
    }
    for (int q = 0; q < QARG_COUNT; q++)
        if (!make_quant_memory(r, &r->quant.scales[q], 0, q, &r->scales[q]) ||
            !make_quant_memory(r, &r->quant.zero_points[q], 1, q, &r->zps[q]))
            return 0;
    return make_binary_memories(r);
}

/* ------------------------------------------------------------------------ */
/* Execution and checks */

static int exec_once(void *ctx) {
    conv_run_t *r = ctx;
    return tsr_primitive_execute(r->prim, bench_stream(), r->nargs, r->args) !=
           tsr_success;
}

/* Restores dst's initial contents (the sum post-op reads them), runs and
 * reads the result into `out`. */
static int run_into(conv_run_t *r, float *out, res_t *res) {
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

void conv_dst_idx2str(const void *ctx, int64_t idx, char *buf, size_t len) {
    const conv_prb_t *p = ctx;
    const conv_desc_t *d = &p->desc;
    static const char *const names[] = {"od", "oh", "ow"};
    int64_t o[CONV_NSPATIAL];
    int64_t rest = idx;
    for (int i = CONV_NSPATIAL - 1; i >= 0; i--) {
        o[i] = rest % d->out[i];
        rest /= d->out[i];
    }
    const int64_t oc = rest % d->oc, mb = rest / d->oc;
    int n = snprintf(buf, len, "mb%lld,oc%lld", (long long)mb, (long long)oc);
    for (int i = CONV_NSPATIAL - (d->ndims - 2); i < CONV_NSPATIAL; i++)
        if (n >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ",%s%lld", names[i],
                          (long long)o[i]);
}

void conv_check_against_ref(const conv_prb_t *p, const conv_ref_args_t *args,
                            const float *got, res_t *res) {
    conv_ref_fwd(p, args);
    compare_cfg_t cmp;
    conv_compare_cfg(p, &cmp);
    cmp.idx2str = conv_dst_idx2str;
    cmp.idx_ctx = p;
    compare_f32(args->dst, got, conv_dst_nelems(p), &cmp, res);
}

static void check_correctness(conv_run_t *r, res_t *res) {
    const conv_prb_t *p = r->p;
    if (!run_into(r, r->got_f, res))
        return;
    const conv_ref_args_t args = {
            .src = r->src_f,
            .wei = r->wei_f,
            .bia = r->bia_f,
            .dst_old = r->dst_old_f,
            .bin_src1 = r->bin_f,
            .dst = r->ref_f,
    };
    conv_check_against_ref(p, &args, r->got_f, res);
}

/* Two runs must give the same bits (checked through f32: every dst type
 * converts to f32 exactly, NaN aside). */
static void check_bitwise(conv_run_t *r, res_t *res) {
    if (!run_into(r, r->ref_f, res) || !run_into(r, r->got_f, res))
        return;
    conv_compare_bitwise(r->p, r->ref_f, r->got_f, res);
}

void conv_compare_bitwise(const conv_prb_t *p, const float *first,
                          const float *second_run, res_t *res) {
    compare_cfg_t cmp;
    memset(&cmp, 0, sizeof(cmp));
    cmp.dt = p->cfg.dst;
    cmp.idx2str = conv_dst_idx2str;
    cmp.idx_ctx = p;
    cmp.zero_trust = 1.f; /* all zeros still reproduce bit for bit */
    res_t second = *res;
    compare_f32(first, second_run, conv_dst_nelems(p), &cmp, &second);
    if (second.state == STATE_FAILED)
        *res = second;
    else if (res->state == STATE_EXECUTED)
        res->state = STATE_PASSED;
}

void conv_report_perf(const conv_prb_t *p, const char *repro, const char *impl,
                      double ibytes, double obytes, const bench_timer_t *t) {
    const conv_desc_t *d = &p->desc;
    char desc[512], attr[1024] = "", tag[3 * CONV_TAG_LEN + 3];
    conv_desc_print(d, bench_settings.canonical, desc, sizeof(desc));
    attr_to_repro(&p->attr, 0, attr, sizeof(attr));
    snprintf(tag, sizeof(tag), "%s:%s:%s", p->stag, p->wtag, p->dtag);
    perf_fields_t f;
    memset(&f, 0, sizeof(f));
    f.impl = impl;
    f.name = d->name;
    f.prb = repro;
    f.desc = desc;
    f.dir = conv_dir2str(p->dir);
    f.dt = p->cfg.text;
    f.tag = tag;
    f.alg = conv_alg2str(p->alg);
    f.attr = attr[0] == ' ' ? attr + 1 : attr;
    f.mb = d->mb;
    f.ops = conv_ops(p);
    f.ibytes = ibytes;
    f.obytes = obytes;
    /* csv: the descriptor as columns. */
    static const char *const names[] = {
            "g",  "mb", "ic", "id", "ih", "iw", "oc", "od", "oh", "ow", "kd",
            "kh", "kw", "sd", "sh", "sw", "pd", "ph", "pw", "dd", "dh", "dw"};
    const int64_t values[] = {
            d->g,      d->mb,     d->ic,     d->in[0],  d->in[1],  d->in[2],
            d->oc,     d->out[0], d->out[1], d->out[2], d->ker[0], d->ker[1],
            d->ker[2], d->str[0], d->str[1], d->str[2], d->pad[0], d->pad[1],
            d->pad[2], d->dil[0], d->dil[1], d->dil[2]};
    char text[22][24];
    for (int i = 0; i < 22; i++) {
        snprintf(text[i], sizeof(text[i]), "%lld", (long long)values[i]);
        f.extra_name[i] = names[i];
        f.extra_value[i] = text[i];
    }
    f.n_extra = 22;
    perf_report(&f, t);
}

static void report_perf(conv_run_t *r, res_t *res, const char *repro) {
    if (bench_time(&res->timer, exec_once, r) != 0) {
        set_state(res, STATE_FAILED, "execution failed while timing");
        return;
    }
    const double ibytes =
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_src_md)) +
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_weights_md)) +
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_bias_md));
    const double obytes =
            (double)tsr_memory_desc_get_size(pd_md(r, tsr_query_dst_md));
    conv_report_perf(r->p, repro, res->impl_name, ibytes, obytes, &res->timer);
}

void conv_run_problem(const conv_prb_t *p, const char *repro, res_t *res) {
    conv_run_t r;
    memset(&r, 0, sizeof(r));
    r.p = p;
    const int mode = bench_settings.mode;
    const double t0 = bench_now_ms(); /* creation time: pd and primitive */
    if (!check_supported(p, res) || !create_pd(&r, res))
        goto out;
    char reason[sizeof(res->reason)];
    if (conv_quant_init(p, &r.quant, reason, sizeof(reason)) != 0) {
        set_state(res, STATE_SKIPPED, "%s", reason);
        goto out;
    }
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
