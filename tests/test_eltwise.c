/* Eltwise: every implementation that accepts a problem (the list walked
 * with tsr_primitive_desc_next_impl) is checked against this file's own
 * double-precision formulas, forward and backward, for every algorithm,
 * in f32, bf16, f16 and the integer types relu and linear allow; plain,
 * channels-last and blocked (C = 17, padded to 32) layouts, in place,
 * post-ops (sum, eltwise, binary per tensor, per channel and full), and the
 * refusals: bad descriptors, unsupported data types, backward round. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "common/isa.h"
#include "cpu/eltwise/eltwise_pd.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;
static int fast_runs, ref_runs;

/* ---- The formulas (double), written from the algorithms' definitions. */

static const double pi = 3.14159265358979323846;

static double logistic_d(double x) {
    return 1.0 / (1.0 + exp(-x));
}
static double soft_plus_d(double x) {
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}
static double clamp_d(double x, double lo, double hi) {
    return x < lo ? lo : x > hi ? hi : x;
}

static tsr_alg_kind_t base_alg(tsr_alg_kind_t alg) {
    switch (alg) {
    case tsr_eltwise_relu_use_dst_for_bwd:
        return tsr_eltwise_relu;
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return tsr_eltwise_tanh;
    case tsr_eltwise_elu_use_dst_for_bwd:
        return tsr_eltwise_elu;
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return tsr_eltwise_sqrt;
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return tsr_eltwise_logistic;
    case tsr_eltwise_exp_use_dst_for_bwd:
        return tsr_eltwise_exp;
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return tsr_eltwise_clip_v2;
    default:
        return alg;
    }
}
static int uses_dst(tsr_alg_kind_t alg) {
    return base_alg(alg) != alg;
}

/* v2.x meanings of alpha/beta values v3.x gives no meaning. */
static void compat_params(tsr_alg_kind_t alg, double *a, double *b) {
    if (alg == tsr_eltwise_soft_relu && *a == 0)
        *a = 1;
    /* x relu6(x + 3) / 6 = x clamp(x / 6 + 1 / 2, 0, 1) */
    if (alg == tsr_eltwise_hardswish && *a == 0 && *b == 0) {
        *a = 1.0 / 6;
        *b = 0.5;
    }
}

static double ref_fwd(tsr_alg_kind_t alg, double x, double a, double b) {
    alg = base_alg(alg);
    compat_params(alg, &a, &b);
    switch (alg) {
    case tsr_eltwise_relu:
        return x > 0 ? x : a * x;
    case tsr_eltwise_tanh:
        return tanh(x);
    case tsr_eltwise_elu:
        return x > 0 ? x : a * expm1(x);
    case tsr_eltwise_square:
        return x * x;
    case tsr_eltwise_abs:
        return fabs(x);
    case tsr_eltwise_sqrt:
        return sqrt(x);
    case tsr_eltwise_linear:
        return a * x + b;
    case tsr_eltwise_bounded_relu:
        return clamp_d(x, 0, a);
    case tsr_eltwise_soft_relu:
        return soft_plus_d(a * x) / a;
    case tsr_eltwise_logistic:
        return logistic_d(x);
    case tsr_eltwise_exp:
        return exp(x);
    case tsr_eltwise_gelu_tanh:
        return 0.5 * x * (1 + tanh(sqrt(2 / pi) * x * (1 + 0.044715 * x * x)));
    case tsr_eltwise_swish:
        return x * logistic_d(a * x);
    case tsr_eltwise_log:
        return log(x);
    case tsr_eltwise_clip:
    case tsr_eltwise_clip_v2:
        return clamp_d(x, a, b);
    case tsr_eltwise_pow:
        return a * pow(x, b);
    case tsr_eltwise_gelu_erf:
        return 0.5 * x * erfc(-x / sqrt(2));
    case tsr_eltwise_round:
        return nearbyint(x);
    case tsr_eltwise_logsigmoid:
        return -soft_plus_d(-x);
    case tsr_eltwise_mish:
        return x * tanh(soft_plus_d(x));
    case tsr_eltwise_hardswish:
        return x * clamp_d(a * x + b, 0, 1);
    case tsr_eltwise_hardsigmoid:
        return clamp_d(a * x + b, 0, 1);
    default:
        return NAN;
    }
}

