/* One eltwise problem on the argument-keyed pipeline: the arguments per
 * direction, the fills, the op descriptors, the reference glue, the
 * comparison rules of DRIVERS.md §3 and the performance line. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/layout_tag.h"
#include "common/perf_report.h"
#include "conv/conv.h" /* conv_fill_binary_src1: post-op inputs */
#include "eltwise/eltwise.h"

static int is_int(tsr_data_type_t dt) {
    return dt == tsr_s32 || dt == tsr_s8 || dt == tsr_u8;
}

static int is_alg(const eltwise_prb_t *p, tsr_alg_kind_t alg) {
    return p->alg->alg == alg;
}

static int is_clip(const eltwise_prb_t *p) {
    return is_alg(p, tsr_eltwise_clip) || is_alg(p, tsr_eltwise_clip_v2) ||
           is_alg(p, tsr_eltwise_clip_v2_use_dst_for_bwd);
}

const char *eltwise_skip_reason(const eltwise_prb_t *p) {
    static char why[160];
    if (is_clip(p) && p->beta < p->alpha)
        snprintf(why, sizeof(why), "%s needs alpha <= beta", p->alg->name);
    else if ((is_alg(p, tsr_eltwise_bounded_relu) ||
              is_alg(p, tsr_eltwise_elu_use_dst_for_bwd) ||
              is_alg(p, tsr_eltwise_relu_use_dst_for_bwd)) &&
             p->alpha < 0)
        snprintf(why, sizeof(why), "%s needs alpha >= 0", p->alg->name);
    else if (is_alg(p, tsr_eltwise_round) && (p->dt != tsr_f32 || !p->is_fwd))
        snprintf(why, sizeof(why), "round runs forward in f32 only");
    else if (is_int(p->dt) && !is_alg(p, tsr_eltwise_relu) &&
             !is_alg(p, tsr_eltwise_linear))
        snprintf(why, sizeof(why),
                 "integer data types take relu and linear only");
    else if (is_int(p->dt) && !p->is_fwd)
        snprintf(why, sizeof(why), "backward needs a floating-point data type");
    else if (!p->is_fwd && p->attr.n_post_ops > 0)
        snprintf(why, sizeof(why), "post-ops apply to forward only");
    else
        return attr_unsupported(&p->attr);
    return why;
}

/* ------------------------------------------------------------------------ */
/* Fills */

enum {
    SEED_SRC = 0x5eed0e17,
    SEED_DIFF_DST = 0x5eed0e18,
    SEED_DST = 0x5eed0e19,
};

float eltwise_fill_value(const eltwise_prb_t *p, uint64_t seed, int64_t i) {
    float alpha, beta;
    eltwise_effective_params(p->alg->math, p->alpha, p->beta, &alpha, &beta);
    const double u = bench_index_uniform(seed, i);
    const double small_int = floor(u * 11); /* 0..10 */
    const double frac = u * 0.09;
    double v;
    switch (i % 13) {
    case 0:
        v = small_int;
        break;
    case 1:
        v = -small_int;
        break;
    case 2:
        v = frac;
        break;
    case 3:
        v = -frac;
        break;
    case 4:
        v = 10 * small_int;
        break;
    case 5:
        v = -10 * small_int;
        break;
    case 6:
        v = 10 * frac;
        break;
    case 7:
        v = -10 * frac;
        break;
    /* Near exp's overflow and where the tails of tanh and logistic flatten
     * out. */
    case 8:
        v = 88 + 10 * frac;
        break;
    case 9:
        v = 22 + 10 * frac;
        break;
    case 10:
        v = 44 + 10 * frac;
        break;
    /* The kinks of relu-like and clip-like algorithms. */
    case 11:
        v = alpha;
        break;
    default:
        if (is_alg(p, tsr_eltwise_log))
            v = (i / 13) % 2 ? -INFINITY : INFINITY;
        else
            v = beta;
        break;
    }
    return (float)v + 0.f; /* -0 becomes +0 */
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const uint64_t seed = arg == TSR_ARG_DIFF_DST ? SEED_DIFF_DST
                          : arg == TSR_ARG_DST    ? SEED_DST
                                                  : SEED_SRC;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = eltwise_fill_value(prb, seed, i);
}

