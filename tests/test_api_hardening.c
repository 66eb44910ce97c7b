/* Hostile sizes and hand-built descriptors at the API edges issue 39 left
 * open: output-scale counts no descriptor can have, per-channel counts
 * whose product overflows, binary post-op descriptors that md_is_valid
 * refuses, and sum / concat destinations whose sizes overflow. Each is
 * refused with tsr_invalid_arguments and leaves the caller's objects as
 * they were. Then scratchpad bookings whose totals overflow: the
 * implementation passes (tsr_unimplemented) instead of booking a wrapped
 * size. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/attr_mask.h"
#include "common/primitive.h"
#include "cpu/gemm/gemm_s8.h"
#include "cpu/matmul/gemm_batched_f32.h"
#include "tessera.h"

#define CHECK_STATUS(expr, expected) CHECK((expr) == (expected))

static tsr_engine_t engine;

static tsr_memory_desc_t md_of(int ndims, const tsr_dim_t *dims,
                               const char *tag) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    CHECK_STATUS(tsr_memory_desc_init_by_tag(&md, ndims, dims, tsr_f32, tag),
                 tsr_success);
    return md;
}

/* 1 when `attr` still has no output scales: per-argument scales, which
 * cannot be mixed with them, are still accepted. */
static int output_scales_unset(tsr_primitive_attr_t attr) {
    tsr_primitive_attr_t probe;
    if (tsr_primitive_attr_clone(&probe, attr) != tsr_success)
        return 0;
    const int unset = tsr_primitive_attr_set_scales_mask(probe, TSR_ARG_SRC,
                                                         0) == tsr_success;
    tsr_primitive_attr_destroy(probe);
    return unset;
}

/* A count beyond any descriptor's element count is refused before
 * anything is read or copied (the scales array here has one value). */
static void test_output_scales_count(void) {
    tsr_primitive_attr_t attr;
    CHECK_STATUS(tsr_primitive_attr_create(&attr), tsr_success);
    const float one = 1.f;
    const tsr_dim_t refused[] = {
            0,         -1,       ((tsr_dim_t)1 << 58) + 1, (tsr_dim_t)1 << 62,
            INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        CHECK_STATUS(
                tsr_primitive_attr_set_output_scales(attr, refused[i], 2, &one),
                tsr_invalid_arguments);
    CHECK(output_scales_unset(attr));
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 1, 0, &one),
                 tsr_success);
    CHECK(!output_scales_unset(attr));
    tsr_primitive_attr_destroy(attr);
}

/* The per-channel count of a mask: a product past the element limit (or
 * past int64) is 0, which every caller treats as "no such count". */
static void test_mask_nelems_checked(void) {
    const tsr_dim_t over_limit[2] = {((tsr_dim_t)1 << 30) + 1,
                                     ((tsr_dim_t)1 << 30) + 1};
    CHECK(tsr_mask_nelems(3, 2, over_limit) == 0);
    CHECK(tsr_mask_nelems(1, 2, over_limit) == ((tsr_dim_t)1 << 30) + 1);
    const tsr_dim_t wraps[2] = {3, (tsr_dim_t)1 << 62};
    CHECK(tsr_mask_nelems(3, 2, wraps) == 0);
    const tsr_dim_t fits[3] = {4, 5, 6};
    CHECK(tsr_mask_nelems(5, 3, fits) == 24);
    CHECK(tsr_mask_nelems(8, 3, fits) == 0);
}

/* Binary post-op descriptors built by hand: each breaks one rule of
 * md_is_valid; the chain is left as it was. */
