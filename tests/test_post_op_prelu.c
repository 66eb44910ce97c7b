/* The prelu post-op on every implementation of convolution (plain,
 * channels-last, depthwise, int8), inner product and matmul: results
 * against a naive expectation for weights masks of one value, per channel,
 * per other dims and per tensor, in chains after a bias and before a ReLU
 * or a sum, into f32, s8 and u8. Data are small integers and the weights
 * dyadic, so every comparison is exact. Also the API: appending, reading
 * back, masks beyond dst's rank and bad weights memories. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

#define MAX_ND 5

static const float slopes[] = {0.5f, -2.f, 0.25f, 4.f, -1.f, 2.f, 0.125f};

/* A problem: f32 logical values of src, weights and bias, the dst dims
 * and the expected f32 result before the post-ops (bias included). */
typedef struct {
    int dst_nd;
    tsr_dim_t dst_dims[MAX_ND];
    tsr_data_type_t ddt;
    const char *dtag;
    int64_t n_dst;
    float *acc; /* logical, row-major over dst dims */
} problem_t;

/* Which post-op chain a run has around the prelu. */
typedef enum { CHAIN_PRELU, CHAIN_PRELU_RELU, CHAIN_SUM_PRELU } chain_t;

static float round_to(tsr_data_type_t dt, float v) {
    if (dt == tsr_f32)
        return v;
    const float lo = dt == tsr_u8 ? 0.f : -128.f, hi = dt == tsr_u8 ? 255 : 127;
    v = nearbyintf(v);
    return v < lo ? lo : v > hi ? hi : v;
}

/* Row-major index of the weights for dst point `pos` under `mask`. */
static int64_t mask_index(int mask, int nd, const tsr_dim_t *dims,
                          const tsr_dim_t *pos) {
    int64_t idx = 0;
    for (int d = 0; d < nd; d++)
        if (mask & (1 << d))
            idx = idx * dims[d] + pos[d];
    return idx;
}

static void expected_dst(const problem_t *p, int mask, chain_t chain,
                         const float *wei, const float *dst_old, float *out) {
    tsr_dim_t pos[MAX_ND];
    for (int64_t i = 0; i < p->n_dst; i++) {
        int64_t rest = i;
        for (int d = p->dst_nd - 1; d >= 0; d--) {
            pos[d] = rest % p->dst_dims[d];
            rest /= p->dst_dims[d];
        }
        float v = p->acc[i];
        if (chain == CHAIN_SUM_PRELU)
            v += dst_old[i];
        const float w = wei[mask_index(mask, p->dst_nd, p->dst_dims, pos)];
        v = v > 0 ? v : w * v;
        if (chain == CHAIN_PRELU_RELU)
            v = v > 0 ? v : 0;
        out[i] = round_to(p->ddt, v);
    }
}

/* Logical index i of a dense row-major tensor to its offset in `md`. */
static int64_t md_offset(const tsr_memory_desc_t *md, int64_t i) {
    int64_t off = md->offset0, rest = i;
    for (int d = md->ndims - 1; d >= 0; d--) {
        off += (rest % md->dims[d]) * md->blocking.strides[d];
        rest /= md->dims[d];
    }
    return off;
}

static float load(tsr_data_type_t dt, const void *buf, int64_t off) {
    switch (dt) {
    case tsr_s8:
        return ((const int8_t *)buf)[off];
    case tsr_u8:
        return ((const uint8_t *)buf)[off];
    default:
        return ((const float *)buf)[off];
    }
}

static void store(tsr_data_type_t dt, void *buf, int64_t off, float v) {
    switch (dt) {
    case tsr_s8:
        ((int8_t *)buf)[off] = (int8_t)v;
        break;
    case tsr_u8:
        ((uint8_t *)buf)[off] = (uint8_t)v;
        break;
    default:
        ((float *)buf)[off] = v;
        break;
    }
}

/* A tensor both as the user holds it (`md`, `buf`) and as f32 logical
 * values. */
typedef struct {
    tsr_memory_desc_t md;
    void *buf;
} tensor_t;

