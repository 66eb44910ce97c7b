/* AlexNet conv3 + ReLU in int8, the quantization workflow of the seeds:
 *
 *   1. calibrate: from the f32 data ranges derive the scales, with
 *      f32 = scale * int8 for every tensor:
 *        src (non-negative, u8):      s_src     = max(src) / 255, common;
 *        weights (s8):                s_wei[oc] = max|wei[oc, ...]| / 127,
 *                                     one per output channel;
 *        dst (after ReLU, u8):        s_dst     = max(dst_f32) / 255;
 *   2. quantize with reorders whose output scales carry the factors:
 *        src_u8  = round(src / s_src)            (mask 0, one value)
 *        wei_s8  = round(wei / s_wei[oc])        (mask 1: dim 0 of oihw)
 *        bias_q  = bias / (s_src * s_wei[oc])    (mask 1: the bias' dim,
 *                                                 kept in f32)
 *   3. run the u8 x s8 -> u8 convolution with per-channel output scales
 *        dst_u8 = saturate(round(relu(oscale[oc] * (acc_s32 + bias_q))))
 *        oscale[oc] = s_src * s_wei[oc] / s_dst   (mask 2: dim 1 of nchw)
 *      and layouts left to the library ("any");
 *   4. dequantize with a reorder: dst_f32 = s_dst * dst_u8.
 *
 * The int8 result is compared with the same layer computed in f32; the
 * program prints the error and exits non-zero when it exceeds the bound
 * derived next to the check. Usage: simple_int8_net [MB] (default 1). */
#include <math.h>

#include "example_utils.h"

/* Output scales (tessera.h's v2.x attribute) on a fresh attribute object. */
static tsr_primitive_attr_t scales_attr(int mask, tsr_dim_t count,
                                        const float *scales) {
    tsr_primitive_attr_t attr;
    CHECK(tsr_primitive_attr_create(&attr));
    CHECK(tsr_primitive_attr_set_output_scales(attr, count, mask, scales));
    return attr;
}

static float max_abs(const float *v, size_t n) {
    float m = 0.f;
    for (size_t i = 0; i < n; i++)
        m = fmaxf(m, fabsf(v[i]));
    return m;
}

