/* Inner product and matmul through the public API: descriptor checks
 * (errors leave the output untouched), the implementation choice and its
 * layouts for "any", and results of the GEMM and reference paths against a
 * naive product, with transposed and broadcast operands, bias, scales,
 * post-ops and a user scratchpad. Integer-valued data keeps every result
 * exact, so comparisons are exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

static tsr_memory_desc_t md_strided(int ndims, const tsr_dim_t *dims,
                                    tsr_data_type_t dt,
                                    const tsr_dim_t *strides) {
    tsr_memory_desc_t md;
    CHECK(tsr_memory_desc_init_by_strides(&md, ndims, dims, dt, strides) ==
          tsr_success);
    return md;
}

static tsr_memory_desc_t md_tag(int ndims, const tsr_dim_t *dims,
                                tsr_data_type_t dt, const char *tag) {
    tsr_memory_desc_t md;
    CHECK(tsr_memory_desc_init_by_tag(&md, ndims, dims, dt, tag) ==
          tsr_success);
    return md;
}

static void test_matmul_desc_checks(void) {
    const tsr_dim_t s[3] = {2, 3, 4}, w[3] = {1, 4, 5}, d[3] = {2, 3, 5};
    tsr_memory_desc_t src = md_strided(3, s, tsr_f32, NULL);
    tsr_memory_desc_t wei = md_strided(3, w, tsr_f32, NULL);
    tsr_memory_desc_t dst = md_strided(3, d, tsr_f32, NULL);
    tsr_matmul_desc_t desc;
    CHECK(tsr_matmul_desc_init(&desc, &src, &wei, NULL, &dst) == tsr_success);
    CHECK(desc.primitive_kind == tsr_matmul && desc.accum_data_type == tsr_f32);

    tsr_matmul_desc_t before;
    memset(&before, 0x5a, sizeof(before));
    desc = before;
    /* K mismatch. */
    const tsr_dim_t w_bad[3] = {1, 5, 5};
    tsr_memory_desc_t wei_bad = md_strided(3, w_bad, tsr_f32, NULL);
    CHECK(tsr_matmul_desc_init(&desc, &src, &wei_bad, NULL, &dst) ==
          tsr_invalid_arguments);
    /* dst batch not the broadcast of src and weights. */
    const tsr_dim_t d_bad[3] = {3, 3, 5};
    tsr_memory_desc_t dst_bad = md_strided(3, d_bad, tsr_f32, NULL);
    CHECK(tsr_matmul_desc_init(&desc, &src, &wei, NULL, &dst_bad) ==
          tsr_invalid_arguments);
    /* Bias dims must be dst's or 1. */
    const tsr_dim_t b_bad[3] = {1, 2, 5};
    tsr_memory_desc_t bia_bad = md_strided(3, b_bad, tsr_f32, NULL);
    CHECK(tsr_matmul_desc_init(&desc, &src, &wei, &bia_bad, &dst) ==
          tsr_invalid_arguments);
    /* Ranks must agree. */
    tsr_memory_desc_t src2 = md_strided(2, s + 1, tsr_f32, NULL);
    CHECK(tsr_matmul_desc_init(&desc, &src2, &wei, NULL, &dst) ==
          tsr_invalid_arguments);
    CHECK(tsr_matmul_desc_init(NULL, &src, &wei, NULL, &dst) ==
          tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);
}

