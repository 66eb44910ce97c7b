/* One reorder problem on the argument-keyed pipeline: skips, the library
 * attributes and primitive descriptor, the reference glue with the
 * compensation check, the comparison rules of DRIVERS.md §17 and the
 * performance line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/layout_tag.h"
#include "common/perf_report.h"
#include "reorder/reorder.h"
#include "reorder/reorder_perf.h"

static int has_post_op_other_than_sum(const bench_attr_t *a) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind != tsr_post_op_sum)
            return 1;
    return 0;
}

static const bench_post_op_t *sum_post_op(const bench_attr_t *a) {
    for (int i = 0; i < a->n_post_ops; i++)
        if (a->post_ops[i].kind == tsr_post_op_sum)
            return &a->post_ops[i];
    return NULL;
}

static int has_zero_points(const bench_attr_t *a) {
    return a->zero_points[QARG_SRC].set || a->zero_points[QARG_DST].set;
}

/* bf16 pairs the CPU reorder of v2.6.3 takes. */
static int bf16_pair_ok(tsr_data_type_t a, tsr_data_type_t b) {
    if (a != tsr_bf16)
        return 1;
    return b == tsr_f32 || b == tsr_bf16 || b == tsr_s8 || b == tsr_u8;
}

int reorder_comp_mask(const reorder_prb_t *p) {
    const int s8s8 = p->comp_mask[REORDER_OFLAG_S8S8_COMP];
    const int zp = p->comp_mask[REORDER_OFLAG_ZP_COMP];
    return s8s8 >= 0 ? s8s8 : zp;
}

static const char *comp_skip_reason(const reorder_prb_t *p) {
    const int s8s8 = p->comp_mask[REORDER_OFLAG_S8S8_COMP];
    const int zp = p->comp_mask[REORDER_OFLAG_ZP_COMP];
    const int mask = reorder_comp_mask(p);
    if (mask < 0)
        return NULL;
    if (s8s8 >= 0 && zp >= 0 && s8s8 != zp)
        return "s8s8_comp and zp_comp with different masks: the library "
               "keeps one set of sums";
    if (p->ddt != tsr_s8)
        return "compensation needs an s8 dst";
    if (has_zero_points(&p->attr) || p->attr.n_post_ops > 0)
        return "compensation takes no zero points or post-ops";
    if (p->attr.oscale.set && p->attr.oscale.runtime)
        return "compensation needs the oscale at creation";
    if (p->runtime_dim_mask != 0)
        return "compensation needs the dims at creation";
    /* The library's sums are per leading dims: O, or G and O. */
    if (mask != 1 && !(mask == 3 && p->desc.ndims >= 2))
        return "the library takes compensation masks 1 and 3 only";
    return NULL;
}

const char *reorder_skip_reason(const reorder_prb_t *p) {
    const bench_attr_t *a = &p->attr;
    if (!bf16_pair_ok(p->sdt, p->ddt) || !bf16_pair_ok(p->ddt, p->sdt))
        return "bf16 reorders take f32, bf16, s8 and u8 only";
    if (has_post_op_other_than_sum(a) || a->n_post_ops > 1)
        return "a reorder takes one sum post-op only";
    if (a->zero_points[QARG_DST].set && a->n_post_ops > 0)
        return "a dst zero point with a sum post-op";
    if (a->scales[QARG_WEI].set || a->zero_points[QARG_WEI].set)
        return "a reorder has no weights";
    if (a->oscale.set && (a->scales[QARG_SRC].set || a->scales[QARG_DST].set))
        return "output scales with per-argument scales";
    if (reorder_scale_mask(p, QARG_SRC) < 0 ||
        reorder_scale_mask(p, QARG_DST) < 0)
        return "the scales' policy names a dim the tensor lacks";
    /* The library adds the sum term after dividing by the dst scale; the
     * harness folds a common dst scale into the sum's scale (create). */
    if (a->n_post_ops > 0 && a->scales[QARG_DST].set &&
        a->scales[QARG_DST].policy != POLICY_COMMON)
        return "a sum post-op with per-dim dst scales";
    const char *why = comp_skip_reason(p);
    return why ? why : attr_unsupported(a);
}