static void test_binary_post_op_desc(void) {
    const tsr_dim_t dims[4] = {2, 16, 3, 3};
    const tsr_memory_desc_t good = md_of(4, dims, "nchw");
    tsr_memory_desc_t bad[6];
    for (int i = 0; i < 6; i++)
        bad[i] = good;
    bad[0].blocking.inner_nblks = 1000;
    bad[1].blocking.strides[1] = -((tsr_dim_t)1 << 40);
    bad[2].dims[2] = bad[2].padded_dims[2] = (tsr_dim_t)1 << 32;
    bad[2].dims[3] = bad[2].padded_dims[3] = (tsr_dim_t)1 << 32;
    bad[3].blocking.strides[3] = 0; /* points overlap */
    bad[4].offset0 = -1;
    bad[5].padded_dims[1] = 8; /* padding smaller than the dims */
    tsr_post_ops_t ops;
    CHECK_STATUS(tsr_post_ops_create(&ops), tsr_success);
    for (int i = 0; i < 6; i++) {
        if (!CHECK_STATUS(
                    tsr_post_ops_append_binary(ops, tsr_binary_add, &bad[i]),
                    tsr_invalid_arguments))
            fprintf(stderr, "  broken descriptor %d accepted\n", i);
    }
    CHECK(tsr_post_ops_len(ops) == 0);
    CHECK_STATUS(tsr_post_ops_append_binary(ops, tsr_binary_add, &good),
                 tsr_success);
    CHECK(tsr_post_ops_len(ops) == 1);
    tsr_post_ops_destroy(ops);
}

static void expect_concat_refused(int n, int axis,
                                  const tsr_memory_desc_t *srcs,
                                  const tsr_memory_desc_t *dst) {
    tsr_primitive_desc_t pd = (tsr_primitive_desc_t)&pd; /* sentinel */
    const tsr_primitive_desc_t before = pd;
    CHECK_STATUS(tsr_concat_primitive_desc_create(&pd, dst, n, axis, srcs, NULL,
                                                  engine),
                 tsr_invalid_arguments);
    CHECK(pd == before);
}

/* Concat's dst sizes: the sum along the axis and the product of the
 * derived "any" dst's dims, checked. */
static void test_concat_dst_sizes(void) {
    static tsr_memory_desc_t srcs[TSR_MAX_MULTIPLE_SRC];
    /* Sources of 2^57 x 2 each: a dst of 2^58 x 2 is past the limit. */
    const tsr_dim_t half[2] = {(tsr_dim_t)1 << 57, 2};
    srcs[0] = srcs[1] = md_of(2, half, "ab");
    expect_concat_refused(2, 0, srcs, NULL);
    tsr_memory_desc_t any_dst = md_of(2, half, "any");
    any_dst.dims[0] = (tsr_dim_t)1 << 58; /* built by hand: init refuses */
    expect_concat_refused(2, 0, srcs, &any_dst);
    /* 64 sources of 2^58 points: the axis sum passes int64 (2^64). */
    const tsr_dim_t limit[1] = {(tsr_dim_t)1 << 58};
    for (int i = 0; i < TSR_MAX_MULTIPLE_SRC; i++)
        srcs[i] = md_of(1, limit, "a");
    expect_concat_refused(TSR_MAX_MULTIPLE_SRC, 0, srcs, NULL);
    const tsr_memory_desc_t dst = md_of(1, limit, "a");
    expect_concat_refused(TSR_MAX_MULTIPLE_SRC, 0, srcs, &dst);
    const tsr_memory_desc_t dst_any = md_of(1, limit, "any");
    expect_concat_refused(TSR_MAX_MULTIPLE_SRC, 0, srcs, &dst_any);
    /* The same shapes, small, are fine. */
    const tsr_dim_t small[2] = {3, 2}, small_sum[2] = {6, 2};
    srcs[0] = srcs[1] = md_of(2, small, "ab");
    const tsr_memory_desc_t small_dst = md_of(2, small_sum, "any");
    tsr_primitive_desc_t pd = NULL;
    CHECK_STATUS(tsr_concat_primitive_desc_create(&pd, &small_dst, 2, 0, srcs,
                                                  NULL, engine),
                 tsr_success);
    tsr_primitive_desc_destroy(pd);
}

/* Sum's "any" dst is validated like any descriptor: the sources' dims
 * are, and a given "any" dst with dims past the limit is refused. */
static void test_sum_any_dst(void) {
    const tsr_dim_t dims[2] = {3, 5};
    const tsr_memory_desc_t srcs[2] = {md_of(2, dims, "ab"),
                                       md_of(2, dims, "ba")};
    tsr_memory_desc_t dst = md_of(2, dims, "any");
    dst.dims[0] = dst.dims[1] = (tsr_dim_t)1 << 32;
    const float scales[2] = {1.f, 2.f};
    tsr_primitive_desc_t pd = (tsr_primitive_desc_t)&pd;
    const tsr_primitive_desc_t before = pd;
    CHECK_STATUS(tsr_sum_primitive_desc_create(&pd, &dst, 2, scales, srcs, NULL,
                                               engine),
                 tsr_invalid_arguments);
    CHECK(pd == before);
}

