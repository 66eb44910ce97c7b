/* Sum: dst = sum over i of scales[i] * src_i. Every implementation that
 * accepts a problem is run (tsr_primitive_desc_next_impl) and compared,
 * point by point, with this test's own formula over plain, channels-last
 * and blocked layouts (C = 17: padding that must stay zero), mixed per
 * source, every data type of sources and dst with rounding and
 * saturation, 1 to 5 sources, in place, the layout chosen for a dst left
 * to the primitive, and the refusals of bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_test_util.h"

enum { MAX_SRCS = 5 };

typedef struct {
    int n, ndims;
    tsr_dim_t dims[4];
    tsr_data_type_t sdt[MAX_SRCS];
    const char *stag[MAX_SRCS];
    tsr_data_type_t ddt;
    const char *dtag; /* NULL: no dst descriptor */
    float scales[MAX_SRCS];
    int in_place;
} sum_case_t;

typedef struct {
    const sum_case_t *c;
    tsr_memory_t src[MAX_SRCS], dst;
    int fast_runs; /* runs of implementations other than ref:any */
} sum_run_t;

static void run_one_impl(tsr_primitive_desc_t pd, void *ctx) {
    sum_run_t *r = ctx;
    const sum_case_t *c = r->c;
    const char *impl = tsr_primitive_desc_impl_name(pd);
    if (strcmp(impl, "ref:any") != 0)
        r->fast_runs++;
    for (int i = 0; i < c->n; i++)
        mem_fill(r->src[i], i);
    if (!c->in_place)
        mem_poison(r->dst, 0x5a);
    tsr_primitive_t prim = NULL;
    if (!CHECK(tsr_primitive_create(&prim, pd) == tsr_success))
        return;
    tsr_exec_arg_t args[MAX_SRCS + 1];
    for (int i = 0; i < c->n; i++)
        args[i] = (tsr_exec_arg_t){TSR_ARG_MULTIPLE_SRC + i, r->src[i]};
    args[c->n] = (tsr_exec_arg_t){TSR_ARG_DST, r->dst};
    CHECK(tsr_primitive_execute(prim, stream, c->n + 1, args) == tsr_success);
    tsr_primitive_destroy(prim);

    const tsr_memory_desc_t *dst_md = mem_md(r->dst);
    const tsr_dim_t nelems = tsr_memory_desc_nelems(dst_md);
    int bad = 0;
    for (tsr_dim_t l = 0; l < nelems && bad < 3; l++) {
        double acc = 0;
        for (int i = 0; i < c->n; i++)
            acc += (double)c->scales[i] *
                   round_to_dt(c->sdt[i], test_value(c->sdt[i], l, i));
        const float expected = round_to_dt(dst_md->data_type, acc);
        tsr_dim_t pos[TSR_MAX_NDIMS];
        pos_of(dst_md, l, pos);
        const float got = mem_get(r->dst, pos);
        if (!CHECK(got == expected)) {
            fprintf(stderr, "  %s n=%d point %lld: got %g, expected %g\n", impl,
                    c->n, (long long)l, got, expected);
            bad++;
        }
    }
    if (!CHECK(mem_padding_is_zero(r->dst)))
        fprintf(stderr, "  %s: dst padding not zero\n", impl);
}

/* Runs the case on every implementation; returns how many runs were not
 * the reference's. */
static int run_case(const sum_case_t *c) {
    tsr_memory_desc_t src_mds[MAX_SRCS], dst_md;
    for (int i = 0; i < c->n; i++)
        src_mds[i] = md_of(c->ndims, c->dims, c->sdt[i], c->stag[i]);
    if (c->dtag)
        dst_md = md_of(c->ndims, c->dims, c->ddt, c->dtag);
    tsr_primitive_desc_t pd = NULL;
    if (!CHECK(tsr_sum_primitive_desc_create(&pd, c->dtag ? &dst_md : NULL,
                                             c->n, c->scales, src_mds, NULL,
                                             engine) == tsr_success))
        return 0;
    sum_run_t r = {c, {NULL}, NULL, 0};
    for (int i = 0; i < c->n; i++)
        r.src[i] = mem_of(&src_mds[i]);
    const tsr_memory_desc_t *pd_dst =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_DST) ==
          tsr_arg_output);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_MULTIPLE_SRC + c->n -
                                                         1) == tsr_arg_input);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_MULTIPLE_SRC + c->n) ==
          tsr_arg_unused);
    /* A dst left to the primitive: source 0's data type and layout. */
    if (!c->dtag || strcmp(c->dtag, "any") == 0) {
        tsr_memory_desc_t expected = src_mds[0];
        expected.data_type = c->dtag ? c->ddt : c->sdt[0];
        CHECK(tsr_memory_desc_equal(pd_dst, &expected));
    }
    r.dst = c->in_place ? r.src[0] : mem_of(pd_dst);
    for_each_impl(pd, run_one_impl, &r);
    for (int i = 0; i < c->n; i++)
        tsr_memory_destroy(r.src[i]);
    if (!c->in_place)
        tsr_memory_destroy(r.dst);
    tsr_primitive_desc_destroy(pd);
    return r.fast_runs;
}