static void test_ip_desc_checks(void) {
    const tsr_dim_t s[4] = {2, 3, 4, 4}, w[4] = {5, 3, 4, 4}, d[2] = {2, 5};
    const tsr_dim_t b = 5, w_bad[4] = {5, 3, 4, 3};
    tsr_memory_desc_t src = md_strided(4, s, tsr_f32, NULL);
    tsr_memory_desc_t wei = md_strided(4, w, tsr_f32, NULL);
    tsr_memory_desc_t wei_bad = md_strided(4, w_bad, tsr_f32, NULL);
    tsr_memory_desc_t bia = md_strided(1, &b, tsr_f32, NULL);
    tsr_memory_desc_t dst = md_strided(2, d, tsr_f32, NULL);
    tsr_inner_product_desc_t desc;
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_inference,
                                              &src, &wei, &bia,
                                              &dst) == tsr_success);
    CHECK(desc.primitive_kind == tsr_inner_product);
    tsr_inner_product_desc_t before = desc;
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_backward_data, &src,
                                              &wei, &bia,
                                              &dst) == tsr_unimplemented);
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_training, &src,
                                              &wei_bad, &bia,
                                              &dst) == tsr_invalid_arguments);
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_training, &src,
                                              &wei, &dst,
                                              &dst) == tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);
    CHECK(strcmp(tsr_prim_kind2str(tsr_inner_product), "inner_product") == 0);
    CHECK(strcmp(tsr_prim_kind2str(tsr_matmul), "matmul") == 0);
}

/* Equal values (relu gives -0 for negative inputs: -0 == 0). */
static int same_values(const float *a, const float *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static tsr_status_t execute(tsr_primitive_desc_t pd, int nargs, const int *ids,
                            const tsr_memory_desc_t *const *mds,
                            void *const *bufs) {
    tsr_primitive_t prim;
    tsr_status_t st = tsr_primitive_create(&prim, pd);
    if (st != tsr_success)
        return st;
    tsr_exec_arg_t args[8];
    tsr_memory_t mems[8];
    for (int i = 0; i < nargs; i++) {
        CHECK(tsr_memory_create(&mems[i], mds[i], engine, bufs[i]) ==
              tsr_success);
        args[i].arg = ids[i];
        args[i].memory = mems[i];
    }
    st = tsr_primitive_execute(prim, stream, nargs, args);
    for (int i = 0; i < nargs; i++)
        tsr_memory_destroy(mems[i]);
    tsr_primitive_destroy(prim);
    return st;
}

/* dst[b][m][n] = relu(wei_scale[n] * sum_k src[b][m][k] * wei[0][k][n]
 *                + bias[n]), weights stored transposed (N x K), their
 * batch broadcast; run on every implementation in turn. */
static void test_matmul_results(void) {
    enum { B = 3, M = 5, K = 7, N = 6 };
    const tsr_dim_t sd[3] = {B, M, K}, wd[3] = {1, K, N}, dd[3] = {B, M, N};
    const tsr_dim_t bd[3] = {1, 1, N};
    const tsr_dim_t w_strides[3] = {K * N, 1, K}; /* transposed */
    float src[B * M * K], wei[K * N], bias[N], scales[N], dst[B * M * N];
    float expected[B * M * N];
    for (int i = 0; i < B * M * K; i++)
        src[i] = (float)(i % 7 - 3);
    for (int i = 0; i < K * N; i++)
        wei[i] = (float)(i % 5 - 2);
    for (int n = 0; n < N; n++) {
        bias[n] = (float)(n - 2);
        scales[n] = n % 2 ? 0.5f : 2.f;
    }
    for (int b = 0; b < B; b++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float acc = 0;
                for (int k = 0; k < K; k++)
                    acc += src[(b * M + m) * K + k] * wei[n * K + k];
                const float v = acc * scales[n] + bias[n];
                expected[(b * M + m) * N + n] = v > 0 ? v : 0;
            }
    tsr_memory_desc_t src_md = md_strided(3, sd, tsr_f32, NULL);
    tsr_memory_desc_t wei_md = md_strided(3, wd, tsr_f32, w_strides);
    tsr_memory_desc_t bia_md = md_strided(3, bd, tsr_f32, NULL);
    tsr_memory_desc_t dst_md = md_strided(3, dd, tsr_f32, NULL);
    tsr_matmul_desc_t desc;
    CHECK(tsr_matmul_desc_init(&desc, &src_md, &wei_md, &bia_md, &dst_md) ==
          tsr_success);
    tsr_primitive_attr_t attr;
    tsr_post_ops_t ops;
    tsr_primitive_attr_create(&attr);
    tsr_post_ops_create(&ops);
    tsr_post_ops_append_eltwise(ops, 1.f, tsr_eltwise_relu, 0.f, 0.f);
    tsr_primitive_attr_set_post_ops(attr, ops);
    CHECK(tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_WEIGHTS, 1 << 2) ==
          tsr_success);
    tsr_primitive_attr_set_scratchpad_mode(attr, tsr_scratchpad_mode_user);
    tsr_primitive_desc_t pd;
    CHECK(tsr_primitive_desc_create(&pd, &desc, attr, engine) == tsr_success);
    CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "gemm:f32") == 0);
    const tsr_dim_t nscales = N;
    tsr_memory_desc_t sc_md = md_strided(1, &nscales, tsr_f32, NULL);
    for (int impl = 0; impl < 2; impl++) {
        const tsr_memory_desc_t *sp_md =
                tsr_primitive_desc_query_md(pd, tsr_query_scratchpad_md);
        void *sp = calloc(1, tsr_memory_desc_get_size(sp_md) + 1);
        memset(dst, 0xff, sizeof(dst));
        const int ids[6] = {TSR_ARG_SRC,
                            TSR_ARG_WEIGHTS,
                            TSR_ARG_BIAS,
                            TSR_ARG_DST,
                            TSR_ARG_ATTR_SCALES | TSR_ARG_WEIGHTS,
                            TSR_ARG_SCRATCHPAD};
        const tsr_memory_desc_t *mds[6] = {&src_md, &wei_md, &bia_md,
                                           &dst_md, &sc_md,  sp_md};
        void *bufs[6] = {src, wei, bias, dst, scales, sp};
        const int nargs = sp_md->ndims ? 6 : 5;
        CHECK(execute(pd, nargs, ids, mds, bufs) == tsr_success);
        CHECK(same_values(dst, expected, B * M * N));
        free(sp);
        if (impl == 0) {
            CHECK(tsr_primitive_desc_next_impl(pd) == tsr_success);
            CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "ref:any") == 0);
        }
    }
    CHECK(tsr_primitive_desc_next_impl(pd) == tsr_last_impl_reached);
    tsr_primitive_desc_destroy(pd);
    tsr_post_ops_destroy(ops);
    tsr_primitive_attr_destroy(attr);
}

