/* One "dst = src x weights" task on the argument-keyed pipeline
 * (common/bench_args.h): the harness' checks, Tessera's tensor descriptors
 * and attributes, the arguments and their fills, the reference (mm_ref),
 * the comparison and the performance line. The drivers give the op
 * descriptors (ip_run.c, matmul_run.c and their *_onednn.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/opt_lists.h"
#include "common/perf_report.h"
#include "matmul/mm_task.h"

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

/* Saturated: mm_task_prepare accepts only tasks whose tensors'
 * element counts fit. */
static int64_t dims_nelems(int ndims, const int64_t *dims) {
    return bench_prod_i64_sat(dims, ndims);
}

static const char *const arg_names[3] = {"src", "wei", "dst"};

static int check_sizes(const mm_task_t *t, res_t *res) {
    for (int which = MM_SRC; which <= MM_DST; which++) {
        int ndims;
        const int64_t *dims = mm_task_arg(t, which, &ndims, NULL);
        if (!bench_check_nelems(arg_names[which], ndims, dims, res))
            return 0;
    }
    return 1;
}

static double src_wei_elems(const mm_task_t *t) {
    return (double)dims_nelems(t->src_ndims, t->src_dims) +
           (double)dims_nelems(t->wei_ndims, t->wei_dims);
}

/* f32 copies, and the reference's own (a double per src and weights
 * element). */
static double task_harness_elems(const mm_task_t *t) {
    const double out = (double)dims_nelems(t->dst_ndims, t->dst_dims);
    return 3.0 * src_wei_elems(t) + 4.0 * out;
}

/* ------------------------------------------------------------------------ */
/* Creation */

int mm_task_prepare(bench_args_run_t *r, bench_lib_t lib, res_t *res) {
    const mm_task_t *t = r->prb;
    const bench_attr_t *a = t->attr;
    if (!check_sizes(t, res))
        return 0;
    if (t->cfg.unsupported[0]) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported by the %s",
                        t->cfg.unsupported,
                        lib == BENCH_LIB_ONEDNN ? "harness" : "library");
        return 0;
    }
    const char *why = attr_unsupported(a);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    /* Scales must factor out of the sum: src common, weights over the
     * output channel only. */
    if (a->scales[QARG_SRC].set &&
        a->scales[QARG_SRC].policy != POLICY_COMMON) {
        bench_set_state(res, STATE_SKIPPED,
                        "src scales with policy %s: the reference does not "
                        "support it",
                        policy2str(a->scales[QARG_SRC].policy));
        return 0;
    }
    if (a->scales[QARG_WEI].set &&
        (mm_task_q_mask(t, a->scales[QARG_WEI].policy, QARG_WEI) &
         ~t->wei_oc_mask)) {
        bench_set_state(res, STATE_SKIPPED,
                        "wei scales with policy %s: the reference does not "
                        "support it",
                        policy2str(a->scales[QARG_WEI].policy));
        return 0;
    }
    conv_prb_t rules;
    mm_task_rules_prb(t, &rules);
    if (!conv_zero_points_checkable(&rules, res->reason, sizeof(res->reason))) {
        res->state = STATE_SKIPPED;
        return 0;
    }
    /* Memory first: the harness' own copies are known from the task alone,
     * before any library object or per-channel array exists. */
    return bench_mem_check(
            bench_bytes_from_double(task_harness_elems(t) * sizeof(float)),
            res);
}

static int init_md(const mm_task_t *t, int which, tsr_memory_desc_t *md,
                   res_t *res) {
    int ndims;
    tsr_data_type_t dt;
    const int64_t *dims = mm_task_arg(t, which, &ndims, &dt);
    tsr_status_t st;
    if (t->has_strides[which]) {
        st = tsr_memory_desc_init_by_strides(md, ndims, dims, dt,
                                             t->strides[which]);
        if (st != tsr_success)
            bench_set_state(res, STATE_INVALID_ARGUMENTS,
                            "--strides for %s do not describe its %d dims",
                            arg_names[which], ndims);
        return st == tsr_success;
    }
    char option[8];
    snprintf(option, sizeof(option), "--%ctag", arg_names[which][0]);
    return bench_md_init_by_tag(md, ndims, dims, dt, t->tag[which], option,
                                arg_names[which], res);
}