static tensor_t tensor_make(int nd, const tsr_dim_t *dims, tsr_data_type_t dt,
                            const char *tag, const float *logical) {
    tensor_t t;
    CHECK(tsr_memory_desc_init_by_tag(&t.md, nd, dims, dt, tag) == tsr_success);
    t.buf = calloc(1, tsr_memory_desc_get_size(&t.md) + 1);
    const int64_t n = tsr_memory_desc_nelems(&t.md);
    for (int64_t i = 0; logical && i < n; i++)
        store(dt, t.buf, md_offset(&t.md, i), logical[i]);
    return t;
}

static tsr_status_t execute(const_tsr_primitive_desc_t pd, int nargs,
                            const int *ids, const tsr_memory_desc_t *const *mds,
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

/* The weights in the layout the implementation chose, by the reorder
 * primitive (which also writes int8 compensation extras). */
static void *weights_for(const tensor_t *plain, const tsr_memory_desc_t *to) {
    if (tsr_memory_desc_equal(&plain->md, to))
        return NULL;
    void *out = calloc(1, tsr_memory_desc_get_size(to));
    tsr_primitive_desc_t pd;
    CHECK(tsr_reorder_primitive_desc_create(&pd, &plain->md, engine, to, engine,
                                            NULL) == tsr_success);
    const int ids[2] = {TSR_ARG_FROM, TSR_ARG_TO};
    const tsr_memory_desc_t *mds[2] = {&plain->md, to};
    void *bufs[2] = {plain->buf, out};
    CHECK(execute(pd, 2, ids, mds, bufs) == tsr_success);
    tsr_primitive_desc_destroy(pd);
    return out;
}

/* The attributes of a chain with prelu weights `mask`. */
static tsr_primitive_attr_t chain_attr(int mask, chain_t chain) {
    tsr_post_ops_t ops;
    tsr_primitive_attr_t attr;
    CHECK(tsr_post_ops_create(&ops) == tsr_success);
    if (chain == CHAIN_SUM_PRELU)
        CHECK(tsr_post_ops_append_sum(ops, 1.f, 0, tsr_data_type_undef) ==
              tsr_success);
    CHECK(tsr_post_ops_append_prelu(ops, mask) == tsr_success);
    if (chain == CHAIN_PRELU_RELU)
        CHECK(tsr_post_ops_append_eltwise(ops, 1.f, tsr_eltwise_relu, 0, 0) ==
              tsr_success);
    CHECK(tsr_primitive_attr_create(&attr) == tsr_success);
    CHECK(tsr_primitive_attr_set_post_ops(attr, ops) == tsr_success);
    tsr_post_ops_destroy(ops);
    return attr;
}

/* Runs the op on every implementation that takes it with the chain and
 * compares each result with the expectation; returns how many ran. */
static int check_impls(const void *op_desc, const problem_t *p, int mask,
                       chain_t chain, const tensor_t *src, const tensor_t *wei,
                       const tensor_t *bia) {
    const int prelu_index = chain == CHAIN_SUM_PRELU ? 1 : 0;
    tsr_dim_t wdims[MAX_ND];
    int64_t nw = 1;
    for (int d = 0; d < p->dst_nd; d++) {
        wdims[d] = (mask & (1 << d)) ? p->dst_dims[d] : 1;
        nw *= wdims[d];
    }
    float *pw = malloc(sizeof(float) * (size_t)nw);
    for (int64_t i = 0; i < nw; i++)
        pw[i] = slopes[i % 7];
    tsr_memory_desc_t pw_md;
    CHECK(tsr_memory_desc_init_by_strides(&pw_md, p->dst_nd, wdims, tsr_f32,
                                          NULL) == tsr_success);
    float *old = malloc(sizeof(float) * (size_t)p->n_dst);
    float *expected = malloc(sizeof(float) * (size_t)p->n_dst);
    for (int64_t i = 0; i < p->n_dst; i++)
        old[i] = (float)(i % 5) - (p->ddt == tsr_u8 ? 0 : 2);
    expected_dst(p, mask, chain, pw, old, expected);
    tensor_t dst = tensor_make(p->dst_nd, p->dst_dims, p->ddt, p->dtag, NULL);

    tsr_primitive_attr_t attr = chain_attr(mask, chain);
    tsr_primitive_desc_t pd;
    int ran = 0;
    tsr_status_t st = tsr_primitive_desc_create(&pd, op_desc, attr, engine);
    CHECK(st == tsr_success);
    while (st == tsr_success) {
        const char *impl = tsr_primitive_desc_impl_name(pd);
        const tsr_memory_desc_t *wmd =
                tsr_primitive_desc_query_md(pd, tsr_query_weights_md);
        void *wbuf = weights_for(wei, wmd);
        for (int64_t i = 0; i < p->n_dst; i++)
            store(p->ddt, dst.buf, md_offset(&dst.md, i), old[i]);
        int ids[5] = {TSR_ARG_SRC, TSR_ARG_WEIGHTS, TSR_ARG_DST,
                      TSR_ARG_ATTR_MULTIPLE_POST_OP(prelu_index) |
                              TSR_ARG_WEIGHTS,
                      TSR_ARG_BIAS};
        const tsr_memory_desc_t *mds[5] = {&src->md, wmd, &dst.md, &pw_md,
                                           bia ? &bia->md : NULL};
        void *bufs[5] = {src->buf, wbuf ? wbuf : wei->buf, dst.buf, pw,
                         bia ? bia->buf : NULL};
        CHECK(execute(pd, bia ? 5 : 4, ids, mds, bufs) == tsr_success);
        int64_t bad = 0;
        for (int64_t i = 0; i < p->n_dst; i++)
            bad += load(p->ddt, dst.buf, md_offset(&dst.md, i)) != expected[i];
        if (!CHECK(bad == 0))
            fprintf(stderr, "  %s: mask %d, chain %d, dst %s: %lld wrong\n",
                    impl, mask, (int)chain, tsr_data_type2str(p->ddt),
                    (long long)bad);
        free(wbuf);
        ran++;
        st = tsr_primitive_desc_next_impl(pd);
    }
    tsr_primitive_desc_destroy(pd);
    tsr_primitive_attr_destroy(attr);
    free(dst.buf);
    free(pw);
    free(old);
    free(expected);
    return ran;
}

static float src_value(tsr_data_type_t dt, int64_t i) {
    return dt == tsr_u8 ? (float)(i % 7) : (float)(i % 7 - 3);
}

static float wei_value(int64_t i) {
    return (float)(i % 5 - 2);
}

/* Convolution, data N x C x H x W, weights (G x) O x I x KH x KW, 3x3
 * with padding 1, groups G. */
static void conv_case(int groups, tsr_dim_t ic, tsr_dim_t oc,
                      tsr_data_type_t sdt, tsr_data_type_t ddt,
                      const char *data_tag, const int *masks, int nmasks) {
    enum { N = 2, H = 5, W = 6, K = 3 };
    const tsr_dim_t icg = ic / groups, ocg = oc / groups;
    const tsr_dim_t sdims[4] = {N, ic, H, W}, ddims[4] = {N, oc, H, W};
    tsr_dim_t wdims[5] = {groups, ocg, icg, K, K};
    const int wnd = groups > 1 ? 5 : 4;
    if (groups == 1)
        memmove(wdims, wdims + 1, 4 * sizeof(tsr_dim_t));
    const int64_t ns = N * ic * H * W, nw = oc * icg * K * K;
    float *s = malloc(sizeof(float) * ns), *w = malloc(sizeof(float) * nw);
    float bias[64];
    for (int64_t i = 0; i < ns; i++)
        s[i] = src_value(sdt, i);
    for (int64_t i = 0; i < nw; i++)
        w[i] = wei_value(i);
    for (int o = 0; o < oc; o++)
        bias[o] = (float)(o % 3 - 1);
    problem_t p = {.dst_nd = 4,
                   .dst_dims = {N, oc, H, W},
                   .ddt = ddt,
                   .dtag = data_tag,
                   .n_dst = N * oc * H * W};
    p.acc = malloc(sizeof(float) * p.n_dst);
    for (int n = 0; n < N; n++)
        for (int o = 0; o < oc; o++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const int g = (int)(o / ocg);
                    double acc = bias[o];
                    for (int c = 0; c < icg; c++)
                        for (int ky = 0; ky < K; ky++)
                            for (int kx = 0; kx < K; kx++) {
                                const int iy = y + ky - 1, ix = x + kx - 1;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                                    continue;
                                acc += s[((n * ic + g * icg + c) * H + iy) * W +
                                         ix] *
                                       w[((o * icg + c) * K + ky) * K + kx];
                            }
                    p.acc[((n * oc + o) * H + y) * W + x] = (float)acc;
                }
    const tsr_data_type_t wdt = sdt == tsr_f32 ? tsr_f32 : tsr_s8;
    tensor_t src = tensor_make(4, sdims, sdt, data_tag, s);
    tensor_t wei = tensor_make(wnd, wdims, wdt, wnd == 5 ? "abcde" : "abcd", w);
    const tsr_dim_t bd = oc;
    tensor_t bia = tensor_make(1, &bd, tsr_f32, "a", bias);
    tsr_memory_desc_t wany, dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&wany, wnd, wdims, wdt, "any") ==
          tsr_success);
    CHECK(tsr_memory_desc_init_by_tag(&dst_md, 4, ddims, ddt, data_tag) ==
          tsr_success);
    tsr_convolution_desc_t desc;
    const tsr_dim_t strides[2] = {1, 1}, pad[2] = {1, 1};
    CHECK(tsr_convolution_forward_desc_init(&desc, tsr_forward_inference,
                                            tsr_convolution_direct, &src.md,
                                            &wany, &bia.md, &dst_md, strides,
                                            NULL, pad, pad) == tsr_success);
    for (int m = 0; m < nmasks; m++)
        for (int c = 0; c < 3; c++) {
            if (c == CHAIN_SUM_PRELU && ddt != tsr_f32)
                continue;
            CHECK(check_impls(&desc, &p, masks[m], (chain_t)c, &src, &wei,
                              &bia) >= 1);
        }
    free(s);
    free(w);
    free(p.acc);
    free(src.buf);
    free(wei.buf);
    free(bia.buf);
}

