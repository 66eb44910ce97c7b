#define _POSIX_C_SOURCE 200809L
/* The public API under bad input (every error leaves objects and buffers
 * as they were) and one small convolution end to end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/primitive.h"
#include "conv_test_util.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

/* src 1x1x3x3 = 1..9, weights 2x1x2x2: oc0 = {1, 0, 0, -1}, oc1 = ones,
 * bias {0.5, -1}. */
static float src_vals[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static float wei_vals[8] = {1, 0, 0, -1, 1, 1, 1, 1};
static float bias_vals[2] = {0.5f, -1.f};

static conv_shape_t tiny_conv(void) {
    conv_shape_t s = {
            .ndims = 4,
            .wei_ndims = 4,
            .src = {1, 1, 3, 3},
            .wei = {2, 1, 2, 2},
            .dst = {1, 2, 2, 2},
            .bias = 2,
            .strides = {1, 1},
    };
    conv_shape_set_plain(&s, tsr_f32);
    return s;
}

#define SENTINEL 12345.f

static void fill_sentinel(float *buf, int n) {
    for (int i = 0; i < n; i++)
        buf[i] = SENTINEL;
}
static int all_sentinel(const float *buf, int n) {
    for (int i = 0; i < n; i++)
        if (buf[i] != SENTINEL)
            return 0;
    return 1;
}

/* Gives `attr` one binary-add post-op whose src1 is f32 abcd of `dims`,
 * described in *src1_md. */
static void set_binary_add(tsr_primitive_attr_t attr, const tsr_dim_t *dims,
                           tsr_memory_desc_t *src1_md) {
    tsr_post_ops_t po;
    tsr_post_ops_create(&po);
    tsr_memory_desc_init_by_tag(src1_md, 4, dims, tsr_f32, "abcd");
    tsr_post_ops_append_binary(po, tsr_binary_add, src1_md);
    tsr_primitive_attr_set_post_ops(attr, po);
    tsr_post_ops_destroy(po);
}

static void test_names(void) {
    CHECK(strcmp(tsr_status2str(tsr_invalid_arguments), "invalid_arguments") ==
          0);
    CHECK(strcmp(tsr_status2str((tsr_status_t)77), "undef") == 0);
    CHECK(strcmp(tsr_alg_kind2str(tsr_eltwise_gelu_erf), "gelu_erf") == 0);
    CHECK(strcmp(tsr_alg_kind2str(tsr_binary_ne), "ne") == 0);
    CHECK(strcmp(tsr_alg_kind2str(tsr_convolution_winograd), "wino") == 0);
    CHECK(strcmp(tsr_alg_kind2str((tsr_alg_kind_t)0x1234), "undef") == 0);
    CHECK(strcmp(tsr_prim_kind2str(tsr_convolution), "convolution") == 0);
    CHECK(strcmp(tsr_cpu_isa2str(tsr_cpu_isa_avx2), "avx2") == 0);
}

static void test_attr_errors(void) {
    tsr_primitive_attr_t attr;
    CHECK_STATUS(tsr_primitive_attr_create(NULL), tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_create(&attr), tsr_success);

    CHECK_STATUS(tsr_primitive_attr_set_scratchpad_mode(
                         NULL, tsr_scratchpad_mode_user),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_scratchpad_mode(
                         attr, (tsr_scratchpad_mode_t)7),
                 tsr_invalid_arguments);
    tsr_scratchpad_mode_t mode = tsr_scratchpad_mode_user;
    CHECK_STATUS(tsr_primitive_attr_get_scratchpad_mode(attr, &mode),
                 tsr_success);
    CHECK(mode == tsr_scratchpad_mode_library);
    CHECK_STATUS(tsr_primitive_attr_get_scratchpad_mode(attr, NULL),
                 tsr_invalid_arguments);

    CHECK_STATUS(tsr_primitive_attr_set_round_mode(attr, (tsr_round_mode_t)3),
                 tsr_invalid_arguments);
    tsr_round_mode_t round = tsr_round_down;
    CHECK_STATUS(tsr_primitive_attr_get_round_mode(attr, &round), tsr_success);
    CHECK(round == tsr_round_nearest);

    const float scales[2] = {1.f, 2.f};
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 0, 0, scales),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 1, -1, scales),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 1, 0, NULL),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_BIAS, 0),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC, -2),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_set_zero_points_mask(attr, 12345, 0),
                 tsr_invalid_arguments);

    /* The two scale models exclude each other, in either order. */
    CHECK_STATUS(tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_WEIGHTS, 1),
                 tsr_success);
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 2, 2, scales),
                 tsr_invalid_arguments);
    tsr_primitive_attr_t other;
    CHECK_STATUS(tsr_primitive_attr_create(&other), tsr_success);
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(other, 2, 2, scales),
                 tsr_success);
    CHECK_STATUS(tsr_primitive_attr_set_scales_mask(other, TSR_ARG_SRC, 0),
                 tsr_invalid_arguments);

    tsr_primitive_attr_t copy;
    CHECK_STATUS(tsr_primitive_attr_clone(NULL, other), tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_clone(&copy, NULL), tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_attr_clone(&copy, other), tsr_success);
    /* The clone keeps the legacy scales, so per-arg ones still refused. */
    CHECK_STATUS(tsr_primitive_attr_set_scales_mask(copy, TSR_ARG_SRC, 0),
                 tsr_invalid_arguments);
    tsr_primitive_attr_destroy(copy);
    tsr_primitive_attr_destroy(other);

    CHECK_STATUS(tsr_primitive_attr_set_post_ops(attr, NULL),
                 tsr_invalid_arguments);
    const_tsr_post_ops_t *no_out = NULL;
    CHECK_STATUS(tsr_primitive_attr_get_post_ops(attr, no_out),
                 tsr_invalid_arguments);
    const_tsr_post_ops_t po = NULL;
    CHECK_STATUS(tsr_primitive_attr_get_post_ops(attr, &po), tsr_success);
    CHECK(po != NULL && tsr_post_ops_len(po) == 0);
    CHECK_STATUS(tsr_primitive_attr_destroy(attr), tsr_success);
    CHECK_STATUS(tsr_primitive_attr_destroy(NULL), tsr_success);
}

