/* Concat: the sources one after another along an axis. Every
 * implementation that accepts a problem is run (walking the list with
 * tsr_primitive_desc_next_impl) and compared, point by point, with this
 * test's own copy over plain, channels-last and blocked layouts (channel
 * counts that are whole blocks, and uneven ones such as 17 whose padding
 * must stay zero), mixed per source, every pair of source and dst data
 * types (with saturation), 2 to 5 sources, axes 0 to 3, the layout chosen
 * for a dst left to the primitive, and the refusals of bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_test_util.h"

enum { MAX_SRCS = 5 };

typedef struct {
    int n, axis;
    tsr_dim_t dims[4];             /* source dims but the axis */
    tsr_dim_t axis_dims[MAX_SRCS]; /* each source's axis size */
    tsr_data_type_t sdt[MAX_SRCS];
    const char *stag[MAX_SRCS];
    tsr_data_type_t ddt;
    const char *dtag; /* NULL: no dst descriptor */
} concat_case_t;

typedef struct {
    const concat_case_t *c;
    tsr_memory_t src[MAX_SRCS], dst;
    int fast_runs; /* runs of implementations other than ref:any */
} concat_run_t;

static void src_dims(const concat_case_t *c, int i, tsr_dim_t *dims) {
    memcpy(dims, c->dims, sizeof(c->dims));
    dims[c->axis] = c->axis_dims[i];
}

/* The value dst point pos must hold: the source point it comes from,
 * converted to the dst type. */
static float expected_at(const concat_case_t *c, tsr_data_type_t ddt,
                         const tsr_dim_t *pos) {
    tsr_dim_t a = pos[c->axis];
    int i = 0;
    while (a >= c->axis_dims[i])
        a -= c->axis_dims[i++];
    tsr_dim_t dims[4], l = 0;
    src_dims(c, i, dims);
    for (int d = 0; d < 4; d++)
        l = l * dims[d] + (d == c->axis ? a : pos[d]);
    return round_to_dt(ddt,
                       round_to_dt(c->sdt[i], test_value(c->sdt[i], l, i)));
}

static void run_one_impl(tsr_primitive_desc_t pd, void *ctx) {
    concat_run_t *r = ctx;
    const concat_case_t *c = r->c;
    const char *impl = tsr_primitive_desc_impl_name(pd);
    if (strcmp(impl, "ref:any") != 0)
        r->fast_runs++;
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
        tsr_dim_t pos[TSR_MAX_NDIMS];
        pos_of(dst_md, l, pos);
        const float expected = expected_at(c, dst_md->data_type, pos);
        const float got = mem_get(r->dst, pos);
        if (!CHECK(got == expected)) {
            fprintf(stderr,
                    "  %s axis %d point %lld,%lld,%lld,%lld: got %g, "
                    "expected %g\n",
                    impl, c->axis, (long long)pos[0], (long long)pos[1],
                    (long long)pos[2], (long long)pos[3], got, expected);
            bad++;
        }
    }
    if (!CHECK(mem_padding_is_zero(r->dst)))
        fprintf(stderr, "  %s: dst padding not zero\n", impl);
}

/* Runs the case on every implementation; returns how many runs were not
 * the reference's. */
static int run_case(const concat_case_t *c) {
    tsr_memory_desc_t src_mds[MAX_SRCS], dst_md;
    tsr_dim_t dims[4], dst_dims[4];
    memcpy(dst_dims, c->dims, sizeof(dst_dims));
    dst_dims[c->axis] = 0;
    for (int i = 0; i < c->n; i++) {
        src_dims(c, i, dims);
        src_mds[i] = md_of(4, dims, c->sdt[i], c->stag[i]);
        dst_dims[c->axis] += c->axis_dims[i];
    }
    if (c->dtag)
        dst_md = md_of(4, dst_dims, c->ddt, c->dtag);
    tsr_primitive_desc_t pd = NULL;
    if (!CHECK(tsr_concat_primitive_desc_create(&pd, c->dtag ? &dst_md : NULL,
                                                c->n, c->axis, src_mds, NULL,
                                                engine) == tsr_success))
        return 0;
    concat_run_t r = {c, {NULL}, NULL, 0};
    for (int i = 0; i < c->n; i++) {
        r.src[i] = mem_of(&src_mds[i]);
        mem_fill(r.src[i], i);
    }
    const tsr_memory_desc_t *pd_dst =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST);
    /* A dst left to the primitive: source 0's data type (or the "any"
     * descriptor's), its plain layout, its blocked layout when every
     * source has it, else abcd. */
    if (!c->dtag || strcmp(c->dtag, "any") == 0) {
        const int src0_blocked = src_mds[0].blocking.inner_nblks > 0;
        int same_tags = 1;
        for (int i = 1; i < c->n; i++)
            same_tags &= strcmp(c->stag[i], c->stag[0]) == 0;
        const char *tag = src0_blocked && !same_tags ? "abcd" : c->stag[0];
        tsr_memory_desc_t expected =
                md_of(4, dst_dims, c->dtag ? c->ddt : c->sdt[0], tag);
        CHECK(tsr_memory_desc_equal(pd_dst, &expected));
    }
    r.dst = mem_of(pd_dst);
    for_each_impl(pd, run_one_impl, &r);
    for (int i = 0; i < c->n; i++)
        tsr_memory_destroy(r.src[i]);
    tsr_memory_destroy(r.dst);
    tsr_primitive_desc_destroy(pd);
    return r.fast_runs;
}