/* ------------------------------------------------------------------------ */
/* Creation */

static int has_sum(const bench_attr_t *a) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind == tsr_post_op_sum)
            return 1;
    return 0;
}

int eltwise_prepare(bench_args_run_t *r, res_t *res) {
    const eltwise_prb_t *p = r->prb;
    if (!bench_check_nelems("src", p->desc.ndims, p->desc.dims, res))
        return 0;
    if (p->dt == tsr_data_type_undef) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported", p->dt_text);
        return 0;
    }
    const char *why = eltwise_skip_reason(p);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    if (p->is_fwd) {
        const bench_arg_decl_t decl[] = {
                {TSR_ARG_SRC, fill, 0, 0},
                {TSR_ARG_DST, has_sum(&p->attr) ? fill : NULL, 1,
                 p->inplace ? TSR_ARG_SRC : 0},
        };
        bench_args_declare(r, decl, 2);
        return 1;
    }
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_SRC, fill, 0, 0},
            {TSR_ARG_DIFF_DST, fill, 0, 0},
            {TSR_ARG_DIFF_SRC, NULL, 1, p->inplace ? TSR_ARG_DIFF_DST : 0},
    };
    bench_args_declare(r, decl, 3);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const eltwise_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!eltwise_prepare(r, res))
        return 0;
    tsr_memory_desc_t data_md;
    if (!bench_md_init_by_tag(&data_md, d->ndims, d->dims, p->dt, p->tag,
                              "--tag", "src", res))
        return 0;
    tsr_status_t st =
            attr_create_tsr(&p->attr, d->ndims, d->dims, 0, 0, NULL, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    float alpha, beta;
    eltwise_effective_params(p->alg->math, p->alpha, p->beta, &alpha, &beta);
    tsr_eltwise_desc_t fwd, bwd;
    st = tsr_eltwise_forward_desc_init(
            &fwd,
            p->is_inference ? tsr_forward_inference : tsr_forward_training,
            p->alg->alg, &data_md, &data_md, alpha, beta);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "eltwise descriptor");
        return 0;
    }
    if (p->is_fwd)
        return bench_args_create_pd(r, &fwd, res);
    /* The diff tensors share the data's layout, so that diff_src can take
     * diff_dst's memory in place. */
    st = tsr_eltwise_backward_desc_init(&bwd, p->alg->alg, &data_md, &data_md,
                                        &data_md, alpha, beta);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "eltwise backward descriptor");
        return 0;
    }
    return bench_args_create_fwd_pd(r, &fwd, res) &&
           bench_args_create_pd(r, &bwd, res);
}

/* ------------------------------------------------------------------------ */
/* Reference */

static void pos_of(const tsr_memory_desc_t *md, int64_t i, int64_t *pos) {
    for (int k = md->ndims - 1; k >= 0; k--) {
        pos[k] = i % md->dims[k];
        i /= md->dims[k];
    }
}

