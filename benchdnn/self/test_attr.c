/* Attributes: every accepted form parses to the expected values, bad
 * forms are rejected with a message naming the text, repro strings parse
 * back to the same attributes, option lists multiply, and the reference
 * math matches hand-computed values. */
#include "self_util.h"

#include <math.h>
#include <string.h>

#include "common/attr.h"
#include "common/benchdnn.h"

static char err[BENCH_ERR_LEN];

typedef int (*try_fn)(bench_attr_t *, const char *, char *);

/* Parses `value` with `fn` into a fresh attr; returns the status. */
static int parse(try_fn fn, const char *value, bench_attr_t *attr) {
    bench_attr_init(attr);
    err[0] = '\0';
    return fn(attr, value, err);
}

static int scale_equal(const bench_scale_t *a, const bench_scale_t *b) {
    return a->set == b->set &&
           (!a->set || (a->policy == b->policy && a->scale == b->scale &&
                        a->runtime == b->runtime));
}

static int attr_equal(const bench_attr_t *a, const bench_attr_t *b) {
    if (a->scratchpad_user != b->scratchpad_user ||
        a->round_mode != b->round_mode ||
        !scale_equal(&a->oscale, &b->oscale) || a->n_post_ops != b->n_post_ops)
        return 0;
    for (int i = 0; i < QARG_COUNT; i++) {
        const bench_zp_t *za = &a->zero_points[i], *zb = &b->zero_points[i];
        if (!scale_equal(&a->scales[i], &b->scales[i]) || za->set != zb->set ||
            (za->set && (za->policy != zb->policy || za->value != zb->value ||
                         za->runtime != zb->runtime)))
            return 0;
    }
    for (int i = 0; i < a->n_post_ops; i++) {
        const bench_post_op_t *p = &a->post_ops[i], *q = &b->post_ops[i];
        if (p->kind != q->kind || p->alg != q->alg || p->scale != q->scale ||
            p->alpha != q->alpha || p->beta != q->beta ||
            p->zero_point != q->zero_point || p->dt != q->dt ||
            p->policy != q->policy || strcmp(p->tag, q->tag) ||
            strcmp(p->text, q->text))
            return 0;
    }
    return 1;
}

/* Parses the options of a repro string back into an attr. */
static int parse_repro(const char *repro, bench_attr_t *attr) {
    bench_attr_lists_t lists = {0};
    char buf[1024];
    int ok = 1;
    snprintf(buf, sizeof(buf), "%s", repro);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        ok &= attr_lists_try_parse(&lists, tok, err) == 1;
    ok &= attr_lists_count(&lists) == 1;
    attr_lists_get(&lists, 0, attr);
    attr_lists_reset(&lists);
    return ok;
}

/* The repro of `attr` (plain and canonical) parses back to it. */
static int round_trips(const bench_attr_t *attr) {
    for (int canonical = 0; canonical <= 1; canonical++) {
        char repro[1024] = "";
        bench_attr_t back;
        attr_to_repro(attr, canonical, repro, sizeof(repro));
        if (!parse_repro(repro, &back) || !attr_equal(attr, &back)) {
            fprintf(stderr, "repro does not round-trip: '%s'\n", repro);
            return 0;
        }
    }
    return 1;
}

/* Accepted: parses, and round-trips through its repro. */
static int accepted(try_fn fn, const char *value, bench_attr_t *attr) {
    if (parse(fn, value, attr) != 0) {
        fprintf(stderr, "rejected '%s': %s\n", value, err);
        return 0;
    }
    return round_trips(attr);
}

/* Rejected with a message that names the text. */
static int rejected(try_fn fn, const char *value) {
    bench_attr_t attr;
    return parse(fn, value, &attr) == -1 && strstr(err, value) != NULL;
}

static void test_simple_options(void) {
    bench_attr_t a;
    CHECK(accepted(attr_try_parse_scratchpad, "user", &a) &&
          a.scratchpad_user == 1);
    CHECK(accepted(attr_try_parse_scratchpad, "library", &a) &&
          a.scratchpad_user == 0);
    CHECK(rejected(attr_try_parse_scratchpad, "lib"));
    CHECK(accepted(attr_try_parse_round_mode, "down", &a) &&
          a.round_mode == tsr_round_down);
    CHECK(rejected(attr_try_parse_round_mode, "up"));
}