/* dd * f'(v), v the source or (for *_use_dst_for_bwd) the destination. */
static double ref_bwd(tsr_alg_kind_t alg, double dd, double v, double a,
                      double b) {
    compat_params(base_alg(alg), &a, &b);
    const double s2pi = sqrt(2 / pi), k = 0.044715;
    switch (alg) {
    case tsr_eltwise_relu:
    case tsr_eltwise_relu_use_dst_for_bwd:
        return dd * (v > 0 ? 1 : a);
    case tsr_eltwise_tanh:
        return dd * (1 - tanh(v) * tanh(v));
    case tsr_eltwise_tanh_use_dst_for_bwd:
        return dd * (1 - v * v);
    case tsr_eltwise_elu:
        return dd * (v > 0 ? 1 : a * exp(v));
    case tsr_eltwise_elu_use_dst_for_bwd:
        return dd * (v > 0 ? 1 : v + a);
    case tsr_eltwise_square:
        return dd * 2 * v;
    case tsr_eltwise_abs:
        return dd * (v > 0 ? 1 : v < 0 ? -1 : 0);
    case tsr_eltwise_sqrt:
        return dd / (2 * sqrt(v));
    case tsr_eltwise_sqrt_use_dst_for_bwd:
        return dd / (2 * v);
    case tsr_eltwise_linear:
        return dd * a;
    case tsr_eltwise_bounded_relu:
        return v > 0 && v <= a ? dd : 0;
    case tsr_eltwise_soft_relu:
        return dd * logistic_d(a * v);
    case tsr_eltwise_logistic:
        return dd * logistic_d(v) * (1 - logistic_d(v));
    case tsr_eltwise_logistic_use_dst_for_bwd:
        return dd * v * (1 - v);
    case tsr_eltwise_exp:
        return dd * exp(v);
    case tsr_eltwise_exp_use_dst_for_bwd:
        return dd * v;
    case tsr_eltwise_gelu_tanh: {
        const double t = tanh(s2pi * v * (1 + k * v * v));
        const double dg = s2pi * (1 + 3 * k * v * v);
        return dd * 0.5 * (1 + t) * (1 + v * (1 - t) * dg);
    }
    case tsr_eltwise_swish: {
        const double s = logistic_d(a * v);
        return dd * (s + a * v * s * (1 - s));
    }
    case tsr_eltwise_log:
        return dd / v;
    case tsr_eltwise_clip:
        return v > a && v <= b ? dd : 0;
    case tsr_eltwise_clip_v2:
    case tsr_eltwise_clip_v2_use_dst_for_bwd:
        return v > a && v < b ? dd : 0;
    case tsr_eltwise_pow:
        return b == 0 ? 0 : dd * a * b * pow(v, b - 1);
    case tsr_eltwise_gelu_erf: {
        const double u = v / sqrt(2);
        return dd * 0.5 * (erfc(-u) + u * 2 / sqrt(pi) * exp(-u * u));
    }
    case tsr_eltwise_logsigmoid:
        return dd * logistic_d(-v);
    case tsr_eltwise_mish: {
        const double t = tanh(soft_plus_d(v));
        return dd * (t + v * logistic_d(v) * (1 - t * t));
    }
    case tsr_eltwise_hardswish: {
        const double w = a * v + b;
        return w <= 0 ? 0 : w >= 1 ? dd : dd * (2 * a * v + b);
    }
    case tsr_eltwise_hardsigmoid: {
        const double w = a * v + b;
        return w > 0 && w < 1 ? dd * a : 0;
    }
    default:
        return NAN;
    }
}

/* ---- Problems. */

typedef struct {
    tsr_alg_kind_t alg;
    float alpha, beta;
} alg_case_t;

static const alg_case_t alg_cases[] = {
        {tsr_eltwise_relu, 0.f, 0.f},
        {tsr_eltwise_relu, -0.25f, 0.f},
        {tsr_eltwise_tanh, 0.f, 0.f},
        {tsr_eltwise_elu, 0.5f, 0.f},
        {tsr_eltwise_square, 0.f, 0.f},
        {tsr_eltwise_abs, 0.f, 0.f},
        {tsr_eltwise_sqrt, 0.f, 0.f},
        {tsr_eltwise_linear, 1.5f, -0.5f},
        {tsr_eltwise_bounded_relu, 2.f, 0.f},
        {tsr_eltwise_soft_relu, 0.f, 0.f},
        {tsr_eltwise_soft_relu, 2.f, 0.f},
        {tsr_eltwise_logistic, 0.f, 0.f},
        {tsr_eltwise_exp, 0.f, 0.f},
        {tsr_eltwise_gelu_tanh, 0.f, 0.f},
        {tsr_eltwise_swish, 1.5f, 0.f},
        {tsr_eltwise_log, 0.f, 0.f},
        {tsr_eltwise_clip, -2.f, 3.f},
        {tsr_eltwise_clip_v2, -2.f, 3.f},
        {tsr_eltwise_pow, 1.5f, 2.5f},
        {tsr_eltwise_pow, 0.5f, -1.f},
        {tsr_eltwise_pow, 2.f, 3.f},
        {tsr_eltwise_gelu_erf, 0.f, 0.f},
        {tsr_eltwise_round, 0.f, 0.f},
        {tsr_eltwise_logsigmoid, 0.f, 0.f},
        {tsr_eltwise_mish, 0.f, 0.f},
        {tsr_eltwise_hardswish, 0.f, 0.f},
        {tsr_eltwise_hardswish, 0.25f, 0.5f},
        {tsr_eltwise_hardsigmoid, 0.25f, 0.5f},
        {tsr_eltwise_relu_use_dst_for_bwd, 0.5f, 0.f},
        {tsr_eltwise_tanh_use_dst_for_bwd, 0.f, 0.f},
        {tsr_eltwise_elu_use_dst_for_bwd, 2.f, 0.f},
        {tsr_eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f},
        {tsr_eltwise_logistic_use_dst_for_bwd, 0.f, 0.f},
        {tsr_eltwise_exp_use_dst_for_bwd, 0.f, 0.f},
        {tsr_eltwise_clip_v2_use_dst_for_bwd, -2.f, 3.f},
};
#define N_ALG_CASES ((int)(sizeof(alg_cases) / sizeof(alg_cases[0])))