static void test_conv(void) {
    const int all[] = {0, 2, 1, 3, 12, 15};
    const int few[] = {0, 2, 8};
    conv_case(1, 8, 16, tsr_f32, tsr_f32, "abcd", all, 6);
    conv_case(1, 8, 16, tsr_f32, tsr_f32, "acdb", all, 6);
    conv_case(1, 3, 32, tsr_f32, tsr_f32, "abcd", few, 3);
    conv_case(16, 16, 16, tsr_f32, tsr_f32, "acdb", few, 3);
    conv_case(16, 16, 16, tsr_f32, tsr_f32, "abcd", few, 3);
    conv_case(1, 8, 16, tsr_u8, tsr_u8, "acdb", all, 6);
    conv_case(1, 8, 16, tsr_u8, tsr_s8, "acdb", few, 3);
    conv_case(1, 8, 16, tsr_s8, tsr_f32, "acdb", few, 3);
    conv_case(16, 16, 16, tsr_u8, tsr_s8, "acdb", few, 3);
}

/* Inner product MB x IC -> MB x OC. */
static void ip_case(tsr_data_type_t sdt, tsr_data_type_t ddt) {
    enum { MB = 6, IC = 20, OC = 24 };
    const tsr_dim_t sdims[2] = {MB, IC}, wdims[2] = {OC, IC}, bd = OC;
    float s[MB * IC], w[OC * IC], bias[OC];
    for (int i = 0; i < MB * IC; i++)
        s[i] = src_value(sdt, i);
    for (int i = 0; i < OC * IC; i++)
        w[i] = wei_value(i);
    for (int o = 0; o < OC; o++)
        bias[o] = (float)(o % 3 - 1);
    problem_t p = {.dst_nd = 2,
                   .dst_dims = {MB, OC},
                   .ddt = ddt,
                   .dtag = "ab",
                   .n_dst = MB * OC};
    float acc[MB * OC];
    p.acc = acc;
    for (int n = 0; n < MB; n++)
        for (int o = 0; o < OC; o++) {
            float a = bias[o];
            for (int k = 0; k < IC; k++)
                a += s[n * IC + k] * w[o * IC + k];
            acc[n * OC + o] = a;
        }
    const tsr_data_type_t wdt = sdt == tsr_f32 ? tsr_f32 : tsr_s8;
    tensor_t src = tensor_make(2, sdims, sdt, "ab", s);
    tensor_t wei = tensor_make(2, wdims, wdt, "ab", w);
    tensor_t bia = tensor_make(1, &bd, tsr_f32, "a", bias);
    tsr_memory_desc_t wany, dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&wany, 2, wdims, wdt, "any") ==
          tsr_success);
    CHECK(tsr_memory_desc_init_by_tag(&dst_md, 2, p.dst_dims, ddt, "ab") ==
          tsr_success);
    tsr_inner_product_desc_t desc;
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_inference,
                                              &src.md, &wany, &bia.md,
                                              &dst_md) == tsr_success);
    for (int mask = 0; mask < 4; mask++)
        for (int c = 0; c < 3; c++) {
            if (c == CHAIN_SUM_PRELU && ddt != tsr_f32)
                continue;
            CHECK(check_impls(&desc, &p, mask, (chain_t)c, &src, &wei, &bia) >=
                  1);
        }
    free(src.buf);
    free(wei.buf);
    free(bia.buf);
}