static void test_post_ops_errors(void) {
    tsr_post_ops_t po;
    CHECK_STATUS(tsr_post_ops_create(NULL), tsr_invalid_arguments);
    CHECK_STATUS(tsr_post_ops_create(&po), tsr_success);
    CHECK(tsr_post_ops_len(NULL) < 0);
    CHECK_STATUS(tsr_post_ops_append_sum(NULL, 1.f, 0, tsr_data_type_undef),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_post_ops_append_sum(po, 1.f, 0, (tsr_data_type_t)42),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_post_ops_append_eltwise(po, 1.f, tsr_binary_add, 0.f, 0.f),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_post_ops_append_binary(po, tsr_binary_add, NULL),
                 tsr_invalid_arguments);
    tsr_memory_desc_t src1;
    const tsr_dim_t d4[4] = {1, 2, 1, 1};
    CHECK_STATUS(tsr_memory_desc_init_by_tag(&src1, 4, d4, tsr_f32, "abcd"),
                 tsr_success);
    CHECK_STATUS(tsr_post_ops_append_binary(po, tsr_eltwise_relu, &src1),
                 tsr_invalid_arguments);
    tsr_memory_desc_t any_md;
    CHECK_STATUS(tsr_memory_desc_init_by_tag(&any_md, 4, d4, tsr_f32, "any"),
                 tsr_success);
    CHECK_STATUS(tsr_post_ops_append_binary(po, tsr_binary_add, &any_md),
                 tsr_invalid_arguments);
    CHECK(tsr_post_ops_len(po) == 0);

    CHECK_STATUS(tsr_post_ops_append_sum(po, 2.f, 1, tsr_data_type_undef),
                 tsr_success);
    CHECK_STATUS(
            tsr_post_ops_append_eltwise(po, 0.5f, tsr_eltwise_clip, -1.f, 1.f),
            tsr_success);
    CHECK_STATUS(tsr_post_ops_append_binary(po, tsr_binary_mul, &src1),
                 tsr_success);
    CHECK(tsr_post_ops_len(po) == 3);
    CHECK(tsr_post_ops_get_kind(po, 1) == tsr_post_op_eltwise);
    CHECK(tsr_post_ops_get_kind(po, 3) == tsr_post_op_undef);
    CHECK(tsr_post_ops_get_kind(po, -1) == tsr_post_op_undef);

    float scale = 0.f, alpha = 0.f, beta = 0.f;
    int32_t zp = 0;
    tsr_data_type_t dt = tsr_f32;
    tsr_alg_kind_t alg = tsr_alg_kind_undef;
    const tsr_memory_desc_t *md = NULL;
    CHECK_STATUS(tsr_post_ops_get_params_sum(po, 0, &scale, &zp, &dt),
                 tsr_success);
    CHECK(scale == 2.f && zp == 1 && dt == tsr_data_type_undef);
    CHECK_STATUS(tsr_post_ops_get_params_sum(po, 1, &scale, &zp, &dt),
                 tsr_invalid_arguments);
    CHECK_STATUS(
            tsr_post_ops_get_params_eltwise(po, 1, &scale, &alg, &alpha, &beta),
            tsr_success);
    CHECK(scale == 0.5f && alg == tsr_eltwise_clip && alpha == -1.f &&
          beta == 1.f);
    CHECK_STATUS(
            tsr_post_ops_get_params_eltwise(po, 7, &scale, &alg, &alpha, &beta),
            tsr_invalid_arguments);
    CHECK_STATUS(tsr_post_ops_get_params_binary(po, 2, &alg, &md), tsr_success);
    CHECK(alg == tsr_binary_mul && md && tsr_memory_desc_equal(md, &src1));
    CHECK_STATUS(tsr_post_ops_get_params_binary(po, 2, &alg, NULL),
                 tsr_invalid_arguments);

    /* The chain has a fixed capacity; the append past it fails. */
    int appended = tsr_post_ops_len(po);
    while (tsr_post_ops_append_eltwise(po, 1.f, tsr_eltwise_relu, 0.f, 0.f) ==
           tsr_success)
        appended++;
    CHECK(appended == tsr_post_ops_len(po) && appended >= 8);
    tsr_post_ops_destroy(po);
}

