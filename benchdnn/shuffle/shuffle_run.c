/* One shuffle problem on the argument-keyed pipeline: the arguments per
 * direction, the fill, the reference permutation, the exact comparison
 * of DRIVERS.md §13 and the performance line. */
#include <stdio.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/checked_math.h"
#include "common/dnn_mem.h"
#include "common/layout_tag.h"
#include "common/perf_report.h"
#include "shuffle/shuffle.h"

float shuffle_fill_value(tsr_data_type_t dt, int64_t i) {
    const int is_half = dt == tsr_bf16 || dt == tsr_f16;
    const int64_t range = dt == tsr_f32 || dt == tsr_s32 ? 1024
                          : is_half                      ? 128
                                                         : 256;
    const int64_t f_min = dt == tsr_u8 ? 0 : -range / 2;
    const float v = (float)((97 * i + 101) % range + f_min);
    return is_half ? v / (float)range : v * (1.f + 4.f / (float)range);
}

int64_t shuffle_ref_index(int is_fwd, int64_t axis_size, int64_t group,
                          int64_t a) {
    const int64_t per_group = axis_size / group;
    return is_fwd ? (a % group) * per_group + a / group
                  : (a % per_group) * group + a / per_group;
}

static void fill(const void *prb, int arg, float *buf, int64_t n) {
    const shuffle_prb_t *p = prb;
    (void)arg;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        buf[i] = shuffle_fill_value(p->dt, i);
}

int shuffle_prepare(bench_args_run_t *r, res_t *res) {
    const shuffle_prb_t *p = r->prb;
    if (!bench_check_nelems("src", p->desc.ndims, p->desc.dims, res))
        return 0;
    if (p->unsupported[0]) {
        bench_set_state(res, STATE_UNIMPLEMENTED,
                        "data type %s is not supported", p->unsupported);
        return 0;
    }
    if (p->is_fwd) {
        const bench_arg_decl_t decl[] = {
                {TSR_ARG_SRC, fill, 0, 0},
                {TSR_ARG_DST, NULL, 1, 0},
        };
        bench_args_declare(r, decl, 2);
        return 1;
    }
    const bench_arg_decl_t decl[] = {
            {TSR_ARG_DIFF_DST, fill, 0, 0},
            {TSR_ARG_DIFF_SRC, NULL, 1, 0},
    };
    bench_args_declare(r, decl, 2);
    return 1;
}

static int create(bench_args_run_t *r, res_t *res) {
    const shuffle_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    if (!shuffle_prepare(r, res))
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
    tsr_shuffle_desc_t fwd, bwd;
    st = tsr_shuffle_forward_desc_init(&fwd, tsr_forward_training, &data_md,
                                       &data_md, p->axis, p->group);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "shuffle descriptor");
        return 0;
    }
    if (p->is_fwd)
        return bench_args_create_pd(r, &fwd, res);
    st = tsr_shuffle_backward_desc_init(&bwd, &data_md, &data_md, p->axis,
                                        p->group);
    if (st != tsr_success) {
        bench_set_status_state(res, st, "shuffle backward descriptor");
        return 0;
    }
    /* The forward pd is only the hint: the backward pass reads no forward
     * output, so the pipeline gets no forward pass to run. */
    const int ok = bench_args_create_fwd_pd(r, &fwd, res) &&
                   bench_args_create_pd(r, &bwd, res);
    if (r->fwd_pd) {
        tsr_primitive_desc_destroy(r->fwd_pd);
        r->fwd_pd = NULL;
    }
    return ok;
}

/* In dense logical order: outer index (dims before the axis), axis index,
 * inner index (dims after it). */
static int ref(bench_args_run_t *r, res_t *res) {
    const shuffle_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    const int in_arg = p->is_fwd ? TSR_ARG_SRC : TSR_ARG_DIFF_DST;
    const int out_arg = p->is_fwd ? TSR_ARG_DST : TSR_ARG_DIFF_SRC;
    const float *in = bench_args_in(r, in_arg);
    float *out = bench_args_ref(r, out_arg);
    if (!in || !out) {
        bench_set_state(res, STATE_FAILED,
                        "the primitive does not take the expected arguments");
        return 0;
    }
    /* The memories exist: these products fit (saturated regardless). */
    const int64_t outer = bench_prod_i64_sat(d->dims, p->axis);
    const int64_t inner =
            bench_prod_i64_sat(d->dims + p->axis + 1, d->ndims - p->axis - 1);
    const int64_t axis_size = d->dims[p->axis];
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t o = 0; o < outer; o++)
        for (int64_t a = 0; a < axis_size; a++) {
            const int64_t to =
                    shuffle_ref_index(p->is_fwd, axis_size, p->group, a);
            memcpy(out + (o * axis_size + to) * inner,
                   in + (o * axis_size + a) * inner,
                   sizeof(float) * (size_t)inner);
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
    const shuffle_prb_t *p = r->prb;
    const dims_desc_t *d = &p->desc;
    char desc[512], attr[1024];
    dims_desc_print(d, desc, sizeof(desc));
    perf_fields_t f;
    perf_fields_init(&f, res, d->name, repro, desc, ibytes, obytes);
    f.attr = perf_attr_text(&p->attr, attr, sizeof(attr));
    f.dir = p->dir;
    f.dt = p->dt_text;
    f.tag = p->tag;
    f.mb = d->dims[0];
    perf_report(&f, &res->timer);
}

void shuffle_run_problem(const shuffle_prb_t *p, bench_lib_t lib,
                         const char *repro, res_t *res) {
    static const bench_args_ops_t ops = {
            .create = create,
            .ref = ref,
            .compare_cfg = compare_cfg,
            .report_perf = report_perf,
            .create_onednn = BENCH_ARGS_ONEDNN(shuffle_onednn_create),
    };
    bench_args_run_problem(&ops, lib, p, &p->attr, repro, res);
}