/* Algorithms defined only for positive inputs (pow for fractional beta). */
static int positive_domain(tsr_alg_kind_t alg) {
    alg = base_alg(alg);
    return alg == tsr_eltwise_sqrt || alg == tsr_eltwise_log ||
           alg == tsr_eltwise_pow;
}

/* Relative tolerance, and whether small results are compared absolutely
 * (algorithms with cancellation in f32 near some inputs). */
static double tolerance(tsr_data_type_t dt, tsr_alg_kind_t alg, int *abs_mode) {
    alg = base_alg(alg);
    *abs_mode = 0;
    switch (alg) {
    case tsr_eltwise_tanh:
    case tsr_eltwise_elu:
    case tsr_eltwise_gelu_tanh:
    case tsr_eltwise_gelu_erf:
    case tsr_eltwise_swish:
    case tsr_eltwise_soft_relu:
    case tsr_eltwise_logsigmoid:
    case tsr_eltwise_mish:
    case tsr_eltwise_logistic:
    case tsr_eltwise_log:
    case tsr_eltwise_pow:
        *abs_mode = 1;
        break;
    default:
        break;
    }
    switch (dt) {
    case tsr_bf16:
        return 1.6e-2;
    case tsr_f16:
        return 2e-3;
    case tsr_f32:
        return *abs_mode ? 4e-5 : 4e-6;
    default:
        return 0;
    }
}

/* The value `v` as a buffer of type dt would hold it. */
static double as_dt(tsr_data_type_t dt, double v) {
    return tsr_saturate_round(dt, (float)v, tsr_round_nearest);
}

static int close_enough(double got, double want, double tol, int abs_mode) {
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    const double diff = fabs(got - want);
    if (diff == 0)
        return 1;
    const double scale =
            abs_mode ? fmax(fabs(want), 1.0) : fmax(fabs(want), 1e-5);
    return diff <= tol * scale;
}

/* Test inputs: integers, small fractions, values beyond the overflow
 * points of exp, ties for round. Only positive ones for positive-domain
 * algorithms. */
static float test_input(int64_t i, int positive, tsr_data_type_t dt) {
    static const float specials[] = {0.f,    1.f,  -1.f,  2.5f,  -2.5f,
                                     3.f,    -3.f, 0.5f,  -0.5f, 88.5f,
                                     -88.5f, 90.f, -90.f, 20.f,  -20.f};
    const int nspecial = (int)(sizeof(specials) / sizeof(specials[0]));
    float v;
    if (dt == tsr_s8 || dt == tsr_u8 || dt == tsr_s32)
        v = (float)((i * 37) % 301 - 150);
    else if (i % 5 == 0)
        v = specials[(i / 5) % nspecial];
    else if (i % 5 == 1)
        v = (float)((i * 7919) % 2001 - 1000) * 0.01f;
    else if (i % 5 == 2)
        v = (float)((i * 104729) % 1001 - 500) * 0.0001f;
    else
        v = (float)((i * 31) % 1601 - 800) * 0.0078125f;
    if (positive)
        v = fabsf(v) + 0.03125f;
    return v;
}

typedef struct {
    int ndims;
    tsr_dim_t dims[5];
    const char *tag, *dst_tag; /* dst_tag "any" allowed */
} shape_t;

static tsr_memory_t make_memory(const tsr_memory_desc_t *md) {
    tsr_memory_t m = NULL;
    CHECK(tsr_memory_create(&m, md, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_success);
    return m;
}
static void *data_of(tsr_memory_t m) {
    void *p = NULL;
    tsr_memory_get_data_handle(m, &p);
    return p;
}

/* Logical point l in row-major order. */
static void point_of(const tsr_memory_desc_t *md, int64_t l, tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = l % md->dims[d];
        l /= md->dims[d];
    }
}

/* Every padded element (inside the buffer, outside dims) is zero. */
static int padding_is_zero(const tsr_memory_desc_t *md, const void *data) {
    const size_t esize = tsr_data_type_size(md->data_type);
    const size_t size = tsr_memory_desc_get_size(md);
    unsigned char *seen = calloc(size / esize, 1);
    const int64_t n = tsr_memory_desc_nelems(md);
    for (int64_t l = 0; l < n; l++) {
        tsr_dim_t pos[5];
        point_of(md, l, pos);
        seen[tsr_memory_desc_offset(md, pos)] = 1;
    }
    int ok = 1;
    for (size_t e = 0; e < size / esize; e++)
        if (!seen[e] && tsr_load_f32(md->data_type, data, (int64_t)e) != 0.f)
            ok = 0;
    free(seen);
    return ok;
}