int main(int argc, char **argv) {
    const tsr_dim_t mb = argc > 1 ? atoi(argv[1]) : 1;
    if (mb < 1) {
        fprintf(stderr, "usage: simple_int8_net [MB >= 1]\n");
        return 2;
    }
    const conv_shape_t s = alexnet_conv3(mb);
    const size_t n_src = src_count(&s), n_wei = wei_count(&s);
    const size_t n_dst = dst_count(&s), per_oc = n_wei / (size_t)s.oc;
    tsr_dim_t src_dims[4], wei_dims[4], bia_dims[1], dst_dims[4];
    conv_dims(&s, src_dims, wei_dims, bia_dims, dst_dims);
    const tsr_dim_t strides[] = {1, 1}, dilates[] = {0, 0};
    const tsr_dim_t pad[] = {s.pad, s.pad};

    tsr_engine_t engine;
    tsr_stream_t stream;
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0));
    CHECK(tsr_stream_create(&stream, engine));

    /* f32 user data: activations in [0, 1); weights whose magnitude
     * differs between output channels (what per-channel scales are for). */
    float *src = malloc(n_src * sizeof(float));
    float *wei = malloc(n_wei * sizeof(float));
    float *bia = malloc((size_t)s.oc * sizeof(float));
    float *dst = malloc(n_dst * sizeof(float));
    float *expected = malloc(n_dst * sizeof(float));
    float *wei_scales = malloc((size_t)s.oc * sizeof(float));
    float *inv_wei_scales = malloc((size_t)s.oc * sizeof(float));
    float *bias_factors = malloc((size_t)s.oc * sizeof(float));
    float *conv_scales = malloc((size_t)s.oc * sizeof(float));
    if (!src || !wei || !bia || !dst || !expected || !wei_scales ||
        !inv_wei_scales || !bias_factors || !conv_scales) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    fill_uniform(src, n_src, 0.f, 1.f, 11);
    for (tsr_dim_t oc = 0; oc < s.oc; oc++) {
        const float amplitude = 0.01f + 0.09f * (float)(oc % 8) / 7.f;
        fill_uniform(wei + (size_t)oc * per_oc, per_oc, -amplitude, amplitude,
                     (uint32_t)(1000 + oc));
    }
    fill_uniform(bia, (size_t)s.oc, -0.2f, 0.2f, 13);

    /* 1. Calibration (a real application uses a calibration data set; here
     * the f32 layer on the same data gives the dst range). */
    ref_conv_relu_f32(&s, src, wei, bia, expected);
    const float src_scale = max_abs(src, n_src) / 255.f;
    const float dst_scale = max_abs(expected, n_dst) / 255.f;
    const float inv_src_scale = 1.f / src_scale;
    for (tsr_dim_t oc = 0; oc < s.oc; oc++) {
        wei_scales[oc] = max_abs(wei + (size_t)oc * per_oc, per_oc) / 127.f;
        inv_wei_scales[oc] = 1.f / wei_scales[oc];
        bias_factors[oc] = 1.f / (src_scale * wei_scales[oc]);
        conv_scales[oc] = src_scale * wei_scales[oc] / dst_scale;
    }

    /* User memories: f32, plain layouts. */
    tsr_memory_desc_t user_src_md, user_wei_md, user_bia_md, user_dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&user_src_md, 4, src_dims, tsr_f32,
                                      "nchw"));
    CHECK(tsr_memory_desc_init_by_tag(&user_wei_md, 4, wei_dims, tsr_f32,
                                      "oihw"));
    CHECK(tsr_memory_desc_init_by_tag(&user_bia_md, 1, bia_dims, tsr_f32, "x"));
    CHECK(tsr_memory_desc_init_by_tag(&user_dst_md, 4, dst_dims, tsr_f32,
                                      "nchw"));
    tsr_memory_t user_src, user_wei, user_bia, user_dst;
    CHECK(tsr_memory_create(&user_src, &user_src_md, engine, src));
    CHECK(tsr_memory_create(&user_wei, &user_wei_md, engine, wei));
    CHECK(tsr_memory_create(&user_bia, &user_bia_md, engine, bia));
    CHECK(tsr_memory_create(&user_dst, &user_dst_md, engine, dst));

    /* 3 (creation first, so the reorders know the layouts): u8 x s8 -> u8
     * with "any" layouts, per-channel output scales and a fused ReLU. */
    tsr_memory_desc_t conv_src_any, conv_wei_any, conv_dst_any;
    CHECK(tsr_memory_desc_init_by_tag(&conv_src_any, 4, src_dims, tsr_u8,
                                      "any"));
    CHECK(tsr_memory_desc_init_by_tag(&conv_wei_any, 4, wei_dims, tsr_s8,
                                      "any"));
    CHECK(tsr_memory_desc_init_by_tag(&conv_dst_any, 4, dst_dims, tsr_u8,
                                      "any"));
    tsr_convolution_desc_t conv_desc;
    CHECK(tsr_convolution_forward_desc_init(
            &conv_desc, tsr_forward_inference, tsr_convolution_direct,
            &conv_src_any, &conv_wei_any, &user_bia_md, &conv_dst_any, strides,
            dilates, pad, pad));
    tsr_post_ops_t post_ops;
    CHECK(tsr_post_ops_create(&post_ops));
    CHECK(tsr_post_ops_append_eltwise(post_ops, 1.f, tsr_eltwise_relu, 0.f,
                                      0.f));
    tsr_primitive_attr_t conv_attr = scales_attr(1 << 1, s.oc, conv_scales);
    CHECK(tsr_primitive_attr_set_post_ops(conv_attr, post_ops));
    tsr_primitive_desc_t conv_pd;
    CHECK(tsr_primitive_desc_create(&conv_pd, &conv_desc, conv_attr, engine));
    const tsr_memory_desc_t *conv_src_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_src_md);
    const tsr_memory_desc_t *conv_wei_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_weights_md);
    const tsr_memory_desc_t *conv_dst_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_dst_md);
    printf("simple_int8_net: AlexNet conv3 u8s8u8 + relu, mb%lld, "
           "implementation %s\n",
           (long long)s.mb, tsr_primitive_desc_impl_name(conv_pd));
    print_layout("src", conv_src_md);
    print_layout("weights", conv_wei_md);
    print_layout("dst", conv_dst_md);
    float wei_scale_min = wei_scales[0], wei_scale_max = wei_scales[0];
    for (tsr_dim_t oc = 1; oc < s.oc; oc++) {
        wei_scale_min = fminf(wei_scale_min, wei_scales[oc]);
        wei_scale_max = fmaxf(wei_scale_max, wei_scales[oc]);
    }
    printf("  scales: src %.4g, weights %.4g..%.4g (per channel), dst %.4g\n",
           (double)src_scale, (double)wei_scale_min, (double)wei_scale_max,
           (double)dst_scale);

    /* 2. Quantizing reorders into the layouts the convolution chose. */
    tsr_primitive_attr_t src_attr = scales_attr(0, 1, &inv_src_scale);
    tsr_primitive_attr_t wei_attr = scales_attr(1 << 0, s.oc, inv_wei_scales);
    tsr_primitive_attr_t bia_attr = scales_attr(1 << 0, s.oc, bias_factors);
    tsr_memory_t conv_src, conv_wei, conv_bia, conv_dst;
    memory_for_primitive(user_src, conv_src_md, src_attr, engine, stream,
                         &conv_src);
    memory_for_primitive(user_wei, conv_wei_md, wei_attr, engine, stream,
                         &conv_wei);
    memory_for_primitive(user_bia, &user_bia_md, bia_attr, engine, stream,
                         &conv_bia);
    CHECK(tsr_memory_create(&conv_dst, conv_dst_md, engine,
                            TSR_MEMORY_ALLOCATE));

    /* 3. The int8 convolution. */
    tsr_primitive_t conv;
    CHECK(tsr_primitive_create(&conv, conv_pd));
    const tsr_exec_arg_t args[] = {{TSR_ARG_SRC, conv_src},
                                   {TSR_ARG_WEIGHTS, conv_wei},
                                   {TSR_ARG_BIAS, conv_bia},
                                   {TSR_ARG_DST, conv_dst}};
    execute(conv_pd, conv, engine, stream, 4, args);

    /* 4. Dequantize into the user's f32 nchw buffer. */
    tsr_primitive_attr_t dst_attr = scales_attr(0, 1, &dst_scale);
    reorder(conv_dst, user_dst, dst_attr, engine, stream);

    /* How far int8 is from f32. With e_x = s_src * src_u8 - src and
     * e_w = s_wei * wei_s8 - wei (|e_x| <= s_src / 2, |e_w| <= s_wei / 2,
     * rounding errors spread evenly over those intervals and independent of
     * each other), the scaled s32 accumulation differs from the f32 sum by
     *   D = sum over the K = IC * KH * KW terms of (x e_w + w e_x + e_x e_w),
     * with variance sum (x^2 s_wei^2 + w^2 s_src^2) / 12 + K s_src^2
     * s_wei^2 / 144 <= K s_src^2 s_wei^2 (255^2 + 127^2 + 1/12) / 12, since
     * |x| <= 255 s_src and |w| <= 127 s_wei. ReLU does not enlarge a
     * difference, and the u8 store rounds by at most s_dst / 2. The bound
     * per output channel is 6 standard deviations of D (the data are fixed,
     * so the check is reproducible; 6 sigma leaves a wide margin over the
     * 65k outputs) plus one full dst step for the rounding and the f32
     * arithmetic around it. A wrong scale, channel or layout gives errors
     * of the order of the output range, far above this bound. */
    const double k_terms = (double)(s.ic * s.kh * s.kw);
    const double spread =
            sqrt(k_terms * (255.0 * 255.0 + 127.0 * 127.0 + 1.0 / 12) / 12);
    double max_err = 0, max_bound = 0, worst_ratio = 0;
    for (size_t i = 0; i < n_dst; i++) {
        const size_t oc = (i / (size_t)(s.oh * s.ow)) % (size_t)s.oc;
        const double bound =
                6 * src_scale * wei_scales[oc] * spread + dst_scale;
        const double err = fabs((double)dst[i] - expected[i]);
        if (!(err <= max_err)) /* NaN included */
            max_err = err;
        if (bound > max_bound)
            max_bound = bound;
        if (!(err / bound <= worst_ratio))
            worst_ratio = err / bound;
    }
    const double range = 255.0 * dst_scale;
    const int ok = worst_ratio <= 1.0;
    printf("  f32 outputs in [0, %.3f]; int8 max abs error %.4g = %.2f%% of "
           "the range (bound up to %.4g = %.2f%%; worst error/bound %.2f): "
           "%s\n",
           range, max_err, 100 * max_err / range, max_bound,
           100 * max_bound / range, worst_ratio, ok ? "ok" : "WRONG");

    tsr_primitive_destroy(conv);
    tsr_primitive_desc_destroy(conv_pd);
    tsr_memory_destroy(conv_src);
    tsr_memory_destroy(conv_wei);
    tsr_memory_destroy(conv_bia);
    tsr_memory_destroy(conv_dst);
    tsr_memory_destroy(user_src);
    tsr_memory_destroy(user_wei);
    tsr_memory_destroy(user_bia);
    tsr_memory_destroy(user_dst);
    tsr_primitive_attr_destroy(conv_attr);
    tsr_primitive_attr_destroy(src_attr);
    tsr_primitive_attr_destroy(wei_attr);
    tsr_primitive_attr_destroy(bia_attr);
    tsr_primitive_attr_destroy(dst_attr);
    tsr_post_ops_destroy(post_ops);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    free(src);
    free(wei);
    free(bia);
    free(dst);
    free(expected);
    free(wei_scales);
    free(inv_wei_scales);
    free(bias_factors);
    free(conv_scales);
    return ok ? 0 : 1;
}
