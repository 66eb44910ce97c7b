/* The reference convolution's attribute math on small hand-checked
 * problems: legacy and per-argument scales (and where the bias goes in
 * each), zero points with padding, round modes, saturation, post-op
 * order, groups and dilation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_test_util.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

/* A 1D convolution: src 1 x IC x IW, weights OC x IC x KW (or grouped). */
static conv_shape_t conv_1d(tsr_dim_t ic, tsr_dim_t iw, tsr_dim_t oc,
                            tsr_dim_t kw, tsr_dim_t pad, tsr_data_type_t sdt,
                            tsr_data_type_t wdt, tsr_data_type_t ddt) {
    conv_shape_t s = {
            .ndims = 3,
            .wei_ndims = 3,
            .src = {1, ic, iw},
            .wei = {oc, ic, kw},
            .dst = {1, oc, iw + 2 * pad - kw + 1},
            .strides = {1},
            .pad_l = {pad},
            .pad_r = {pad},
    };
    conv_shape_set_plain(&s, tsr_f32);
    s.sdt = sdt;
    s.wdt = wdt;
    s.ddt = ddt;
    return s;
}

/* Runs `s` on the reference with `attr` and extra arguments on the given
 * buffers. */
static tsr_status_t run_conv(const conv_shape_t *s, tsr_primitive_attr_t attr,
                             void *src, void *wei, void *bia, void *dst,
                             int nextra, const test_arg_t *extra) {
    return conv_run_impl(s, attr, engine, stream, "ref:any", src, wei, bia, dst,
                         nextra, extra, NULL);
}

/* 1x1 kernel, IC 2, OC 2, IW 3. src ic0 = {10, 20, 200}, ic1 = {1, 2, 3};
 * weights oc0 = {1, 1}, oc1 = {2, -1}: acc oc0 = {11, 22, 203},
 * oc1 = {19, 38, 397}. */
static uint8_t q_src[6] = {10, 20, 200, 1, 2, 3};
static int8_t q_wei[4] = {1, 1, 2, -1};

static void test_legacy_scales_rounding(void) {
    conv_shape_t s = conv_1d(2, 3, 2, 1, 0, tsr_u8, tsr_s8, tsr_s8);
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    const float oscales[2] = {0.5f, 0.25f};
    CHECK_STATUS(tsr_primitive_attr_set_output_scales(attr, 2, 2, oscales),
                 tsr_success);
    int8_t dst[6];
    /* v: oc0 {5.5, 11, 101.5}, oc1 {4.75, 9.5, 99.25}; ties to even. */
    CHECK_STATUS(run_conv(&s, attr, q_src, q_wei, NULL, dst, 0, NULL),
                 tsr_success);
    const int8_t nearest[6] = {6, 11, 102, 5, 10, 99};
    CHECK(memcmp(dst, nearest, sizeof(dst)) == 0);

    tsr_primitive_attr_set_round_mode(attr, tsr_round_down);
    CHECK_STATUS(run_conv(&s, attr, q_src, q_wei, NULL, dst, 0, NULL),
                 tsr_success);
    const int8_t down[6] = {5, 11, 101, 4, 9, 99};
    CHECK(memcmp(dst, down, sizeof(dst)) == 0);
    tsr_primitive_attr_destroy(attr);

    /* No scales: 203 and 397 saturate to 127. */
    CHECK_STATUS(run_conv(&s, NULL, q_src, q_wei, NULL, dst, 0, NULL),
                 tsr_success);
    const int8_t saturated[6] = {11, 22, 127, 19, 38, 127};
    CHECK(memcmp(dst, saturated, sizeof(dst)) == 0);

    /* u8 dst with negative weights: oc1 = {2*10 - 1, ...} stays positive,
     * so flip the scale sign to see the low end clamp at 0. */
    s.ddt = tsr_u8;
    tsr_primitive_attr_create(&attr);
    const float neg[1] = {-1.f};
    tsr_primitive_attr_set_output_scales(attr, 1, 0, neg);
    uint8_t udst[6];
    CHECK_STATUS(run_conv(&s, attr, q_src, q_wei, NULL, udst, 0, NULL),
                 tsr_success);
    const uint8_t zeros[6] = {0};
    CHECK(memcmp(udst, zeros, sizeof(udst)) == 0);
    tsr_primitive_attr_destroy(attr);
    CHECK_STATUS(run_conv(&s, NULL, q_src, q_wei, NULL, udst, 0, NULL),
                 tsr_success);
    const uint8_t upper[6] = {11, 22, 203, 19, 38, 255};
    CHECK(memcmp(udst, upper, sizeof(udst)) == 0);
}

