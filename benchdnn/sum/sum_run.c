/* One sum problem on the argument-keyed pipeline: the sources and dst,
 * the fill, the reference, the comparison of DRIVERS.md §10 and the
 * performance line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/dnn_mem.h"
#include "common/layout_tag.h"
#include "common/opt_lists.h"
#include "sum/sum.h"

float sum_fill_value(tsr_data_type_t dt, int input, int64_t i) {
    const int64_t range = 16;
    const int64_t f_min = dt == tsr_u8 ? 0 : -range / 2;
    /* C's remainder, negative for large inputs at small i, as oneDNN's. */
    const int64_t gen = (97 * i - 17 * (int64_t)input + 101) % range;
    const float v = (float)(f_min + gen);
    return dt == tsr_bf16 || dt == tsr_f16 ? v / (float)range
                                           : v * (1.f + 4.f / (float)range);
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const sum_prb_t *p = prb;
    const int input = arg - TSR_ARG_MULTIPLE_SRC;
    const tsr_data_type_t dt = p->sdt_dt[input];
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = sum_fill_value(dt, input, i);
}

int sum_has_dst_desc(const sum_prb_t *p) {
    return strcmp(p->dtag, "undef") != 0;
}

/* Why the problem is not run, or NULL. */
static const char *skip_reason(const sum_prb_t *p) {
    static char why[160];
    /* dst is src 0's memory: same type and layout (with "any" the
     * pipeline compares the layout the library picks). */
    const int ndims = p->desc.ndims;
    char dtag[64], stag0[64];
    bench_resolve_tag(p->dtag, ndims, dtag, sizeof(dtag));
    bench_resolve_tag(p->stag.item[0], ndims, stag0, sizeof(stag0));
    if (p->inplace && sum_has_dst_desc(p) &&
        (p->ddt_dt != p->sdt_dt[0] ||
         (strcmp(dtag, "any") != 0 && strcmp(dtag, stag0) != 0))) {
        snprintf(why, sizeof(why),
                 "in place needs dst's data type and tag to be src 0's");
        return why;
    }
    return NULL;
}

int sum_prepare(bench_args_run_t *r, res_t *res) {
    const sum_prb_t *p = r->prb;
    if (!bench_check_nelems("src", p->desc.ndims, p->desc.dims, res))
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
    multi_src_declare(r, p->n, fill, p->inplace);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const sum_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!sum_prepare(r, res))
        return 0;
    tsr_memory_desc_t src_md[MULTI_SRC_MAX], dst_md;
    for (int i = 0; i < p->n; i++)
        if (!bench_md_init_by_tag(&src_md[i], d->ndims, d->dims, p->sdt_dt[i],
                                  p->stag.item[i], "--stag", "src", res))
            return 0;
    if (sum_has_dst_desc(p) &&
        !bench_md_init_by_tag(&dst_md, d->ndims, d->dims, p->ddt_dt, p->dtag,
                              "--dtag", "dst", res))
        return 0;
    tsr_status_t st =
            attr_create_tsr(&p->attr, d->ndims, d->dims, 0, 0, NULL, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    st = tsr_sum_primitive_desc_create(
            &r->pd, sum_has_dst_desc(p) ? &dst_md : NULL, p->n, p->scales,
            src_md, r->attr, bench_engine());
    return multi_src_take_pd(r, st, res);
}

static int ref(bench_args_run_t *r, res_t *res) {
    const sum_prb_t *p = r->prb;
    const float *src[MULTI_SRC_MAX];
    for (int k = 0; k < p->n; k++) {
        src[k] = bench_args_in(r, TSR_ARG_MULTIPLE_SRC + k);
        if (!src[k]) {
            bench_set_state(res, STATE_FAILED,
                            "the primitive does not read source %d", k);
            return 0;
        }
    }
    float *dst = bench_args_ref(r, TSR_ARG_DST);
    const int64_t n = tsr_memory_desc_nelems(bench_args_md(r, TSR_ARG_DST));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        float acc = 0;
        for (int k = 0; k < p->n; k++)
            acc += p->scales[k] * src[k][i];
        dst[i] = acc;
    }
    return 1;
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

static float threshold(const bench_args_run_t *r) {
    const sum_prb_t *p = r->prb;
    /* The dst type the primitive has: src 0's without a dst descriptor. */
    return (float)p->n * epsilon(bench_args_md(r, TSR_ARG_DST)->data_type);
}

/* Near zero the threshold bounds the absolute difference (§0.3). */
static int accept(const void *ctx, int64_t idx, float exp, float got) {
    (void)idx;
    return fabsf(exp) <= 1e-5f && fabsf(exp - got) <= threshold(ctx);
}

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    (void)arg;
    cmp->threshold = threshold(r);
    /* Into an integer dst, fractional (bf16, f16) and negative (u8)
     * sums round or saturate to 0 by design. */
    const int int_dst =
            cmp->dt == tsr_s32 || cmp->dt == tsr_s8 || cmp->dt == tsr_u8;
    cmp->zero_trust = int_dst ? 1.f : 0.3f;
    cmp->accept = accept;
    cmp->accept_ctx = r;
}

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const sum_prb_t *p = r->prb;
    char dt[OPT_VALUE_LEN * 2], tag[OPT_VALUE_LEN * 2], desc[512];
    multi_src_join(&p->sdt, dt, sizeof(dt));
    multi_src_join(&p->stag, tag, sizeof(tag));
    dims_desc_print(&p->desc, desc, sizeof(desc));
    const multi_src_perf_t f = {dt, tag, desc, p->desc.name, p->desc.dims[0]};
    multi_src_report_perf(&f, &p->attr, repro, ibytes, obytes, res);
}

void sum_run_problem(const sum_prb_t *p, bench_lib_t lib, const char *repro,
                     res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .create_onednn = BENCH_ARGS_ONEDNN(sum_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