static void test_scales(void) {
    bench_attr_t a;
    CHECK(accepted(attr_try_parse_oscale, "per_oc:0.5", &a) && a.oscale.set &&
          a.oscale.policy == POLICY_PER_OC && a.oscale.scale == 0.5f &&
          !a.oscale.runtime);
    CHECK(accepted(attr_try_parse_oscale, "common:2.25*", &a) &&
          a.oscale.runtime && a.oscale.scale == 2.25f);
    CHECK(accepted(attr_try_parse_oscale, "per_dim_01", &a) &&
          a.oscale.policy == POLICY_PER_DIM_01 && a.oscale.scale == 1);
    CHECK(accepted(attr_try_parse_oscale, "none", &a) && !a.oscale.set);
    CHECK(accepted(attr_try_parse_oscale, "common:0.1", &a) &&
          a.oscale.scale == 0.1f);
    CHECK(rejected(attr_try_parse_oscale, "per_foo:1"));
    CHECK(rejected(attr_try_parse_oscale, "common:abc"));
    CHECK(rejected(attr_try_parse_oscale, "common:1:2"));

    CHECK(accepted(attr_try_parse_scales,
                   "src:common:0.25+wei:per_oc+dst:common:2*", &a) &&
          a.scales[QARG_SRC].set && a.scales[QARG_SRC].scale == 0.25f &&
          a.scales[QARG_WEI].policy == POLICY_PER_OC &&
          a.scales[QARG_WEI].scale == 1 && a.scales[QARG_DST].scale == 2 &&
          a.scales[QARG_DST].runtime);
    /* v2.x: '_' between arguments, even after a policy holding '_'. */
    CHECK(accepted(attr_try_parse_scales, "wei:per_oc:4_dst:common:0.5", &a) &&
          a.scales[QARG_WEI].policy == POLICY_PER_OC &&
          a.scales[QARG_WEI].scale == 4 && a.scales[QARG_DST].set &&
          !a.scales[QARG_SRC].set);
    CHECK(accepted(attr_try_parse_scales, "src0:common:3", &a) &&
          a.scales[QARG_SRC].scale == 3);
    CHECK(rejected(attr_try_parse_scales, "bias:common:1"));
    CHECK(rejected(attr_try_parse_scales, "src:bad"));
    CHECK(rejected(attr_try_parse_scales, "src"));
    CHECK(rejected(attr_try_parse_scales, "src:common:1+"));
}

static void test_zero_points(void) {
    bench_attr_t a;
    CHECK(accepted(attr_try_parse_zero_points, "src:common:2+dst:per_dim_1:-1*",
                   &a) &&
          a.zero_points[QARG_SRC].value == 2 &&
          a.zero_points[QARG_DST].policy == POLICY_PER_DIM_1 &&
          a.zero_points[QARG_DST].value == -1 &&
          a.zero_points[QARG_DST].runtime && !a.zero_points[QARG_WEI].set);
    /* v2.x: ARG:ZP[*] joined by '_', common policy. */
    CHECK(accepted(attr_try_parse_zero_points, "src:1*_dst:2", &a) &&
          a.zero_points[QARG_SRC].runtime &&
          a.zero_points[QARG_SRC].policy == POLICY_COMMON &&
          a.zero_points[QARG_DST].value == 2);
    CHECK(rejected(attr_try_parse_zero_points, "src:common:x"));
    CHECK(rejected(attr_try_parse_zero_points, "src:common:1.5"));
    CHECK(rejected(attr_try_parse_zero_points, "src:common"));
    /* Per-channel policies may leave the value out (oneDNN's batch files
     * do). */
    CHECK(accepted(attr_try_parse_zero_points, "src:per_dim_1+dst:per_dim_1",
                   &a) &&
          a.zero_points[QARG_SRC].policy == POLICY_PER_DIM_1 &&
          a.zero_points[QARG_DST].set && a.zero_points[QARG_DST].value == 1);
    CHECK(rejected(attr_try_parse_zero_points, "wei:per_oc:99999999999"));
}