static concat_case_t make_case(int n, int axis, const tsr_dim_t *axis_dims,
                               tsr_data_type_t sdt, const char *stag,
                               tsr_data_type_t ddt, const char *dtag) {
    concat_case_t c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    c.axis = axis;
    c.dims[0] = 2;
    c.dims[1] = 16;
    c.dims[2] = 3;
    c.dims[3] = 5;
    for (int i = 0; i < n; i++) {
        c.axis_dims[i] = axis_dims[i];
        c.sdt[i] = sdt;
        c.stag[i] = stag;
    }
    c.ddt = ddt;
    c.dtag = dtag;
    return c;
}

/* Channel counts on axis 1 with each layout, mixed layouts, and the dst
 * choices; whole blocks before the last source take the block copies. */
static void test_channels(void) {
    static const tsr_dim_t counts[][3] = {
            {16, 17, 0}, {16, 32, 16}, {8, 16, 17}, {5, 17, 3}, {17, 16, 0}};
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b", "aBcd8b"};
    static const char *const dtags[] = {NULL,   "any",     "abcd",
                                        "acdb", "aBcd16b", "aBcd8b"};
    for (size_t k = 0; k < 5; k++) {
        const int n = counts[k][2] ? 3 : 2;
        for (size_t t = 0; t < 4; t++)
            for (size_t d = 0; d < 6; d++) {
                concat_case_t c = make_case(n, 1, counts[k], tsr_f32, tags[t],
                                            tsr_f32, dtags[d]);
                const int fast = run_case(&c);
                /* Same layout everywhere, whole blocks before the last
                 * source: block copies. */
                const int whole = t < 2 || k <= 1 || (k == 2 && t == 3);
                if (dtags[d] && strcmp(dtags[d], tags[t]) == 0 && whole)
                    CHECK(fast > 0);
                concat_case_t mixed = c;
                mixed.stag[1] = tags[(t + 1) % 4];
                run_case(&mixed);
            }
    }
}

/* Blocked layouts along the channels with sources that start inside a
 * block (the masked block copies), every data type size, one to many
 * sources, dst padding, sizes that several threads split at cache lines
 * inside rows; with explicit dst and dst left to the primitive. */
static void test_blocked_uneven(void) {
    static const char *const tags[] = {"aBcd16b", "aBcd8b"};
    static const tsr_data_type_t dts[] = {tsr_f32, tsr_s8, tsr_u8, tsr_bf16,
                                          tsr_s32};
    static const tsr_dim_t counts[][MAX_SRCS] = {{5, 17, 3, 0, 0},
                                                 {17, 16, 0, 0, 0},
                                                 {1, 2, 3, 4, 30},
                                                 {24, 13, 0, 0, 0},
                                                 {33, 47, 9, 0, 0}};
    for (size_t t = 0; t < 2; t++)
        for (size_t d = 0; d < 5; d++)
            for (size_t k = 0; k < 5; k++) {
                int n = 0;
                while (n < MAX_SRCS && counts[k][n])
                    n++;
                concat_case_t c = make_case(n, 1, counts[k], dts[d], tags[t],
                                            dts[d], tags[t]);
                CHECK(run_case(&c) > 0);
                c.dtag = NULL;
                CHECK(run_case(&c) > 0);
            }
    /* Many points per row and threads: rows not whole cache lines. */
    const tsr_dim_t sizes[2] = {70, 27};
    for (size_t t = 0; t < 2; t++)
        for (size_t d = 0; d < 2; d++) {
            concat_case_t big =
                    make_case(2, 1, sizes, dts[d], tags[t], dts[d], tags[t]);
            big.dims[0] = 3;
            big.dims[2] = 29;
            big.dims[3] = 31;
            CHECK(run_case(&big) > 0);
        }
}

