/* Shuffle: forward dst[(a % G) * (A / G) + a / G] = src[a] along the axis,
 * backward the inverse from diff_dst to diff_src. Every implementation
 * that accepts a problem is run (tsr_primitive_desc_next_impl) and
 * compared, point by point, with this test's own permutation over plain,
 * channels-last and blocked layouts (C = 12 in 16-blocks: padding that
 * must stay zero), every data type, axes 0 to 3, every group size that
 * divides the axis, both directions (backward with and without the
 * forward pd as hint), a dst left to the primitive, and the refusals of
 * bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_test_util.h"

typedef struct {
    int forward, axis;
    tsr_dim_t dims[4], group;
    tsr_data_type_t dt;
    const char *in_tag, *out_tag; /* out_tag NULL: no descriptor */
} shuffle_case_t;

typedef struct {
    const shuffle_case_t *c;
    tsr_memory_t in, out;
    int fast_runs;
} shuffle_run_t;

/* The input index whose value output index b holds. */
static tsr_dim_t source_index(const shuffle_case_t *c, tsr_dim_t b) {
    const tsr_dim_t A = c->dims[c->axis], G = c->group;
    if (c->forward) /* b = (a % G) * (A / G) + a / G */
        return (b % (A / G)) * G + b / (A / G);
    return (b % G) * (A / G) + b / G;
}

/* Runs of the AVX-512 permute kernel. */
static int permute_runs;

static void run_one_impl(tsr_primitive_desc_t pd, void *ctx) {
    shuffle_run_t *r = ctx;
    const shuffle_case_t *c = r->c;
    const char *impl = tsr_primitive_desc_impl_name(pd);
    if (strcmp(impl, "ref:any") != 0)
        r->fast_runs++;
    if (strcmp(impl, "simple:permute") == 0)
        permute_runs++;
    mem_poison(r->out, 0x5a);
    tsr_primitive_t prim = NULL;
    if (!CHECK(tsr_primitive_create(&prim, pd) == tsr_success))
        return;
    const tsr_exec_arg_t args[2] = {
            {c->forward ? TSR_ARG_SRC : TSR_ARG_DIFF_DST, r->in},
            {c->forward ? TSR_ARG_DST : TSR_ARG_DIFF_SRC, r->out}};
    CHECK(tsr_primitive_execute(prim, stream, 2, args) == tsr_success);
    tsr_primitive_destroy(prim);

    const tsr_memory_desc_t *md = mem_md(r->out);
    const tsr_dim_t nelems = tsr_memory_desc_nelems(md);
    int bad = 0;
    for (tsr_dim_t l = 0; l < nelems && bad < 3; l++) {
        tsr_dim_t pos[TSR_MAX_NDIMS];
        pos_of(md, l, pos);
        const float got = mem_get(r->out, pos);
        pos[c->axis] = source_index(c, pos[c->axis]);
        tsr_dim_t src_l = 0;
        for (int d = 0; d < 4; d++)
            src_l = src_l * c->dims[d] + pos[d];
        const float expected = round_to_dt(c->dt, test_value(c->dt, src_l, 0));
        if (!CHECK(got == expected)) {
            fprintf(stderr,
                    "  %s %s axis %d group %lld point %lld: got %g, "
                    "expected %g\n",
                    impl, c->forward ? "fwd" : "bwd", c->axis,
                    (long long)c->group, (long long)l, got, expected);
            bad++;
        }
    }
    if (!CHECK(mem_padding_is_zero(r->out)))
        fprintf(stderr, "  %s: output padding not zero\n", impl);
}

/* The forward pd of the case's shape (the backward hint). */
static tsr_primitive_desc_t forward_pd(const shuffle_case_t *c,
                                       const tsr_memory_desc_t *src) {
    tsr_shuffle_desc_t desc;
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_shuffle_forward_desc_init(&desc, tsr_forward_training, src, NULL,
                                        c->axis, c->group) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    return pd;
}

