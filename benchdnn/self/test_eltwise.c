/* The eltwise driver's pieces without the library: dims descriptors,
 * algorithm names, the reference (forward values from the definitions,
 * backward against a numerical derivative of the forward), the fill, and
 * the comparison rules. */
#include "self_util.h"

#include <math.h>
#include <string.h>

#include "common/bench_args.h"
#include "common/dims_desc.h"
#include "eltwise/eltwise.h"

static int parse_any(const char *text, void *d, char *message) {
    return dims_desc_parse_try(text, "eltwise", d, message);
}

static void print_any(const void *d, int canonical, char *buf, size_t len) {
    (void)canonical;
    dims_desc_print(d, buf, len);
}

static int equal(const void *a, const void *b) {
    return memcmp(a, b, sizeof(dims_desc_t)) == 0;
}

static int prints_as(const char *text, const char *expected) {
    return desc_prints_as(parse_any, print_any, equal, sizeof(dims_desc_t),
                          text, 0, expected);
}

static int rejected(const char *text, const char *named) {
    return desc_rejected(parse_any, sizeof(dims_desc_t), text, named, 1);
}

static void test_descriptor(void) {
    dims_desc_t d;
    char err[BENCH_ERR_LEN];
    memset(&d, 0, sizeof(d));
    CHECK(dims_desc_parse_try("50x192x55x55_nfoo", "eltwise", &d, err) == 0);
    CHECK(d.ndims == 4 && d.dims[1] == 192 && d.dims[3] == 55);
    CHECK(strcmp(d.name, "foo") == 0 &&
          dims_desc_nelems(&d) == 50 * 192 * 55 * 55);
    CHECK(prints_as("16x16x2x1", "16x16x2x1"));
    CHECK(prints_as("8", "8"));
    CHECK(prints_as("4_x3_n\"a:b\"", "4x3_na:b"));
    CHECK(prints_as("2x3x4x5x6x7x8x9x10x11x12x13",
                    "2x3x4x5x6x7x8x9x10x11x12x13"));
    CHECK(rejected("2xq", "expected a dimension at 'q'"));
    CHECK(rejected("2x0x3", "dimension '0' is not a positive integer"));
    CHECK(rejected("x3", "expected a dimension"));
    CHECK(rejected("2x3y", "unexpected text 'y'"));
    CHECK(rejected("1x1x1x1x1x1x1x1x1x1x1x1x1", "more than 12 dims"));
    CHECK(rejected("2x3n\"open", "unmatched quote"));
}

static void test_alg_names(void) {
    const eltwise_alg_info_t *a = eltwise_alg_find("relu");
    CHECK(a && a->alg == tsr_eltwise_relu && !a->use_dst);
    CHECK(eltwise_alg_find("ELTWISE_RELU") == a);
    CHECK(eltwise_alg_find("Relu") == a);
    a = eltwise_alg_find("eltwise_tanh_use_dst_for_bwd");
    CHECK(a && a->alg == tsr_eltwise_tanh_use_dst_for_bwd && a->use_dst &&
          a->math == tsr_eltwise_tanh && strcmp(a->name, "tanh_dst") == 0);
    CHECK(eltwise_alg_find("tanh_dst") == a);
    CHECK(eltwise_alg_find("brelu") == eltwise_alg_find("bounded_relu"));
    CHECK(eltwise_alg_find("srelu") == eltwise_alg_find("eltwise_soft_relu"));
    CHECK(eltwise_alg_find("gelu") == eltwise_alg_find("gelu_tanh"));
    CHECK(eltwise_alg_find("rleu") == NULL);
    CHECK(eltwise_alg_find("eltwise_relu_dst") == NULL);
    CHECK(eltwise_alg_find("eltwise_") == NULL);
    CHECK(eltwise_alg_find("square_dst") == NULL);
    /* Every name finds itself. */
    for (int i = 0; i < eltwise_alg_count(); i++)
        CHECK(eltwise_alg_find(eltwise_alg_at(i)->name) == eltwise_alg_at(i));
}

static int near(double a, double b, double tol) {
    return fabs(a - b) <= tol * (1 + fabs(b));
}