static void test_post_ops(void) {
    bench_attr_t a;
    CHECK(accepted(attr_try_parse_post_ops, "", &a) && a.n_post_ops == 0);
    CHECK(accepted(attr_try_parse_post_ops, "sum", &a) && a.n_post_ops == 1 &&
          a.post_ops[0].kind == tsr_post_op_sum && a.post_ops[0].scale == 1);
    CHECK(accepted(attr_try_parse_post_ops, "sum:0.5:1:s8", &a) &&
          a.post_ops[0].scale == 0.5f && a.post_ops[0].zero_point == 1 &&
          a.post_ops[0].dt == tsr_s8);
    CHECK(accepted(attr_try_parse_post_ops, "relu:0.5", &a) &&
          a.post_ops[0].kind == tsr_post_op_eltwise &&
          a.post_ops[0].alg == tsr_eltwise_relu && a.post_ops[0].alpha == 0.5f);
    CHECK(accepted(attr_try_parse_post_ops, "linear:2:1:0.5", &a) &&
          a.post_ops[0].alpha == 2 && a.post_ops[0].beta == 1 &&
          a.post_ops[0].scale == 0.5f);
    CHECK(accepted(attr_try_parse_post_ops, "add:f32", &a) &&
          a.post_ops[0].kind == tsr_post_op_binary &&
          a.post_ops[0].alg == tsr_binary_add && a.post_ops[0].dt == tsr_f32 &&
          a.post_ops[0].policy == POLICY_COMMON &&
          !strcmp(a.post_ops[0].tag, "any"));
    CHECK(accepted(attr_try_parse_post_ops, "mul:s8:per_oc", &a) &&
          a.post_ops[0].policy == POLICY_PER_OC);
    CHECK(accepted(attr_try_parse_post_ops, "add:f32:per_tensor:acdb", &a) &&
          a.post_ops[0].policy == POLICY_PER_TENSOR &&
          !strcmp(a.post_ops[0].tag, "acdb"));
    CHECK(accepted(attr_try_parse_post_ops, "max:f32:2", &a) &&
          a.post_ops[0].policy == POLICY_PER_DIM_1);
    CHECK(accepted(attr_try_parse_post_ops,
                   "sum:2+relu+add:f32:per_oc+clip:-1:1", &a) &&
          a.n_post_ops == 4 && a.post_ops[3].alg == tsr_eltwise_clip &&
          a.post_ops[3].alpha == -1 && a.post_ops[3].beta == 1);
    /* v2.0: ';' separated, quoted, trailing ';'. */
    CHECK(accepted(attr_try_parse_post_ops, "'sum:0.5;relu;'", &a) &&
          a.n_post_ops == 2 && a.post_ops[0].scale == 0.5f &&
          a.post_ops[1].alg == tsr_eltwise_relu);
    /* An exponent's '+' does not split the chain. */
    CHECK(accepted(attr_try_parse_post_ops, "linear:1e+2:0+relu", &a) &&
          a.n_post_ops == 2 && a.post_ops[0].alpha == 100);
    CHECK(accepted(attr_try_parse_post_ops, "brelu:6+srelu+gelu", &a) &&
          a.post_ops[0].alg == tsr_eltwise_bounded_relu &&
          a.post_ops[1].alg == tsr_eltwise_soft_relu &&
          a.post_ops[2].alg == tsr_eltwise_gelu_tanh);
    CHECK(attr_unsupported(&a) == NULL);
    /* prelu[:POLICY]: common by default. */
    CHECK(accepted(attr_try_parse_post_ops, "prelu", &a) && a.n_post_ops == 1 &&
          a.post_ops[0].kind == tsr_post_op_prelu &&
          a.post_ops[0].policy == POLICY_COMMON);
    static const struct {
        const char *text;
        bench_policy_t policy;
    } prelu_policies[] = {
            {"prelu:common", POLICY_COMMON},
            {"prelu:per_oc", POLICY_PER_OC},
            {"prelu:per_dim_0", POLICY_PER_DIM_0},
            {"prelu:per_dim_1", POLICY_PER_DIM_1},
            {"prelu:per_dim_01", POLICY_PER_DIM_01},
            {"prelu:per_dim_2", POLICY_PER_DIM_2},
            {"prelu:per_dim_3", POLICY_PER_DIM_3},
            {"prelu:per_dim_23", POLICY_PER_DIM_23},
            {"prelu:per_dim_023", POLICY_PER_DIM_023},
            {"prelu:per_dim_03", POLICY_PER_DIM_03},
            {"prelu:per_tensor", POLICY_PER_TENSOR},
    };
    for (size_t i = 0; i < sizeof(prelu_policies) / sizeof(prelu_policies[0]);
         i++)
        CHECK(accepted(attr_try_parse_post_ops, prelu_policies[i].text, &a) &&
              a.post_ops[0].kind == tsr_post_op_prelu &&
              a.post_ops[0].policy == prelu_policies[i].policy);
    CHECK(accepted(attr_try_parse_post_ops, "sum+prelu:per_oc+relu", &a) &&
          a.n_post_ops == 3 && a.post_ops[1].kind == tsr_post_op_prelu &&
          a.post_ops[1].policy == POLICY_PER_OC &&
          attr_unsupported(&a) == NULL);
    char repro[256] = "";
    attr_to_repro(&a, 0, repro, sizeof(repro));
    CHECK(!strcmp(repro, " --attr-post-ops=sum+prelu:per_oc+relu"));
    repro[0] = '\0';
    CHECK(parse(attr_try_parse_post_ops, "prelu:common", &a) == 0);
    attr_to_repro(&a, 0, repro, sizeof(repro));
    CHECK(!strcmp(repro, " --attr-post-ops=prelu"));

    /* oneDNN post-ops Tessera lacks: parsed, kept, reported. */
    CHECK(accepted(attr_try_parse_post_ops, "relu+dw_k3s1p1:s8+relu_dst", &a) &&
          a.n_post_ops == 3 && a.post_ops[1].kind == tsr_post_op_undef &&
          !strcmp(a.post_ops[1].text, "dw_k3s1p1:s8") &&
          a.post_ops[2].kind == tsr_post_op_undef);
    const char *why = attr_unsupported(&a);
    CHECK(why != NULL && strstr(why, "dw_k3s1p1") != NULL);

    /* v2.0: sum:SCALE:DATA_TYPE. */
    CHECK(accepted(attr_try_parse_post_ops, "sum:0.5:s8", &a) &&
          a.post_ops[0].scale == 0.5f && a.post_ops[0].zero_point == 0 &&
          a.post_ops[0].dt == tsr_s8);

    CHECK(rejected(attr_try_parse_post_ops, "relux"));
    CHECK(rejected(attr_try_parse_post_ops, "sum:a"));
    CHECK(rejected(attr_try_parse_post_ops, "sum:1:0:undef"));
    CHECK(rejected(attr_try_parse_post_ops, "add"));
    CHECK(rejected(attr_try_parse_post_ops, "add:f99"));
    CHECK(rejected(attr_try_parse_post_ops, "add:f32:per_weird"));
    CHECK(rejected(attr_try_parse_post_ops, "add:f32:common:a-b"));
    CHECK(rejected(attr_try_parse_post_ops, "relu:1:2:3:4"));
    CHECK(rejected(attr_try_parse_post_ops, "prelu:per_weird"));
    CHECK(rejected(attr_try_parse_post_ops, "prelu:per_oc:f32"));
    CHECK(rejected(attr_try_parse_post_ops, "relu++sum"));
    CHECK(rejected(attr_try_parse_post_ops,
                   "relu+relu+relu+relu+relu+relu+relu+relu+relu"));
    /* A rejected value leaves the attributes as they were. */
    CHECK(parse(attr_try_parse_post_ops, "sum", &a) == 0);
    CHECK(attr_try_parse_post_ops(&a, "bogus", err) == -1 &&
          a.n_post_ops == 1 && a.post_ops[0].kind == tsr_post_op_sum);
}