/* 1x1 kernel, IC 1, OC 2, IW 2, s8 src {3, -2}, weights {1, 1}, f32 dst,
 * bias {1, -1}. */
static void test_scales_and_bias_order(void) {
    conv_shape_t s = conv_1d(1, 2, 2, 1, 0, tsr_s8, tsr_s8, tsr_f32);
    s.bias = 2;
    int8_t src[2] = {3, -2}, wei[2] = {1, 1};
    float bias[2] = {1.f, -1.f}, dst[4];

    /* Legacy: v = oscale * (acc + bias) = 0.5 * {4, -1 | 2, -3}. */
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    const float half[1] = {0.5f};
    tsr_primitive_attr_set_output_scales(attr, 1, 0, half);
    CHECK_STATUS(run_conv(&s, attr, src, wei, bias, dst, 0, NULL), tsr_success);
    const float legacy[4] = {2.f, -0.5f, 1.f, -1.5f};
    CHECK(memcmp(dst, legacy, sizeof(dst)) == 0);
    tsr_primitive_attr_destroy(attr);

    /* Per argument: v = (acc * 0.5 * wei_scale[oc] + bias) / 0.25 with
     * wei_scale {2, 4}: oc0 {(3 + 1) * 4, (-2 + 1) * 4},
     * oc1 {(6 - 1) * 4, (-4 - 1) * 4}. */
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC, 0);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_WEIGHTS, 1);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_DST, 0);
    float src_scale[1] = {0.5f}, wei_scale[2] = {2.f, 4.f},
          dst_scale[1] = {0.25f};
    tsr_memory_desc_t one = md_1d(1, tsr_f32), two = md_1d(2, tsr_f32);
    test_arg_t extra[3] = {
            {TSR_ARG_ATTR_SCALES | TSR_ARG_SRC, &one, src_scale},
            {TSR_ARG_ATTR_SCALES | TSR_ARG_WEIGHTS, &two, wei_scale},
            {TSR_ARG_ATTR_SCALES | TSR_ARG_DST, &one, dst_scale}};
    CHECK_STATUS(run_conv(&s, attr, src, wei, bias, dst, 3, extra),
                 tsr_success);
    const float per_arg[4] = {16.f, -4.f, 20.f, -20.f};
    CHECK(memcmp(dst, per_arg, sizeof(dst)) == 0);
    tsr_primitive_attr_destroy(attr);

    /* Per-channel src scales cannot be applied after accumulation. */
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC, 2);
    tsr_primitive_desc_t pd;
    CHECK_STATUS(conv_pd_make(&s, attr, engine, &pd), tsr_unimplemented);
    tsr_primitive_attr_destroy(attr);
}

/* Kernel 3, padding 1, src u8 {12, 14, 16} with zero point 10 ->
 * {2, 4, 6}; ones filter. Padding stands for the real value 0, so the
 * outputs are {0 + 2 + 4, 2 + 4 + 6, 4 + 6 + 0}; dst zero point 3. */
static void test_zero_points_and_padding(void) {
    conv_shape_t s = conv_1d(1, 3, 1, 3, 1, tsr_u8, tsr_s8, tsr_s32);
    uint8_t src[3] = {12, 14, 16};
    int8_t wei[3] = {1, 1, 1};
    int32_t dst[3];
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_zero_points_mask(attr, TSR_ARG_SRC, 0);
    tsr_primitive_attr_set_zero_points_mask(attr, TSR_ARG_DST, 0);
    int32_t src_zp[1] = {10}, dst_zp[1] = {3};
    tsr_memory_desc_t zp_md = md_1d(1, tsr_s32);
    test_arg_t extra[2] = {
            {TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC, &zp_md, src_zp},
            {TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_DST, &zp_md, dst_zp}};
    CHECK_STATUS(run_conv(&s, attr, src, wei, NULL, dst, 2, extra),
                 tsr_success);
    const int32_t expected[3] = {9, 15, 13};
    CHECK(memcmp(dst, expected, sizeof(dst)) == 0);
    tsr_primitive_attr_destroy(attr);
}

