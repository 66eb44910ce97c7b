/* PReLU forward and backward: every implementation that accepts a problem
 * (walking the list with tsr_primitive_desc_next_impl) must write, bit for
 * bit, what this test computes from the definition
 *   dst      = src > 0 ? src : w * src
 *   diff_src = diff_dst * (src > 0 ? 1 : w)
 *   diff_w   = sum over the dims w broadcasts of diff_dst * min(src, 0)
 * (integer dst rounded to nearest even and saturated; values chosen so
 * every sum is exact in f32, whatever its order), with the padding of
 * blocked outputs zero. Covers every weights broadcast pattern of a 4D
 * tensor, data types, layouts (abcd, acdb, aBcd16b with C = 17), weights
 * "any", a backward reduction whose bits must not depend on the thread
 * count, and the refusals. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

static struct {
    const char *name;
    int runs;
} impl_tally[8];

static void tally(const char *name) {
    for (int i = 0; i < 8; i++) {
        if (!impl_tally[i].name)
            impl_tally[i].name = name;
        if (strcmp(impl_tally[i].name, name) == 0) {
            impl_tally[i].runs++;
            return;
        }
    }
}

static float load(tsr_data_type_t dt, const void *p, int64_t off) {
    switch (dt) {
    case tsr_f32:
        return ((const float *)p)[off];
    case tsr_bf16: {
        uint32_t u = (uint32_t)((const uint16_t *)p)[off] << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case tsr_f16:
        return tsr_f16_to_f32(((const uint16_t *)p)[off]);
    case tsr_s32:
        return (float)((const int32_t *)p)[off];
    case tsr_s8:
        return (float)((const int8_t *)p)[off];
    case tsr_u8:
        return (float)((const uint8_t *)p)[off];
    default:
        return 0.f;
    }
}

static float clampf(float v, float lo, float hi) {
    if (v != v)
        return 0.f;
    return v < lo ? lo : v > hi ? hi : v;
}

static void store(tsr_data_type_t dt, void *p, int64_t off, float v) {
    switch (dt) {
    case tsr_f32:
        ((float *)p)[off] = v;
        break;
    case tsr_bf16:
        ((uint16_t *)p)[off] = tsr_f32_to_bf16(v);
        break;
    case tsr_f16:
        ((uint16_t *)p)[off] = tsr_f32_to_f16(v);
        break;
    case tsr_s32:
        ((int32_t *)p)[off] =
                (int32_t)clampf(nearbyintf(v), -2147483648.f, 2147483520.f);
        break;
    case tsr_s8:
        ((int8_t *)p)[off] = (int8_t)clampf(nearbyintf(v), -128.f, 127.f);
        break;
    case tsr_u8:
        ((uint8_t *)p)[off] = (uint8_t)clampf(nearbyintf(v), 0.f, 255.f);
        break;
    default:
        break;
    }
}

/* Inputs: 0 src, 1 weights, 2 diff_dst. Integers for integer types (some
 * weights fractional, for rounding ties); dyadic fractions with few bits
 * otherwise, so products and their sums are exact. */
static float fill_value(tsr_data_type_t dt, int64_t k, int which) {
    if (which == 1)
        return (float)((k * 3) % 7 - 2) * 0.5f + 0.25f * (float)(k % 2);
    switch (dt) {
    case tsr_s8:
        return (float)((k * 7 + which) % 41 - 20);
    case tsr_u8:
        return (float)((k * 5 + which) % 37);
    case tsr_s32:
        return (float)((k * 13 + which) % 1001 - 500);
    default:
        return (float)((k * 5 + which * 11) % 17 - 8) * 0.25f;
    }
}

static void l2pos(int nd, const tsr_dim_t *dims, int64_t l, tsr_dim_t *pos) {
    for (int d = nd - 1; d >= 0; d--) {
        pos[d] = l % dims[d];
        l /= dims[d];
    }
}

static int64_t nelems(const tsr_memory_desc_t *md) {
    int64_t n = 1;
    for (int d = 0; d < md->ndims; d++)
        n *= md->dims[d];
    return n;
}

static void fill(const tsr_memory_desc_t *md, void *p, int which) {
    memset(p, 0, tsr_memory_desc_get_size(md));
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t l = 0; l < nelems(md); l++) {
        l2pos(md->ndims, md->dims, l, pos);
        store(md->data_type, p, tsr_memory_desc_offset(md, pos),
              fill_value(md->data_type, l, which));
    }
}