static void test_lists(void) {
    bench_attr_lists_t lists = {0};
    CHECK(attr_lists_try_parse(&lists, "--attr-oscale=common:1,per_oc:2",
                               err) == 1);
    CHECK(attr_lists_try_parse(&lists, "--attr-post-ops=,relu,sum", err) == 1);
    CHECK(attr_lists_try_parse(&lists, "--dir=FWD_B", err) == 0);
    CHECK(attr_lists_count(&lists) == 6);
    /* The last option varies fastest. */
    bench_attr_t a;
    attr_lists_get(&lists, 0, &a);
    CHECK(a.oscale.policy == POLICY_COMMON && a.n_post_ops == 0);
    attr_lists_get(&lists, 1, &a);
    CHECK(a.oscale.policy == POLICY_COMMON && a.n_post_ops == 1 &&
          a.post_ops[0].kind == tsr_post_op_eltwise);
    attr_lists_get(&lists, 5, &a);
    CHECK(a.oscale.policy == POLICY_PER_OC && a.oscale.scale == 2 &&
          a.post_ops[0].kind == tsr_post_op_sum);

    /* A bad item rejects the whole option and keeps the old list. */
    CHECK(attr_lists_try_parse(&lists, "--attr-post-ops=relu,bogus", err) ==
                  -1 &&
          strstr(err, "bogus") != NULL);
    CHECK(attr_lists_count(&lists) == 6);
    CHECK(attr_lists_try_parse(&lists, "--attr-round-mode=sideways", err) ==
          -1);
    /* v1.x/v2.0: --attr="oscale=...;post_ops='...'" replaces them all. */
    CHECK(attr_lists_try_parse(
                  &lists,
                  "--attr=oscale=per_oc:2.25;post_ops='sum:1.5;relu:0:0:2.6'",
                  err) == 1);
    CHECK(attr_lists_count(&lists) == 1);
    attr_lists_get(&lists, 0, &a);
    CHECK(a.oscale.set && a.oscale.policy == POLICY_PER_OC &&
          a.oscale.scale == 2.25f && a.n_post_ops == 2 &&
          a.post_ops[0].scale == 1.5f && a.post_ops[1].scale == 2.6f);
    CHECK(attr_lists_try_parse(&lists, "--attr=\"post_ops='relu'\"", err) == 1);
    attr_lists_get(&lists, 0, &a);
    CHECK(!a.oscale.set && a.n_post_ops == 1);
    CHECK(attr_lists_try_parse(&lists, "--attr=oscale=common:2;colour=red",
                               err) == -1 &&
          strstr(err, "colour=red") != NULL);
    CHECK(attr_lists_try_parse(&lists, "--attr=post_ops='bogus'", err) == -1);
    attr_lists_get(&lists, 0, &a); /* unchanged by the rejected ones */
    CHECK(a.n_post_ops == 1 && a.post_ops[0].alg == tsr_eltwise_relu);

    attr_lists_reset(&lists);
    CHECK(attr_lists_count(&lists) == 1);
    attr_lists_get(&lists, 0, &a);
    bench_attr_t defaults;
    bench_attr_init(&defaults);
    CHECK(attr_equal(&a, &defaults));
}

