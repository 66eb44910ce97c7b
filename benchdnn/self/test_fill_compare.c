/* Fills are deterministic whatever the thread count; the comparison finds
 * mismatches, handles NaN and infinities, and mistrusts all-zero results. */
#include "self_util.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <string.h>

#include "common/fill_compare.h"

#define N 100003 /* not a multiple of the fill chunk */

static float buf_a[N], buf_b[N];

static void test_fill(void) {
    omp_set_num_threads(1);
    fill_int_values(buf_a, N, -5, 5, 0.25, 42);
    omp_set_num_threads(2);
    fill_int_values(buf_b, N, -5, 5, 0.25, 42);
    CHECK(memcmp(buf_a, buf_b, sizeof(buf_a)) == 0);

    int64_t zeros = 0, out_of_range = 0, non_integer = 0;
    int seen_lo = 0, seen_hi = 0;
    for (int64_t i = 0; i < N; i++) {
        const float v = buf_a[i];
        zeros += v == 0;
        out_of_range += v < -5 || v > 5;
        non_integer += v != floorf(v);
        seen_lo |= v == -5;
        seen_hi |= v == 5;
    }
    CHECK(out_of_range == 0 && non_integer == 0 && seen_lo && seen_hi);
    /* 75% forced zeros plus 1/11 of the drawn values. */
    const double zero_rate = (double)zeros / N;
    const double expected = 0.75 + 0.25 / 11;
    CHECK(fabs(zero_rate - expected) < 0.01);

    fill_int_values(buf_b, N, -5, 5, 0.25, 43);
    CHECK(memcmp(buf_a, buf_b, sizeof(buf_a)) != 0);

    fill_int_values(buf_a, N, 1, 3, 1.0, 7);
    int64_t below = 0;
    for (int64_t i = 0; i < N; i++)
        below += buf_a[i] < 1;
    CHECK(below == 0); /* full density: no zero */
}

static void coords(const void *ctx, int64_t idx, char *buf, size_t len) {
    (void)ctx;
    snprintf(buf, len, "c%lld", (long long)idx);
}

typedef struct {
    const float *exp, *got;
    int64_t n;
    compare_cfg_t cfg;
    res_t res;
} compare_call_t;

static void run_compare(void *ctx) {
    compare_call_t *c = ctx;
    compare_f32(c->exp, c->got, c->n, &c->cfg, &c->res);
}

static res_state_t compare(const float *exp, const float *got, int64_t n,
                           const compare_cfg_t *cfg, res_t *res,
                           char **printed) {
    compare_call_t call = {exp, got, n, *cfg, {0}};
    char *out = capture_stdout(run_compare, &call);
    *res = call.res;
    if (printed)
        *printed = out;
    else
        free(out);
    return res->state;
}

static void test_compare(void) {
    enum { M = 1000 };
    static float exp[M], got[M];
    compare_cfg_t cfg = {.dt = tsr_f32, .idx2str = coords};
    res_t res;
    char *out = NULL;

    for (int i = 0; i < M; i++)
        exp[i] = got[i] = (float)(i % 7) - 3;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_PASSED);
    CHECK(res.errors == 0 && res.total == M);

    got[500] += 1;
    got[900] = -got[900] + 100;
    CHECK(compare(exp, got, M, &cfg, &res, &out) == STATE_FAILED);
    CHECK(res.errors == 2);
    CHECK(out && strstr(out, "[500][c500] exp_f32:") != NULL);
    CHECK(out && strstr(out, "[900][c900]") != NULL);
    free(out);

    /* Only the first max_print mismatches are printed, in index order. */
    for (int i = 0; i < M; i++)
        got[i] = exp[i] + 1;
    cfg.max_print = 3;
    CHECK(compare(exp, got, M, &cfg, &res, &out) == STATE_FAILED);
    CHECK(res.errors == M);
    if (CHECK(out != NULL)) {
        int lines = 0;
        for (const char *p = out; *p; p++)
            lines += *p == '\n';
        CHECK(lines == 3 && strncmp(out, "[0][c0]", 7) == 0);
    }
    free(out);
    cfg.max_print = 0;

    /* Thresholds: relative and absolute. */
    for (int i = 0; i < M; i++)
        got[i] = exp[i] = 100;
    got[1] = 100.5f;
    cfg.threshold = 0.01f;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_PASSED);
    cfg.threshold = 0.001f;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED);
    cfg.abs_threshold = 1;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_PASSED);
    cfg.threshold = cfg.abs_threshold = 0;

    /* NaN equals NaN only; infinities must agree in sign. */
    got[1] = 100;
    exp[2] = got[2] = NAN;
    exp[3] = got[3] = INFINITY;
    exp[4] = got[4] = -INFINITY;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_PASSED);
    got[2] = 0;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED &&
          res.errors == 1);
    got[2] = NAN;
    exp[5] = 1;
    got[5] = NAN;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED);
    got[5] = 1;
    got[3] = -INFINITY;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED);
    got[3] = FLT_MAX;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED);

    /* Mostly zeros: mistrusted when equal, failed when not. */
    for (int i = 0; i < M; i++)
        exp[i] = got[i] = i % 10 == 0 ? 1.f : 0.f; /* 90% zeros */
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_MISTRUSTED);
    cfg.zero_trust = 0.95f;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_PASSED);
    cfg.zero_trust = 0;
    got[0] = 2;
    CHECK(compare(exp, got, M, &cfg, &res, NULL) == STATE_FAILED);

    /* The result does not depend on the thread count. */
    for (int i = 0; i < M; i++)
        got[i] = exp[i] + (i % 3 == 0);
    omp_set_num_threads(1);
    compare(exp, got, M, &cfg, &res, NULL);
    const int64_t errors_1 = res.errors;
    omp_set_num_threads(2);
    compare(exp, got, M, &cfg, &res, NULL);
    CHECK(errors_1 == res.errors && errors_1 == (M + 2) / 3);
}

int main(void) {
    test_fill();
    test_compare();
    return check_failures() != 0;
}
