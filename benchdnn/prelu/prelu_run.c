/* One prelu problem on the argument-keyed pipeline: the arguments per
 * direction, the fills, the op descriptors, the comparison rules of
 * DRIVERS.md §16 and the performance line. */
#include <math.h>
#include <stdio.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/layout_tag.h"
#include "common/perf_report.h"
#include "prelu/prelu.h"

static int is_int(tsr_data_type_t dt) {
    return dt == tsr_s32 || dt == tsr_s8 || dt == tsr_u8;
}

/* Why the problem is not run, or NULL. */
static const char *skip_reason(const prelu_prb_t *p) {
    const bench_attr_t *a = &p->attr;
    int other_attr = a->oscale.set || a->n_post_ops > 0 ||
                     a->round_mode != tsr_round_nearest;
    for (int q = 0; q < QARG_COUNT; q++)
        other_attr |= a->scales[q].set || a->zero_points[q].set;
    if (other_attr)
        return "prelu takes no attributes but the scratchpad mode";
    if (!p->is_fwd && (is_int(p->dt[0]) || is_int(p->dt[1])))
        return "backward needs floating-point data types";
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Fills */

enum {
    SEED_SRC = 0x9e1c0001,
    SEED_WEI = 0x9e1c0002,
    SEED_DIFF_DST = 0x9e1c0003,
    SEED_SIGN = 0x9e1c0010,
};

/* Integers 0..5 for integer types; floats: src 0..2, weights 2^k / 8 for
 * k in 0..6, diff_dst (0..2) / 16. A tenth are negated (never for u8).
 * Every product and sum of the check stays exact in f32. */
static float fill_value(tsr_data_type_t dt, int arg, int64_t i) {
    const uint64_t seed = arg == TSR_ARG_WEIGHTS    ? SEED_WEI
                          : arg == TSR_ARG_DIFF_DST ? SEED_DIFF_DST
                                                    : SEED_SRC;
    const double u = bench_index_uniform(seed, i);
    float v;
    if (is_int(dt))
        v = (float)floor(u * 6);
    else if (arg == TSR_ARG_WEIGHTS)
        v = ldexpf(1.f, (int)floor(u * 7) - 3);
    else if (arg == TSR_ARG_DIFF_DST)
        v = (float)floor(u * 3) / 16;
    else
        v = (float)floor(u * 3);
    const int negative = bench_index_uniform(seed + SEED_SIGN, i) < 0.1;
    return negative && dt != tsr_u8 ? -v + 0.f : v;
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const prelu_prb_t *p = prb;
    const tsr_data_type_t dt = arg == TSR_ARG_WEIGHTS ? p->dt[1] : p->dt[0];
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = fill_value(dt, arg, i);
}

/* ------------------------------------------------------------------------ */
/* Creation */

static const char *const input_name[2] = {"src", "wei"};

static int make_md(tsr_memory_desc_t *md, const prelu_prb_t *p, int input,
                   res_t *res) {
    const multi_dims_desc_t *d = &p->desc;
    return bench_md_init_by_tag(md, d->ndims, d->dims[input], p->dt[input],
                                p->tag[input], "--stag", input_name[input],
                                res);
}

int prelu_prepare(bench_args_run_t *r, res_t *res) {
    const prelu_prb_t *p = r->prb;
    for (int input = 0; input < 2; input++)
        if (!bench_check_nelems(input_name[input], p->desc.ndims,
                                p->desc.dims[input], res))
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
    if (p->is_fwd) {
        const bench_arg_decl_t decl[] = {
                {TSR_ARG_SRC, fill, 0, 0},
                {TSR_ARG_WEIGHTS, fill, 0, 0},
                {TSR_ARG_DST, NULL, 1, 0},
        };
        bench_args_declare(r, decl, 3);
        return 1;
    }
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_SRC, fill, 0, 0},          {TSR_ARG_WEIGHTS, fill, 0, 0},
            {TSR_ARG_DIFF_DST, fill, 0, 0},     {TSR_ARG_DIFF_SRC, NULL, 1, 0},
            {TSR_ARG_DIFF_WEIGHTS, NULL, 1, 0},
    };
    bench_args_declare(r, decl, 5);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const prelu_prb_t *p = r->prb;
    if (!prelu_prepare(r, res))
        return 0;
    tsr_memory_desc_t data_md, wei_md;
    if (!make_md(&data_md, p, 0, res) || !make_md(&wei_md, p, 1, res))
        return 0;
    const multi_dims_desc_t *d = &p->desc;
    tsr_status_t st = attr_create_tsr(&p->attr, d->ndims, d->dims[0], 0, 0,
                                      NULL, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    tsr_prelu_desc_t op;
    if (p->is_fwd) {
        st = tsr_prelu_forward_desc_init(&op,
                                         p->is_inference ? tsr_forward_inference
                                                         : tsr_forward_training,
                                         &data_md, &wei_md, &data_md);
        if (st != tsr_success) {
            bench_set_status_state(res, st, "prelu descriptor");
            return 0;
        }
        return bench_args_create_pd(r, &op, res);
    }
    /* The diffs share the data's and the weights' descriptors. */
    st = tsr_prelu_backward_desc_init(&op, &data_md, &wei_md, &data_md, &wei_md,
                                      &data_md);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "prelu backward descriptor");
        return 0;
    }
    return bench_args_create_pd(r, &op, res);
}

/* ------------------------------------------------------------------------ */
/* Reference and comparison */

static int ref(bench_args_run_t *r, res_t *res) {
    const prelu_prb_t *p = r->prb;
    const float *src = bench_args_in(r, TSR_ARG_SRC);
    const float *wei = bench_args_in(r, TSR_ARG_WEIGHTS);
    if (p->is_fwd) {
        prelu_ref_fwd(p, src, wei, bench_args_ref(r, TSR_ARG_DST));
        return 1;
    }
    if (prelu_ref_bwd(p, src, wei, bench_args_in(r, TSR_ARG_DIFF_DST),
                      bench_args_ref(r, TSR_ARG_DIFF_SRC),
                      bench_args_ref(r, TSR_ARG_DIFF_WEIGHTS)))
        return 1;
    bench_set_state(res, STATE_SKIPPED, "not enough memory for the reference");
    return 0;
}

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

/* dst and diff_src: 2 eps of the data type, MISTRUSTED past half zeros;
 * diff_weights: 2 eps of the weights type, zeros always trusted (a channel
 * without negative inputs sums to 0). */
static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    const prelu_prb_t *p = r->prb;
    const int wei = arg == TSR_ARG_DIFF_WEIGHTS;
    cmp->threshold = 2 * epsilon(p->dt[wei]);
    cmp->zero_trust = wei ? 1.f : 0.5f;
}

/* ------------------------------------------------------------------------ */
/* Performance */

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const prelu_prb_t *p = r->prb;
    const multi_dims_desc_t *d = &p->desc;
    char desc[512], attr[1024];
    multi_dims_desc_print(d, desc, sizeof(desc));
    perf_fields_t f;
    perf_fields_init(&f, res, d->name, repro, desc, ibytes, obytes);
    f.attr = perf_attr_text(&p->attr, attr, sizeof(attr));
    f.dir = p->dir;
    f.dt = p->sdt;
    f.tag = p->stag;
    f.mb = d->dims[0][0];
    /* csv: the source's N, C and the product of the rest. */
    perf_report_ncsp(&f, d->dims[0], d->ndims, &res->timer);
}

void prelu_run_problem(const prelu_prb_t *p, bench_lib_t lib, const char *repro,
                       res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .create_onednn = BENCH_ARGS_ONEDNN(prelu_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