typedef enum {
    PO_NONE,
    PO_SUM_ELTWISE, /* sum 0.5, then 2 * relu(x; 0.125) */
    PO_BIN_CHANNEL, /* mul by a per-channel f32 tensor */
    PO_BIN_SCALAR,  /* add a single s8 value */
    PO_BIN_FULL,    /* sub a whole f32 tensor of dst's layout */
} post_op_case_t;

typedef struct {
    tsr_data_type_t sdt, ddt;
    alg_case_t a;
    int inplace;
    post_op_case_t po;
} fwd_case_t;

/* Runs every implementation of the forward problem; returns how many. */
static int run_fwd(const shape_t *sh, const fwd_case_t *c) {
    tsr_memory_desc_t src_md, dst_md, s1_md;
    CHECK(tsr_memory_desc_init_by_tag(&src_md, sh->ndims, sh->dims, c->sdt,
                                      sh->tag) == tsr_success);
    const char *dtag = c->inplace ? sh->tag : sh->dst_tag;
    CHECK(tsr_memory_desc_init_by_tag(&dst_md, sh->ndims, sh->dims, c->ddt,
                                      dtag) == tsr_success);
    tsr_eltwise_desc_t desc;
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training, c->a.alg,
                                        &src_md, &dst_md, c->a.alpha,
                                        c->a.beta) == tsr_success);

    tsr_primitive_attr_t attr = NULL;
    tsr_primitive_attr_create(&attr);
    tsr_post_ops_t po = NULL;
    tsr_post_ops_create(&po);
    tsr_dim_t s1_dims[5];
    tsr_data_type_t s1_dt = tsr_f32;
    for (int d = 0; d < sh->ndims; d++)
        s1_dims[d] = c->po == PO_BIN_FULL      ? sh->dims[d]
                     : c->po == PO_BIN_CHANNEL ? (d == 1 ? sh->dims[1] : 1)
                                               : 1;
    const tsr_alg_kind_t bin_alg = c->po == PO_BIN_CHANNEL  ? tsr_binary_mul
                                   : c->po == PO_BIN_SCALAR ? tsr_binary_add
                                                            : tsr_binary_sub;
    if (c->po == PO_SUM_ELTWISE) {
        tsr_post_ops_append_sum(po, 0.5f, 0, tsr_data_type_undef);
        tsr_post_ops_append_eltwise(po, 2.f, tsr_eltwise_relu, 0.125f, 0.f);
    } else if (c->po != PO_NONE) {
        if (c->po == PO_BIN_SCALAR)
            s1_dt = tsr_s8;
        CHECK(tsr_memory_desc_init_by_tag(
                      &s1_md, sh->ndims, s1_dims, s1_dt,
                      c->po == PO_BIN_FULL
                              ? sh->tag
                              : (sh->ndims == 4 ? "abcd" : "abc")) ==
              tsr_success);
        tsr_post_ops_append_binary(po, bin_alg, &s1_md);
    }
    tsr_primitive_attr_set_post_ops(attr, po);
    tsr_post_ops_destroy(po);

    tsr_primitive_desc_t pd = NULL;
    tsr_status_t st = tsr_primitive_desc_create(&pd, &desc, attr, engine);
    tsr_primitive_attr_destroy(attr);
    if (!CHECK(st == tsr_success))
        return 0;
    const tsr_memory_desc_t *real_dst =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST);
    CHECK(tsr_memory_desc_get_size(real_dst) ==
          tsr_memory_desc_get_size(&src_md) / tsr_data_type_size(c->sdt) *
                  tsr_data_type_size(c->ddt));

    tsr_memory_t src = make_memory(&src_md);
    tsr_memory_t dst = c->inplace ? src : make_memory(real_dst);
    tsr_memory_t s1 = c->po >= PO_BIN_CHANNEL ? make_memory(&s1_md) : NULL;
    const int64_t n = tsr_memory_desc_nelems(&src_md);
    const int positive = positive_domain(c->a.alg);
    float *x = malloc(sizeof(float) * (size_t)n);
    float *old = malloc(sizeof(float) * (size_t)n);
    for (int64_t l = 0; l < n; l++) {
        tsr_dim_t pos[5];
        point_of(&src_md, l, pos);
        x[l] = (float)as_dt(c->sdt, test_input(l, positive, c->sdt));
        old[l] = (float)as_dt(c->ddt, (double)((l % 7) - 3));
    }
    if (s1) {
        const int64_t n1 = tsr_memory_desc_nelems(&s1_md);
        for (int64_t l = 0; l < n1; l++) {
            tsr_dim_t pos[5];
            point_of(&s1_md, l, pos);
            tsr_store_f32(
                    s1_dt, data_of(s1), tsr_memory_desc_offset(&s1_md, pos),
                    (float)(l % 5) - 1.5f + (s1_dt == tsr_s8 ? 0.5f : 0.f),
                    tsr_round_nearest);
        }
    }

    int nimpl = 0;
    do {
        const char *name = tsr_primitive_desc_impl_name(pd);
        if (strcmp(name, "ref:any") == 0)
            ref_runs++;
        else
            fast_runs++;
        for (int64_t l = 0; l < n; l++) {
            tsr_dim_t pos[5];
            point_of(&src_md, l, pos);
            if (!c->inplace)
                tsr_store_f32(c->ddt, data_of(dst),
                              tsr_memory_desc_offset(real_dst, pos), old[l],
                              tsr_round_nearest);
            tsr_store_f32(c->sdt, data_of(src),
                          tsr_memory_desc_offset(&src_md, pos), x[l],
                          tsr_round_nearest);
        }
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[3] = {
                {TSR_ARG_SRC, src},
                {TSR_ARG_DST, dst},
                {TSR_ARG_ATTR_MULTIPLE_POST_OP(0) | TSR_ARG_SRC_1, s1}};
        CHECK(tsr_primitive_execute(prim, stream, s1 ? 3 : 2, args) ==
              tsr_success);
        tsr_primitive_destroy(prim);

        int abs_mode;
        const double tol = tolerance(c->ddt, c->a.alg, &abs_mode);
        /* A binary operand may cancel most of f's value. */
        abs_mode |= c->po >= PO_BIN_CHANNEL;
        int bad = 0;
        for (int64_t l = 0; l < n && bad < 5; l++) {
            tsr_dim_t pos[5];
            point_of(&src_md, l, pos);
            double want = ref_fwd(c->a.alg, x[l], c->a.alpha, c->a.beta);
            const double old_v = c->inplace ? x[l] : old[l];
            if (c->po == PO_SUM_ELTWISE) {
                want += 0.5 * old_v;
                want = 2 * (want > 0 ? want : 0.125 * want);
            } else if (c->po != PO_NONE) {
                tsr_dim_t p1[5];
                for (int d = 0; d < sh->ndims; d++)
                    p1[d] = s1_dims[d] == 1 ? 0 : pos[d];
                const double b = tsr_load_f32(
                        s1_dt, data_of(s1), tsr_memory_desc_offset(&s1_md, p1));
                want = bin_alg == tsr_binary_mul   ? want * b
                       : bin_alg == tsr_binary_add ? want + b
                                                   : want - b;
            }
            want = as_dt(c->ddt, want);
            const double got =
                    tsr_load_f32(c->ddt, data_of(dst),
                                 tsr_memory_desc_offset(real_dst, pos));
            if (!close_enough(got, want, tol, abs_mode)) {
                bad++;
                fprintf(stderr,
                        "fwd %s %s alg %s alpha %g beta %g sdt %d ddt %d "
                        "inplace %d po %d: x %.9g got %.9g want %.9g\n",
                        name, sh->tag, tsr_alg_kind2str(c->a.alg),
                        (double)c->a.alpha, (double)c->a.beta, c->sdt, c->ddt,
                        c->inplace, c->po, x[l], got, want);
            }
        }
        CHECK(bad == 0);
        CHECK(padding_is_zero(real_dst, data_of(dst)));
        nimpl++;
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);

    free(x);
    free(old);
    if (s1)
        tsr_memory_destroy(s1);
    if (!c->inplace)
        tsr_memory_destroy(dst);
    tsr_memory_destroy(src);
    tsr_primitive_desc_destroy(pd);
    return nimpl;
}