/* The width of the f32 GEMM's packed B panels on the effective ISA. */
static const char *f32_panels_tag(void) {
    const tsr_cpu_isa_t isa = tsr_get_effective_cpu_isa();
    return isa >= tsr_cpu_isa_avx512_core ? "Abcd32a"
           : isa >= tsr_cpu_isa_avx2      ? "Abcd16a"
                                          : "Abcd8a";
}

/* `wei` (OC x K, "abcd") into the layout `to`, by the reorder primitive. */
static void reorder_weights(const tsr_memory_desc_t *from, const float *wei,
                            const tsr_memory_desc_t *to, float *out) {
    tsr_primitive_desc_t pd;
    CHECK(tsr_reorder_primitive_desc_create(&pd, from, engine, to, engine,
                                            NULL) == tsr_success);
    const int ids[2] = {TSR_ARG_FROM, TSR_ARG_TO};
    const tsr_memory_desc_t *mds[2] = {from, to};
    void *bufs[2] = {(void *)wei, out};
    CHECK(execute(pd, 2, ids, mds, bufs) == tsr_success);
    tsr_primitive_desc_destroy(pd);
}

/* f32 with "any" weights: the GEMM path lays them out as its packed
 * panels (OC blocks of the kernel's width), read in place; int8 goes to
 * the reference; both give the naive result. */