static void test_ip(void) {
    ip_case(tsr_f32, tsr_f32);
    ip_case(tsr_u8, tsr_u8);
    ip_case(tsr_s8, tsr_f32);
}

/* Matmul B x M x K times B x K x N (weights plain, no bias). */
static void matmul_case(tsr_data_type_t sdt, tsr_data_type_t ddt) {
    enum { B = 2, M = 5, K = 12, N = 20 };
    const tsr_dim_t sdims[3] = {B, M, K}, wdims[3] = {B, K, N};
    float s[B * M * K], w[B * K * N];
    for (int i = 0; i < B * M * K; i++)
        s[i] = src_value(sdt, i);
    for (int i = 0; i < B * K * N; i++)
        w[i] = wei_value(i);
    problem_t p = {.dst_nd = 3,
                   .dst_dims = {B, M, N},
                   .ddt = ddt,
                   .dtag = "abc",
                   .n_dst = B * M * N};
    float acc[B * M * N];
    p.acc = acc;
    for (int b = 0; b < B; b++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float a = 0;
                for (int k = 0; k < K; k++)
                    a += s[(b * M + m) * K + k] * w[(b * K + k) * N + n];
                acc[(b * M + m) * N + n] = a;
            }
    const tsr_data_type_t wdt = sdt == tsr_f32 ? tsr_f32 : tsr_s8;
    tensor_t src = tensor_make(3, sdims, sdt, "abc", s);
    tensor_t wei = tensor_make(3, wdims, wdt, "abc", w);
    tsr_memory_desc_t dst_md;
    CHECK(tsr_memory_desc_init_by_tag(&dst_md, 3, p.dst_dims, ddt, "abc") ==
          tsr_success);
    tsr_matmul_desc_t desc;
    CHECK(tsr_matmul_desc_init(&desc, &src.md, &wei.md, NULL, &dst_md) ==
          tsr_success);
    const int masks[] = {0, 4, 1, 2, 3, 6, 7};
    for (int m = 0; m < 7; m++)
        for (int c = 0; c < 3; c++) {
            if (c == CHAIN_SUM_PRELU && ddt != tsr_f32)
                continue;
            CHECK(check_impls(&desc, &p, masks[m], (chain_t)c, &src, &wei,
                              NULL) >= 1);
        }
    free(src.buf);
    free(wei.buf);
}