static int near(float a, double b) {
    return fabs(a - b) <= 1e-6 * (1 + fabs(b));
}

static void test_reference_math(void) {
    CHECK(ref_eltwise(tsr_eltwise_relu, -2, 0.5f, 0) == -1);
    CHECK(ref_eltwise(tsr_eltwise_relu, 3, 0.5f, 0) == 3);
    CHECK(ref_eltwise(tsr_eltwise_linear, 3, 2, 1) == 7);
    CHECK(ref_eltwise(tsr_eltwise_bounded_relu, 9, 6, 0) == 6);
    CHECK(ref_eltwise(tsr_eltwise_bounded_relu, -1, 6, 0) == 0);
    CHECK(ref_eltwise(tsr_eltwise_clip, 5, -1, 2) == 2);
    CHECK(ref_eltwise(tsr_eltwise_clip_v2, -5, -1, 2) == -1);
    CHECK(ref_eltwise(tsr_eltwise_logistic, 0, 0, 0) == 0.5f);
    CHECK(near(ref_eltwise(tsr_eltwise_logistic, -100, 0, 0), 3.72e-44));
    CHECK(ref_eltwise(tsr_eltwise_gelu_erf, 0, 0, 0) == 0);
    CHECK(near(ref_eltwise(tsr_eltwise_gelu_erf, 1, 0, 0), 0.8413447460685429));
    CHECK(near(ref_eltwise(tsr_eltwise_gelu_tanh, 1, 0, 0),
               0.8411919906082768));
    CHECK(ref_eltwise(tsr_eltwise_round, 2.5f, 0, 0) == 2);
    CHECK(ref_eltwise(tsr_eltwise_round, 3.5f, 0, 0) == 4);
    CHECK(near(ref_eltwise(tsr_eltwise_soft_relu, 0, 0, 0), log(2.0)));
    CHECK(ref_eltwise(tsr_eltwise_soft_relu, 100, 0, 0) == 100);
    CHECK(near(ref_eltwise(tsr_eltwise_logsigmoid, 0, 0, 0), -log(2.0)));
    CHECK(near(ref_eltwise(tsr_eltwise_elu, -1, 2, 0), 2 * (exp(-1.0) - 1)));
    CHECK(near(ref_eltwise(tsr_eltwise_swish, 1, 1, 0), 1 / (1 + exp(-1.0))));
    CHECK(ref_eltwise(tsr_eltwise_pow, 3, 2, 2) == 18);
    CHECK(ref_eltwise(tsr_eltwise_hardswish, 1, 0.5f, 0.5f) == 1);
    CHECK(ref_eltwise(tsr_eltwise_hardsigmoid, 4, 0.5f, 0.5f) == 1);
    CHECK(ref_eltwise(tsr_eltwise_square, -3, 0, 0) == 9);
    CHECK(isnan(ref_eltwise(tsr_eltwise_sqrt, -1, 0, 0)));

    CHECK(ref_binary(tsr_binary_sub, 5, 7) == -2);
    CHECK(ref_binary(tsr_binary_div, 1, 4) == 0.25f);
    CHECK(ref_binary(tsr_binary_max, -1, -3) == -1);
    CHECK(ref_binary(tsr_binary_ge, 2, 2) == 1);
    CHECK(ref_binary(tsr_binary_gt, 2, 2) == 0);
    CHECK(ref_binary(tsr_binary_ne, 1, 2) == 1);
}