/* ------------------------------------------------------------------------ */
/* Creation */

/* The library's attributes. The legacy oscale goes in with oneDNN's
 * vector (reorder_oscale_value) rather than attr_create_tsr's values. */
static int create_attr(bench_args_run_t *r, res_t *res) {
    const reorder_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    bench_attr_t a = p->attr;
    a.oscale.set = 0;
    /* v3 divides the sum term by the dst scale, the library does not:
     * the sum's scale carries the division (common dst scales only). */
    if (a.scales[QARG_DST].set)
        for (int i = 0; i < a.n_post_ops; i++)
            a.post_ops[i].scale /= a.scales[QARG_DST].scale;
    tsr_status_t st =
            attr_create_tsr(&a, d->ndims, d->dims, 0, 0, NULL, &r->attr);
    if (st == tsr_success && p->attr.oscale.set) {
        const int mask = reorder_scale_mask(p, QARG_SRC);
        const int64_t count = attr_mask_count(mask, d->ndims, d->dims);
        /* Memory first: a per-dim count comes from user dims. */
        const size_t bytes = bench_bytes_sat(count, sizeof(float));
        if (!bench_mem_check(bytes, res))
            return 0;
        float *values = bytes == SIZE_MAX ? NULL : malloc(bytes);
        if (!values) {
            bench_set_state(res, STATE_SKIPPED, "not enough memory");
            return 0;
        }
        for (int64_t i = 0; i < count; i++)
            values[i] = reorder_oscale_value(p, i, count);
        st = tsr_primitive_attr_set_output_scales(r->attr, count, mask, values);
        free(values);
    }
    if (st != tsr_success) {
        bench_set_status_state(res, st, "attributes");
        return 0;
    }
    static const bench_qarg_t data_args[] = {QARG_SRC, QARG_DST};
    for (int k = 0; k < 2; k++) {
        const bench_qarg_t q = data_args[k];
        const bench_zp_t *z = &a.zero_points[q];
        if (a.scales[q].set)
            r->scale_count[q] = attr_mask_count(reorder_scale_mask(p, q),
                                                d->ndims, d->dims);
        if (z->set)
            r->zp_count[q] = attr_mask_count(
                    attr_policy_mask(z->policy, q, d->ndims, 0, 0), d->ndims,
                    d->dims);
    }
    return 1;
}

/* r->pd at the first implementation --impl/--skip-impl allow. */
static int create_pd(bench_args_run_t *r, const tsr_memory_desc_t *src_md,
                     const tsr_memory_desc_t *dst_md, res_t *res) {
    tsr_status_t st = tsr_reorder_primitive_desc_create(
            &r->pd, src_md, bench_engine(), dst_md, bench_engine(), r->attr);
    if (st != tsr_success) {
        r->pd = NULL;
        bench_set_status_state(res, st, "reorder primitive descriptor");
        return 0;
    }
    while (!bench_impl_allowed(tsr_primitive_desc_impl_name(r->pd))) {
        if (tsr_primitive_desc_next_impl(r->pd) != tsr_success) {
            bench_set_state(res, STATE_SKIPPED, "skip-impl option hit");
            return 0;
        }
    }
    snprintf(res->impl_name, sizeof(res->impl_name), "%s",
             tsr_primitive_desc_impl_name(r->pd));
    return 1;
}