/* Garbage outside the logical points, so a primitive must zero them. */
static void soil_padding(const tsr_memory_desc_t *md, void *p) {
    const size_t size = tsr_memory_desc_get_size(md);
    const size_t es = tsr_data_type_size(md->data_type);
    unsigned char *logical = calloc(1, size), *b = p;
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t l = 0; l < nelems(md); l++) {
        l2pos(md->ndims, md->dims, l, pos);
        memset(logical + es * tsr_memory_desc_offset(md, pos), 1, es);
    }
    for (size_t i = 0; i < size; i++)
        b[i] = logical[i] ? 0x11 : 0x5a;
    free(logical);
}

static tsr_memory_t make_memory(const tsr_memory_desc_t *md) {
    tsr_memory_t m = NULL;
    CHECK(tsr_memory_create(&m, md, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_success);
    return m;
}

static void *data_of(tsr_memory_t m) {
    void *p = NULL;
    tsr_memory_get_data_handle(m, &p);
    return p;
}

static float wei_load(const tsr_memory_desc_t *wmd, const void *w,
                      const tsr_dim_t *pos) {
    tsr_dim_t wpos[TSR_MAX_NDIMS];
    for (int d = 0; d < wmd->ndims; d++)
        wpos[d] = wmd->dims[d] == 1 ? 0 : pos[d];
    return load(wmd->data_type, w, tsr_memory_desc_offset(wmd, wpos));
}

static int report(int ok, const char *what, const tsr_primitive_desc_t pd,
                  const tsr_memory_desc_t *src) {
    if (!CHECK(ok)) {
        char tag[32];
        tsr_memory_desc_layout_str(src, tag, sizeof(tag));
        fprintf(stderr, "  %s: impl %s src %s %s\n", what,
                tsr_primitive_desc_impl_name(pd),
                tsr_data_type2str(src->data_type), tag);
    }
    return ok;
}

static void test_fwd(int nd, const tsr_dim_t *dims, const tsr_dim_t *wdims,
                     tsr_data_type_t dt, tsr_data_type_t wdt, const char *tag,
                     const char *wtag) {
    tsr_memory_desc_t src, wei, dst;
    tsr_memory_desc_init_by_tag(&src, nd, dims, dt, tag);
    tsr_memory_desc_init_by_tag(&wei, nd, wdims, wdt, wtag);
    tsr_memory_desc_init_by_tag(&dst, nd, dims, dt, "any");
    tsr_prelu_desc_t desc;
    if (!CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_training, &src,
                                           &wei, &dst) == tsr_success))
        return;
    tsr_primitive_desc_t pd = NULL;
    if (!CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
               tsr_success))
        return;
    const tsr_memory_desc_t *qw =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_WEIGHTS);
    const tsr_memory_desc_t *qd =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST);
    CHECK(tsr_memory_desc_matches_tag(qd, tag));
    if (strcmp(wtag, "any") == 0) {
        char plain[TSR_MAX_NDIMS + 1];
        for (int d = 0; d < nd; d++)
            plain[d] = (char)('a' + d);
        plain[nd] = '\0';
        CHECK(tsr_memory_desc_matches_tag(qw, plain));
    }
    tsr_memory_t ms = make_memory(&src), mw = make_memory(qw),
                 md = make_memory(qd);
    fill(&src, data_of(ms), 0);
    fill(qw, data_of(mw), 1);
    const size_t size = tsr_memory_desc_get_size(qd);
    unsigned char *expect = calloc(1, size);
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t l = 0; l < nelems(&src); l++) {
        l2pos(nd, dims, l, pos);
        const float s =
                load(dt, data_of(ms), tsr_memory_desc_offset(&src, pos));
        const float w = wei_load(qw, data_of(mw), pos);
        store(dt, expect, tsr_memory_desc_offset(qd, pos), s > 0 ? s : w * s);
    }
    do {
        tally(tsr_primitive_desc_impl_name(pd));
        soil_padding(qd, data_of(md));
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[3] = {
                {TSR_ARG_SRC, ms}, {TSR_ARG_WEIGHTS, mw}, {TSR_ARG_DST, md}};
        CHECK(tsr_primitive_execute(prim, stream, 3, args) == tsr_success);
        tsr_primitive_destroy(prim);
        report(memcmp(data_of(md), expect, size) == 0, "fwd dst", pd, &src);
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);
    free(expect);
    tsr_memory_destroy(ms);
    tsr_memory_destroy(mw);
    tsr_memory_destroy(md);
    tsr_primitive_desc_destroy(pd);
}