static void test_conv_desc_errors(void) {
    conv_shape_t s = tiny_conv();
    tsr_convolution_desc_t desc, before;
    memset(&desc, 0xab, sizeof(desc));
    before = desc;

    tsr_memory_desc_t src, wei, dst, bia;
    tsr_memory_desc_init_by_tag(&src, 4, s.src, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&wei, 4, s.wei, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&dst, 4, s.dst, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&bia, 1, &s.bias, tsr_f32, "a");
    const tsr_dim_t strides[2] = {1, 1}, pad[2] = {0, 0};
    const tsr_prop_kind_t fwd = tsr_forward_inference;
    const tsr_alg_kind_t direct = tsr_convolution_direct;

    CHECK_STATUS(tsr_convolution_forward_desc_init(NULL, fwd, direct, &src,
                                                   &wei, &bia, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, NULL,
                                                   &wei, &bia, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   NULL, &bia, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, &bia, &dst, NULL, NULL,
                                                   pad, pad),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(
                         &desc, (tsr_prop_kind_t)3, direct, &src, &wei, &bia,
                         &dst, strides, NULL, pad, pad),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(
                         &desc, tsr_backward_data, direct, &src, &wei, &bia,
                         &dst, strides, NULL, pad, pad),
                 tsr_unimplemented);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, tsr_eltwise_relu,
                                                   &src, &wei, &bia, &dst,
                                                   strides, NULL, pad, pad),
                 tsr_invalid_arguments);
    const tsr_dim_t zero_stride[2] = {0, 1};
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, &bia, &dst,
                                                   zero_stride, NULL, pad, pad),
                 tsr_invalid_arguments);
    /* Output size disagreeing with the formula. */
    const tsr_dim_t pad1[2] = {1, 1};
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, &bia, &dst, strides,
                                                   NULL, pad1, pad1),
                 tsr_invalid_arguments);
    /* Channels: src has 1, weights want 2. */
    tsr_memory_desc_t wei2;
    const tsr_dim_t wdims2[4] = {2, 2, 2, 2};
    tsr_memory_desc_init_by_tag(&wei2, 4, wdims2, tsr_f32, "abcd");
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei2, &bia, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    /* Bias of the wrong size. */
    tsr_memory_desc_t bia3;
    const tsr_dim_t three = 3;
    tsr_memory_desc_init_by_tag(&bia3, 1, &three, tsr_f32, "a");
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, &bia3, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    /* Rank 2 data is not a convolution. */
    tsr_memory_desc_t src2;
    const tsr_dim_t d2[2] = {1, 1};
    tsr_memory_desc_init_by_tag(&src2, 2, d2, tsr_f32, "ab");
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src2,
                                                   &wei, &bia, &dst, strides,
                                                   NULL, pad, pad),
                 tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);

    /* Grouped weights with one more dim are accepted. */
    tsr_memory_desc_t gwei;
    const tsr_dim_t gdims[5] = {1, 2, 1, 2, 2};
    tsr_memory_desc_init_by_tag(&gwei, 5, gdims, tsr_f32, "abcde");
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &gwei, &bia, &dst, strides,
                                                   NULL, pad, NULL),
                 tsr_success);
    CHECK(desc.primitive_kind == tsr_convolution &&
          desc.accum_data_type == tsr_f32 && desc.padding_r[1] == 0);
}

/* Strides, dilations and paddings near INT64_MAX, and channel products
 * past 2^63: tsr_invalid_arguments, never an overflow. */
static void test_conv_desc_overflow(void) {
    conv_shape_t s = tiny_conv();
    tsr_convolution_desc_t desc, before;
    memset(&desc, 0xab, sizeof(desc));
    before = desc;
    tsr_memory_desc_t src, wei, dst;
    tsr_memory_desc_init_by_tag(&src, 4, s.src, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&wei, 4, s.wei, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&dst, 4, s.dst, tsr_f32, "abcd");
    const tsr_prop_kind_t fwd = tsr_forward_inference;
    const tsr_alg_kind_t direct = tsr_convolution_direct;
    const tsr_dim_t big = INT64_MAX, one[2] = {1, 1}, zero[2] = {0, 0};
    const tsr_dim_t big_2[2] = {big, big}, big_1[2] = {1, big};
    const tsr_dim_t near_big[2] = {big - 1, big - 1};
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, NULL, &dst, one, big_2,
                                                   zero, zero),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, NULL, &dst, one, NULL,
                                                   big_1, zero),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, NULL, &dst, one, NULL,
                                                   near_big, near_big),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, NULL, &dst, big_2,
                                                   NULL, zero, big_2),
                 tsr_invalid_arguments);
    /* "any" weights with G x ICg = 2^116 and G x OCg = 2^116. */
    tsr_memory_desc_t gwei;
    const tsr_dim_t gdims[5] = {1, 1, 1, 1, 1};
    tsr_memory_desc_init_by_tag(&gwei, 5, gdims, tsr_f32, "any");
    gwei.dims[0] = gwei.dims[1] = gwei.dims[2] = (tsr_dim_t)1 << 58;
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &gwei, NULL, &dst, one, NULL,
                                                   zero, zero),
                 tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);

    /* The same edits made by hand in a valid descriptor: refused at
     * primitive descriptor creation. */
    CHECK_STATUS(tsr_convolution_forward_desc_init(&desc, fwd, direct, &src,
                                                   &wei, NULL, &dst, one, NULL,
                                                   zero, zero),
                 tsr_success);
    tsr_primitive_desc_t pd = NULL;
    tsr_convolution_desc_t edited = desc;
    edited.dilates[0] = big;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &edited, NULL, engine),
                 tsr_invalid_arguments);
    edited = desc;
    edited.weights_desc = gwei;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &edited, NULL, engine),
                 tsr_invalid_arguments);
    CHECK(pd == NULL);
}

/* Memory descriptors broken by hand inside op descriptors: every entry
 * point refuses them, leaving the caller's objects as they were. */
