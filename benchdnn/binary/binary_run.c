/* One binary problem on the argument-keyed pipeline: skips, fills, the op
 * descriptor, the reference, the comparison rules of DRIVERS.md §12 and
 * the performance line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "binary/binary.h"
#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/layout_tag.h"
#include "common/perf_report.h"

int binary_src_scale(const binary_prb_t *p, int input, float *scale) {
    const bench_scale_t *s =
            input == 0 ? &p->attr.scales[QARG_SRC] : &p->src1_scale;
    *scale = s->set ? s->scale : 1.f;
    return s->set;
}

static int has_post_op(const bench_attr_t *a, tsr_post_op_kind_t kind) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind == kind)
            return 1;
    return 0;
}

static int src0_broadcasts(const binary_prb_t *p) {
    for (int d = 0; d < p->desc.ndims; d++)
        if (p->desc.dims[0][d] != p->dst_dims[d])
            return 1;
    return 0;
}

/* A binary post-op with a comparison, or, with `minmax`, MIN or MAX. */
static int has_binary_post_op_cmp(const bench_attr_t *a, int minmax) {
    for (int i = 0; i < a->n_post_ops; i++) {
        const bench_post_op_t *po = &a->post_ops[i];
        if (po->kind == tsr_post_op_binary &&
            (binary_alg_is_cmp(po->alg) ||
             (minmax &&
              (po->alg == tsr_binary_min || po->alg == tsr_binary_max))))
            return 1;
    }
    return 0;
}

/* Attributes the binary primitive takes: common scales of both sources,
 * sum, eltwise and binary post-ops; NULL when `p` has no other. */
static const char *unsupported_attr(const binary_prb_t *p) {
    const bench_attr_t *a = &p->attr;
    if (p->src1_scale.set && p->src1_scale.policy != POLICY_COMMON)
        return "binary takes common scales only";
    if (a->oscale.set)
        return "binary takes no output scales";
    for (int q = 0; q < QARG_COUNT; q++) {
        if (a->zero_points[q].set)
            return "binary takes no zero points";
        if (!a->scales[q].set)
            continue;
        if (q != QARG_SRC)
            return "binary takes scales of src and src1 only";
        if (a->scales[q].policy != POLICY_COMMON)
            return "binary takes common scales only";
    }
    if (has_post_op(a, tsr_post_op_prelu))
        return "binary takes no prelu post-op";
    return attr_unsupported(a);
}

/* Why the problem is not run (DRIVERS.md §12), or NULL. */
static const char *skip_reason(const binary_prb_t *p) {
    const int sum = has_post_op(&p->attr, tsr_post_op_sum);
    if (p->inplace && src0_broadcasts(p))
        return "in place needs src0 with dst's dims";
    if (p->inplace && p->sdt[0] != p->ddt)
        return "in place needs src0 and dst of one data type";
    if (p->inplace && strcmp(p->dtag, "any") != 0 &&
        strcmp(p->dtag, p->stag[0]) != 0)
        return "in place needs src0 and dst of one layout";
    if (sum && src0_broadcasts(p))
        return "a sum post-op needs src0 with dst's dims";
    if (p->alg == tsr_binary_div && has_binary_post_op_cmp(&p->attr, 1))
        return "DIV with a MIN, MAX or comparison binary post-op";
    return unsupported_attr(p);
}

/* ------------------------------------------------------------------------ */
/* Fills */

float binary_fill_value(tsr_data_type_t dt, int input, int64_t i) {
    const int64_t fmin = dt == tsr_u8 ? 0 : -8;
    const int64_t gen = (12 * i + 5 * (int64_t)input + 16) % 17;
    const float v = (float)(gen + fmin) * 1.25f;
    return input == 1 && v == 0 ? 1.f : v;
}

/* Input index of the fill formula per argument. */
static int fill_input(int arg) {
    switch (arg) {
    case TSR_ARG_SRC_0:
        return 0;
    case TSR_ARG_SRC_1:
        return 1;
    default:
        return 2; /* dst, as a sum post-op reads it */
    }
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const binary_prb_t *p = prb;
    const int input = fill_input(arg);
    const tsr_data_type_t dt = input < 2 ? p->sdt[input] : p->ddt;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = binary_fill_value(dt, input, i);
}