int mm_task_attr(bench_args_run_t *r, res_t *res) {
    const mm_task_t *t = r->prb;
    const int qarg_ndims[QARG_COUNT] = {t->src_ndims, t->wei_ndims,
                                        t->dst_ndims};
    const tsr_status_t st =
            attr_create_tsr(t->attr, t->dst_ndims, t->dst_dims, t->wei_oc_mask,
                            !t->is_ip, qarg_ndims, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    return 1;
}

/* The quantization value counts: masks over each argument's dims. */
static int64_t quant_count(const mm_task_t *t, int qarg, int is_zp) {
    const bench_attr_t *a = t->attr;
    const int set = is_zp ? a->zero_points[qarg].set : a->scales[qarg].set;
    if (!set)
        return -1;
    const bench_policy_t policy =
            is_zp ? a->zero_points[qarg].policy : a->scales[qarg].policy;
    const int mask = mm_task_q_mask(t, policy, qarg);
    int ndims;
    const int64_t *dims = mm_task_arg(t, qarg, &ndims, NULL);
    return attr_mask_count(mask, ndims, dims);
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    conv_prb_t rules;
    mm_task_rules_prb(prb, &rules);
    conv_fill_values(&rules, arg, buf, n);
}

void mm_task_declare(bench_args_run_t *r) {
    const mm_task_t *t = r->prb;
    for (int q = 0; q < QARG_COUNT; q++) {
        r->scale_count[q] = quant_count(t, q, 0);
        r->zp_count[q] = quant_count(t, q, 1);
    }
    conv_declare_args(r, t->with_bias, fill);
}

int mm_task_create(bench_args_run_t *r, mm_task_pd_fn pd_fn, res_t *res) {
    const mm_task_t *t = r->prb;
    if (!mm_task_prepare(r, BENCH_LIB_TESSERA, res))
        return 0;
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
            bench_set_status_state(res, st, "bias memory descriptor");
            return 0;
        }
    }
    if (!pd_fn(r, &src_md, &wei_md, t->with_bias ? &bia_md : NULL, &dst_md,
               res))
        return 0;
    mm_task_declare(r);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Reference, comparison and the performance line */

int mm_task_ref(bench_args_run_t *r, res_t *res) {
    const mm_ref_args_t args = {
            .src = bench_args_in(r, TSR_ARG_SRC),
            .wei = bench_args_in(r, TSR_ARG_WEIGHTS),
            .bia = bench_args_in(r, TSR_ARG_BIAS),
            .dst_old = bench_args_old(r, TSR_ARG_DST),
            .bin_src1 = r->bin_f32,
            .dst = bench_args_ref(r, TSR_ARG_DST),
    };
    if (mm_ref(r->prb, &args) != 0) {
        bench_set_state(res, STATE_SKIPPED,
                        "not enough memory for the reference");
        return 0;
    }
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

void mm_task_compare_cfg(const bench_args_run_t *r, int arg,
                         compare_cfg_t *cmp) {
    (void)arg;
    conv_prb_t rules;
    mm_task_rules_prb(r->prb, &rules);
    conv_compare_cfg(&rules, cmp);
    cmp->idx2str = dst_idx2str;
    cmp->idx_ctx = r->prb;
}

void mm_task_report_perf(const bench_args_run_t *r, const char *repro,
                         double ibytes, double obytes, res_t *res) {
    const mm_task_t *t = r->prb;
    char attr[1024];
    perf_fields_t f;
    perf_fields_init(&f, res, t->name, repro, t->desc, ibytes, obytes);
    f.attr = perf_attr_text(t->attr, attr, sizeof(attr));
    f.dir = t->dir;
    f.dt = t->cfg.text;
    f.tag = t->tags_text;
    f.mb = t->mb;
    f.ops = mm_task_ops(t);
    /* csv: the GEMM shape as columns. */
    static const char *const names[] = {"batch", "m", "n", "k"};
    const int64_t values[] = {t->batch, t->M, t->N, t->K};
    char text[4][PERF_EXTRA_LEN];
    perf_fields_set_extra(&f, 4, names, values, text);
    perf_report(&f, &res->timer);
}

void mm_task_run_described(mm_task_t *t, const bench_args_ops_t *ops,
                           bench_lib_t lib, const char *name, const char *desc,
                           const char *dir, const char *const tags[3],
                           int64_t mb, const char *repro, res_t *res) {
    char tags_text[3 * OPT_VALUE_LEN + 3];
    snprintf(tags_text, sizeof(tags_text), "%s:%s:%s", tags[0], tags[1],
             tags[2]);
    t->name = name;
    t->desc = desc;
    t->dir = dir;
    t->tags_text = tags_text;
    t->mb = mb;
    bench_args_run_problem(ops, lib, t, t->attr, repro, res);
}