typedef struct {
    tsr_data_type_t dt;
    alg_case_t a;
    int inplace; /* diff_src in diff_dst's memory */
} bwd_case_t;

static int run_bwd(const shape_t *sh, const bwd_case_t *c) {
    tsr_memory_desc_t data_md, dd_md, ds_md;
    CHECK(tsr_memory_desc_init_by_tag(&data_md, sh->ndims, sh->dims, c->dt,
                                      sh->tag) == tsr_success);
    CHECK(tsr_memory_desc_init_by_tag(&dd_md, sh->ndims, sh->dims, c->dt,
                                      sh->tag) == tsr_success);
    CHECK(tsr_memory_desc_init_by_tag(&ds_md, sh->ndims, sh->dims, c->dt,
                                      c->inplace ? sh->tag : sh->dst_tag) ==
          tsr_success);
    tsr_eltwise_desc_t desc;
    CHECK(tsr_eltwise_backward_desc_init(&desc, c->a.alg, &ds_md, &dd_md,
                                         &data_md, c->a.alpha,
                                         c->a.beta) == tsr_success);
    tsr_primitive_desc_t pd = NULL;
    if (!CHECK(tsr_primitive_desc_create_with_hint(&pd, &desc, NULL, engine,
                                                   NULL) == tsr_success))
        return 0;
    const int data_arg = uses_dst(c->a.alg) ? TSR_ARG_DST : TSR_ARG_SRC;
    CHECK(tsr_primitive_desc_query_arg_usage(pd, data_arg) == tsr_arg_input);
    CHECK(tsr_primitive_desc_query_arg_usage(
                  pd, uses_dst(c->a.alg) ? TSR_ARG_SRC : TSR_ARG_DST) ==
          tsr_arg_unused);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_DIFF_SRC) ==
          tsr_arg_output);
    const tsr_memory_desc_t *real_ds =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DIFF_SRC);

    tsr_memory_t data = make_memory(&data_md), dd = make_memory(&dd_md);
    tsr_memory_t ds = c->inplace ? dd : make_memory(real_ds);
    const int64_t n = tsr_memory_desc_nelems(&data_md);
    const int positive = positive_domain(c->a.alg);
    float *v = malloc(sizeof(float) * (size_t)n);
    float *g = malloc(sizeof(float) * (size_t)n);
    for (int64_t l = 0; l < n; l++) {
        double x = as_dt(c->dt, test_input(l, positive, c->dt));
        /* dd e^x overflows in f32 before its product with dd. */
        if (base_alg(c->a.alg) == tsr_eltwise_exp && x > 80)
            x = 80;
        /* The *_dst algorithms read what the forward pass would store. */
        v[l] = (float)(uses_dst(c->a.alg)
                               ? as_dt(c->dt, ref_fwd(c->a.alg, x, c->a.alpha,
                                                      c->a.beta))
                               : x);
        g[l] = (float)as_dt(c->dt, (double)((l * 13) % 17 - 8) * 0.25);
    }

    int nimpl = 0;
    do {
        const char *name = tsr_primitive_desc_impl_name(pd);
        if (strcmp(name, "ref:any") == 0)
            ref_runs++;
        else
            fast_runs++;
        for (int64_t l = 0; l < n; l++) {
            tsr_dim_t pos[5];
            point_of(&data_md, l, pos);
            const tsr_dim_t off = tsr_memory_desc_offset(&data_md, pos);
            tsr_store_f32(c->dt, data_of(data), off, v[l], tsr_round_nearest);
            tsr_store_f32(c->dt, data_of(dd), off, g[l], tsr_round_nearest);
        }
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[3] = {{data_arg, data},
                                  {TSR_ARG_DIFF_DST, dd},
                                  {TSR_ARG_DIFF_SRC, ds}};
        CHECK(tsr_primitive_execute(prim, stream, 3, args) == tsr_success);
        tsr_primitive_destroy(prim);

        int abs_mode;
        const double tol = tolerance(c->dt, c->a.alg, &abs_mode);
        int bad = 0;
        for (int64_t l = 0; l < n && bad < 5; l++) {
            tsr_dim_t pos[5];
            point_of(&data_md, l, pos);
            const double want = as_dt(c->dt, ref_bwd(c->a.alg, g[l], v[l],
                                                     c->a.alpha, c->a.beta));
            const double got = tsr_load_f32(
                    c->dt, data_of(ds), tsr_memory_desc_offset(real_ds, pos));
            if (!close_enough(got, want, tol, 1)) {
                bad++;
                fprintf(stderr,
                        "bwd %s %s alg %s alpha %g beta %g dt %d: v %.9g dd "
                        "%g got %.9g want %.9g\n",
                        name, sh->tag, tsr_alg_kind2str(c->a.alg),
                        (double)c->a.alpha, (double)c->a.beta, c->dt, v[l],
                        g[l], got, want);
            }
        }
        CHECK(bad == 0);
        CHECK(padding_is_zero(real_ds, data_of(ds)));
        nimpl++;
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);

    free(v);
    free(g);
    if (!c->inplace)
        tsr_memory_destroy(ds);
    tsr_memory_destroy(dd);
    tsr_memory_destroy(data);
    tsr_primitive_desc_destroy(pd);
    return nimpl;
}