static void test_post_op_chain(void) {
    bench_attr_t a;
    CHECK(parse(attr_try_parse_post_ops, "sum:2:1+relu:0.5+add:f32:per_oc",
                &a) == 0);
    const int64_t dims[4] = {2, 3, 4, 5};
    int64_t src1_dims[4];
    attr_binary_src1_dims(POLICY_PER_OC, 4, 0, dims, src1_dims);
    CHECK(src1_dims[0] == 1 && src1_dims[1] == 3 && src1_dims[2] == 1 &&
          src1_dims[3] == 1);
    /* A matmul's channels are its last dim. */
    attr_binary_src1_dims(POLICY_PER_OC, 4, 1, dims, src1_dims);
    CHECK(src1_dims[0] == 1 && src1_dims[1] == 1 && src1_dims[2] == 1 &&
          src1_dims[3] == 5);
    float per_oc[3] = {10, 20, 30};
    float *bin[3] = {NULL, NULL, per_oc};
    const int64_t pos[4] = {1, 2, 3, 4};
    /* v = 1 + 2 * (3 - 1) = 5; relu keeps 5; + per_oc[2] = 35. */
    CHECK(ref_post_ops(&a, 1, 3, 4, dims, pos, bin, 0) == 35);
    /* v = -9 + 2 * (3 - 1) = -5; relu: -2.5; + 30 = 27.5. */
    CHECK(ref_post_ops(&a, -9, 3, 4, dims, pos, bin, 0) == 27.5f);

    /* per_tensor: src1 is dense over the dst. */
    CHECK(parse(attr_try_parse_post_ops, "mul:f32:per_tensor", &a) == 0);
    float full[2 * 3 * 4 * 5];
    for (int i = 0; i < 120; i++)
        full[i] = (float)i;
    float *bin2[1] = {full};
    const int64_t idx = ((1 * 3 + 2) * 4 + 3) * 5 + 4;
    CHECK(ref_post_ops(&a, 2, 0, 4, dims, pos, bin2, 0) == 2.f * idx);

    /* prelu: positive values pass, negative ones take their weight. */
    CHECK(parse(attr_try_parse_post_ops, "prelu:per_oc", &a) == 0);
    float slopes[3] = {0.25f, -2, 8};
    float *wei[1] = {slopes};
    CHECK(ref_post_ops(&a, 3, 0, 4, dims, pos, wei, 0) == 3);
    CHECK(ref_post_ops(&a, -3, 0, 4, dims, pos, wei, 0) == -24);
    const int64_t pos1[4] = {0, 1, 0, 0};
    CHECK(ref_post_ops(&a, -3, 0, 4, dims, pos1, wei, 0) == 6);
    /* per_dim_23: weights over H and W, row-major. */
    CHECK(parse(attr_try_parse_post_ops, "prelu:per_dim_23", &a) == 0);
    float hw[4 * 5];
    for (int i = 0; i < 20; i++)
        hw[i] = (float)(i + 1);
    float *wei_hw[1] = {hw};
    CHECK(ref_post_ops(&a, -1, 0, 4, dims, pos, wei_hw, 0) == -(3 * 5 + 4 + 1));
}