static void test_forward_values(void) {
    CHECK(eltwise_ref_fwd(tsr_eltwise_relu, -2, 0.5, 0) == -1);
    CHECK(eltwise_ref_fwd(tsr_eltwise_bounded_relu, 7, 6, 0) == 6);
    CHECK(eltwise_ref_fwd(tsr_eltwise_clip, -3, -2, 3) == -2);
    CHECK(eltwise_ref_fwd(tsr_eltwise_linear, 3, 2, 1) == 7);
    CHECK(eltwise_ref_fwd(tsr_eltwise_pow, 4, 2, 0.5) == 4);
    CHECK(eltwise_ref_fwd(tsr_eltwise_round, 2.5, 0, 0) == 2);
    CHECK(eltwise_ref_fwd(tsr_eltwise_round, -1.5, 0, 0) == -2);
    CHECK(near(eltwise_ref_fwd(tsr_eltwise_gelu_erf, 1, 0, 0),
               0.8413447460685429, 1e-12));
    CHECK(near(eltwise_ref_fwd(tsr_eltwise_gelu_tanh, 1, 0, 0),
               0.8411919906082768, 1e-12));
    CHECK(near(eltwise_ref_fwd(tsr_eltwise_soft_relu, 0, 0, 0), log(2), 1e-15));
    CHECK(eltwise_ref_fwd(tsr_eltwise_soft_relu, 1000, 1, 0) == 1000);
    CHECK(near(eltwise_ref_fwd(tsr_eltwise_logsigmoid, -1000, 0, 0), -1000,
               1e-15));
    CHECK(eltwise_ref_fwd(tsr_eltwise_logistic, -1000, 0, 0) >= 0);
    CHECK(isnan(eltwise_ref_fwd(tsr_eltwise_log, -1, 0, 0)));
    CHECK(isnan(eltwise_ref_fwd(tsr_eltwise_relu, NAN, 0, 0)));
    /* The *_dst variants compute their base's forward. */
    CHECK(eltwise_ref_fwd(tsr_eltwise_exp_use_dst_for_bwd, 1, 0, 0) == exp(1));
    /* v2.x parameters mean the v2.x functions. */
    float a, b;
    eltwise_effective_params(tsr_eltwise_hardswish, 0, 0, &a, &b);
    CHECK(near(eltwise_ref_fwd(tsr_eltwise_hardswish, 1, a, b), 4.0 / 6, 1e-7));
    eltwise_effective_params(tsr_eltwise_soft_relu, 0, 0.25f, &a, &b);
    CHECK(a == 1 && b == 0.25f);
    eltwise_effective_params(tsr_eltwise_hardswish, 0.25f, 0, &a, &b);
    CHECK(a == 0.25f && b == 0);
}

/* Backward against the central difference of the forward, at points away
 * from kinks, for every algorithm that has a backward. */
static void test_backward_derivatives(void) {
    static const double xs[] = {-2.7, -0.6, 0.35, 1.3, 2.2};
    for (int i = 0; i < eltwise_alg_count(); i++) {
        const eltwise_alg_info_t *info = eltwise_alg_at(i);
        if (info->alg == tsr_eltwise_round)
            continue;
        const int positive_only = info->math == tsr_eltwise_sqrt ||
                                  info->math == tsr_eltwise_log ||
                                  info->math == tsr_eltwise_pow;
        const double alpha =
                info->math == tsr_eltwise_clip ||
                                info->math == tsr_eltwise_clip_v2
                        ? -1.5
                : info->math == tsr_eltwise_hardswish ||
                                info->math == tsr_eltwise_hardsigmoid
                        ? 0.2
                        : 1.7;
        const double beta =
                info->math == tsr_eltwise_hardswish ||
                                info->math == tsr_eltwise_hardsigmoid
                        ? 0.5
                        : 1.9;
        for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++) {
            const double x = positive_only ? fabs(xs[k]) : xs[k];
            const double h = 1e-6;
            const double fd = (eltwise_ref_fwd(info->alg, x + h, alpha, beta) -
                               eltwise_ref_fwd(info->alg, x - h, alpha, beta)) /
                              (2 * h);
            const double s =
                    info->use_dst ? eltwise_ref_fwd(info->alg, x, alpha, beta)
                                  : x;
            const double got = eltwise_ref_bwd(info->alg, 3, s, alpha, beta);
            if (!CHECK(near(got, 3 * fd, 1e-5)))
                fprintf(stderr, "%s at x=%g: bwd %.9g, numerical %.9g\n",
                        info->name, x, got, 3 * fd);
        }
    }
    /* A derivative past f32's range is infinite: 0 * inf is NaN. */
    CHECK(isnan(eltwise_ref_bwd(tsr_eltwise_exp, 0, 89, 0, 0)));
    CHECK(eltwise_ref_bwd(tsr_eltwise_exp, 0, 88, 0, 0) == 0);
}

static eltwise_prb_t problem(const char *alg, int is_fwd, tsr_data_type_t dt,
                             float alpha, float beta) {
    eltwise_prb_t p;
    memset(&p, 0, sizeof(p));
    p.alg = eltwise_alg_find(alg);
    p.is_fwd = is_fwd;
    p.dt = dt;
    p.alpha = alpha;
    p.beta = beta;
    return p;
}