/* 1x1, IC 1, OC 2, IW 2, f32 src {-3, 2}, weights {1, 2}: acc oc0
 * {-3, 2}, oc1 {-6, 4}; dst before {1, 5 | -3, 0}. Chain: sum(2, zp 1),
 * relu scaled by 0.5, add per-oc src1 {10, 20}. */
static void test_post_op_order(void) {
    conv_shape_t s = conv_1d(1, 2, 2, 1, 0, tsr_f32, tsr_f32, tsr_f32);
    float src[2] = {-3.f, 2.f}, wei[2] = {1.f, 2.f};
    float dst[4] = {1.f, 5.f, -3.f, 0.f};
    float src1[2] = {10.f, 20.f};
    tsr_memory_desc_t src1_md;
    const tsr_dim_t src1_dims[3] = {1, 2, 1};
    tsr_memory_desc_init_by_tag(&src1_md, 3, src1_dims, tsr_f32, "abc");

    tsr_post_ops_t po;
    tsr_post_ops_create(&po);
    tsr_post_ops_append_sum(po, 2.f, 1, tsr_data_type_undef);
    tsr_post_ops_append_eltwise(po, 0.5f, tsr_eltwise_relu, 0.f, 0.f);
    tsr_post_ops_append_binary(po, tsr_binary_add, &src1_md);
    tsr_primitive_attr_t attr;
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_post_ops(attr, po);
    tsr_post_ops_destroy(po);
    test_arg_t extra[1] = {
            {TSR_ARG_ATTR_MULTIPLE_POST_OP(2) | TSR_ARG_SRC_1, &src1_md, src1}};
    CHECK_STATUS(run_conv(&s, attr, src, wei, NULL, dst, 1, extra),
                 tsr_success);
    /* sum: {-3, 10 | -14, 2}; relu * 0.5: {0, 5 | 0, 1}; + src1. */
    const float expected[4] = {10.f, 15.f, 20.f, 21.f};
    CHECK(memcmp(dst, expected, sizeof(dst)) == 0);
    tsr_primitive_attr_destroy(attr);

    /* The other order (relu first) gives a different answer. */
    tsr_post_ops_create(&po);
    tsr_post_ops_append_eltwise(po, 1.f, tsr_eltwise_relu, 0.f, 0.f);
    tsr_post_ops_append_sum(po, 1.f, 0, tsr_data_type_undef);
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_post_ops(attr, po);
    tsr_post_ops_destroy(po);
    float dst2[4] = {1.f, 5.f, -3.f, 0.f};
    CHECK_STATUS(run_conv(&s, attr, src, wei, NULL, dst2, 0, NULL),
                 tsr_success);
    const float relu_then_sum[4] = {1.f, 7.f, -3.f, 4.f};
    CHECK(memcmp(dst2, relu_then_sum, sizeof(dst2)) == 0);
    tsr_primitive_attr_destroy(attr);
}

/* Depthwise (G 2, one channel each) and dilation. */
static void test_groups_and_dilation(void) {
    conv_shape_t s = conv_1d(2, 3, 2, 2, 0, tsr_f32, tsr_f32, tsr_f32);
    s.wei_ndims = 4;
    s.wei[0] = 2;
    s.wei[1] = 1;
    s.wei[2] = 1;
    s.wei[3] = 2;
    s.wtag = "abcd";
    float src[6] = {1, 2, 3, 10, 20, 30}, wei[4] = {1, 1, 1, -1}, dst[4];
    CHECK_STATUS(run_conv(&s, NULL, src, wei, NULL, dst, 0, NULL), tsr_success);
    const float depthwise[4] = {3.f, 5.f, -10.f, -10.f};
    CHECK(memcmp(dst, depthwise, sizeof(dst)) == 0);

    /* Kernel 2 with dilation 1 over {1, 2, 3, 4}: taps 2 apart. */
    conv_shape_t d = conv_1d(1, 4, 1, 2, 0, tsr_f32, tsr_f32, tsr_f32);
    d.dilates[0] = 1;
    d.dst[2] = 2;
    float dsrc[4] = {1, 2, 3, 4}, dwei[2] = {1, 1}, ddst[2];
    CHECK_STATUS(run_conv(&d, NULL, dsrc, dwei, NULL, ddst, 0, NULL),
                 tsr_success);
    CHECK(ddst[0] == 4.f && ddst[1] == 6.f);
}