static sum_case_t case_2d(int n, tsr_dim_t c_dim, tsr_data_type_t sdt,
                          const char *stag, tsr_data_type_t ddt,
                          const char *dtag) {
    sum_case_t c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    c.ndims = 4;
    c.dims[0] = 2;
    c.dims[1] = c_dim;
    c.dims[2] = 5;
    c.dims[3] = 7;
    static const float scales[MAX_SRCS] = {0.25f, 2.f, 0.5f, -1.f, 1.5f};
    for (int i = 0; i < n; i++) {
        c.sdt[i] = sdt;
        c.stag[i] = stag;
        c.scales[i] = scales[i];
    }
    c.ddt = ddt;
    c.dtag = dtag;
    return c;
}

/* Every layout of sources and dst, mixed too, and the dst choices. */
static void test_layouts(void) {
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b", "aBcd8b"};
    static const char *const dtags[] = {NULL,   "any",     "abcd",
                                        "acdb", "aBcd16b", "aBcd8b"};
    for (size_t t = 0; t < 4; t++)
        for (size_t d = 0; d < 6; d++) {
            sum_case_t c = case_2d(2, 17, tsr_f32, tags[t], tsr_f32, dtags[d]);
            run_case(&c);
            sum_case_t mixed =
                    case_2d(3, 17, tsr_f32, tags[t], tsr_f32, dtags[d]);
            mixed.stag[1] = tags[(t + 1) % 4];
            mixed.stag[2] = tags[(t + 2) % 4];
            mixed.sdt[2] = tsr_s8;
            run_case(&mixed);
        }
}

/* Pairs of source types into every dst type, plain and channels-last. */
static void test_data_types(void) {
    static const tsr_data_type_t pairs[][2] = {
            {tsr_f32, tsr_f32},   {tsr_f32, tsr_bf16}, {tsr_f32, tsr_s8},
            {tsr_bf16, tsr_bf16}, {tsr_f16, tsr_f16},  {tsr_s32, tsr_s8},
            {tsr_u8, tsr_u8},     {tsr_s32, tsr_u8}};
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b"};
    for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
        for (int d = 0; d < N_DATA_TYPES; d++)
            for (size_t t = 0; t < 3; t++) {
                sum_case_t c = case_2d(2, 17, pairs[p][0], tags[t],
                                       all_data_types[d], tags[t]);
                c.sdt[1] = pairs[p][1];
                run_case(&c);
            }
    /* "any" with a data type of its own, and three types at once. */
    sum_case_t c = case_2d(3, 19, tsr_f32, "abcd", tsr_s8, "any");
    c.sdt[1] = tsr_u8;
    c.sdt[2] = tsr_s8;
    run_case(&c);
}

/* 1 to 5 sources; a size with vector tails and several threads, and one
 * large enough for the kernels' streaming stores. Dense f32, bf16 and f16
 * must not fall back to the reference. */
static void test_counts_and_sizes(void) {
    for (int n = 1; n <= MAX_SRCS; n++) {
        sum_case_t c = case_2d(n, 17, tsr_f32, "abcd", tsr_f32, NULL);
        CHECK(run_case(&c) > 0);
        sum_case_t s8 = case_2d(n, 16, tsr_s8, "acdb", tsr_s8, "acdb");
        CHECK(run_case(&s8) > 0);
        /* bf16 and f16, alone and mixed with f32, into each of the three:
         * the vector kernels' tails (2 * 17 * 35 is no multiple of 8). */
        static const tsr_data_type_t half_dts[] = {tsr_bf16, tsr_f16};
        static const tsr_data_type_t dst_dts[] = {tsr_bf16, tsr_f16, tsr_f32};
        for (int h = 0; h < 2; h++)
            for (int d = 0; d < 3; d++) {
                sum_case_t half =
                        case_2d(n, 17, half_dts[h], "acdb", dst_dts[d], "acdb");
                half.sdt[n - 1] = n > 1 ? tsr_f32 : half_dts[h];
                CHECK(run_case(&half) > 0);
            }
    }
    static const tsr_dim_t big[][4] = {{3, 33, 35, 37}, {2, 64, 128, 131}};
    for (int b = 0; b < 2; b++) {
        sum_case_t c = case_2d(3, 1, tsr_f32, "abcd", tsr_f32, "abcd");
        memcpy(c.dims, big[b], sizeof(c.dims));
        CHECK(run_case(&c) > 0);
        c.in_place = 1;
        CHECK(run_case(&c) > 0);
        sum_case_t bf16 = c;
        for (int i = 0; i < c.n; i++)
            bf16.sdt[i] = tsr_bf16;
        bf16.ddt = tsr_bf16;
        CHECK(run_case(&bf16) > 0);
        bf16.in_place = 0;
        bf16.sdt[1] = tsr_f16;
        CHECK(run_case(&bf16) > 0);
    }
    /* 16-bit destinations of over 8 MiB: streaming stores after a head
     * up to dst's first line boundary. */
    static const tsr_data_type_t half_dts[] = {tsr_bf16, tsr_f16};
    for (int h = 0; h < 2; h++) {
        sum_case_t c = case_2d(2, 1, half_dts[h], "abcd", half_dts[h], "abcd");
        const tsr_dim_t dims[4] = {2, 64, 128, 257};
        memcpy(c.dims, dims, sizeof(c.dims));
        c.sdt[1] = tsr_f32;
        CHECK(run_case(&c) > 0);
        c.in_place = 1;
        CHECK(run_case(&c) > 0);
    }
}

