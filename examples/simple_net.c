/* AlexNet conv3 in f32, the way an application runs a layer:
 *   - user data lives in plain nchw / oihw buffers;
 *   - the convolution is created with "any" layouts, so the library picks
 *     the ones its fastest implementation wants;
 *   - inputs are reordered into those layouts when they differ, the output
 *     is reordered back to nchw;
 *   - the scratchpad is owned by the user (scratchpad mode "user"): its size
 *     is queried from the primitive descriptor and a buffer is passed at
 *     execution;
 *   - the result is checked against plain loops.
 * Usage: simple_net [MB]  (minibatch, default 1). Exits non-zero when
 * anything fails or the result is off by more than the stated bound. */
#include <math.h>

#include "example_utils.h"

int main(int argc, char **argv) {
    const tsr_dim_t mb = argc > 1 ? atoi(argv[1]) : 1;
    if (mb < 1) {
        fprintf(stderr, "usage: simple_net [MB >= 1]\n");
        return 2;
    }
    const conv_shape_t s = alexnet_conv3(mb);
    tsr_dim_t src_dims[4], wei_dims[4], bia_dims[1], dst_dims[4];
    conv_dims(&s, src_dims, wei_dims, bia_dims, dst_dims);
    const tsr_dim_t strides[] = {1, 1}, dilates[] = {0, 0};
    const tsr_dim_t pad[] = {s.pad, s.pad};

    tsr_engine_t engine;
    tsr_stream_t stream;
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0));
    CHECK(tsr_stream_create(&stream, engine));

    /* User data: activations in [0, 1) (the output of a ReLU), weights and
     * bias around zero. */
    float *src = malloc(src_count(&s) * sizeof(float));
    float *wei = malloc(wei_count(&s) * sizeof(float));
    float *bia = malloc((size_t)s.oc * sizeof(float));
    float *dst = malloc(dst_count(&s) * sizeof(float));
    float *expected = malloc(dst_count(&s) * sizeof(float));
    if (!src || !wei || !bia || !dst || !expected) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    fill_uniform(src, src_count(&s), 0.f, 1.f, 1);
    fill_uniform(wei, wei_count(&s), -0.05f, 0.05f, 2);
    fill_uniform(bia, (size_t)s.oc, -0.5f, 0.5f, 3);

    tsr_memory_desc_t user_src_md, user_wei_md, bia_md, user_dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&user_src_md, 4, src_dims, tsr_f32,
                                      "nchw"));
    CHECK(tsr_memory_desc_init_by_tag(&user_wei_md, 4, wei_dims, tsr_f32,
                                      "oihw"));
    CHECK(tsr_memory_desc_init_by_tag(&bia_md, 1, bia_dims, tsr_f32, "x"));
    CHECK(tsr_memory_desc_init_by_tag(&user_dst_md, 4, dst_dims, tsr_f32,
                                      "nchw"));
    tsr_memory_t user_src, user_wei, bia_mem, user_dst;
    CHECK(tsr_memory_create(&user_src, &user_src_md, engine, src));
    CHECK(tsr_memory_create(&user_wei, &user_wei_md, engine, wei));
    CHECK(tsr_memory_create(&bia_mem, &bia_md, engine, bia));
    CHECK(tsr_memory_create(&user_dst, &user_dst_md, engine, dst));

    /* The convolution with layouts left to the library. */
    tsr_memory_desc_t any_src_md, any_wei_md, any_dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&any_src_md, 4, src_dims, tsr_f32,
                                      "any"));
    CHECK(tsr_memory_desc_init_by_tag(&any_wei_md, 4, wei_dims, tsr_f32,
                                      "any"));
    CHECK(tsr_memory_desc_init_by_tag(&any_dst_md, 4, dst_dims, tsr_f32,
                                      "any"));
    tsr_convolution_desc_t conv_desc;
    CHECK(tsr_convolution_forward_desc_init(&conv_desc, tsr_forward_inference,
                                            tsr_convolution_direct, &any_src_md,
                                            &any_wei_md, &bia_md, &any_dst_md,
                                            strides, dilates, pad, pad));

    /* ReLU fused as a post-op; the scratchpad belongs to the user. */
    tsr_post_ops_t post_ops;
    tsr_primitive_attr_t attr;
    CHECK(tsr_post_ops_create(&post_ops));
    CHECK(tsr_post_ops_append_eltwise(post_ops, 1.f, tsr_eltwise_relu, 0.f,
                                      0.f));
    CHECK(tsr_primitive_attr_create(&attr));
    CHECK(tsr_primitive_attr_set_post_ops(attr, post_ops));
    CHECK(tsr_primitive_attr_set_scratchpad_mode(attr,
                                                 tsr_scratchpad_mode_user));
    tsr_primitive_desc_t conv_pd;
    CHECK(tsr_primitive_desc_create(&conv_pd, &conv_desc, attr, engine));

    const tsr_memory_desc_t *conv_src_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_src_md);
    const tsr_memory_desc_t *conv_wei_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_weights_md);
    const tsr_memory_desc_t *conv_dst_md =
            tsr_primitive_desc_query_md(conv_pd, tsr_query_dst_md);
    size_t scratchpad_size = 0;
    CHECK(tsr_primitive_desc_query_scratchpad_size(conv_pd, &scratchpad_size));
    printf("simple_net: AlexNet conv3 f32, mb%lld, implementation %s\n",
           (long long)s.mb, tsr_primitive_desc_impl_name(conv_pd));
    print_layout("src", conv_src_md);
    print_layout("weights", conv_wei_md);
    print_layout("dst", conv_dst_md);
    printf("  user scratchpad: %zu bytes\n", scratchpad_size);

    /* Inputs into the chosen layouts (no copy when they already match),
     * dst in its own memory when the chosen layout is not nchw. */
    tsr_memory_t conv_src, conv_wei, conv_dst;
    const int own_src = memory_for_primitive(user_src, conv_src_md, NULL,
                                             engine, stream, &conv_src);
    const int own_wei = memory_for_primitive(user_wei, conv_wei_md, NULL,
                                             engine, stream, &conv_wei);
    const int own_dst = !tsr_memory_desc_equal(&user_dst_md, conv_dst_md);
    if (own_dst)
        CHECK(tsr_memory_create(&conv_dst, conv_dst_md, engine,
                                TSR_MEMORY_ALLOCATE));
    else
        conv_dst = user_dst;

    tsr_primitive_t conv;
    CHECK(tsr_primitive_create(&conv, conv_pd));
    const tsr_exec_arg_t args[] = {{TSR_ARG_SRC, conv_src},
                                   {TSR_ARG_WEIGHTS, conv_wei},
                                   {TSR_ARG_BIAS, bia_mem},
                                   {TSR_ARG_DST, conv_dst}};
    execute(conv_pd, conv, engine, stream, 4, args);
    if (own_dst)
        reorder(conv_dst, user_dst, NULL, engine, stream);

    /* Check against plain loops (summing in double). The library sums the
     * K = 256 * 3 * 3 = 2304 products in f32, in its own order; the classic
     * bound for that, the products' rounding included, is about
     * (K + 1) * 2^-24 * sum |src * wei|, and sum |src * wei| <= K * 1 * 0.05
     * = 115.2 here, so 0.016. Real mistakes are far larger: the outputs
     * reach several units. */
    ref_conv_relu_f32(&s, src, wei, bia, expected);
    const double bound = 0.016;
    double max_err = 0, max_out = 0;
    for (size_t i = 0; i < dst_count(&s); i++) {
        const double err = fabs((double)dst[i] - expected[i]);
        if (!(err <= max_err)) /* also catches NaN */
            max_err = err;
        if (expected[i] > max_out)
            max_out = expected[i];
    }
    const int ok = max_err <= bound;
    printf("  outputs in [0, %.3f], max abs error %.3g (bound %.3g): %s\n",
           max_out, max_err, bound, ok ? "ok" : "WRONG");

    tsr_primitive_destroy(conv);
    tsr_primitive_desc_destroy(conv_pd);
    if (own_src)
        tsr_memory_destroy(conv_src);
    if (own_wei)
        tsr_memory_destroy(conv_wei);
    if (own_dst)
        tsr_memory_destroy(conv_dst);
    tsr_memory_destroy(user_src);
    tsr_memory_destroy(user_wei);
    tsr_memory_destroy(bia_mem);
    tsr_memory_destroy(user_dst);
    tsr_primitive_attr_destroy(attr);
    tsr_post_ops_destroy(post_ops);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    free(src);
    free(wei);
    free(bia);
    free(dst);
    free(expected);
    return ok ? 0 : 1;
}