static void test_hand_built_mds(void) {
    conv_shape_t s = tiny_conv();
    tsr_convolution_desc_t desc;
    CHECK_STATUS(conv_desc_make(&s, &desc), tsr_success);
    tsr_memory_desc_t src = desc.src_desc;
    tsr_memory_desc_t bad_src[3] = {src, src, src};
    bad_src[0].blocking.inner_nblks = 1000;
    bad_src[1].blocking.strides[1] = -((tsr_dim_t)1 << 40);
    bad_src[2].blocking.strides[0] = -((tsr_dim_t)1 << 62);
    const tsr_dim_t one[2] = {1, 1}, zero[2] = {0, 0};
    for (int i = 0; i < 3; i++) {
        tsr_convolution_desc_t made, before;
        memset(&made, 0x5a, sizeof(made));
        before = made;
        CHECK_STATUS(tsr_convolution_forward_desc_init(
                             &made, tsr_forward_inference,
                             tsr_convolution_direct, &bad_src[i],
                             &desc.weights_desc, NULL, &desc.dst_desc, one,
                             NULL, zero, zero),
                     tsr_invalid_arguments);
        CHECK(memcmp(&made, &before, sizeof(made)) == 0);
        tsr_convolution_desc_t edited = desc;
        edited.src_desc = bad_src[i];
        tsr_primitive_desc_t pd = NULL;
        CHECK_STATUS(tsr_primitive_desc_create(&pd, &edited, NULL, engine),
                     tsr_invalid_arguments);
        CHECK(pd == NULL);
        tsr_memory_t mem = NULL;
        CHECK_STATUS(tsr_memory_create(&mem, &bad_src[i], engine,
                                       TSR_MEMORY_ALLOCATE),
                     tsr_invalid_arguments);
        CHECK(mem == NULL);

        tsr_eltwise_desc_t ed;
        CHECK_STATUS(tsr_eltwise_forward_desc_init(&ed, tsr_forward_inference,
                                                   tsr_eltwise_relu,
                                                   &bad_src[i], &src, 0.f, 0.f),
                     tsr_invalid_arguments);
        tsr_binary_desc_t bd;
        CHECK_STATUS(tsr_binary_desc_init(&bd, tsr_binary_add, &src,
                                          &bad_src[i], &src),
                     tsr_invalid_arguments);
        tsr_prelu_desc_t prd;
        CHECK_STATUS(tsr_prelu_forward_desc_init(&prd, tsr_forward_inference,
                                                 &src, &bad_src[i], &src),
                     tsr_invalid_arguments);
        tsr_shuffle_desc_t sd;
        CHECK_STATUS(tsr_shuffle_forward_desc_init(&sd, tsr_forward_inference,
                                                   &bad_src[i], NULL, 1, 1),
                     tsr_invalid_arguments);
        tsr_matmul_desc_t md;
        CHECK_STATUS(tsr_matmul_desc_init(&md, &bad_src[i], &src, NULL, &src),
                     tsr_invalid_arguments);
        tsr_inner_product_desc_t ipd;
        CHECK_STATUS(tsr_inner_product_forward_desc_init(
                             &ipd, tsr_forward_inference, &bad_src[i],
                             &desc.weights_desc, NULL, &desc.dst_desc),
                     tsr_invalid_arguments);
        tsr_primitive_desc_t sum = NULL;
        const float scales[2] = {1.f, 1.f};
        const tsr_memory_desc_t srcs[2] = {src, bad_src[i]};
        CHECK_STATUS(tsr_sum_primitive_desc_create(&sum, NULL, 2, scales, srcs,
                                                   NULL, engine),
                     tsr_invalid_arguments);
        CHECK(sum == NULL);
    }
}

/* A pd of a 1D f32 convolution "any" (benchdnn's mb1ic8iw<iw>oc8kw3
 * dw<dw>pw<pw>): created at once, whatever the output's size, with a
 * scratchpad far below the data's. */
static tsr_status_t huge_conv_pd(tsr_dim_t iw, tsr_dim_t dw, tsr_dim_t pw,
                                 size_t *scratchpad) {
    const tsr_dim_t kw = 3;
    const tsr_dim_t ow = iw + 2 * pw - ((kw - 1) * (dw + 1) + 1) + 1;
    const tsr_dim_t sdims[3] = {1, 8, iw}, wdims[3] = {8, 8, kw},
                    ddims[3] = {1, 8, ow};
    tsr_memory_desc_t src, wei, dst;
    tsr_memory_desc_init_by_tag(&src, 3, sdims, tsr_f32, "any");
    tsr_memory_desc_init_by_tag(&wei, 3, wdims, tsr_f32, "any");
    tsr_memory_desc_init_by_tag(&dst, 3, ddims, tsr_f32, "any");
    const tsr_dim_t one = 1;
    tsr_convolution_desc_t desc;
    tsr_status_t st = tsr_convolution_forward_desc_init(
            &desc, tsr_forward_inference, tsr_convolution_direct, &src, &wei,
            NULL, &dst, &one, &dw, &pw, &pw);
    if (st != tsr_success)
        return st;
    tsr_primitive_desc_t pd;
    st = tsr_primitive_desc_create(&pd, &desc, NULL, engine);
    if (st != tsr_success)
        return st;
    st = tsr_primitive_desc_query_scratchpad_size(pd, scratchpad);
    tsr_primitive_desc_destroy(pd);
    return st;
}

/* The GEMM convolution's creation does no work nor allocation per output
 * point, and its sizes cannot overflow: an output of 2^31 or 6 x 10^9
 * points is a valid problem, planned in chunks. */
