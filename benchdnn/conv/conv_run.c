/* One convolution problem on the argument-keyed pipeline (common/bench_args.h):
 * the harness' checks, Tessera's descriptors, the arguments and their fills,
 * the reference, the comparison and the performance line. oneDNN's
 * descriptors are in conv_onednn.c; everything else serves both libraries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/perf_report.h"
#include "conv/conv.h"

/* ------------------------------------------------------------------------ */
/* Creation */

/* The texts name what lacks a feature: the library itself on Tessera, the
 * harness' reference on oneDNN. */
int conv_prepare(bench_args_run_t *r, bench_lib_t lib, res_t *res) {
    const conv_prb_t *p = r->prb;
    const int onednn = lib == BENCH_LIB_ONEDNN;
    if (!conv_prb_check_sizes(p, res))
        return 0;
    if (p->dir != CONV_FWD_B && p->dir != CONV_FWD_D && p->dir != CONV_FWD_I) {
        bench_set_state(res, STATE_UNIMPLEMENTED, "%s: %s",
                        conv_dir2str(p->dir),
                        onednn ? "the harness' reference is forward only"
                               : "the library has forward convolution only");
        return 0;
    }
    if (p->cfg.unsupported[0] ||
        (conv_prb_with_bias(p) && p->bia.unsupported[0])) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported by the %s",
                        p->cfg.unsupported[0] ? p->cfg.unsupported
                                              : p->bia.unsupported,
                        onednn ? "harness" : "library");
        return 0;
    }
    const char *why = attr_unsupported(&p->attr);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    if (!conv_zero_points_checkable(p, res->reason, sizeof(res->reason))) {
        res->state = STATE_SKIPPED;
        return 0;
    }
    /* Memory first: the harness' own copies are known from the problem
     * alone, before any library object or per-channel array exists. */
    return bench_mem_check(
            bench_bytes_from_double(conv_harness_elems(p) * sizeof(float)),
            res);
}

void conv_fill_values(const conv_prb_t *p, int arg, float *buf, int64_t n) {
    const conv_data_kind_t kind = arg == TSR_ARG_SRC       ? CONV_DATA_SRC
                                  : arg == TSR_ARG_WEIGHTS ? CONV_DATA_WEI
                                  : arg == TSR_ARG_BIAS    ? CONV_DATA_BIA
                                                           : CONV_DATA_DST;
    conv_fill_t fill;
    conv_fill_cfg(p, kind, &fill);
    fill_int_values(buf, n, fill.lo, fill.hi, fill.density, fill.seed);
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    conv_fill_values(prb, arg, buf, n);
}

void conv_declare_args(bench_args_run_t *r, int with_bias,
                       bench_fill_fn fill_fn) {
    /* dst gets a fill too: the sum post-op reads its contents. */
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_SRC, fill_fn, 0, 0},
            {TSR_ARG_WEIGHTS, fill_fn, 0, 0},
            {TSR_ARG_DST, fill_fn, 1, 0},
            {TSR_ARG_BIAS, fill_fn, 0, 0},
    };
    bench_args_declare(r, decl, with_bias ? 4 : 3);
}

int conv_declare(bench_args_run_t *r, res_t *res) {
    const conv_prb_t *p = r->prb;
    conv_quant_t quant;
    char reason[sizeof(res->reason)];
    if (conv_quant_init(p, &quant, reason, sizeof(reason)) != 0) {
        bench_set_state(res, STATE_SKIPPED, "%s", reason);
        return 0;
    }
    for (int q = 0; q < QARG_COUNT; q++) {
        if (quant.scales[q].set)
            r->scale_count[q] = quant.scales[q].count;
        if (quant.zero_points[q].set)
            r->zp_count[q] = quant.zero_points[q].count;
    }
    conv_declare_args(r, conv_prb_with_bias(p), fill);
    return 1;
}

/* Memory descriptors, op descriptor, attributes and the primitive
 * descriptor. */
static int create_pd(bench_args_run_t *r, res_t *res) {
    const conv_prb_t *p = r->prb;
    const conv_desc_t *d = &p->desc;
    int64_t sdims[TSR_MAX_NDIMS], wdims[TSR_MAX_NDIMS], ddims[TSR_MAX_NDIMS];
    const int sn = conv_src_dims(p, sdims), wn = conv_wei_dims(p, wdims),
              dn = conv_dst_dims(p, ddims);
    tsr_memory_desc_t src_md, wei_md, bia_md, dst_md;
    if (!bench_md_init_by_tag(&src_md, sn, sdims, p->cfg.src, p->stag, "--stag",
                              "src", res) ||
        !bench_md_init_by_tag(&wei_md, wn, wdims, p->cfg.wei, p->wtag, "--wtag",
                              "wei", res) ||
        !bench_md_init_by_tag(&dst_md, dn, ddims, p->cfg.dst, p->dtag, "--dtag",
                              "dst", res))
        return 0;
    const int with_bias = conv_prb_with_bias(p);
    if (with_bias && !bench_md_init_by_tag(&bia_md, 1, &d->oc, p->bia.dt, "a",
                                           "bias", "bias", res))
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
        bench_set_status_state(res, st, "convolution descriptor");
        return 0;
    }
    st = attr_create_tsr(&p->attr, dn, ddims, conv_wei_oc_mask(p), 0, NULL,
                         &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    return bench_args_create_pd(r, &cd, res);
}

static int create(bench_args_run_t *r, res_t *res) {
    return conv_prepare(r, BENCH_LIB_TESSERA, res) && create_pd(r, res) &&
           conv_declare(r, res);
}

/* ------------------------------------------------------------------------ */
/* Reference, comparison and the performance line */

static int ref(bench_args_run_t *r, res_t *res) {
    (void)res;
    const conv_ref_args_t args = {
            .src = bench_args_in(r, TSR_ARG_SRC),
            .wei = bench_args_in(r, TSR_ARG_WEIGHTS),
            .bia = bench_args_in(r, TSR_ARG_BIAS),
            .dst_old = bench_args_old(r, TSR_ARG_DST),
            .bin_src1 = r->bin_f32,
            .dst = bench_args_ref(r, TSR_ARG_DST),
    };
    conv_ref_fwd(r->prb, &args);
    return 1;
}

/* dst coordinates of a dense index ("mb0,oc3,oh1,ow2"), for mismatch
 * lines; `ctx` is the conv_prb_t. */
static void dst_idx2str(const void *ctx, int64_t idx, char *buf, size_t len) {
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

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    (void)arg;
    conv_compare_cfg(r->prb, cmp);
    cmp->idx2str = dst_idx2str;
    cmp->idx_ctx = r->prb;
}

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const conv_prb_t *p = r->prb;
    const conv_desc_t *d = &p->desc;
    char desc[512], attr[1024] = "", tag[3 * CONV_TAG_LEN + 3];
    conv_desc_print(d, bench_settings.canonical, desc, sizeof(desc));
    attr_to_repro(&p->attr, 0, attr, sizeof(attr));
    snprintf(tag, sizeof(tag), "%s:%s:%s", p->stag, p->wtag, p->dtag);
    perf_fields_t f;
    memset(&f, 0, sizeof(f));
    f.impl = res->impl_name;
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
    char text[22][PERF_EXTRA_LEN];
    perf_fields_set_extra(&f, 22, names, values, text);
    perf_report(&f, &res->timer);
}

void conv_run_problem(const conv_prb_t *p, bench_lib_t lib, const char *repro,
                      res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .fill_binary_src1 = conv_fill_binary_src1,
            .create_onednn = BENCH_ARGS_ONEDNN(conv_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