static int run_case(const shuffle_case_t *c, int with_hint) {
    const tsr_memory_desc_t in_md = md_of(4, c->dims, c->dt, c->in_tag);
    tsr_memory_desc_t out_md;
    if (c->out_tag)
        out_md = md_of(4, c->dims, c->dt, c->out_tag);
    const tsr_memory_desc_t *out_arg = c->out_tag ? &out_md : NULL;
    tsr_shuffle_desc_t desc;
    tsr_status_t st =
            c->forward ? tsr_shuffle_forward_desc_init(
                                 &desc, tsr_forward_inference, &in_md, out_arg,
                                 c->axis, c->group)
                       : tsr_shuffle_backward_desc_init(&desc, out_arg, &in_md,
                                                        c->axis, c->group);
    if (!CHECK(st == tsr_success))
        return 0;
    tsr_primitive_desc_t hint = with_hint ? forward_pd(c, &in_md) : NULL;
    tsr_primitive_desc_t pd = NULL;
    st = tsr_primitive_desc_create_with_hint(&pd, &desc, NULL, engine, hint);
    tsr_primitive_desc_destroy(hint);
    if (!CHECK(st == tsr_success))
        return 0;
    const int out_arg_id = c->forward ? TSR_ARG_DST : TSR_ARG_DIFF_SRC;
    const tsr_memory_desc_t *pd_out =
            tsr_primitive_desc_query_arg_md(pd, out_arg_id);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, out_arg_id) == tsr_arg_output);
    CHECK(tsr_primitive_desc_query_arg_usage(
                  pd, c->forward ? TSR_ARG_SRC : TSR_ARG_DIFF_DST) ==
          tsr_arg_input);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, c->forward ? TSR_ARG_DIFF_SRC
                                                            : TSR_ARG_SRC) ==
          tsr_arg_unused);
    if (!c->out_tag || strcmp(c->out_tag, "any") == 0)
        CHECK(tsr_memory_desc_equal(pd_out, &in_md));
    shuffle_run_t r = {c, mem_of(&in_md), mem_of(pd_out), 0};
    mem_fill(r.in, 0);
    for_each_impl(pd, run_one_impl, &r);
    tsr_memory_destroy(r.in);
    tsr_memory_destroy(r.out);
    tsr_primitive_desc_destroy(pd);
    return r.fast_runs;
}

static const tsr_dim_t shape[4] = {2, 12, 6, 4};

static shuffle_case_t make_case(int forward, int axis, tsr_dim_t group,
                                tsr_data_type_t dt, const char *in_tag,
                                const char *out_tag) {
    shuffle_case_t c = {forward, axis, {0}, group, dt, in_tag, out_tag};
    memcpy(c.dims, shape, sizeof(c.dims));
    return c;
}

/* Every group size of every axis, both directions, each layout; the
 * row permutation or the gather takes every one. */
static void test_groups_and_layouts(void) {
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b"};
    for (int forward = 0; forward < 2; forward++)
        for (int axis = 0; axis < 4; axis++)
            for (size_t t = 0; t < 3; t++) {
                const tsr_dim_t A = shape[axis];
                for (tsr_dim_t g = 1; g <= A; g++) {
                    if (A % g != 0)
                        continue;
                    shuffle_case_t c = make_case(forward, axis, g, tsr_f32,
                                                 tags[t], tags[t]);
                    const int fast = run_case(&c, !forward && g == 2);
                    CHECK(fast > 0);
                }
            }
}

/* Every data type; dst left to the primitive; mixed layouts. */
static void test_data_types(void) {
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b"};
    for (int d = 0; d < N_DATA_TYPES; d++)
        for (size_t t = 0; t < 3; t++)
            for (int forward = 0; forward < 2; forward++) {
                shuffle_case_t c = make_case(forward, t == 2 ? 2 : 1, 3,
                                             all_data_types[d], tags[t], NULL);
                run_case(&c, 0);
                c.out_tag = "any";
                run_case(&c, 0);
                c.out_tag = tags[(t + 1) % 3];
                run_case(&c, 0);
            }
    /* Large enough for several threads, channels-first and -last. */
    shuffle_case_t big = make_case(1, 1, 4, tsr_f32, "abcd", "abcd");
    big.dims[0] = 3;
    big.dims[1] = 48;
    big.dims[2] = 33;
    big.dims[3] = 35;
    CHECK(run_case(&big, 0) > 0);
    big.in_tag = big.out_tag = "acdb";
    CHECK(run_case(&big, 0) > 0);
}