static void test_conv_huge_outputs(void) {
    size_t scratchpad = 0;
    CHECK_STATUS(huge_conv_pd(2147483647, 1, 2, &scratchpad), tsr_success);
    CHECK(scratchpad < ((size_t)1 << 30));
    CHECK_STATUS(huge_conv_pd(16, 1, 3037000500, &scratchpad), tsr_success);
    CHECK(scratchpad < ((size_t)1 << 30));

    /* benchdnn's mb1ic3ih227oc96oh55kh11sh4294967296ph0: a stride of 2^32,
     * the right padding making 55 output rows and columns. */
    const tsr_dim_t stride = (tsr_dim_t)1 << 32;
    const tsr_dim_t sdims[4] = {1, 3, 227, 227}, wdims[4] = {96, 3, 11, 11},
                    ddims[4] = {1, 96, 55, 55};
    tsr_memory_desc_t src, wei, dst;
    tsr_memory_desc_init_by_tag(&src, 4, sdims, tsr_f32, "any");
    tsr_memory_desc_init_by_tag(&wei, 4, wdims, tsr_f32, "any");
    tsr_memory_desc_init_by_tag(&dst, 4, ddims, tsr_f32, "any");
    const tsr_dim_t strides[2] = {stride, stride}, pad_l[2] = {0, 0};
    const tsr_dim_t pad_r[2] = {54 * stride + 11 - 227, 54 * stride + 11 - 227};
    tsr_convolution_desc_t desc;
    CHECK_STATUS(tsr_convolution_forward_desc_init(
                         &desc, tsr_forward_inference, tsr_convolution_direct,
                         &src, &wei, NULL, &dst, strides, NULL, pad_l, pad_r),
                 tsr_success);
    tsr_primitive_desc_t pd = NULL;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, NULL, engine),
                 tsr_success);
    if (pd) {
        CHECK_STATUS(tsr_primitive_desc_query_scratchpad_size(pd, &scratchpad),
                     tsr_success);
        CHECK(scratchpad < ((size_t)1 << 30));
        tsr_primitive_desc_destroy(pd);
    }
    /* ...kh4294967296 with ih5 (a 2D kernel of 2^32 x 2^32 taps): weights
     * of more than 2^58 elements, refused as a descriptor. */
    const tsr_dim_t k = (tsr_dim_t)1 << 32, kdims[4] = {4, 3, k, k};
    memset(&wei, 0x11, sizeof(wei));
    const tsr_memory_desc_t before = wei;
    CHECK_STATUS(tsr_memory_desc_init_by_tag(&wei, 4, kdims, tsr_f32, "any"),
                 tsr_invalid_arguments);
    CHECK(memcmp(&wei, &before, sizeof(wei)) == 0);
}

/* Arguments by id: what a convolution pd takes, reads and writes, and the
 * forward hint a backward pd is created with. */
static void test_arg_queries(void) {
    conv_shape_t s = tiny_conv();
    tsr_convolution_desc_t desc;
    CHECK_STATUS(conv_desc_make(&s, &desc), tsr_success);
    tsr_primitive_desc_t pd = NULL;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, NULL, engine),
                 tsr_success);
    const int inputs[] = {TSR_ARG_SRC, TSR_ARG_WEIGHTS, TSR_ARG_BIAS};
    for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        CHECK(tsr_primitive_desc_query_arg_usage(pd, inputs[i]) ==
              tsr_arg_input);
        CHECK(tsr_primitive_desc_query_arg_md(pd, inputs[i]) != NULL);
    }
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_DST) ==
          tsr_arg_output);
    CHECK(tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST) ==
          tsr_primitive_desc_query_md(pd, tsr_query_dst_md));
    const int absent[] = {TSR_ARG_DIFF_SRC,
                          TSR_ARG_WORKSPACE,
                          TSR_ARG_SRC_1,
                          TSR_ARG_MULTIPLE_SRC + 1,
                          TSR_ARG_MEAN,
                          9999,
                          -1};
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
        CHECK(tsr_primitive_desc_query_arg_usage(pd, absent[i]) ==
              tsr_arg_unused);
        CHECK(tsr_primitive_desc_query_arg_md(pd, absent[i]) == NULL);
    }
    CHECK(tsr_primitive_desc_query_md(pd, tsr_query_diff_dst_md) == NULL);
    CHECK(tsr_primitive_desc_query_md(pd, tsr_query_workspace_md) == NULL);
    CHECK(tsr_primitive_desc_query_md(pd, (tsr_query_t)1000) == NULL);
    CHECK(tsr_primitive_desc_query_arg_md(NULL, TSR_ARG_SRC) == NULL);
    CHECK(tsr_primitive_desc_query_arg_usage(NULL, TSR_ARG_SRC) ==
          tsr_arg_unused);

    /* A hint must be a forward pd of the same kind. */
    tsr_primitive_desc_t other = NULL;
    CHECK_STATUS(tsr_primitive_desc_create_with_hint(&other, &desc, NULL,
                                                     engine, pd),
                 tsr_success);
    CHECK(other && other->hint_fwd && other->hint_fwd != pd);
    tsr_primitive_desc_t clone = NULL;
    CHECK_STATUS(tsr_primitive_desc_clone(&clone, other), tsr_success);
    CHECK(clone && clone->hint_fwd && clone->hint_fwd != other->hint_fwd);
    tsr_primitive_desc_destroy(clone);
    tsr_primitive_desc_destroy(other);

    tsr_memory_desc_t md;
    const tsr_dim_t dims[4] = {1, 1, 3, 3};
    tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "abcd");
    tsr_primitive_desc_t reorder = NULL;
    CHECK_STATUS(tsr_reorder_primitive_desc_create(&reorder, &md, engine, &md,
                                                   engine, NULL),
                 tsr_success);
    other = NULL;
    CHECK_STATUS(tsr_primitive_desc_create_with_hint(&other, &desc, NULL,
                                                     engine, reorder),
                 tsr_invalid_arguments);
    CHECK(other == NULL);
    CHECK(tsr_primitive_desc_query_arg_usage(reorder, TSR_ARG_FROM) ==
          tsr_arg_input);
    CHECK(tsr_primitive_desc_query_arg_usage(reorder, TSR_ARG_WEIGHTS) ==
          tsr_arg_unused);
    tsr_primitive_desc_destroy(reorder);
    tsr_primitive_desc_destroy(pd);
}