/* Binary post-op inputs take the sources' formula with their argument id
 * as the input index; zeros become 1 for a DIV post-op. */
static void fill_binary_src1(tsr_alg_kind_t alg, tsr_data_type_t dt, int index,
                             float *buf, int64_t n) {
    const int input = TSR_ARG_ATTR_MULTIPLE_POST_OP(index) | TSR_ARG_SRC_1;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        const float v = binary_fill_value(dt, input, i);
        buf[i] = alg == tsr_binary_div && v == 0 ? 1.f : v;
    }
}

/* ------------------------------------------------------------------------ */
/* Creation */

/* src1's scale: the common attributes (and so the pipeline) know src,
 * wei and dst only. The library attribute gets src1's mask; the value's
 * memory takes the weights' scale slot of r->attr_mems, unused by binary,
 * so that the pipeline frees it, and leads the execution arguments, to
 * which the pipeline appends its own. */
static int set_src1_scale(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    tsr_status_t st =
            tsr_primitive_attr_set_scales_mask(r->attr, TSR_ARG_SRC_1, 0);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "src1 scales");
        return 0;
    }
    dnn_mem_t *m = &r->attr_mems.scales[QARG_WEI];
    const int64_t one = 1;
    tsr_memory_desc_t md;
    if (tsr_memory_desc_init_by_tag(&md, 1, &one, tsr_f32, "a") !=
                tsr_success ||
        dnn_mem_create(m, &md) != tsr_success ||
        dnn_mem_from_f32(m, &p->src1_scale.scale) != tsr_success) {
        bench_set_state(res, STATE_SKIPPED, "not enough memory for scales");
        return 0;
    }
    bench_exec_args_add(r->args.a, &r->args.n,
                        TSR_ARG_ATTR_SCALES | TSR_ARG_SRC_1, m);
    return 1;
}

int binary_prepare(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    const int ndims = p->desc.ndims;
    if (!bench_check_nelems("src0", ndims, p->desc.dims[0], res) ||
        !bench_check_nelems("src1", ndims, p->desc.dims[1], res) ||
        !bench_check_nelems("dst", ndims, p->dst_dims, res))
        return 0;
    if (p->unsupported[0]) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported", p->unsupported);
        return 0;
    }
    const char *why = skip_reason(p);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_SRC_0, fill, 0, 0},
            {TSR_ARG_SRC_1, fill, 0, 0},
            {TSR_ARG_DST, has_post_op(&p->attr, tsr_post_op_sum) ? fill : NULL,
             1, p->inplace ? TSR_ARG_SRC_0 : 0},
    };
    bench_args_declare(r, decl, 3);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    if (!binary_prepare(r, res))
        return 0;
    const multi_dims_desc_t *d = &p->desc;
    tsr_memory_desc_t src0_md, src1_md, dst_md;
    if (!bench_md_init_by_tag(&src0_md, d->ndims, d->dims[0], p->sdt[0],
                              p->stag[0], "--stag", "src0", res) ||
        !bench_md_init_by_tag(&src1_md, d->ndims, d->dims[1], p->sdt[1],
                              p->stag[1], "--stag", "src1", res) ||
        !bench_md_init_by_tag(&dst_md, d->ndims, p->dst_dims, p->ddt, p->dtag,
                              "--dtag", "dst", res))
        return 0;
    tsr_status_t st = attr_create_tsr(&p->attr, d->ndims, p->dst_dims, 0, 0,
                                      NULL, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    float scale;
    if (binary_src_scale(p, 0, &scale))
        r->scale_count[QARG_SRC] = 1;
    if (binary_src_scale(p, 1, &scale) && !set_src1_scale(r, res))
        return 0;
    tsr_binary_desc_t op;
    st = tsr_binary_desc_init(&op, p->alg, &src0_md, &src1_md, &dst_md);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "binary descriptor");
        return 0;
    }
    return bench_args_create_pd(r, &op, res);
}

/* ------------------------------------------------------------------------ */
/* Reference */