/* Logical row-major values <-> a buffer in md's layout. */
static void pos_of(const tsr_memory_desc_t *md, tsr_dim_t l, tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        pos[d] = l % md->dims[d];
        l /= md->dims[d];
    }
}
static float *scatter(const tsr_memory_desc_t *md, const float *logical) {
    float *buf = calloc(tsr_memory_desc_get_size(md), 1);
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (tsr_dim_t l = 0; l < tsr_memory_desc_nelems(md); l++) {
        pos_of(md, l, pos);
        buf[tsr_memory_desc_offset(md, pos)] = logical[l];
    }
    return buf;
}
static void gather(const tsr_memory_desc_t *md, const float *buf,
                   float *logical) {
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (tsr_dim_t l = 0; l < tsr_memory_desc_nelems(md); l++) {
        pos_of(md, l, pos);
        logical[l] = buf[tsr_memory_desc_offset(md, pos)];
    }
}

/* Runs `s` on logical inputs through buffers in the layouts its tags
 * name; writes the logical dst. */
static tsr_status_t run_in_layouts(const conv_shape_t *s, const float *src,
                                   const float *wei, const float *bia,
                                   float *dst) {
    tsr_convolution_desc_t desc;
    tsr_status_t st = conv_desc_make(s, &desc);
    if (st != tsr_success)
        return st;
    float *src_buf = scatter(&desc.src_desc, src);
    float *wei_buf = scatter(&desc.weights_desc, wei);
    float *dst_buf = calloc(tsr_memory_desc_get_size(&desc.dst_desc), 1);
    st = run_conv(s, NULL, src_buf, wei_buf, (void *)bia, dst_buf, 0, NULL);
    if (st == tsr_success)
        gather(&desc.dst_desc, dst_buf, dst);
    free(src_buf);
    free(wei_buf);
    free(dst_buf);
    return st;
}

/* The same grouped, strided, asymmetrically padded problem in plain and
 * in blocked / permuted layouts gives the same logical result. */
static void test_layouts_agree(void) {
    conv_shape_t s = {
            .ndims = 4,
            .wei_ndims = 5,
            .src = {2, 4, 5, 4},
            .wei = {2, 3, 2, 3, 2},
            .dst = {2, 6, 3, 4},
            .bias = 6,
            .strides = {2, 1},
            .pad_l = {1, 0},
            .pad_r = {1, 1},
    };
    conv_shape_set_plain(&s, tsr_f32);
    enum {
        NSRC = 2 * 4 * 5 * 4,
        NWEI = 2 * 3 * 2 * 3 * 2,
        NDST = 2 * 6 * 3 * 4
    };
    float src[NSRC], wei[NWEI], bia[6], plain[NDST], other[NDST];
    for (int i = 0; i < NSRC; i++)
        src[i] = (float)((i * 7) % 11 - 5);
    for (int i = 0; i < NWEI; i++)
        wei[i] = (float)((i * 5) % 7 - 3);
    for (int i = 0; i < 6; i++)
        bia[i] = (float)i - 2.f;
    CHECK_STATUS(run_in_layouts(&s, src, wei, bia, plain), tsr_success);
    /* Spot check: n0, oc0, oh0, ow0 sees input rows 0..1 (row -1 is
     * padding), columns 0..1, channels 0..1 of group 0. */
    float expect = bia[0];
    for (int ic = 0; ic < 2; ic++)
        for (int kh = 1; kh < 3; kh++)
            for (int kw = 0; kw < 2; kw++)
                expect += src[(ic * 5 + kh - 1) * 4 + kw] *
                          wei[(ic * 3 + kh) * 2 + kw];
    CHECK(plain[0] == expect);

    const char *layouts[][3] = {{"aBcd8b", "abcde", "acdb"},
                                {"acdb", "aBCde2c2b", "aBcd4b"},
                                {"cdba", "adecb", "bacd"}};
    for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        s.stag = layouts[i][0];
        s.wtag = layouts[i][1];
        s.dtag = layouts[i][2];
        memset(other, 0, sizeof(other));
        CHECK_STATUS(run_in_layouts(&s, src, wei, bia, other), tsr_success);
        CHECK(memcmp(plain, other, sizeof(plain)) == 0);
    }
}

int main(void) {
    CHECK_STATUS(tsr_engine_create(&engine, tsr_cpu, 0), tsr_success);
    CHECK_STATUS(tsr_stream_create(&stream, engine), tsr_success);
    test_legacy_scales_rounding();
    test_scales_and_bias_order();
    test_zero_points_and_padding();
    test_post_op_order();
    test_groups_and_dilation();
    test_layouts_agree();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