static void test_ip_results(void) {
    enum { MB = 4, IC = 3, H = 2, OC = 5, K = IC * H * H };
    const tsr_dim_t sd[4] = {MB, IC, H, H}, wd[4] = {OC, IC, H, H};
    const tsr_dim_t dd[2] = {MB, OC}, bd = OC;
    float src[MB * K], wei[OC * K], bias[OC], dst[MB * OC], expected[MB * OC];
    for (int i = 0; i < MB * K; i++)
        src[i] = (float)(i % 5 - 2);
    for (int i = 0; i < OC * K; i++)
        wei[i] = (float)(i % 3 - 1);
    for (int o = 0; o < OC; o++)
        bias[o] = (float)o;
    for (int n = 0; n < MB; n++)
        for (int o = 0; o < OC; o++) {
            float acc = bias[o];
            for (int k = 0; k < K; k++)
                acc += src[n * K + k] * wei[o * K + k];
            expected[n * OC + o] = acc;
        }
    tsr_memory_desc_t src_md = md_tag(4, sd, tsr_f32, "abcd");
    tsr_memory_desc_t wei_any = md_tag(4, wd, tsr_f32, "any");
    tsr_memory_desc_t bia_md = md_tag(1, &bd, tsr_f32, "a");
    tsr_memory_desc_t dst_md = md_tag(2, dd, tsr_f32, "ab");
    tsr_inner_product_desc_t desc;
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_training,
                                              &src_md, &wei_any, &bia_md,
                                              &dst_md) == tsr_success);
    tsr_primitive_desc_t pd;
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "gemm:f32") == 0);
    const tsr_memory_desc_t *wei_md =
            tsr_primitive_desc_query_md(pd, tsr_query_weights_md);
    CHECK(tsr_memory_desc_matches_tag(wei_md, f32_panels_tag()));
    /* Padded to whole panels: room for 32 output channels. */
    CHECK(tsr_memory_desc_get_size(wei_md) <= 32 * K * sizeof(float));
    float wei_io[32 * K];
    const tsr_memory_desc_t wei_plain = md_tag(4, wd, tsr_f32, "abcd");
    reorder_weights(&wei_plain, wei, wei_md, wei_io);
    const int ids[4] = {TSR_ARG_SRC, TSR_ARG_WEIGHTS, TSR_ARG_BIAS,
                        TSR_ARG_DST};
    const tsr_memory_desc_t *mds[4] = {&src_md, wei_md, &bia_md, &dst_md};
    void *bufs[4] = {src, wei_io, bias, dst};
    CHECK(execute(pd, 4, ids, mds, bufs) == tsr_success);
    CHECK(memcmp(dst, expected, sizeof(dst)) == 0);
    tsr_primitive_desc_destroy(pd);

    /* s8 src, s8 weights, f32 dst: the int8 GEMM. */
    int8_t src8[MB * K], wei8[OC * K];
    for (int i = 0; i < MB * K; i++)
        src8[i] = (int8_t)src[i];
    for (int i = 0; i < OC * K; i++)
        wei8[i] = (int8_t)wei[i];
    tsr_memory_desc_t src8_md = md_tag(4, sd, tsr_s8, "abcd");
    tsr_memory_desc_t wei8_md = md_tag(4, wd, tsr_s8, "abcd");
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_inference,
                                              &src8_md, &wei8_md, &bia_md,
                                              &dst_md) == tsr_success);
    CHECK(desc.accum_data_type == tsr_s32);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    CHECK(strcmp(tsr_primitive_desc_impl_name(pd), "gemm:s8") == 0);
    const tsr_memory_desc_t *mds8[4] = {&src8_md, &wei8_md, &bia_md, &dst_md};
    void *bufs8[4] = {src8, wei8, bias, dst};
    memset(dst, 0, sizeof(dst));
    CHECK(execute(pd, 4, ids, mds8, bufs8) == tsr_success);
    CHECK(memcmp(dst, expected, sizeof(dst)) == 0);
    tsr_primitive_desc_destroy(pd);
}

int main(void) {
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    test_matmul_desc_checks();
    test_ip_desc_checks();
    test_matmul_results();
    test_ip_results();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