static void test_pd_errors(void) {
    conv_shape_t s = tiny_conv();
    tsr_convolution_desc_t desc;
    CHECK_STATUS(conv_desc_make(&s, &desc), tsr_success);
    tsr_primitive_desc_t pd = NULL;
    CHECK_STATUS(tsr_primitive_desc_create(NULL, &desc, NULL, engine),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, NULL, NULL, engine),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, NULL, NULL),
                 tsr_invalid_arguments);
    tsr_convolution_desc_t broken = desc;
    broken.strides[0] = 0;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &broken, NULL, engine),
                 tsr_invalid_arguments);
    tsr_primitive_kind_t unknown = (tsr_primitive_kind_t)33;
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &unknown, NULL, engine),
                 tsr_invalid_arguments);
    CHECK(pd == NULL);

    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    /* Per-oc legacy scales need OC = 2 values. */
    const float three[3] = {1, 1, 1};
    tsr_primitive_attr_set_output_scales(attr, 3, 2, three);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, attr, engine),
                 tsr_invalid_arguments);
    tsr_primitive_attr_destroy(attr);

    /* Scales over a dim the argument does not have. */
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_DST, 1 << 6);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, attr, engine),
                 tsr_invalid_arguments);
    tsr_primitive_attr_destroy(attr);

    /* Binary src1 that does not broadcast onto dst 1x2x2x2. */
    tsr_primitive_attr_create(&attr);
    tsr_memory_desc_t src1;
    const tsr_dim_t bad[4] = {1, 3, 1, 1};
    set_binary_add(attr, bad, &src1);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, attr, engine),
                 tsr_invalid_arguments);
    tsr_primitive_attr_destroy(attr);

    /* A sum reading dst as a type of another size. */
    tsr_primitive_attr_create(&attr);
    tsr_post_ops_t po;
    tsr_post_ops_create(&po);
    tsr_post_ops_append_sum(po, 1.f, 0, tsr_s8);
    tsr_primitive_attr_set_post_ops(attr, po);
    CHECK_STATUS(tsr_primitive_desc_create(&pd, &desc, attr, engine),
                 tsr_invalid_arguments);
    tsr_post_ops_destroy(po);
    tsr_primitive_attr_destroy(attr);

    /* Reorder: "any" and mismatched dims are refused. */
    tsr_memory_desc_t a, b, any;
    const tsr_dim_t da[2] = {2, 3}, db[2] = {3, 2};
    tsr_memory_desc_init_by_tag(&a, 2, da, tsr_f32, "ab");
    tsr_memory_desc_init_by_tag(&b, 2, db, tsr_f32, "ab");
    tsr_memory_desc_init_by_tag(&any, 2, da, tsr_f32, "any");
    CHECK_STATUS(tsr_reorder_primitive_desc_create(&pd, &a, engine, &b, engine,
                                                   NULL),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_reorder_primitive_desc_create(&pd, &a, engine, &any,
                                                   engine, NULL),
                 tsr_invalid_arguments);
    CHECK_STATUS(
            tsr_reorder_primitive_desc_create(&pd, &a, NULL, &a, engine, NULL),
            tsr_invalid_arguments);
    CHECK_STATUS(tsr_reorder_primitive_desc_create(NULL, &a, engine, &a, engine,
                                                   NULL),
                 tsr_invalid_arguments);
    CHECK(pd == NULL);

    /* Queries on NULL. */
    CHECK(tsr_primitive_desc_query_md(NULL, tsr_query_src_md) == NULL);
    CHECK(tsr_primitive_desc_impl_name(NULL) == NULL);
    size_t size;
    CHECK_STATUS(tsr_primitive_desc_query_scratchpad_size(NULL, &size),
                 tsr_invalid_arguments);
    CHECK(tsr_primitive_desc_kind(NULL) == tsr_undefined_primitive);
    CHECK_STATUS(tsr_primitive_desc_next_impl(NULL), tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_create(NULL, NULL), tsr_invalid_arguments);
}

static const float expected_dst[8] = {-3.5f, -3.5f, -3.5f, -3.5f,
                                      11,    15,    23,    27};