/* Axes 0, 2 and 3 in every layout; plain and blocked take block copies. */
static void test_axes(void) {
    static const char *const tags[] = {"abcd", "acdb", "aBcd16b"};
    const tsr_dim_t sizes[MAX_SRCS] = {3, 1, 4, 2, 5};
    for (int axis = 0; axis < 4; axis++)
        for (size_t t = 0; t < 3; t++)
            for (int n = 2; n <= MAX_SRCS; n++) {
                concat_case_t c = make_case(n, axis, sizes, tsr_f32, tags[t],
                                            tsr_f32, tags[t]);
                if (axis == 1) /* blocked: whole blocks but the last */
                    for (int i = 0; i < n; i++)
                        c.axis_dims[i] = i + 1 < n ? 16 : 17;
                c.dims[1] = 17;
                CHECK(run_case(&c) > 0);
            }
}

/* Every pair of source and dst data types, and sources of different
 * types; a size that several threads share. */
static void test_data_types(void) {
    static const char *const tags[] = {"abcd", "acdb"};
    const tsr_dim_t sizes[3] = {16, 7, 9};
    for (int s = 0; s < N_DATA_TYPES; s++)
        for (int d = 0; d < N_DATA_TYPES; d++)
            for (int t = 0; t < 2; t++) {
                concat_case_t c =
                        make_case(2, 1, sizes, all_data_types[s], tags[t],
                                  all_data_types[d], tags[t]);
                CHECK(run_case(&c) > 0);
            }
    concat_case_t mixed =
            make_case(3, 1, sizes, tsr_s32, "abcd", tsr_u8, "abcd");
    mixed.sdt[1] = tsr_f16;
    mixed.sdt[2] = tsr_s8;
    CHECK(run_case(&mixed) > 0);
    concat_case_t big = make_case(2, 1, sizes, tsr_f32, "abcd", tsr_f32, NULL);
    big.dims[0] = 3;
    big.dims[2] = 61;
    big.dims[3] = 67;
    big.axis_dims[0] = 24;
    big.axis_dims[1] = 13;
    CHECK(run_case(&big) > 0);
    big.axis = 0;
    big.dims[1] = 40;
    big.axis_dims[0] = 2;
    big.axis_dims[1] = 3;
    CHECK(run_case(&big) > 0);
}

static void expect_refused(int n, int axis, const tsr_memory_desc_t *srcs,
                           const tsr_memory_desc_t *dst) {
    tsr_primitive_desc_t pd = (tsr_primitive_desc_t)&pd; /* sentinel */
    const tsr_primitive_desc_t before = pd;
    CHECK(tsr_concat_primitive_desc_create(&pd, dst, n, axis, srcs, NULL,
                                           engine) == tsr_invalid_arguments);
    CHECK(pd == before);
}

static void test_bad_arguments(void) {
    const tsr_dim_t a[4] = {2, 16, 3, 5}, b[4] = {2, 8, 3, 5},
                    c[4] = {2, 8, 3, 4}, sum[4] = {2, 24, 3, 5},
                    wrong[4] = {2, 25, 3, 5};
    static tsr_memory_desc_t srcs[TSR_MAX_MULTIPLE_SRC + 1];
    for (int i = 0; i <= TSR_MAX_MULTIPLE_SRC; i++)
        srcs[i] = md_of(4, i == 1 ? b : a, tsr_f32, "abcd");
    const tsr_memory_desc_t dst = md_of(4, sum, tsr_f32, "abcd");
    expect_refused(0, 1, srcs, &dst);
    expect_refused(TSR_MAX_MULTIPLE_SRC + 1, 1, srcs, NULL);
    expect_refused(2, -1, srcs, NULL);
    expect_refused(2, 4, srcs, NULL);
    expect_refused(2, 0, srcs, NULL); /* dims 1 differ */
    expect_refused(2, 1, NULL, &dst);
    const tsr_memory_desc_t dst_wrong = md_of(4, wrong, tsr_f32, "abcd");
    expect_refused(2, 1, srcs, &dst_wrong);
    const tsr_memory_desc_t dst_any_wrong = md_of(4, wrong, tsr_f32, "any");
    expect_refused(2, 1, srcs, &dst_any_wrong);
    tsr_memory_desc_t other_w[2] = {srcs[0], md_of(4, c, tsr_f32, "abcd")};
    expect_refused(2, 1, other_w, NULL);
    tsr_memory_desc_t with_any[2] = {srcs[0], md_of(4, b, tsr_f32, "any")};
    expect_refused(2, 1, with_any, NULL);
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_concat_primitive_desc_create(&pd, &dst, 2, 1, srcs, NULL,
                                           engine) == tsr_success);
    tsr_primitive_desc_destroy(pd);
}

int main(void) {
    tensor_test_begin();
    test_channels();
    test_axes();
    test_blocked_uneven();
    test_data_types();
    test_bad_arguments();
    tensor_test_end();
    return check_failures() != 0;
}