typedef struct {
    tsr_memory_desc_t src, wei, dsrc, dwei, ddst;
    tsr_primitive_desc_t pd;
    tsr_memory_t ms, mw, mdd, mds, mdw;
} bwd_t;

static int bwd_create(bwd_t *b, int nd, const tsr_dim_t *dims,
                      const tsr_dim_t *wdims, tsr_data_type_t dt,
                      const char *tag) {
    memset(b, 0, sizeof(*b));
    tsr_memory_desc_init_by_tag(&b->src, nd, dims, dt, tag);
    tsr_memory_desc_init_by_tag(&b->wei, nd, wdims, dt, "any");
    tsr_memory_desc_init_by_tag(&b->dsrc, nd, dims, dt, "any");
    tsr_memory_desc_init_by_tag(&b->dwei, nd, wdims, dt, "any");
    tsr_memory_desc_init_by_tag(&b->ddst, nd, dims, dt, tag);
    tsr_prelu_desc_t desc;
    if (!CHECK(tsr_prelu_backward_desc_init(&desc, &b->src, &b->wei, &b->dsrc,
                                            &b->dwei,
                                            &b->ddst) == tsr_success) ||
        !CHECK(tsr_primitive_desc_create(&b->pd, &desc, NULL, engine) ==
               tsr_success))
        return 0;
    b->wei = *tsr_primitive_desc_query_arg_md(b->pd, TSR_ARG_WEIGHTS);
    b->dsrc = *tsr_primitive_desc_query_arg_md(b->pd, TSR_ARG_DIFF_SRC);
    b->dwei = *tsr_primitive_desc_query_arg_md(b->pd, TSR_ARG_DIFF_WEIGHTS);
    CHECK(tsr_primitive_desc_query_arg_usage(b->pd, TSR_ARG_DIFF_WEIGHTS) ==
          tsr_arg_output);
    CHECK(tsr_memory_desc_matches_tag(&b->dsrc, tag));
    b->ms = make_memory(&b->src);
    b->mw = make_memory(&b->wei);
    b->mdd = make_memory(&b->ddst);
    b->mds = make_memory(&b->dsrc);
    b->mdw = make_memory(&b->dwei);
    return 1;
}

static void bwd_run(bwd_t *b) {
    soil_padding(&b->dsrc, data_of(b->mds));
    soil_padding(&b->dwei, data_of(b->mdw));
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, b->pd) == tsr_success);
    tsr_exec_arg_t args[5] = {{TSR_ARG_SRC, b->ms},
                              {TSR_ARG_WEIGHTS, b->mw},
                              {TSR_ARG_DIFF_DST, b->mdd},
                              {TSR_ARG_DIFF_SRC, b->mds},
                              {TSR_ARG_DIFF_WEIGHTS, b->mdw}};
    CHECK(tsr_primitive_execute(prim, stream, 5, args) == tsr_success);
    tsr_primitive_destroy(prim);
}

static void bwd_destroy(bwd_t *b) {
    tsr_memory_destroy(b->ms);
    tsr_memory_destroy(b->mw);
    tsr_memory_destroy(b->mdd);
    tsr_memory_destroy(b->mds);
    tsr_memory_destroy(b->mdw);
    tsr_primitive_desc_destroy(b->pd);
}

static void test_bwd(int nd, const tsr_dim_t *dims, const tsr_dim_t *wdims,
                     tsr_data_type_t dt, const char *tag) {
    bwd_t b;
    if (!bwd_create(&b, nd, dims, wdims, dt, tag))
        return;
    fill(&b.src, data_of(b.ms), 0);
    fill(&b.wei, data_of(b.mw), 1);
    fill(&b.ddst, data_of(b.mdd), 2);
    const size_t ds_size = tsr_memory_desc_get_size(&b.dsrc);
    const size_t dw_size = tsr_memory_desc_get_size(&b.dwei);
    unsigned char *expect_ds = calloc(1, ds_size);
    unsigned char *expect_dw = calloc(1, dw_size);
    double *sums = calloc((size_t)nelems(&b.dwei), sizeof(double));
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t l = 0; l < nelems(&b.src); l++) {
        l2pos(nd, dims, l, pos);
        const float s =
                load(dt, data_of(b.ms), tsr_memory_desc_offset(&b.src, pos));
        const float g =
                load(dt, data_of(b.mdd), tsr_memory_desc_offset(&b.ddst, pos));
        const float w = wei_load(&b.wei, data_of(b.mw), pos);
        store(dt, expect_ds, tsr_memory_desc_offset(&b.dsrc, pos),
              g * (s > 0 ? 1.f : w));
        int64_t wl = 0;
        for (int d = 0; d < nd; d++)
            wl = wl * wdims[d] + (wdims[d] == 1 ? 0 : pos[d]);
        sums[wl] += (double)g * (s < 0 ? s : 0.f);
    }
    for (int64_t l = 0; l < nelems(&b.dwei); l++) {
        l2pos(nd, wdims, l, pos);
        store(dt, expect_dw, tsr_memory_desc_offset(&b.dwei, pos),
              (float)sums[l]);
    }
    do {
        tally(tsr_primitive_desc_impl_name(b.pd));
        bwd_run(&b);
        report(memcmp(data_of(b.mds), expect_ds, ds_size) == 0, "bwd diff_src",
               b.pd, &b.src);
        report(memcmp(data_of(b.mdw), expect_dw, dw_size) == 0,
               "bwd diff_weights", b.pd, &b.src);
    } while (tsr_primitive_desc_next_impl(b.pd) == tsr_success);
    free(expect_ds);
    free(expect_dw);
    free(sums);
    bwd_destroy(&b);
}