static void test_fill(void) {
    eltwise_prb_t p = problem("relu", 1, tsr_f32, 0.25f, -0.25f);
    int categories_ok = 1, zeros = 0;
    for (int64_t i = 0; i < 13 * 50; i++) {
        const float v = eltwise_fill_value(&p, 1, i);
        categories_ok &= v == eltwise_fill_value(&p, 1, i); /* deterministic */
        categories_ok &= !signbit(v) || v != 0;             /* no -0 */
        zeros += v == 0;
        switch (i % 13) {
        case 0:
            categories_ok &= v >= 0 && v <= 10 && v == floorf(v);
            break;
        case 3:
            categories_ok &= v <= 0 && v > -0.09f;
            break;
        case 8:
            categories_ok &= v >= 88 && v < 89;
            break;
        case 11:
            categories_ok &= v == 0.25f;
            break;
        case 12:
            categories_ok &= v == -0.25f;
            break;
        default:
            break;
        }
    }
    CHECK(categories_ok);
    CHECK(zeros < 13 * 50 / 5);
    CHECK(eltwise_fill_value(&p, 1, 4) != eltwise_fill_value(&p, 2, 4) ||
          eltwise_fill_value(&p, 1, 17) != eltwise_fill_value(&p, 2, 17));
    p = problem("log", 1, tsr_f32, 0, 0);
    CHECK(isinf(eltwise_fill_value(&p, 1, 12)) &&
          isinf(eltwise_fill_value(&p, 1, 25)) &&
          eltwise_fill_value(&p, 1, 12) != eltwise_fill_value(&p, 1, 25));
}

static void test_check_rules(void) {
    eltwise_prb_t p = problem("relu", 1, tsr_f32, 0, 0);
    CHECK(eltwise_threshold(&p) == 4e-6f);
    CHECK(eltwise_zero_trust(&p) == 0.6f);
    p = problem("gelu_tanh", 1, tsr_f32, 0, 0);
    CHECK(eltwise_threshold(&p) == 4e-5f);
    CHECK(eltwise_cancellation_expected(&p, -20.f));
    CHECK(!eltwise_cancellation_expected(&p, 1.f));
    p = problem("tanh_dst", 1, tsr_f32, 0, 0);
    CHECK(eltwise_threshold(&p) == 4e-5f);
    p = problem("tanh_dst", 0, tsr_f32, 0, 0);
    CHECK(eltwise_threshold(&p) == 4e-6f);
    CHECK(eltwise_cancellation_expected(&p, 1.f));
    CHECK(!eltwise_cancellation_expected(&p, 0.5f));
    p = problem("relu", 1, tsr_bf16, 0, 0);
    CHECK(eltwise_threshold(&p) == 0x1p-7f);
    p = problem("relu", 1, tsr_s8, 0, 0);
    CHECK(eltwise_threshold(&p) == 0 && eltwise_zero_trust(&p) == 1.f);
    p = problem("clip", 0, tsr_f32, -2, 3);
    CHECK(eltwise_zero_trust(&p) == 1.f);
    p = problem("clip", 1, tsr_f32, -2, 3);
    CHECK(eltwise_zero_trust(&p) == 0.6f);
}

static void test_skips(void) {
    eltwise_prb_t p = problem("clip", 1, tsr_f32, 3, -2);
    CHECK(eltwise_skip_reason(&p) &&
          strstr(eltwise_skip_reason(&p), "alpha <= beta"));
    p = problem("relu_dst", 1, tsr_f32, -1, 0);
    CHECK(eltwise_skip_reason(&p) != NULL);
    p = problem("round", 0, tsr_f32, 0, 0);
    CHECK(eltwise_skip_reason(&p) != NULL);
    p = problem("round", 1, tsr_bf16, 0, 0);
    CHECK(eltwise_skip_reason(&p) != NULL);
    p = problem("tanh", 1, tsr_s8, 0, 0);
    CHECK(eltwise_skip_reason(&p) != NULL);
    p = problem("relu", 0, tsr_u8, 0, 0);
    CHECK(eltwise_skip_reason(&p) != NULL);
    p = problem("relu", 1, tsr_u8, -2, 0);
    CHECK(eltwise_skip_reason(&p) == NULL);
    p = problem("bounded_relu", 0, tsr_f32, 2, 0);
    CHECK(eltwise_skip_reason(&p) == NULL);
}

int main(void) {
    test_descriptor();
    test_alg_names();
    test_forward_values();
    test_backward_derivatives();
    test_fill();
    test_check_rules();
    test_skips();
    return check_failures() != 0;
}