static void test_matmul(void) {
    matmul_case(tsr_f32, tsr_f32);
    matmul_case(tsr_u8, tsr_s8);
}

static void test_api(void) {
    tsr_post_ops_t ops;
    CHECK(tsr_post_ops_create(&ops) == tsr_success);
    CHECK(tsr_post_ops_append_prelu(NULL, 0) == tsr_invalid_arguments);
    CHECK(tsr_post_ops_append_prelu(ops, -1) == tsr_invalid_arguments);
    CHECK(tsr_post_ops_len(ops) == 0);
    CHECK(tsr_post_ops_append_eltwise(ops, 1, tsr_eltwise_relu, 0, 0) ==
          tsr_success);
    CHECK(tsr_post_ops_append_prelu(ops, 6) == tsr_success);
    int mask = -1;
    CHECK(tsr_post_ops_get_kind(ops, 1) == tsr_post_op_prelu);
    CHECK(tsr_post_ops_get_params_prelu(ops, 1, &mask) == tsr_success &&
          mask == 6);
    CHECK(tsr_post_ops_get_params_prelu(ops, 0, &mask) ==
          tsr_invalid_arguments);
    CHECK(tsr_post_ops_get_params_prelu(ops, 1, NULL) == tsr_invalid_arguments);

    /* A mask naming dim 2 of a 2D dst is refused at creation. */
    tsr_primitive_attr_t attr;
    CHECK(tsr_primitive_attr_create(&attr) == tsr_success);
    CHECK(tsr_primitive_attr_set_post_ops(attr, ops) == tsr_success);
    const tsr_dim_t sd[2] = {4, 8}, wd[2] = {6, 8}, dd[2] = {4, 6};
    tsr_memory_desc_t s, w, d;
    tsr_memory_desc_init_by_tag(&s, 2, sd, tsr_f32, "ab");
    tsr_memory_desc_init_by_tag(&w, 2, wd, tsr_f32, "ab");
    tsr_memory_desc_init_by_tag(&d, 2, dd, tsr_f32, "ab");
    tsr_inner_product_desc_t desc;
    CHECK(tsr_inner_product_forward_desc_init(&desc, tsr_forward_inference, &s,
                                              &w, NULL, &d) == tsr_success);
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, &desc, attr, engine) ==
          tsr_invalid_arguments);
    tsr_primitive_attr_destroy(attr);
    tsr_post_ops_destroy(ops);

    /* Per-oc weights: a missing, short, non-f32 or strided weights memory
     * fails the execution and leaves dst untouched. */
    CHECK(tsr_post_ops_create(&ops) == tsr_success);
    CHECK(tsr_post_ops_append_prelu(ops, 2) == tsr_success);
    CHECK(tsr_primitive_attr_create(&attr) == tsr_success);
    CHECK(tsr_primitive_attr_set_post_ops(attr, ops) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, attr, engine) == tsr_success);
    float src[32] = {0}, wei[48] = {0}, dst[24], pw[12] = {0};
    const float canary = 42.f;
    const tsr_dim_t oc = 6, oc_short = 5, oc_2d[2] = {1, 6};
    tsr_memory_desc_t pw_ok, pw_2d, pw_short, pw_s8, pw_strided;
    tsr_memory_desc_init_by_tag(&pw_ok, 1, &oc, tsr_f32, "a");
    tsr_memory_desc_init_by_tag(&pw_2d, 2, oc_2d, tsr_f32, "ab");
    tsr_memory_desc_init_by_tag(&pw_short, 1, &oc_short, tsr_f32, "a");
    tsr_memory_desc_init_by_tag(&pw_s8, 1, &oc, tsr_s8, "a");
    const tsr_dim_t stride2 = 2;
    tsr_memory_desc_init_by_strides(&pw_strided, 1, &oc, tsr_f32, &stride2);
    const int ids[4] = {TSR_ARG_SRC, TSR_ARG_WEIGHTS, TSR_ARG_DST,
                        TSR_ARG_ATTR_MULTIPLE_POST_OP(0) | TSR_ARG_WEIGHTS};
    const tsr_memory_desc_t *bad[] = {&pw_short, &pw_s8, &pw_strided};
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 24; j++)
            dst[j] = canary;
        const tsr_memory_desc_t *mds[4] = {&s, &w, &d, i < 3 ? bad[i] : NULL};
        void *bufs[4] = {src, wei, dst, pw};
        CHECK(execute(pd, i < 3 ? 4 : 3, ids, mds, bufs) ==
              tsr_invalid_arguments);
        CHECK(dst[0] == canary && dst[23] == canary);
    }
    const tsr_memory_desc_t *good[] = {&pw_ok, &pw_2d};
    for (int i = 0; i < 2; i++) {
        const tsr_memory_desc_t *mds[4] = {&s, &w, &d, good[i]};
        void *bufs[4] = {src, wei, dst, pw};
        CHECK(execute(pd, 4, ids, mds, bufs) == tsr_success);
        CHECK(dst[0] == 0 && dst[23] == 0);
    }
    tsr_primitive_desc_destroy(pd);
    tsr_primitive_attr_destroy(attr);
    tsr_post_ops_destroy(ops);
}

int main(void) {
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    test_api();
    test_conv();
    test_ip();
    test_matmul();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