static const tsr_dim_t dims4[4] = {2, 17, 6, 5};

/* Weights dims for broadcast pattern `mask`: bit d keeps dim d. */
static void wdims_of(int mask, tsr_dim_t *wdims) {
    for (int d = 0; d < 4; d++)
        wdims[d] = (mask >> d) & 1 ? dims4[d] : 1;
}

static void test_forward_all(void) {
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    static const tsr_data_type_t dts[] = {tsr_f32, tsr_bf16, tsr_f16,
                                          tsr_s32, tsr_s8,   tsr_u8};
    for (int t = 0; t < 3; t++) {
        for (int mask = 0; mask < 16; mask++) {
            tsr_dim_t wdims[4];
            wdims_of(mask, wdims);
            test_fwd(4, dims4, wdims, tsr_f32, tsr_f32, tags[t], "any");
            test_fwd(4, dims4, wdims, tsr_f32, tsr_f32, tags[t], "abcd");
        }
        for (int i = 0; i < 6; i++) {
            tsr_dim_t per_c[4], scalar[4], full[4];
            wdims_of(2, per_c);
            wdims_of(0, scalar);
            wdims_of(15, full);
            test_fwd(4, dims4, per_c, dts[i], dts[i], tags[t], "any");
            test_fwd(4, dims4, scalar, dts[i], tsr_f32, tags[t], "any");
            test_fwd(4, dims4, full, dts[i], dts[i], tags[t], tags[t]);
        }
    }
    /* Other ranks and sizes beyond one thread's share. */
    const tsr_dim_t d1[1] = {100003}, w1[1] = {1};
    test_fwd(1, d1, w1, tsr_f32, tsr_f32, "a", "any");
    const tsr_dim_t d2[2] = {1031, 67}, w2[2] = {1, 67};
    test_fwd(2, d2, w2, tsr_f32, tsr_f32, "ab", "any");
    test_fwd(2, d2, w2, tsr_s8, tsr_f32, "ab", "any");
    const tsr_dim_t d5[5] = {2, 19, 3, 4, 5}, w5[5] = {1, 19, 1, 1, 1};
    test_fwd(5, d5, w5, tsr_f32, tsr_f32, "acdeb", "any");
}

static void test_backward_all(void) {
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    for (int t = 0; t < 3; t++)
        for (int mask = 0; mask < 16; mask++) {
            tsr_dim_t wdims[4];
            wdims_of(mask, wdims);
            test_bwd(4, dims4, wdims, tsr_f32, tags[t]);
            if (mask == 0 || mask == 2 || mask == 15)
                test_bwd(4, dims4, wdims, tsr_bf16, tags[t]);
        }
    const tsr_dim_t d2[2] = {1031, 67}, w2[2] = {1, 67}, ws[2] = {1, 1};
    test_bwd(2, d2, w2, tsr_f32, "ab");
    test_bwd(2, d2, ws, tsr_f32, "ab");
}

/* Values whose sums round: diff_weights must have the same bits on one
 * thread and on two, for every implementation. */
