/* The smallest complete Tessera program: describe a convolution, create
 * its primitive, run it on user buffers, check one output, free it all.
 * Exits non-zero when anything goes wrong. */
#include <stdio.h>
#include <stdlib.h>

#include <tessera.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        tsr_status_t s_ = (call);                                              \
        if (s_ != tsr_success) {                                               \
            fprintf(stderr, "%s failed: %s\n", #call, tsr_status2str(s_));     \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

int main(void) {
    /* 1x3x8x8 input, 4 output channels, 3x3 kernel, padding 1. */
    const tsr_dim_t src_dims[] = {1, 3, 8, 8}, wei_dims[] = {4, 3, 3, 3};
    const tsr_dim_t bia_dims[] = {4}, dst_dims[] = {1, 4, 8, 8};
    const tsr_dim_t strides[] = {1, 1}, dilates[] = {0, 0};
    const tsr_dim_t pad[] = {1, 1};

    tsr_engine_t engine;
    tsr_stream_t stream;
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0));
    CHECK(tsr_stream_create(&stream, engine));

    tsr_memory_desc_t src_md, wei_md, bia_md, dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&src_md, 4, src_dims, tsr_f32, "nchw"));
    CHECK(tsr_memory_desc_init_by_tag(&wei_md, 4, wei_dims, tsr_f32, "oihw"));
    CHECK(tsr_memory_desc_init_by_tag(&bia_md, 1, bia_dims, tsr_f32, "x"));
    CHECK(tsr_memory_desc_init_by_tag(&dst_md, 4, dst_dims, tsr_f32, "nchw"));

    /* A ReLU fused as a post-op. */
    tsr_post_ops_t post_ops;
    tsr_primitive_attr_t attr;
    CHECK(tsr_post_ops_create(&post_ops));
    CHECK(tsr_post_ops_append_eltwise(post_ops, 1.f, tsr_eltwise_relu, 0, 0));
    CHECK(tsr_primitive_attr_create(&attr));
    CHECK(tsr_primitive_attr_set_post_ops(attr, post_ops));

    tsr_convolution_desc_t conv;
    CHECK(tsr_convolution_forward_desc_init(
            &conv, tsr_forward_inference, tsr_convolution_direct, &src_md,
            &wei_md, &bia_md, &dst_md, strides, dilates, pad, pad));
    tsr_primitive_desc_t pd;
    CHECK(tsr_primitive_desc_create(&pd, &conv, attr, engine));
    printf("implementation: %s\n", tsr_primitive_desc_impl_name(pd));

    float src[1 * 3 * 8 * 8], wei[4 * 3 * 3 * 3], bia[4], dst[1 * 4 * 8 * 8];
    for (int i = 0; i < 3 * 8 * 8; i++)
        src[i] = 1.f;
    for (int i = 0; i < 4 * 3 * 3 * 3; i++)
        wei[i] = (i / 27) % 2 ? -1.f : 1.f; /* channels 1 and 3 negative */
    for (int i = 0; i < 4; i++)
        bia[i] = 0.5f;

    tsr_memory_t src_m, wei_m, bia_m, dst_m;
    CHECK(tsr_memory_create(&src_m, &src_md, engine, src));
    CHECK(tsr_memory_create(&wei_m, &wei_md, engine, wei));
    CHECK(tsr_memory_create(&bia_m, &bia_md, engine, bia));
    CHECK(tsr_memory_create(&dst_m, &dst_md, engine, dst));

    tsr_primitive_t conv_prim;
    CHECK(tsr_primitive_create(&conv_prim, pd));
    const tsr_exec_arg_t args[] = {{TSR_ARG_SRC, src_m},
                                   {TSR_ARG_WEIGHTS, wei_m},
                                   {TSR_ARG_BIAS, bia_m},
                                   {TSR_ARG_DST, dst_m}};
    CHECK(tsr_primitive_execute(conv_prim, stream, 4, args));
    CHECK(tsr_stream_wait(stream));

    /* An interior point sees all 27 inputs: 27 + 0.5 for channel 0, and
     * max(-27 + 0.5, 0) = 0 for channel 1 after the ReLU. */
    const float got0 = dst[0 * 64 + 3 * 8 + 3], got1 = dst[1 * 64 + 3 * 8 + 3];
    int ok = got0 == 27.5f && got1 == 0.f;
    printf("dst[0,0,3,3] = %g (expect 27.5), dst[0,1,3,3] = %g (expect 0): "
           "%s\n",
           got0, got1, ok ? "ok" : "WRONG");

    tsr_primitive_destroy(conv_prim);
    tsr_primitive_desc_destroy(pd);
    tsr_memory_destroy(src_m);
    tsr_memory_destroy(wei_m);
    tsr_memory_destroy(bia_m);
    tsr_memory_destroy(dst_m);
    tsr_primitive_attr_destroy(attr);
    tsr_post_ops_destroy(post_ops);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return ok ? 0 : 1;
}
