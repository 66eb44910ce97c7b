/* One concat problem on the argument-keyed pipeline: the sources and dst,
 * the fill, the reference copy, the exact comparison and the skips of
 * DRIVERS.md §11, and the performance line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/dnn_mem.h"
#include "common/layout_tag.h"
#include "common/opt_lists.h"
#include "concat/concat.h"

static int is_f32_or_bf16(tsr_data_type_t dt) {
    return dt == tsr_f32 || dt == tsr_bf16;
}

int concat_has_dst_desc(const concat_prb_t *p) {
    return strcmp(p->dtag, "undef") != 0;
}

const char *concat_skip_reason(const concat_prb_t *p) {
    if (p->sdt_dt == tsr_bf16 && concat_has_dst_desc(p) &&
        !is_f32_or_bf16(p->ddt_dt))
        return "bf16 sources need an f32 or bf16 dst";
    if (p->ddt_dt == tsr_bf16 && !is_f32_or_bf16(p->sdt_dt))
        return "a bf16 dst needs f32 or bf16 sources";
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Fill: integers uniform in [-128, 255] narrowed to what both the sources'
 * and dst's types hold, so every copy is exact. */

static void int_range(tsr_data_type_t dt, int *lo, int *hi) {
    *lo = dt == tsr_u8 ? 0 : -128;
    *hi = dt == tsr_s8 ? 127 : 255;
}

enum { SEED_SRC = 0x5eedc0ca };

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const concat_prb_t *p = prb;
    int lo, hi, dlo, dhi;
    int_range(p->sdt_dt, &lo, &hi);
    int_range(p->ddt_dt, &dlo, &dhi);
    lo = lo > dlo ? lo : dlo;
    hi = hi < dhi ? hi : dhi;
    const uint64_t seed = SEED_SRC + (uint64_t)(arg - TSR_ARG_MULTIPLE_SRC);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = (float)(lo + (int)floor(bench_index_uniform(seed, i) *
                                         (hi - lo + 1)));
}

/* ------------------------------------------------------------------------ */
/* Creation */

int concat_prepare(bench_args_run_t *r, res_t *res) {
    const concat_prb_t *p = r->prb;
    const concat_desc_t *d = &p->desc;
    for (int i = 0; i < d->n; i++) {
        char what[16];
        snprintf(what, sizeof(what), "src%d", i);
        if (!bench_check_nelems(what, d->ndims, d->dims[i], res))
            return 0;
    }
    if (!bench_check_nelems("dst", d->ndims, p->dst_dims, res))
        return 0;
    if (p->unsupported[0]) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported", p->unsupported);
        return 0;
    }
    const char *why = concat_skip_reason(p);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    multi_src_declare(r, p->desc.n, fill, 0);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const concat_prb_t *p = r->prb;
    const concat_desc_t *d = &p->desc;
    if (!concat_prepare(r, res))
        return 0;
    tsr_memory_desc_t src_md[MULTI_SRC_MAX], dst_md;
    for (int i = 0; i < d->n; i++)
        if (!bench_md_init_by_tag(&src_md[i], d->ndims, d->dims[i], p->sdt_dt,
                                  p->stag.item[i], "--stag", "src", res))
            return 0;
    if (concat_has_dst_desc(p) &&
        !bench_md_init_by_tag(&dst_md, d->ndims, p->dst_dims, p->ddt_dt,
                              p->dtag, "--dtag", "dst", res))
        return 0;
    tsr_status_t st = attr_create_tsr(&p->attr, d->ndims, p->dst_dims, 0, 0,
                                      NULL, &r->attr);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    st = tsr_concat_primitive_desc_create(
            &r->pd, concat_has_dst_desc(p) ? &dst_md : NULL, d->n, p->axis,
            src_md, r->attr, bench_engine());
    return multi_src_take_pd(r, st, res);
}

/* ------------------------------------------------------------------------ */
/* Reference: in dense logical order, each outer index (the dims before
 * the axis) holds every source's block of axis * inner points in turn. */

static int ref(bench_args_run_t *r, res_t *res) {
    const concat_prb_t *p = r->prb;
    const concat_desc_t *d = &p->desc;
    const float *src[MULTI_SRC_MAX];
    for (int k = 0; k < d->n; k++) {
        src[k] = bench_args_in(r, TSR_ARG_MULTIPLE_SRC + k);
        if (!src[k]) {
            bench_set_state(res, STATE_FAILED,
                            "the primitive does not read source %d", k);
            return 0;
        }
    }
    float *dst = bench_args_ref(r, TSR_ARG_DST);
    /* dst's memory exists: these products fit (saturated regardless). */
    const int64_t outer = bench_prod_i64_sat(p->dst_dims, p->axis);
    const int64_t inner = bench_prod_i64_sat(p->dst_dims + p->axis + 1,
                                             d->ndims - p->axis - 1);
    const int64_t dst_block =
            bench_prod_i64_sat(p->dst_dims + p->axis, d->ndims - p->axis);
#pragma omp parallel for schedule(static)
    for (int64_t o = 0; o < outer; o++) {
        float *out = dst + o * dst_block;
        for (int k = 0; k < d->n; k++) {
            const int64_t block = d->dims[k][p->axis] * inner;
            memcpy(out, src[k] + o * block, sizeof(float) * (size_t)block);
            out += block;
        }
    }
    return 1;
}

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    (void)r;
    (void)arg;
    cmp->threshold = 0;
    cmp->zero_trust = 0.3f;
}

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const concat_prb_t *p = r->prb;
    char tag[OPT_VALUE_LEN * 2], desc[1024];
    multi_src_join(&p->stag, tag, sizeof(tag));
    concat_desc_print(&p->desc, desc, sizeof(desc));
    const multi_src_perf_t f = {p->sdt, tag, desc, p->desc.name,
                                p->dst_dims[0]};
    multi_src_report_perf(&f, &p->attr, repro, ibytes, obytes, res);
}

void concat_run_problem(const concat_prb_t *p, bench_lib_t lib,
                        const char *repro, res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .create_onednn = BENCH_ARGS_ONEDNN(concat_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