static void test_in_place(void) {
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b"};
    for (size_t t = 0; t < 3; t++)
        for (int d = 0; d < N_DATA_TYPES; d++) {
            sum_case_t c = case_2d(3, 17, all_data_types[d], tags[t],
                                   all_data_types[d], tags[t]);
            c.sdt[1] = tsr_f32;
            c.in_place = 1;
            run_case(&c);
        }
}

static void expect_refused(int n, const float *scales,
                           const tsr_memory_desc_t *srcs,
                           const tsr_memory_desc_t *dst) {
    tsr_primitive_desc_t pd = (tsr_primitive_desc_t)&pd; /* sentinel */
    const tsr_primitive_desc_t before = pd;
    CHECK(tsr_sum_primitive_desc_create(&pd, dst, n, scales, srcs, NULL,
                                        engine) == tsr_invalid_arguments);
    CHECK(pd == before);
}

static void test_bad_arguments(void) {
    const tsr_dim_t dims[4] = {2, 17, 5, 7}, other[4] = {2, 17, 5, 6};
    float scales[TSR_MAX_MULTIPLE_SRC + 1];
    static tsr_memory_desc_t srcs[TSR_MAX_MULTIPLE_SRC + 1];
    for (int i = 0; i <= TSR_MAX_MULTIPLE_SRC; i++) {
        scales[i] = 1.f;
        srcs[i] = md_of(4, dims, tsr_f32, "abcd");
    }
    const tsr_memory_desc_t dst = md_of(4, dims, tsr_f32, "abcd");
    const tsr_memory_desc_t dst_other = md_of(4, other, tsr_f32, "abcd");
    const tsr_memory_desc_t dst_any = md_of(4, other, tsr_f32, "any");
    expect_refused(0, scales, srcs, &dst);
    expect_refused(-1, scales, srcs, &dst);
    expect_refused(TSR_MAX_MULTIPLE_SRC + 1, scales, srcs, &dst);
    expect_refused(2, NULL, srcs, &dst);
    expect_refused(2, scales, NULL, &dst);
    expect_refused(2, scales, srcs, &dst_other);
    expect_refused(2, scales, srcs, &dst_any);
    tsr_memory_desc_t mismatched[2] = {srcs[0],
                                       md_of(4, other, tsr_f32, "abcd")};
    expect_refused(2, scales, mismatched, &dst);
    expect_refused(2, scales, mismatched, NULL);
    tsr_memory_desc_t with_any[2] = {srcs[0], md_of(4, dims, tsr_f32, "any")};
    expect_refused(2, scales, with_any, &dst);
    tsr_memory_desc_t rank3[2] = {srcs[0], srcs[1]};
    rank3[1].ndims = 3;
    expect_refused(2, scales, rank3, &dst);
    /* The maximum count is accepted. */
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_sum_primitive_desc_create(&pd, &dst, TSR_MAX_MULTIPLE_SRC, scales,
                                        srcs, NULL, engine) == tsr_success);
    tsr_primitive_desc_destroy(pd);
    /* Executing with a missing source writes nothing. */
    CHECK(tsr_sum_primitive_desc_create(&pd, &dst, 2, scales, srcs, NULL,
                                        engine) == tsr_success);
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
    tsr_memory_t src = mem_of(&srcs[0]), out = mem_of(&dst);
    mem_poison(out, 0x33);
    const tsr_exec_arg_t args[2] = {{TSR_ARG_MULTIPLE_SRC, src},
                                    {TSR_ARG_DST, out}};
    CHECK(tsr_primitive_execute(prim, stream, 2, args) ==
          tsr_invalid_arguments);
    CHECK(((unsigned char *)mem_data(out))[0] == 0x33);
    tsr_memory_destroy(src);
    tsr_memory_destroy(out);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
}

int main(void) {
    tensor_test_begin();
    test_layouts();
    test_data_types();
    test_counts_and_sizes();
    test_in_place();
    test_bad_arguments();
    tensor_test_end();
    return check_failures() != 0;
}