/* The gather on blocked axes (8 and 16, padded lanes) and channels-last
 * data: every element size, many channels and points so that the work
 * splits into tiles and several threads. */
static void test_gather_layouts(void) {
    static const char *const tags[] = {"aBcd16b", "aBcd8b", "acdb"};
    static const tsr_data_type_t dts[] = {tsr_f32, tsr_s8, tsr_u8, tsr_bf16};
    static const tsr_dim_t channels[][2] = {
            {240, 3}, {116, 2}, {60, 5}, {24, 8}};
    for (size_t t = 0; t < 3; t++)
        for (size_t d = 0; d < 4; d++)
            for (size_t k = 0; k < 4; k++)
                for (int forward = 0; forward < 2; forward++) {
                    shuffle_case_t c = make_case(forward, 1, channels[k][1],
                                                 dts[d], tags[t], tags[t]);
                    c.dims[1] = channels[k][0];
                    c.dims[2] = 13;
                    c.dims[3] = 11;
                    CHECK(run_case(&c, 0) > 0);
                }
    /* The permute kernel takes every one of them where it may run. */
    CHECK(tsr_get_effective_cpu_isa() < tsr_cpu_isa_avx512_core ||
          permute_runs >= 3 * 4 * 4 * 2);
}

static void expect_refused(int forward, const tsr_memory_desc_t *in,
                           const tsr_memory_desc_t *out, int axis,
                           tsr_dim_t group) {
    tsr_shuffle_desc_t desc;
    memset(&desc, 0x77, sizeof(desc));
    const tsr_status_t st =
            forward ? tsr_shuffle_forward_desc_init(&desc, tsr_forward_training,
                                                    in, out, axis, group)
                    : tsr_shuffle_backward_desc_init(&desc, out, in, axis,
                                                     group);
    CHECK(st == tsr_invalid_arguments);
    CHECK(((unsigned char *)&desc)[0] == 0x77);
}

static void test_bad_arguments(void) {
    const tsr_dim_t dims[4] = {2, 12, 6, 4}, other[4] = {2, 12, 6, 5};
    const tsr_memory_desc_t src = md_of(4, dims, tsr_f32, "abcd");
    const tsr_memory_desc_t s8 = md_of(4, dims, tsr_s8, "abcd");
    const tsr_memory_desc_t wrong = md_of(4, other, tsr_f32, "abcd");
    const tsr_memory_desc_t any = md_of(4, dims, tsr_f32, "any");
    for (int forward = 0; forward < 2; forward++) {
        expect_refused(forward, &src, NULL, 1, 5); /* 12 % 5 */
        expect_refused(forward, &src, NULL, 1, 0);
        expect_refused(forward, &src, NULL, 1, -3);
        expect_refused(forward, &src, NULL, 4, 1);
        expect_refused(forward, &src, NULL, -1, 1);
        expect_refused(forward, &src, &wrong, 1, 3);
        expect_refused(forward, &src, &s8, 1, 3);
        expect_refused(forward, &any, &src, 1, 3);
        expect_refused(forward, NULL, &src, 1, 3);
    }
    tsr_shuffle_desc_t desc;
    CHECK(tsr_shuffle_forward_desc_init(&desc, tsr_backward_data, &src, NULL, 1,
                                        3) == tsr_invalid_arguments);
    CHECK(tsr_shuffle_forward_desc_init(NULL, tsr_forward_training, &src, NULL,
                                        1, 3) == tsr_invalid_arguments);
    /* A descriptor changed after init is checked again at creation. */
    CHECK(tsr_shuffle_forward_desc_init(&desc, tsr_forward_training, &src, NULL,
                                        1, 3) == tsr_success);
    desc.group_size = 5;
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_invalid_arguments);
    CHECK(pd == NULL);
}

int main(void) {
    tensor_test_begin();
    test_groups_and_layouts();
    test_data_types();
    test_gather_layouts();
    test_bad_arguments();
    tensor_test_end();
    return check_failures() != 0;
}