/* Dense index into a source of dims `sdims` of the dst point `pos`. */
static int64_t src_index(int ndims, const int64_t *sdims, const int64_t *pos) {
    int64_t idx = 0;
    for (int k = 0; k < ndims; k++)
        idx = idx * sdims[k] + (sdims[k] == 1 ? 0 : pos[k]);
    return idx;
}

static int ref(bench_args_run_t *r, res_t *res) {
    const binary_prb_t *p = r->prb;
    const multi_dims_desc_t *d = &p->desc;
    const float *src0 = bench_args_in(r, TSR_ARG_SRC_0);
    const float *src1 = bench_args_in(r, TSR_ARG_SRC_1);
    const float *old = bench_args_old(r, TSR_ARG_DST);
    float *dst = bench_args_ref(r, TSR_ARG_DST);
    if (!src0 || !src1 || !dst) {
        bench_set_state(res, STATE_FAILED,
                        "the primitive does not take src0, src1 and dst");
        return 0;
    }
    float scale0, scale1;
    binary_src_scale(p, 0, &scale0);
    binary_src_scale(p, 1, &scale1);
    const int ndims = d->ndims;
    const int64_t n = multi_dims_nelems(ndims, p->dst_dims);
    float *const *bin = r->bin_f32;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        int64_t pos[TSR_MAX_NDIMS];
        for (int64_t k = ndims - 1, rest = i; k >= 0; k--) {
            pos[k] = rest % p->dst_dims[k];
            rest /= p->dst_dims[k];
        }
        const float a = scale0 * src0[src_index(ndims, d->dims[0], pos)];
        const float b = scale1 * src1[src_index(ndims, d->dims[1], pos)];
        float v = ref_binary(p->alg, a, b);
        if (p->attr.n_post_ops > 0)
            v = ref_post_ops(&p->attr, v, old[i], ndims, p->dst_dims, pos, bin,
                             0);
        dst[i] = v;
    }
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

/* The rules past the relative threshold (DRIVERS.md §0.3 and §12). */
static int accept(const void *ctx, int64_t idx, float exp, float got) {
    const binary_prb_t *p = ctx;
    (void)idx;
    const float trh = epsilon(p->ddt);
    const float diff = fabsf(exp - got);
    if (fabsf(exp) <= 1e-5f && diff <= trh)
        return 1;
    if (p->ddt == tsr_s32 && exp >= 2147483520.f && got >= 2147483520.f)
        return 1;
    /* Division may round differently in another order of operations. */
    if (p->alg == tsr_binary_div && diff < trh)
        return 1;
    return has_post_op(&p->attr, tsr_post_op_eltwise) && diff <= 2e-5f;
}

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    const binary_prb_t *p = r->prb;
    (void)arg;
    cmp->threshold = epsilon(p->ddt);
    /* Comparisons give mostly zeros by design. */
    const int cmp_involved =
            binary_alg_is_cmp(p->alg) || has_binary_post_op_cmp(&p->attr, 0);
    cmp->zero_trust = cmp_involved ? 1.f : 0.3f;
    cmp->accept = accept;
    cmp->accept_ctx = p;
}

/* ------------------------------------------------------------------------ */
/* Performance */

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const binary_prb_t *p = r->prb;
    const multi_dims_desc_t *d = &p->desc;
    char desc[512], attr[1024], dt[2 * OPT_VALUE_LEN + 2];
    multi_dims_desc_print(d, desc, sizeof(desc));
    snprintf(dt, sizeof(dt), "%s:%s", p->sdt_text, p->ddt_text);
    perf_fields_t f;
    perf_fields_init(&f, res, d->name, repro, desc, ibytes, obytes);
    f.attr = perf_attr_text(&p->attr, attr, sizeof(attr));
    f.dt = dt;
    f.tag = p->stag_text;
    f.alg = tsr_alg_kind2str(p->alg);
    f.mb = p->dst_dims[0];
    /* csv: dst's N, C and the product of the rest. */
    perf_report_ncsp(&f, p->dst_dims, d->ndims, &res->timer);
}

void binary_run_problem(const binary_prb_t *p, bench_lib_t lib,
                        const char *repro, res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .fill_binary_src1 = fill_binary_src1,
            .create_onednn = BENCH_ARGS_ONEDNN(binary_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