static void test_conv_end_to_end(void) {
    conv_shape_t s = tiny_conv();
    s.stag = "any";
    s.wtag = "any";
    s.dtag = "any";
    tsr_primitive_desc_t pd;
    CHECK_STATUS(conv_pd_make(&s, NULL, engine, &pd), tsr_success);
    CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "ref:any") == 0);
    CHECK(tsr_primitive_desc_kind(pd) == tsr_convolution);
    float dst[8];
    fill_sentinel(dst, 8);
    /* src, weights, bias, dst at the layouts "any" resolved to. */
    test_arg_t args[4];
    CHECK(conv_pd_args(args, pd, src_vals, wei_vals, bias_vals, dst) == 4);
    CHECK(args[0].md && tsr_memory_desc_matches_tag(args[0].md, "abcd"));
    CHECK(args[1].md && tsr_memory_desc_matches_tag(args[1].md, "abcd"));
    CHECK(args[2].md && tsr_memory_desc_matches_tag(args[2].md, "a"));
    CHECK(args[3].md && tsr_memory_desc_matches_tag(args[3].md, "abcd"));
    CHECK(tsr_primitive_desc_query_md(pd, tsr_query_undef) == NULL);
    size_t size = 1;
    CHECK_STATUS(tsr_primitive_desc_query_scratchpad_size(pd, &size),
                 tsr_success);
    CHECK(size == 0);
    const tsr_memory_desc_t *sp_md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    CHECK(sp_md && tsr_memory_desc_get_size(sp_md) == 0);

    /* The reference is the only convolution: iteration ends at once and
     * leaves the pd usable. */
    CHECK_STATUS(tsr_primitive_desc_next_impl(pd), tsr_last_impl_reached);
    CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "ref:any") == 0);

    tsr_primitive_desc_t clone;
    CHECK_STATUS(tsr_primitive_desc_clone(&clone, pd), tsr_success);
    CHECK(strcmp(tsr_primitive_desc_impl_name(clone), "ref:any") == 0);
    CHECK(tsr_memory_desc_equal(
            tsr_primitive_desc_query_md(clone, tsr_query_dst_md), args[3].md));
    CHECK_STATUS(tsr_primitive_desc_clone(NULL, pd), tsr_invalid_arguments);

    tsr_primitive_t prim;
    CHECK_STATUS(tsr_primitive_create(&prim, clone), tsr_success);
    /* The primitive keeps its own pd. */
    tsr_primitive_desc_destroy(clone);
    const_tsr_primitive_desc_t prim_pd = NULL;
    CHECK_STATUS(tsr_primitive_get_primitive_desc(prim, &prim_pd), tsr_success);
    CHECK(prim_pd &&
          strcmp(tsr_primitive_desc_impl_name(prim_pd), "ref:any") == 0);

    CHECK_STATUS(run_primitive(prim, engine, stream, 4, args), tsr_success);
    CHECK(memcmp(dst, expected_dst, sizeof(dst)) == 0);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);

    /* Same problem in nhwc with stride 2, padding 1: windows at the
     * corners see 1, 2+3, 4+7 and 5+6+8+9 of the all-ones filter. */
    s = tiny_conv();
    s.stag = "acdb";
    s.dtag = "acdb";
    s.strides[0] = s.strides[1] = 2;
    s.pad_l[0] = s.pad_l[1] = 1;
    s.pad_r[0] = s.pad_r[1] = 1;
    CHECK_STATUS(conv_pd_make(&s, NULL, engine, &pd), tsr_success);
    CHECK_STATUS(tsr_primitive_create(&prim, pd), tsr_success);
    conv_pd_args(args, pd, src_vals, wei_vals, bias_vals, dst);
    CHECK(tsr_memory_desc_matches_tag(args[3].md, "acdb"));
    CHECK_STATUS(run_primitive(prim, engine, stream, 4, args), tsr_success);
    /* nhwc: (oh, ow, oc). oc0 = s[ih][iw] - s[ih+1][iw+1] + 0.5 at ih, iw
     * in {-1, 1}, out-of-range points 0; oc1 = window sum - 1. */
    const float expected_nhwc[8] = {-0.5f, 0.f,  -2.5f, 4.f,
                                    -6.5f, 10.f, -3.5f, 27.f};
    CHECK(memcmp(dst, expected_nhwc, sizeof(dst)) == 0);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
}

/* Every way to get execution wrong returns invalid_arguments and leaves
 * dst as it was. */
static void test_execute_errors(void) {
    conv_shape_t s = tiny_conv();
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scratchpad_mode(attr, tsr_scratchpad_mode_user);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_WEIGHTS, 1);
    tsr_primitive_attr_set_zero_points_mask(attr, TSR_ARG_DST, 0);
    tsr_memory_desc_t src1_md;
    const tsr_dim_t src1_dims[4] = {1, 2, 1, 1};
    set_binary_add(attr, src1_dims, &src1_md);

    tsr_primitive_desc_t pd;
    CHECK_STATUS(conv_pd_make(&s, attr, engine, &pd), tsr_success);
    tsr_primitive_attr_destroy(attr);
    tsr_primitive_t prim;
    CHECK_STATUS(tsr_primitive_create(&prim, pd), tsr_success);
    const tsr_memory_desc_t *sp_md =
            tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
    CHECK(sp_md && sp_md->ndims == 0);

    float wei_scales[2] = {1.f, 1.f};
    int32_t dst_zp[1] = {0};
    float src1[2] = {0.f, 0.f};
    tsr_memory_desc_t wsc_md = md_1d(2, tsr_f32);
    tsr_memory_desc_t zp_md = md_1d(1, tsr_s32);
    float dst[8];
    fill_sentinel(dst, 8);
    const int src1_arg = TSR_ARG_ATTR_MULTIPLE_POST_OP(0) | TSR_ARG_SRC_1;
    test_arg_t good[7];
    conv_pd_args(good, pd, src_vals, wei_vals, bias_vals, dst);
    good[4] = (test_arg_t){TSR_ARG_ATTR_SCALES | TSR_ARG_WEIGHTS, &wsc_md,
                           wei_scales};
    good[5] = (test_arg_t){TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_DST, &zp_md,
                           dst_zp};
    good[6] = (test_arg_t){src1_arg, &src1_md, src1};
    test_arg_t args[8];

    /* Each required argument left out in turn. */
    for (int skip = 0; skip < 7; skip++) {
        int n = 0;
        for (int i = 0; i < 7; i++)
            if (i != skip)
                args[n++] = good[i];
        CHECK_STATUS(run_primitive(prim, engine, stream, n, args),
                     tsr_invalid_arguments);
    }
    CHECK(all_sentinel(dst, 8));

    /* A dst described in another layout. */
    tsr_memory_desc_t nhwc;
    tsr_memory_desc_init_by_tag(&nhwc, 4, s.dst, tsr_f32, "acdb");
    memcpy(args, good, sizeof(good));
    args[3].md = &nhwc;
    CHECK_STATUS(run_primitive(prim, engine, stream, 7, args),
                 tsr_invalid_arguments);
    /* Scales of the wrong count, zero points of the wrong type. */
    tsr_memory_desc_t wsc3 = md_1d(3, tsr_f32), zp_f32 = md_1d(1, tsr_f32);
    float three[3] = {1, 1, 1};
    memcpy(args, good, sizeof(good));
    args[4].md = &wsc3;
    args[4].data = three;
    CHECK_STATUS(run_primitive(prim, engine, stream, 7, args),
                 tsr_invalid_arguments);
    memcpy(args, good, sizeof(good));
    args[5].md = &zp_f32;
    CHECK_STATUS(run_primitive(prim, engine, stream, 7, args),
                 tsr_invalid_arguments);
    /* The same argument twice. */
    memcpy(args, good, sizeof(good));
    args[7] = good[0];
    CHECK_STATUS(run_primitive(prim, engine, stream, 8, args),
                 tsr_invalid_arguments);
    /* A scratchpad that is not a u8 buffer, in user mode. */
    memcpy(args, good, sizeof(good));
    args[7] = (test_arg_t){TSR_ARG_SCRATCHPAD, good[3].md, three};
    CHECK_STATUS(run_primitive(prim, engine, stream, 8, args),
                 tsr_invalid_arguments);
    /* Bad call shapes. */
    tsr_exec_arg_t none[1];
    CHECK_STATUS(tsr_primitive_execute(prim, NULL, 0, none),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_execute(prim, stream, -1, none),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_execute(prim, stream, 2, NULL),
                 tsr_invalid_arguments);
    CHECK_STATUS(tsr_primitive_execute(NULL, stream, 0, none),
                 tsr_invalid_arguments);
    none[0].arg = TSR_ARG_SRC;
    none[0].memory = NULL;
    CHECK_STATUS(tsr_primitive_execute(prim, stream, 1, none),
                 tsr_invalid_arguments);
    CHECK(all_sentinel(dst, 8));

    /* Everything right, scratchpad of zero size omitted: runs. */
    CHECK_STATUS(run_primitive(prim, engine, stream, 7, good), tsr_success);
    CHECK(memcmp(dst, expected_dst, sizeof(dst)) == 0);
    /* And with a right-kind scratchpad passed although none is needed. */
    unsigned char sp[16];
    tsr_memory_desc_t sp16 = md_1d(16, tsr_u8);
    memcpy(args, good, sizeof(good));
    args[7] = (test_arg_t){TSR_ARG_SCRATCHPAD, &sp16, sp};
    fill_sentinel(dst, 8);
    CHECK_STATUS(run_primitive(prim, engine, stream, 8, args), tsr_success);
    CHECK(memcmp(dst, expected_dst, sizeof(dst)) == 0);

    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
}