static const shape_t shapes[] = {
        {4, {2, 17, 5, 3}, "abcd", "any"},
        {4, {2, 17, 5, 3}, "acdb", "acdb"},
        {4, {2, 17, 5, 3}, "aBcd16b", "any"},
        {4, {2, 17, 5, 3}, "abcd", "acdb"},
        /* Enough elements for several threads and the vector bodies. */
        {4, {3, 37, 19, 23}, "abcd", "abcd"},
};
#define N_SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

static void test_all_algorithms(void) {
    static const tsr_data_type_t fdts[] = {tsr_f32, tsr_bf16, tsr_f16};
    for (int s = 0; s < N_SHAPES; s++)
        for (int k = 0; k < N_ALG_CASES; k++)
            for (int t = 0; t < 3; t++) {
                const alg_case_t *a = &alg_cases[k];
                const tsr_data_type_t dt = fdts[t];
                if (a->alg == tsr_eltwise_round && dt != tsr_f32)
                    continue;
                if (s == N_SHAPES - 1 && dt == tsr_f16)
                    continue; /* the big shape: f32 and bf16 suffice */
                fwd_case_t f = {dt, dt, *a, (k + s) % 3 == 0, PO_NONE};
                CHECK(run_fwd(&shapes[s], &f) >= 1);
                if (a->alg == tsr_eltwise_round)
                    continue;
                bwd_case_t b = {dt, *a, (k + s) % 4 == 1};
                CHECK(run_bwd(&shapes[s], &b) >= 1);
            }
}