int reorder_prepare(bench_args_run_t *r, res_t *res) {
    const reorder_prb_t *p = r->prb;
    if (!bench_check_nelems("src", p->desc.ndims, p->desc.dims, res))
        return 0;
    if (p->sdt == tsr_data_type_undef || p->ddt == tsr_data_type_undef) {
        bench_set_state(
                res, STATE_UNIMPLEMENTED, "data type %s is not supported",
                p->sdt == tsr_data_type_undef ? p->sdt_text : p->ddt_text);
        return 0;
    }
    const char *why = reorder_skip_reason(p);
    if (why) {
        bench_set_state(res, STATE_SKIPPED, "%s", why);
        return 0;
    }
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_SRC, reorder_fill, 0, 0},
            {TSR_ARG_DST, sum_post_op(&p->attr) ? reorder_fill : NULL, 1, 0},
    };
    bench_args_declare(r, decl, 2);
    return 1;
}

/* The library has no runtime dims: every dim is known at creation, and a
 * --runtime-dim-mask problem runs as mask 0 would, which gives the same
 * result as oneDNN's creation with runtime dims and execution with the
 * real ones. The mask still selects the compensation skip. */
static int create(bench_args_run_t *r, res_t *res) {
    const reorder_prb_t *p = r->prb;
    if (!reorder_prepare(r, res))
        return 0;
    const dims_desc_t *d = &p->desc;
    tsr_memory_desc_t src_md, dst_md;
    if (!bench_md_init_by_tag(&src_md, d->ndims, d->dims, p->sdt, p->stag,
                              "--stag", "src", res) ||
        !bench_md_init_by_tag(&dst_md, d->ndims, d->dims, p->ddt, p->dtag,
                              "--dtag", "dst", res))
        return 0;
    const int comp_mask = reorder_comp_mask(p);
    if (comp_mask >= 0) {
        dst_md.extra.flags = tsr_memory_extra_flag_compensation;
        dst_md.extra.compensation_mask = comp_mask;
    }
    if (!create_attr(r, res))
        return 0;
    return create_pd(r, &src_md, &dst_md, res);
}

/* ------------------------------------------------------------------------ */
/* Reference and compensation */

static const dnn_mem_t *dst_mem(const bench_args_run_t *r) {
    for (int i = 0; i < r->nmems; i++)
        if (r->mems[i].arg == TSR_ARG_DST)
            return &r->mems[i].mem;
    return NULL;
}

/* Where the library keeps the sums (tessera.h,
 * tsr_memory_extra_flag_compensation): from the first 64-byte boundary
 * after the values, padding included. */
static const int32_t *library_sums(const dnn_mem_t *m) {
    /* The memory exists: its padded size fits (saturated regardless). */
    const size_t values =
            bench_bytes_sat(bench_prod_i64_sat(m->md.padded_dims, m->md.ndims),
                            tsr_data_type_size(m->md.data_type));
    return (const int32_t *)((const char *)m->data + (values + 63) / 64 * 64);
}

/* oneDNN's compensation is zp_comp = -sum and s8s8_comp = -128 * sum of
 * the s8 dst values; the library stores the plain sum (modulo 2^32) and
 * its consumers apply the factor. The harness checks the plain sums
 * exactly, which checks both oneDNN forms. oneDNN's 0.5 rescale of
 * s8s8 values on CPUs without VNNI is its own kernels' need: the
 * library's factor is 1. */