static void test_masks_and_values(void) {
    const int64_t dims[4] = {2, 6, 4, 4};
    CHECK(attr_policy_mask(POLICY_COMMON, QARG_DST, 4, 1, 0) == 0);
    CHECK(attr_policy_mask(POLICY_PER_OC, QARG_DST, 4, 1, 0) == 2);
    CHECK(attr_policy_mask(POLICY_PER_OC, QARG_WEI, 5, 3, 0) == 3);
    CHECK(attr_policy_mask(POLICY_PER_TENSOR, QARG_DST, 4, 1, 0) == 15);
    CHECK(attr_policy_mask(POLICY_PER_DIM_2, QARG_DST, 4, 1, 0) == 4);
    CHECK(attr_policy_mask(POLICY_PER_DIM_3, QARG_DST, 4, 1, 0) == 8);
    CHECK(attr_policy_mask(POLICY_PER_DIM_23, QARG_DST, 4, 1, 0) == 12);
    CHECK(attr_policy_mask(POLICY_PER_DIM_023, QARG_DST, 4, 1, 0) == 13);
    CHECK(attr_policy_mask(POLICY_PER_DIM_03, QARG_DST, 4, 1, 0) == 9);
    /* Matmul: per_oc of data is the last dim, of weights the given mask. */
    CHECK(attr_policy_mask(POLICY_PER_OC, QARG_DST, 3, 4, 1) == 4);
    CHECK(attr_policy_mask(POLICY_PER_OC, QARG_SRC, 2, 4, 1) == 2);
    CHECK(attr_policy_mask(POLICY_PER_OC, QARG_WEI, 3, 4, 1) == 4);
    CHECK(attr_mask_count(2, 4, dims) == 6);
    CHECK(attr_mask_count(3, 4, dims) == 12);
    CHECK(attr_mask_count(0, 4, dims) == 1);
    CHECK(attr_qarg2tsr(QARG_WEI) == TSR_ARG_WEIGHTS);

    bench_scale_t s = {.set = 1, .policy = POLICY_PER_OC, .scale = 2};
    CHECK(attr_scale_value(&s, 0) == 0.5f && attr_scale_value(&s, 2) == 2 &&
          attr_scale_value(&s, 4) == 8 && attr_scale_value(&s, 5) == 0.5f);
    s.policy = POLICY_COMMON;
    CHECK(attr_scale_value(&s, 3) == 2);
    bench_zp_t z = {.set = 1, .policy = POLICY_PER_DIM_1, .value = 5};
    CHECK(attr_zp_value(&z, 0) == 4 && attr_zp_value(&z, 1) == 5 &&
          attr_zp_value(&z, 2) == 6 && attr_zp_value(&z, 3) == 4);

    /* Prelu weights: 2^k / 8 for k 0..6, every tenth negated. */
    int negative = 0;
    for (int64_t i = 0; i < 70; i++) {
        const float w = attr_prelu_weight_value(i);
        int e;
        CHECK(frexpf(fabsf(w), &e) == 0.5f && e >= -2 && e <= 4);
        negative += w < 0;
    }
    CHECK(negative == 7 && attr_prelu_weight_value(0) == 0.125f &&
          attr_prelu_weight_value(6) == 8);
    tsr_memory_desc_t md;
    CHECK(attr_prelu_weights_md(2, 4, dims, &md) == tsr_success &&
          md.ndims == 4 && md.dims[0] == 1 && md.dims[1] == 6 &&
          md.dims[2] == 1 && md.dims[3] == 1 && md.data_type == tsr_f32);
}