static void test_integer_and_mixed_types(void) {
    const alg_case_t relu = {tsr_eltwise_relu, -2.f, 0.f};
    const alg_case_t linear = {tsr_eltwise_linear, 1.f, 2.f};
    const tsr_data_type_t idts[] = {tsr_s8, tsr_u8, tsr_s32};
    for (int s = 0; s < N_SHAPES; s++)
        for (int t = 0; t < 3; t++) {
            fwd_case_t a = {idts[t], idts[t], relu, s % 2, PO_NONE};
            CHECK(run_fwd(&shapes[s], &a) >= 1);
            fwd_case_t b = {idts[t], idts[t], linear, 0, PO_BIN_CHANNEL};
            CHECK(run_fwd(&shapes[s], &b) >= 1);
            /* The integer kernels (no post-ops): rounding of fractions
             * and ties, saturation at both ends, tails. */
            const alg_case_t direct[] = {{tsr_eltwise_relu, 0.f, 0.f},
                                         {tsr_eltwise_relu, 0.5f, 0.f},
                                         {tsr_eltwise_linear, 0.375f, 2.5f},
                                         {tsr_eltwise_linear, -3.f, 1.f}};
            for (int k = 0; k < 4; k++) {
                fwd_case_t d = {idts[t], idts[t], direct[k], (s + k) % 2,
                                PO_NONE};
                CHECK(run_fwd(&shapes[s], &d) >= 1);
            }
        }
    /* Different source and destination types. */
    fwd_case_t m1 = {tsr_f32, tsr_s8, relu, 0, PO_NONE};
    CHECK(run_fwd(&shapes[0], &m1) >= 1);
    fwd_case_t m2 = {
            tsr_bf16, tsr_f32, {tsr_eltwise_gelu_erf, 0.f, 0.f}, 0, PO_NONE};
    CHECK(run_fwd(&shapes[2], &m2) >= 1);
}

static void test_post_ops(void) {
    const alg_case_t algs[] = {{tsr_eltwise_relu, 0.f, 0.f},
                               {tsr_eltwise_gelu_erf, 0.f, 0.f},
                               {tsr_eltwise_exp, 0.f, 0.f}};
    for (int s = 0; s < N_SHAPES; s++)
        for (int k = 0; k < 3; k++)
            for (int p = PO_SUM_ELTWISE; p <= PO_BIN_FULL; p++)
                for (int t = 0; t < 2; t++) {
                    const tsr_data_type_t dt = t ? tsr_bf16 : tsr_f32;
                    fwd_case_t f = {dt, dt, algs[k], (p + s) % 2,
                                    (post_op_case_t)p};
                    CHECK(run_fwd(&shapes[s], &f) >= 1);
                }
}

/* The dense f32 problem has an implementation ahead of the reference. */
static void test_fast_path_chosen(void) {
    tsr_memory_desc_t md;
    const tsr_dim_t dims[4] = {2, 17, 5, 3};
    tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "aBcd16b");
    tsr_eltwise_desc_t desc;
    tsr_eltwise_forward_desc_init(&desc, tsr_forward_inference,
                                  tsr_eltwise_relu, &md, &md, 0.f, 0.f);
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    if (pd)
        CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "ref:any") != 0);
    tsr_primitive_desc_destroy(pd);
}