static int check_comp(bench_args_run_t *r, const float *ref, res_t *res) {
    const reorder_prb_t *p = r->prb;
    const int mask = reorder_comp_mask(p);
    const dims_desc_t *d = &p->desc;
    const int64_t n = dims_desc_nelems(d);
    const int64_t count = attr_mask_count(mask, d->ndims, d->dims);
    float *dst_s8 = bench_alloc_f32(n);
    const size_t sums_bytes = bench_bytes_sat(count, sizeof(int64_t));
    int64_t *sums = sums_bytes == SIZE_MAX ? NULL : malloc(sums_bytes);
    if (!dst_s8 || !sums) {
        free(dst_s8);
        free(sums);
        bench_set_state(res, STATE_SKIPPED, "not enough memory");
        return 0;
    }
    for (int64_t i = 0; i < n; i++)
        dst_s8[i] = bench_round_to_dt(tsr_s8, ref[i], p->attr.round_mode);
    reorder_ref_comp(p, mask, dst_s8, sums);
    const int32_t *got = library_sums(dst_mem(r));
    int64_t errors = 0;
    for (int64_t i = 0; i < count; i++) {
        const int32_t exp = (int32_t)(uint32_t)(uint64_t)sums[i];
        if (got[i] == exp)
            continue;
        if (errors++ < 10)
            printf("[comp %lld] exp_sum:%d got_sum:%d (zp_comp exp:%d "
                   "s8s8_comp exp:%lld)\n",
                   (long long)i, (int)exp, (int)got[i], (int)-exp,
                   (long long)-128 * exp);
    }
    free(dst_s8);
    free(sums);
    if (errors == 0)
        return 1;
    res->errors = errors;
    res->total = count;
    bench_set_state(res, STATE_FAILED, "%lld of %lld compensation sums differ",
                    (long long)errors, (long long)count);
    return 0;
}

static int ref(bench_args_run_t *r, res_t *res) {
    const reorder_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    const float *src = bench_args_in(r, TSR_ARG_SRC);
    const float *old = bench_args_old(r, TSR_ARG_DST);
    float *dst = bench_args_ref(r, TSR_ARG_DST);
    const int64_t n = dims_desc_nelems(d);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        int64_t pos[TSR_MAX_NDIMS], rest = i;
        for (int k = d->ndims - 1; k >= 0; k--) {
            pos[k] = rest % d->dims[k];
            rest /= d->dims[k];
        }
        dst[i] = reorder_ref_value(p, pos, src[i], old[i]);
    }
    return reorder_comp_mask(p) < 0 || check_comp(r, dst, res);
}

/* ------------------------------------------------------------------------ */
/* Comparison: exact, with the s32 saturation rule of DRIVERS.md §0.3 */

static int accept(const void *ctx, int64_t idx, float exp, float got) {
    const reorder_prb_t *p = ctx;
    (void)idx;
    return p->ddt == tsr_s32 && exp >= 2147483520.f && got >= 2147483520.f;
}

static int involves(const reorder_prb_t *p, tsr_data_type_t dt) {
    return p->sdt == dt || p->ddt == dt;
}

static void compare_cfg(const bench_args_run_t *r, int arg,
                        compare_cfg_t *cmp) {
    const reorder_prb_t *p = r->prb;
    (void)arg;
    cmp->threshold = 0.f;
    /* Saturation and rounding to integers make zeros a large share. */
    cmp->zero_trust = involves(p, tsr_u8)                           ? 0.58f
                      : involves(p, tsr_s8) || involves(p, tsr_s32) ? 0.43f
                                                                    : 0.3f;
    cmp->accept = accept;
    cmp->accept_ctx = p;
}

/* ------------------------------------------------------------------------ */
/* Performance: GB/s over both tensors */

static void report_perf(const bench_args_run_t *r, const char *repro,
                        double ibytes, double obytes, res_t *res) {
    const reorder_prb_t *p = r->prb;
    char dt[2 * OPT_VALUE_LEN + 2], tag[2 * OPT_VALUE_LEN + 2];
    snprintf(dt, sizeof(dt), "%s:%s", p->sdt_text, p->ddt_text);
    snprintf(tag, sizeof(tag), "%s:%s", p->stag, p->dtag);
    const reorder_perf_t perf = {
            .desc = &p->desc,
            .repro = repro,
            .dt = dt,
            .tag = tag,
            .attr = &p->attr,
            .ibytes = ibytes,
            .obytes = obytes,
    };
    reorder_perf_report(&perf, res);
}

void reorder_run_problem(const reorder_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .create_onednn = BENCH_ARGS_ONEDNN(reorder_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