static void test_backward_threads(void) {
    static const tsr_dim_t dims[4] = {8, 37, 29, 31};
    static const tsr_dim_t wmasks[3] = {2, 0, 10};
    static const char *tags[] = {"abcd", "acdb"};
    for (int t = 0; t < 2; t++)
        for (int m = 0; m < 3; m++) {
            tsr_dim_t wdims[4];
            for (int d = 0; d < 4; d++)
                wdims[d] = (wmasks[m] >> d) & 1 ? dims[d] : 1;
            bwd_t b;
            if (!bwd_create(&b, 4, dims, wdims, tsr_f32, tags[t]))
                continue;
            uint32_t state = 12345u;
            const tsr_memory_desc_t *mds[3] = {&b.src, &b.wei, &b.ddst};
            tsr_memory_t mems[3] = {b.ms, b.mw, b.mdd};
            for (int i = 0; i < 3; i++) {
                float *p = data_of(mems[i]);
                for (int64_t k = 0; k < nelems(mds[i]); k++) {
                    state = state * 1664525u + 1013904223u;
                    p[k] = (float)(state >> 8) * 0x1p-23f - 1.f;
                }
            }
            const size_t dw_size = tsr_memory_desc_get_size(&b.dwei);
            unsigned char *first = malloc(dw_size);
            const int saved = omp_get_max_threads();
            do {
                omp_set_num_threads(1);
                bwd_run(&b);
                memcpy(first, data_of(b.mdw), dw_size);
                omp_set_num_threads(2);
                bwd_run(&b);
                report(memcmp(first, data_of(b.mdw), dw_size) == 0,
                       "diff_weights bits vary with threads", b.pd, &b.src);
            } while (tsr_primitive_desc_next_impl(b.pd) == tsr_success);
            omp_set_num_threads(saved);
            free(first);
            bwd_destroy(&b);
        }
}

static void test_bad_arguments(void) {
    tsr_memory_desc_t src, wbad, w3, dst_big, any_src;
    const tsr_dim_t d[4] = {2, 17, 6, 5}, dw[4] = {1, 3, 1, 1},
                    d3[3] = {1, 17, 1}, db[4] = {2, 17, 6, 6};
    tsr_memory_desc_init_by_tag(&src, 4, d, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&wbad, 4, dw, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&w3, 3, d3, tsr_f32, "abc");
    tsr_memory_desc_init_by_tag(&dst_big, 4, db, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&any_src, 4, d, tsr_f32, "any");
    tsr_prelu_desc_t desc, before;
    memset(&desc, 0x3c, sizeof(desc));
    before = desc;
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_training, &src, &wbad,
                                      &src) == tsr_invalid_arguments);
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_training, &src, &w3,
                                      &src) == tsr_invalid_arguments);
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_training, &src, &src,
                                      &dst_big) == tsr_invalid_arguments);
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_backward_data, &src, &src,
                                      &src) == tsr_invalid_arguments);
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_training, &src, NULL,
                                      &src) == tsr_invalid_arguments);
    CHECK(tsr_prelu_backward_desc_init(&desc, &src, &src, &src, &wbad, &src) ==
          tsr_invalid_arguments);
    CHECK(tsr_prelu_backward_desc_init(&desc, &src, &src, &dst_big, &src,
                                       &src) == tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);

    /* Backward on integer data: valid, not implemented. */
    tsr_memory_desc_t s8;
    tsr_memory_desc_init_by_tag(&s8, 4, d, tsr_s8, "abcd");
    CHECK(tsr_prelu_backward_desc_init(&desc, &s8, &any_src, &any_src, &any_src,
                                       &s8) == tsr_success);
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
          tsr_unimplemented);

    /* Execution without weights: refused, dst untouched. */
    CHECK(tsr_prelu_forward_desc_init(&desc, tsr_forward_inference, &src, &src,
                                      &src) == tsr_success);
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
    tsr_memory_t ms = make_memory(&src), md = make_memory(&src);
    memset(data_of(md), 0x77, tsr_memory_desc_get_size(&src));
    tsr_exec_arg_t args[2] = {{TSR_ARG_SRC, ms}, {TSR_ARG_DST, md}};
    CHECK(tsr_primitive_execute(prim, stream, 2, args) ==
          tsr_invalid_arguments);
    const unsigned char *p = data_of(md);
    int untouched = 1;
    for (size_t i = 0; i < tsr_memory_desc_get_size(&src); i++)
        untouched &= p[i] == 0x77;
    CHECK(untouched);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
    tsr_memory_destroy(ms);
    tsr_memory_destroy(md);
}

int main(void) {
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    test_forward_all();
    test_backward_all();
    test_backward_threads();
    test_bad_arguments();
    for (int i = 0; i < 8 && impl_tally[i].name; i++)
        printf("%s: %d runs\n", impl_tally[i].name, impl_tally[i].runs);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