static int ref(bench_args_run_t *r, res_t *res) {
    const eltwise_prb_t *p = r->prb;
    const tsr_alg_kind_t alg = p->alg->alg;
    float alpha, beta;
    eltwise_effective_params(p->alg->math, p->alpha, p->beta, &alpha, &beta);
    if (p->is_fwd) {
        const float *src = bench_args_in(r, TSR_ARG_SRC);
        const float *old = bench_args_old(r, TSR_ARG_DST);
        float *dst = bench_args_ref(r, TSR_ARG_DST);
        const tsr_memory_desc_t *md = bench_args_md(r, TSR_ARG_DST);
        const int64_t n = tsr_memory_desc_nelems(md);
        float *const *bin = r->bin_f32;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n; i++) {
            float v = (float)eltwise_ref_fwd(alg, src[i], alpha, beta);
            if (p->attr.n_post_ops > 0) {
                int64_t pos[TSR_MAX_NDIMS];
                pos_of(md, i, pos);
                v = ref_post_ops(&p->attr, v, old[i], md->ndims, md->dims, pos,
                                 bin, 0);
            }
            dst[i] = v;
        }
        return 1;
    }
    const float *data =
            bench_args_in(r, p->alg->use_dst ? TSR_ARG_DST : TSR_ARG_SRC);
    const float *dd = bench_args_in(r, TSR_ARG_DIFF_DST);
    float *ds = bench_args_ref(r, TSR_ARG_DIFF_SRC);
    if (!data || !dd || !ds) {
        bench_set_state(res, STATE_FAILED, "the backward primitive takes no %s",
                        p->alg->use_dst ? "dst" : "src");
        return 0;
    }
    const int64_t n =
            tsr_memory_desc_nelems(bench_args_md(r, TSR_ARG_DIFF_SRC));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        ds[i] = (float)eltwise_ref_bwd(alg, dd[i], data[i], alpha, beta);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Comparison */

static float epsilon(tsr_data_type_t dt) {
    switch (dt) {
    case tsr_f32:
        return 0x1p-23f;
    case tsr_bf16:
        return 0x1p-7f;
    case tsr_f16:
        return 0x1p-10f;
    default:
        return 0.f;
    }
}

float eltwise_threshold(const eltwise_prb_t *p) {
    if (p->dt != tsr_f32)
        return epsilon(p->dt);
    static const tsr_alg_kind_t complex[] = {
            tsr_eltwise_gelu_tanh, tsr_eltwise_elu,
            tsr_eltwise_swish,     tsr_eltwise_tanh,
            tsr_eltwise_soft_relu, tsr_eltwise_logsigmoid,
            tsr_eltwise_mish,      tsr_eltwise_log,
    };
    for (size_t i = 0; i < sizeof(complex) / sizeof(complex[0]); i++)
        if (is_alg(p, complex[i]))
            return 4e-5f;
    if (p->is_fwd && (is_alg(p, tsr_eltwise_elu_use_dst_for_bwd) ||
                      is_alg(p, tsr_eltwise_tanh_use_dst_for_bwd)))
        return 4e-5f;
    return 4e-6f;
}

int eltwise_cancellation_expected(const eltwise_prb_t *p, float s) {
    const float trh = eltwise_threshold(p);
    if (trh == 0)
        return 0;
    const float comp_err = 2 * epsilon(tsr_f32) / trh;
    const int fwd = p->is_fwd;
    switch (p->alg->math) {
    case tsr_eltwise_elu:
        return fwd && s < 0 && fabsf(expm1f(s)) <= comp_err;
    case tsr_eltwise_gelu_tanh: {
        const float g = 0.7978846f * s * (1 + 0.044715f * s * s);
        const float dg = 0.7978846f * (1 + 3 * 0.044715f * s * s);
        const float v = tanhf(g);
        return fabsf(1 + v) <= comp_err ||
               (!fwd && s < 0 && fabsf(1 + s * (1 - v) * dg) <= 4 * comp_err);
    }
    case tsr_eltwise_gelu_erf: {
        const float u = s * 0.70710678f;
        const float e = 1 + erff(u);
        return fwd ? fabsf(e) <= comp_err
                   : fabsf(e + u * 1.1283792f * expf(-u * u)) <= comp_err;
    }
    case tsr_eltwise_tanh:
        if (fwd)
            return 0;
        return p->alg->use_dst ? 1 - s * s <= comp_err
                               : 1 - tanhf(fabsf(s)) <= comp_err;
    case tsr_eltwise_soft_relu:
        return fwd && s < 0 && log1pf(expf(s)) <= 10 * comp_err;
    case tsr_eltwise_logsigmoid:
        return fwd && s > 0 && log1pf(expf(-s)) <= 10 * comp_err;
    case tsr_eltwise_mish:
        return fwd && s < 0 && tanhf(log1pf(expf(s))) <= 10 * comp_err;
    case tsr_eltwise_logistic:
        if (fwd)
            return 0;
        return p->alg->use_dst ? 1 - s <= comp_err
                               : s >= 0 && 1 / (1 + expf(s)) <= comp_err;
    case tsr_eltwise_swish:
        return !fwd;
    default:
        return 0;
    }
}