static void test_refusals(void) {
    const tsr_dim_t dims[4] = {2, 17, 5, 3}, other[4] = {2, 16, 5, 3};
    tsr_memory_desc_t f32, f32_other, s8, any, bf16;
    tsr_memory_desc_init_by_tag(&f32, 4, dims, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&f32_other, 4, other, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&s8, 4, dims, tsr_s8, "abcd");
    tsr_memory_desc_init_by_tag(&bf16, 4, dims, tsr_bf16, "abcd");
    tsr_memory_desc_init_by_tag(&any, 4, dims, tsr_f32, "any");

    tsr_eltwise_desc_t desc, untouched;
    memset(&desc, 0x5a, sizeof(desc));
    untouched = desc;
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_eltwise_relu, &f32, &f32_other, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_binary_add, &f32, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_eltwise_alg_last, &f32, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_backward_data,
                                        tsr_eltwise_relu, &f32, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, (tsr_prop_kind_t)12345,
                                        tsr_eltwise_relu, &f32, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_eltwise_relu, &any, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(NULL, tsr_forward_training,
                                        tsr_eltwise_relu, &f32, &f32, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_eltwise_relu, &f32, NULL, 0.f,
                                        0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_backward_desc_init(&desc, tsr_eltwise_relu, &f32,
                                         &f32_other, &f32, 0.f,
                                         0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_backward_desc_init(&desc, tsr_eltwise_relu, &f32, &any,
                                         &f32, 0.f,
                                         0.f) == tsr_invalid_arguments);
    CHECK(tsr_eltwise_backward_desc_init(&desc, tsr_binary_mul, &f32, &f32,
                                         &f32, 0.f,
                                         0.f) == tsr_invalid_arguments);
    CHECK(memcmp(&desc, &untouched, sizeof(desc)) == 0);

    /* Valid descriptors the library does not run. */
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_training,
                                        tsr_eltwise_tanh, &s8, &s8, 0.f,
                                        0.f) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_unimplemented);
    CHECK(tsr_eltwise_forward_desc_init(&desc, tsr_forward_inference,
                                        tsr_eltwise_round, &bf16, &bf16, 0.f,
                                        0.f) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_unimplemented);
    CHECK(tsr_eltwise_backward_desc_init(&desc, tsr_eltwise_round, &f32, &f32,
                                         &f32, 0.f, 0.f) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_unimplemented);
    CHECK(tsr_eltwise_backward_desc_init(&desc, tsr_eltwise_relu, &s8, &s8, &s8,
                                         0.f, 0.f) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_unimplemented);

    /* A missing binary post-op operand fails before anything is written. */
    tsr_primitive_attr_t attr = NULL;
    tsr_post_ops_t po = NULL;
    tsr_primitive_attr_create(&attr);
    tsr_post_ops_create(&po);
    tsr_post_ops_append_binary(po, tsr_binary_add, &f32);
    tsr_primitive_attr_set_post_ops(attr, po);
    tsr_eltwise_forward_desc_init(&desc, tsr_forward_inference,
                                  tsr_eltwise_relu, &f32, &f32, 0.f, 0.f);
    CHECK(tsr_primitive_desc_create(&pd, &desc, attr, engine) == tsr_success);
    do {
        tsr_memory_t src = make_memory(&f32), dst = make_memory(&f32);
        float *d = data_of(dst);
        d[0] = 42.f;
        tsr_primitive_t prim = NULL;
        tsr_primitive_create(&prim, pd);
        tsr_exec_arg_t args[2] = {{TSR_ARG_SRC, src}, {TSR_ARG_DST, dst}};
        CHECK(tsr_primitive_execute(prim, stream, 2, args) ==
              tsr_invalid_arguments);
        CHECK(d[0] == 42.f);
        tsr_primitive_destroy(prim);
        tsr_memory_destroy(src);
        tsr_memory_destroy(dst);
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);
    tsr_primitive_desc_destroy(pd);
    tsr_post_ops_destroy(po);
    tsr_primitive_attr_destroy(attr);
}

/* The kernels' non-temporal forms (taken for tensors larger than the
 * caches, too large for this test's problems) write what the plain forms
 * write, at every alignment and length. */
static void test_streaming_kernels(void) {
    typedef struct {
        tsr_cpu_isa_t isa;
        eltwise_fwd_f32_fn plain, nt;
    } kernels_t;
    const kernels_t kernels[] = {
            {tsr_cpu_isa_avx2, tsr_eltwise_fwd_f32_avx2,
             tsr_eltwise_fwd_f32_nt_avx2},
            {tsr_cpu_isa_avx512_core, tsr_eltwise_fwd_f32_avx512,
             tsr_eltwise_fwd_f32_nt_avx512},
    };
    enum { len = 200 };
    float src[len + 16], a[len + 16], b[len + 16];
    for (int i = 0; i < len + 16; i++)
        src[i] = test_input(i, 0, tsr_f32);
    for (int k = 0; k < 2; k++) {
        if (!tsr_mayiuse(kernels[k].isa))
            continue;
        const eltwise_op_t ops[] = {{tsr_eltwise_relu, 0.f, 0.f},
                                    {tsr_eltwise_gelu_erf, 0.f, 0.f}};
        for (int o = 0; o < 2; o++)
            for (int off = 0; off < 16; off++)
                for (int n = 0; n <= len; n += 7) {
                    memset(a, 0, sizeof(a));
                    memset(b, 0, sizeof(b));
                    kernels[k].plain(&ops[o], a + off, src, n);
                    kernels[k].nt(&ops[o], b + off, src, n);
                    CHECK(memcmp(a, b, sizeof(a)) == 0);
                }
    }
}

int main(void) {
    tsr_engine_create(&engine, tsr_cpu, 0);
    tsr_stream_create(&stream, engine);
    test_refusals();
    test_fast_path_chosen();
    test_streaming_kernels();
    test_all_algorithms();
    test_integer_and_mixed_types();
    test_post_ops();
    printf("eltwise: %d runs of optimized implementations, %d of ref:any\n",
           fast_runs, ref_runs);
    CHECK(ref_runs > 0);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