/* Eltwise's dense implementation books one channel vector per binary
 * post-op: 32 of 2^57 floats are 2^64 bytes, which wrapped to 0. */
static void test_eltwise_channel_post_ops_booking(void) {
    const tsr_dim_t dims[3] = {1, (tsr_dim_t)1 << 57, 2};
    const tsr_dim_t chan[3] = {1, (tsr_dim_t)1 << 57, 1};
    const tsr_memory_desc_t data = md_of(3, dims, "abc");
    const tsr_memory_desc_t src1 = md_of(3, chan, "abc");
    tsr_post_ops_t ops;
    tsr_primitive_attr_t attr;
    CHECK_STATUS(tsr_post_ops_create(&ops), tsr_success);
    for (int i = 0; i < 32; i++)
        CHECK_STATUS(tsr_post_ops_append_binary(ops, tsr_binary_add, &src1),
                     tsr_success);
    CHECK_STATUS(tsr_primitive_attr_create(&attr), tsr_success);
    CHECK_STATUS(tsr_primitive_attr_set_post_ops(attr, ops), tsr_success);
    tsr_eltwise_desc_t op;
    CHECK_STATUS(tsr_eltwise_forward_desc_init(&op, tsr_forward_inference,
                                               tsr_eltwise_relu, &data, &data,
                                               0.f, 0.f),
                 tsr_success);
    tsr_primitive_desc_t pd = NULL;
    if (CHECK_STATUS(tsr_primitive_desc_create(&pd, &op, attr, engine),
                     tsr_success)) {
        const char *impl = tsr_primitive_desc_impl_name(pd);
        if (!CHECK(strncmp(impl, "dense:", 6) != 0))
            fprintf(stderr, "  %s booked a wrapped scratchpad\n", impl);
        tsr_primitive_desc_destroy(pd);
    }
    tsr_primitive_attr_destroy(attr);
    tsr_post_ops_destroy(ops);
}

/* The int8 GEMM's scratch grows with K, the one size its blocking does
 * not cap: a K of 2^61 is SIZE_MAX, not a wrapped product. */
static void test_gemm_s8_scratch_size_checked(void) {
    CHECK(tsr_gemm_s8_scratch_size(1, 1, (int64_t)1 << 61, 1, 1) == SIZE_MAX);
    CHECK(tsr_gemm_s8_scratch_size(64, 64, 1024, 1, 4) < ((size_t)1 << 30));
}

/* The batched GEMM's booking: per-thread sizes that overflow (SIZE_MAX
 * from the engines) or whose total does, are refused with nothing
 * booked. */
static void test_batched_booking_checked(void) {
    struct tsr_primitive_desc pd;
    memset(&pd, 0, sizeof(pd));
    gemm_batched_plan_t plan;
    memset(&plan, 0, sizeof(plan));
    plan.thr_gemm_scratch = SIZE_MAX;
    CHECK(!gemm_batched_plan_book(&pd, &plan));
    CHECK(pd.scratchpad_size == 0);
    plan.thr_gemm_scratch = SIZE_MAX / 2;
    plan.c_buf_bytes = SIZE_MAX / 2;
    CHECK(!gemm_batched_plan_book(&pd, &plan));
    CHECK(pd.scratchpad_size == 0);
    plan.thr_gemm_scratch = 100;
    plan.c_buf_bytes = 1;
    CHECK(gemm_batched_plan_book(&pd, &plan));
    CHECK(pd.scratchpad_size == (size_t)plan.nthr * 192);
}

int main(void) {
    CHECK_STATUS(tsr_engine_create(&engine, tsr_cpu, 0), tsr_success);
    test_output_scales_count();
    test_mask_nelems_checked();
    test_binary_post_op_desc();
    test_concat_dst_sizes();
    test_sum_any_dst();
    test_eltwise_channel_post_ops_booking();
    test_gemm_s8_scratch_size_checked();
    test_batched_booking_checked();
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