static void test_library_attr(void) {
    bench_attr_t a;
    const int64_t dims[4] = {2, 8, 4, 4};
    tsr_primitive_attr_t pa = NULL;
    CHECK(parse(attr_try_parse_post_ops, "sum:0.5+relu+add:f32:per_oc", &a) ==
          0);
    CHECK(attr_try_parse_scratchpad(&a, "user", err) == 0);
    CHECK(attr_try_parse_oscale(&a, "per_oc:2", err) == 0);
    CHECK(attr_create_tsr(&a, 4, dims, 1, 0, NULL, &pa) == tsr_success);
    if (pa) {
        const_tsr_post_ops_t ops = NULL;
        if (CHECK(tsr_primitive_attr_get_post_ops(pa, &ops) == tsr_success)) {
            CHECK(tsr_post_ops_len(ops) == 3);
            CHECK(tsr_post_ops_get_kind(ops, 0) == tsr_post_op_sum);
            CHECK(tsr_post_ops_get_kind(ops, 2) == tsr_post_op_binary);
        }
        tsr_scratchpad_mode_t mode;
        CHECK(tsr_primitive_attr_get_scratchpad_mode(pa, &mode) ==
                      tsr_success &&
              mode == tsr_scratchpad_mode_user);
        tsr_primitive_attr_destroy(pa);
    }

    /* prelu: the library gets the policy's mask over dst dims. */
    pa = NULL;
    CHECK(parse(attr_try_parse_post_ops, "relu+prelu:per_dim_01", &a) == 0);
    CHECK(attr_create_tsr(&a, 4, dims, 1, 0, NULL, &pa) == tsr_success);
    if (pa) {
        const_tsr_post_ops_t ops = NULL;
        int mask = -1;
        CHECK(tsr_primitive_attr_get_post_ops(pa, &ops) == tsr_success &&
              tsr_post_ops_get_kind(ops, 1) == tsr_post_op_prelu &&
              tsr_post_ops_get_params_prelu(ops, 1, &mask) == tsr_success &&
              mask == 3);
        tsr_primitive_attr_destroy(pa);
    }

    /* An unsupported post-op: the library attr is not built. */
    pa = NULL;
    CHECK(parse(attr_try_parse_post_ops, "relu+dw_k3s1p1", &a) == 0);
    CHECK(attr_create_tsr(&a, 4, dims, 1, 0, NULL, &pa) == tsr_unimplemented &&
          pa == NULL);
}

int main(void) {
    test_simple_options();
    test_scales();
    test_zero_points();
    test_post_ops();
    test_lists();
    test_reference_math();
    test_post_op_chain();
    test_masks_and_values();
    test_library_attr();
    return check_failures() != 0;
}