/* Where zeros are the expected answer for most points. */
static int zeros_expected(const eltwise_prb_t *p) {
    const int bwd = !p->is_fwd;
    if (is_int(p->dt))
        return 1;
    if (is_alg(p, tsr_eltwise_linear))
        return p->alpha == 0;
    if (is_alg(p, tsr_eltwise_bounded_relu))
        return p->alpha == 0 || bwd;
    if (is_clip(p))
        return (p->alpha == 0 && p->beta == 0) || bwd;
    if (is_alg(p, tsr_eltwise_pow))
        return p->alpha == 0 || (bwd && p->beta == 0);
    if (is_alg(p, tsr_eltwise_hardsigmoid) || is_alg(p, tsr_eltwise_hardswish))
        return bwd;
    /* A 16-bit dst saturates to 1 early: 1 - y^2 and y (1 - y) are then
     * mostly 0. */
    if (is_alg(p, tsr_eltwise_tanh_use_dst_for_bwd) ||
        is_alg(p, tsr_eltwise_logistic_use_dst_for_bwd))
        return bwd && (p->dt == tsr_bf16 || p->dt == tsr_f16);
    return 0;
}

float eltwise_zero_trust(const eltwise_prb_t *p) {
    return zeros_expected(p) ? 1.f : 0.6f;
}

static int has_post_op(const bench_attr_t *a, tsr_post_op_kind_t kind) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind == kind)
            return 1;
    return 0;
}

/* The rules past the relative threshold (DRIVERS.md §0.3 and §3). */
static int accept(const void *ctx, int64_t idx, float exp, float got) {
    const bench_args_run_t *r = ctx;
    const eltwise_prb_t *p = r->prb;
    const float trh = eltwise_threshold(p);
    const float diff = fabsf(exp - got);
    if (fabsf(exp) <= 1e-5f && diff <= trh)
        return 1;
    if (p->dt == tsr_s32 && exp >= 2147483520.f && got >= 2147483520.f)
        return 1;
    const float *data = bench_args_in(
            r, !p->is_fwd && p->alg->use_dst ? TSR_ARG_DST : TSR_ARG_SRC);
    if (diff <= trh && ((data && eltwise_cancellation_expected(p, data[idx])) ||
                        has_post_op(&p->attr, tsr_post_op_binary)))
        return 1;
    return has_post_op(&p->attr, tsr_post_op_eltwise) && diff <= 2e-5f;
}

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    const eltwise_prb_t *p = r->prb;
    (void)arg;
    cmp->threshold = eltwise_threshold(p);
    cmp->zero_trust = eltwise_zero_trust(p);
    cmp->accept = accept;
    cmp->accept_ctx = r;
}

/* ------------------------------------------------------------------------ */
/* Performance */

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const eltwise_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    char desc[512], attr[1024];
    dims_desc_print(d, desc, sizeof(desc));
    perf_fields_t f;
    perf_fields_init(&f, res, d->name, repro, desc, ibytes, obytes);
    f.attr = perf_attr_text(&p->attr, attr, sizeof(attr));
    f.dir = p->dir;
    f.dt = p->dt_text;
    f.tag = p->tag;
    f.alg = p->alg->name;
    f.mb = d->dims[0];
    perf_report_ncsp(&f, d->dims, d->ndims, &res->timer);
}

void eltwise_run_problem(const eltwise_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .fill_binary_src1 = conv_fill_binary_src1,
            .create_onednn = BENCH_ARGS_ONEDNN(eltwise_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