static void test_isa_and_verbose(void) {
    const tsr_cpu_isa_t isa = tsr_get_effective_cpu_isa();
    CHECK(isa >= tsr_cpu_isa_generic && isa <= tsr_cpu_isa_avx512_core_amx);
    CHECK_STATUS(tsr_set_max_cpu_isa((tsr_cpu_isa_t)17), tsr_invalid_arguments);
    /* Primitives were created already: the cap is frozen. */
    CHECK_STATUS(tsr_set_max_cpu_isa(tsr_cpu_isa_generic),
                 tsr_invalid_arguments);
    CHECK(tsr_get_effective_cpu_isa() == isa);
    const char *cap = getenv("TSR_MAX_CPU_ISA");
    if (cap && strcmp(cap, "generic") == 0)
        CHECK(isa == tsr_cpu_isa_generic);
    CHECK(tsr_get_max_threads() >= 1);

    CHECK_STATUS(tsr_set_verbose(-1), tsr_invalid_arguments);
    CHECK_STATUS(tsr_set_verbose(3), tsr_invalid_arguments);

    /* One execution line, captured from stdout. */
    char path[] = "/tmp/tsr_verbose_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    dup2(fd, STDOUT_FILENO);
    CHECK_STATUS(tsr_set_verbose(1), tsr_success);

    conv_shape_t s = tiny_conv();
    tsr_primitive_desc_t pd;
    tsr_primitive_t prim;
    float dst[8];
    CHECK_STATUS(conv_pd_make(&s, NULL, engine, &pd), tsr_success);
    CHECK_STATUS(tsr_primitive_create(&prim, pd), tsr_success);
    test_arg_t args[4];
    conv_pd_args(args, pd, src_vals, wei_vals, bias_vals, dst);
    CHECK_STATUS(run_primitive(prim, engine, stream, 4, args), tsr_success);
    tsr_set_verbose(0);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);

    char line[1024] = {0};
    FILE *f = fdopen(fd, "r");
    rewind(f);
    CHECK(fgets(line, sizeof(line), f) != NULL);
    fclose(f);
    unlink(path);
    const char *head = "tessera_verbose,exec,cpu,convolution,ref:any,"
                       "forward_inference,src_f32::blocked:abcd::f0 "
                       "wei_f32::blocked:abcd::f0 bia_f32::blocked:a::f0 "
                       "dst_f32::blocked:abcd::f0,,alg:convolution_direct,"
                       "mb1_ic1oc2_ih3oh2kh2sh1dh0ph0_iw3ow2kw2sw1dw0pw0,";
    CHECK(strncmp(line, head, strlen(head)) == 0);
    if (strncmp(line, head, strlen(head)) != 0)
        fprintf(stderr, "verbose line: %s", line);
}

int main(void) {
    CHECK_STATUS(tsr_engine_create(&engine, tsr_cpu, 0), tsr_success);
    CHECK_STATUS(tsr_stream_create(&stream, engine), tsr_success);
    test_names();
    test_attr_errors();
    test_post_ops_errors();
    test_conv_desc_errors();
    test_conv_desc_overflow();
    test_hand_built_mds();
    test_conv_huge_outputs();
    test_pd_errors();
    test_arg_queries();
    test_conv_end_to_end();
    test_execute_errors();
    test_isa_and_verbose();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
