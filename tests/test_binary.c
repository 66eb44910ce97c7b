/* Binary: every implementation that accepts a problem (walking the list
 * with tsr_primitive_desc_next_impl) must write, bit for bit, what this
 * test computes from the definition
 *   dst = post_ops(alg(scale0 * src0, scale1 * src1[broadcast]))
 * rounded to nearest even and saturated for integer destinations, with
 * the padding of a blocked dst zero. Covers the twelve algorithms, shapes
 * and broadcast patterns (scalar, per channel, per spatial point, full),
 * data types (f32, bf16, f16, s32, s8, u8, mixed), layouts (abcd, acdb,
 * aBcd16b with C = 17), in place, scales, post-ops, a tensor large enough
 * for every thread, one beyond the caches in a buffer not aligned to a
 * vector, and the refusals. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binary_test_util.h"
#include "check.h"
#include "common/data_type.h"
#include "tessera.h"

static tsr_engine_t engine;
static tsr_stream_t stream;

/* How many runs each implementation took part in. */
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

/* Element reads and writes of the test's own, with the documented
 * rounding (nearest even) and saturation for integer types. */
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

/* Integer results round to nearest even, or down (round mode down). */
static int round_down = 0;
static float round_int(float v) {
    return round_down ? floorf(v) : nearbyintf(v);
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
                (int32_t)clampf(round_int(v), -2147483648.f, 2147483520.f);
        break;
    case tsr_s8:
        ((int8_t *)p)[off] = (int8_t)clampf(round_int(v), -128.f, 127.f);
        break;
    case tsr_u8:
        ((uint8_t *)p)[off] = (uint8_t)clampf(round_int(v), 0.f, 255.f);
        break;
    default:
        break;
    }
}

/* A value for element k of input `which`: small and exact in every type,
 * with ties for the rounding of integer results; never 0 for src1 (div). */
static float fill_value(tsr_data_type_t dt, int64_t k, int which) {
    float v;
    switch (dt) {
    case tsr_s8:
        v = (float)((k * 7 + which * 3) % 41 - 20);
        break;
    case tsr_u8:
        v = (float)((k * 5 + which) % 37);
        break;
    case tsr_s32:
        v = (float)((k * 13 + which) % 1001 - 500);
        break;
    default:
        v = (float)((k * 5 + which * 11) % 17 - 8) * 0.25f;
        break;
    }
    return (which == 1 && v == 0.f) ? 1.f : v;
}

typedef struct {
    int ndims;
    tsr_dim_t dims[TSR_MAX_NDIMS];
    tsr_data_type_t dt;
    const char *tag;
} tensor_t;

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

/* Row-major logical index l to a point. */
static void l2pos(int nd, const tsr_dim_t *dims, int64_t l, tsr_dim_t *pos) {
    for (int d = nd - 1; d >= 0; d--) {
        pos[d] = l % dims[d];
        l /= dims[d];
    }
}

static int64_t nelems(int nd, const tsr_dim_t *dims) {
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n *= dims[d];
    return n;
}

static void fill(const tsr_memory_desc_t *md, void *p, int which) {
    memset(p, 0, tsr_memory_desc_get_size(md));
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (int64_t l = 0; l < nelems(md->ndims, md->dims); l++) {
        l2pos(md->ndims, md->dims, l, pos);
        store(md->data_type, p, tsr_memory_desc_offset(md, pos),
              fill_value(md->data_type, l, which));
    }
}

static float bcast_load(const tsr_memory_desc_t *md, const void *p,
                        const tsr_dim_t *pos) {
    tsr_dim_t bpos[TSR_MAX_NDIMS];
    for (int d = 0; d < md->ndims; d++)
        bpos[d] = md->dims[d] == 1 ? 0 : pos[d];
    return load(md->data_type, p, tsr_memory_desc_offset(md, bpos));
}

/* The problem's post-ops, as the test applies them. */
typedef struct {
    int sum;              /* sum with scale 0.5 */
    int relu;             /* eltwise relu, alpha 0.25 */
    int linear;           /* eltwise linear 2 * x + 0.125 */
    int bin_mul;          /* binary mul by an f32 per-channel tensor */
    float scale0, scale1; /* 0: not set */
    int round_down;       /* round mode down */
} extras_t;

static const extras_t no_extras = {0, 0, 0, 0, 0.f, 0.f, 0};

static int test_case(tsr_alg_kind_t alg, const tensor_t *t0, const tensor_t *t1,
                     const tensor_t *td, int inplace, const extras_t *ex);

static tsr_memory_desc_t md_of(const tensor_t *t) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    CHECK(tsr_memory_desc_init_by_tag(&md, t->ndims, t->dims, t->dt, t->tag) ==
          tsr_success);
    return md;
}

static tsr_primitive_attr_t make_attr(const extras_t *ex, int ndims,
                                      const tsr_dim_t *dims,
                                      tsr_memory_desc_t *bin_md) {
    tsr_primitive_attr_t attr = NULL;
    tsr_primitive_attr_create(&attr);
    if (ex->scale0 != 0.f)
        tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC_0, 0);
    if (ex->scale1 != 0.f)
        tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC_1, 0);
    tsr_post_ops_t po = NULL;
    tsr_post_ops_create(&po);
    if (ex->sum)
        tsr_post_ops_append_sum(po, 0.5f, 0, tsr_data_type_undef);
    if (ex->relu)
        tsr_post_ops_append_eltwise(po, 1.f, tsr_eltwise_relu, 0.25f, 0.f);
    if (ex->bin_mul) {
        tsr_dim_t bdims[TSR_MAX_NDIMS];
        for (int d = 0; d < ndims; d++)
            bdims[d] = d == 1 ? dims[1] : 1;
        tsr_memory_desc_init_by_strides(bin_md, ndims, bdims, tsr_f32, NULL);
        tsr_post_ops_append_binary(po, tsr_binary_mul, bin_md);
    }
    if (ex->linear)
        tsr_post_ops_append_eltwise(po, 1.f, tsr_eltwise_linear, 2.f, 0.125f);
    tsr_primitive_attr_set_post_ops(attr, po);
    if (ex->round_down)
        tsr_primitive_attr_set_round_mode(attr, tsr_round_down);
    tsr_post_ops_destroy(po);
    return attr;
}

static float naive_post_ops(const extras_t *ex, float v, float old, float bin) {
    if (ex->sum)
        v = 0.5f * old + v;
    if (ex->relu)
        v = v > 0 ? v : 0.25f * v;
    if (ex->bin_mul)
        v = v * bin;
    if (ex->linear)
        v = 2.f * v + 0.125f;
    return v;
}

/* Runs the problem on every implementation that takes it; returns how
 * many did. */
static int test_case(tsr_alg_kind_t alg, const tensor_t *t0, const tensor_t *t1,
                     const tensor_t *td, int inplace, const extras_t *ex) {
    tsr_memory_desc_t md0 = md_of(t0), md1 = md_of(t1), mdd = md_of(td);
    tsr_binary_desc_t desc;
    if (!CHECK(tsr_binary_desc_init(&desc, alg, &md0, &md1, &mdd) ==
               tsr_success))
        return 0;
    tsr_memory_desc_t bin_md;
    memset(&bin_md, 0, sizeof(bin_md));
    tsr_primitive_attr_t attr = make_attr(ex, td->ndims, td->dims, &bin_md);
    tsr_primitive_desc_t pd = NULL;
    tsr_status_t st = tsr_primitive_desc_create(&pd, &desc, attr, engine);
    tsr_primitive_attr_destroy(attr);
    if (!CHECK(st == tsr_success))
        return 0;

    const tsr_memory_desc_t *dst_md =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_DST);
    const tsr_memory_desc_t *qmd0 =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_SRC_0);
    const tsr_memory_desc_t *qmd1 =
            tsr_primitive_desc_query_arg_md(pd, TSR_ARG_SRC_1);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_DST) ==
          tsr_arg_output);
    CHECK(tsr_primitive_desc_query_arg_usage(pd, TSR_ARG_SRC_1) ==
          tsr_arg_input);
    /* dst "any" takes src0's layout. */
    if (strcmp(td->tag, "any") == 0 && strcmp(t0->tag, "any") != 0)
        CHECK(tsr_memory_desc_matches_tag(dst_md, t0->tag));

    const int nd = td->ndims;
    const int64_t n = nelems(nd, td->dims);
    const size_t dst_size = tsr_memory_desc_get_size(dst_md);
    unsigned char *expect = calloc(1, dst_size);
    tsr_memory_t m0 = make_memory(qmd0), m1 = make_memory(qmd1);
    tsr_memory_t md = inplace ? m0 : make_memory(dst_md);
    tsr_memory_t mbin = ex->bin_mul ? make_memory(&bin_md) : NULL;
    tsr_memory_t ms0 = NULL, ms1 = NULL;
    const tsr_dim_t one = 1;
    tsr_memory_desc_t scale_md;
    tsr_memory_desc_init_by_strides(&scale_md, 1, &one, tsr_f32, NULL);
    if (ex->scale0 != 0.f) {
        ms0 = make_memory(&scale_md);
        *(float *)data_of(ms0) = ex->scale0;
    }
    if (ex->scale1 != 0.f) {
        ms1 = make_memory(&scale_md);
        *(float *)data_of(ms1) = ex->scale1;
    }
    if (mbin)
        fill(&bin_md, data_of(mbin), 3);

    /* The expected dst image: values at logical points, zero padding. */
    {
        fill(qmd0, data_of(m0), 0);
        fill(qmd1, data_of(m1), 1);
        void *old = malloc(dst_size);
        if (inplace)
            memcpy(old, data_of(m0), dst_size);
        else
            fill(dst_md, old, 2);
        tsr_dim_t pos[TSR_MAX_NDIMS];
        for (int64_t l = 0; l < n; l++) {
            l2pos(nd, td->dims, l, pos);
            const float a = bcast_load(qmd0, data_of(m0), pos);
            const float b = bcast_load(qmd1, data_of(m1), pos);
            const int64_t off = tsr_memory_desc_offset(dst_md, pos);
            float v = naive_alg(alg, (ex->scale0 != 0.f ? ex->scale0 : 1.f) * a,
                                (ex->scale1 != 0.f ? ex->scale1 : 1.f) * b);
            const float bin =
                    mbin ? bcast_load(&bin_md, data_of(mbin), pos) : 0.f;
            v = naive_post_ops(ex, v, load(dst_md->data_type, old, off), bin);
            round_down = ex->round_down;
            store(dst_md->data_type, expect, off, v);
            round_down = 0;
        }
        free(old);
    }

    int runs = 0;
    do {
        tally(tsr_primitive_desc_impl_name(pd));
        fill(qmd0, data_of(m0), 0);
        fill(qmd1, data_of(m1), 1);
        if (!inplace) {
            fill(dst_md, data_of(md), 2);
            /* Garbage in the padding: the primitive must zero it. */
            tsr_dim_t pos[TSR_MAX_NDIMS];
            unsigned char *p = data_of(md);
            unsigned char *logical = calloc(1, dst_size);
            const size_t es = tsr_data_type_size(dst_md->data_type);
            for (int64_t l = 0; l < n; l++) {
                l2pos(nd, td->dims, l, pos);
                memset(logical + es * tsr_memory_desc_offset(dst_md, pos), 1,
                       es);
            }
            for (size_t i = 0; i < dst_size; i++)
                if (!logical[i])
                    p[i] = 0x5a;
            free(logical);
        }
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[8] = {
                {TSR_ARG_SRC_0, m0}, {TSR_ARG_SRC_1, m1}, {TSR_ARG_DST, md}};
        int nargs = 3;
        if (ms0)
            args[nargs++] =
                    (tsr_exec_arg_t){TSR_ARG_ATTR_SCALES | TSR_ARG_SRC_0, ms0};
        if (ms1)
            args[nargs++] =
                    (tsr_exec_arg_t){TSR_ARG_ATTR_SCALES | TSR_ARG_SRC_1, ms1};
        if (mbin)
            args[nargs++] = (tsr_exec_arg_t){
                    TSR_ARG_ATTR_MULTIPLE_POST_OP(ex->relu + ex->sum) |
                            TSR_ARG_SRC_1,
                    mbin};
        CHECK(tsr_primitive_execute(prim, stream, nargs, args) == tsr_success);
        tsr_primitive_destroy(prim);
        if (!CHECK(memcmp(data_of(md), expect, dst_size) == 0)) {
            const unsigned char *got = data_of(md);
            size_t i = 0;
            while (got[i] == expect[i])
                i++;
            fprintf(stderr,
                    "  impl %s alg %s dt %s:%s:%s tags %s:%s:%s inplace %d: "
                    "first difference at byte %zu of %zu\n",
                    tsr_primitive_desc_impl_name(pd), tsr_alg_kind2str(alg),
                    tsr_data_type2str(t0->dt), tsr_data_type2str(t1->dt),
                    tsr_data_type2str(td->dt), t0->tag, t1->tag, td->tag,
                    inplace, i, dst_size);
        }
        runs++;
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);

    free(expect);
    tsr_memory_destroy(m0);
    tsr_memory_destroy(m1);
    if (!inplace)
        tsr_memory_destroy(md);
    tsr_memory_destroy(mbin);
    tsr_memory_destroy(ms0);
    tsr_memory_destroy(ms1);
    tsr_primitive_desc_destroy(pd);
    return runs;
}

static tensor_t tensor4(tsr_dim_t n, tsr_dim_t c, tsr_dim_t h, tsr_dim_t w,
                        tsr_data_type_t dt, const char *tag) {
    tensor_t t = {4, {n, c, h, w}, dt, tag};
    return t;
}

/* Every algorithm over broadcast patterns and layouts, f32. */
static void test_algs_broadcasts_layouts(void) {
    static const tsr_dim_t src1_dims[][4] = {{2, 17, 5, 3}, {1, 17, 1, 1},
                                             {1, 1, 1, 1},  {2, 1, 5, 3},
                                             {1, 1, 5, 3},  {2, 17, 1, 1}};
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    for (int a = 0; a < N_ALGS; a++)
        for (int b = 0; b < 6; b++)
            for (int t = 0; t < 3; t++) {
                const tsr_dim_t *d1 = src1_dims[b];
                /* src1 in src0's layout when it has the full shape, else
                 * plain (or channels-last). */
                const char *tag1 =
                        b == 0 ? tags[t] : (t == 1 ? "acdb" : "abcd");
                tensor_t t0 = tensor4(2, 17, 5, 3, tsr_f32, tags[t]);
                tensor_t t1 =
                        tensor4(d1[0], d1[1], d1[2], d1[3], tsr_f32, tag1);
                tensor_t td = tensor4(2, 17, 5, 3, tsr_f32, "any");
                test_case(all_algs[a], &t0, &t1, &td, 0, &no_extras);
            }
    /* src1 full shape in a layout other than src0's. */
    tensor_t t0 = tensor4(2, 17, 5, 3, tsr_f32, "acdb");
    tensor_t t1 = tensor4(2, 17, 5, 3, tsr_f32, "abcd");
    tensor_t td = tensor4(2, 17, 5, 3, tsr_f32, "aBcd16b");
    test_case(tsr_binary_sub, &t0, &t1, &td, 0, &no_extras);
    /* src0 broadcast too. */
    tensor_t b0 = tensor4(1, 17, 5, 3, tsr_f32, "abcd");
    tensor_t b1 = tensor4(2, 17, 1, 1, tsr_f32, "abcd");
    tensor_t bd = tensor4(2, 17, 5, 3, tsr_f32, "abcd");
    test_case(tsr_binary_div, &b0, &b1, &bd, 0, &no_extras);
}

/* Data types: same for all three, and mixed. */
static void test_data_types(void) {
    static const tsr_data_type_t same[] = {tsr_f32, tsr_bf16, tsr_f16,
                                           tsr_s32, tsr_s8,   tsr_u8};
    static const tsr_data_type_t mixed[][3] = {
            {tsr_s8, tsr_u8, tsr_s8},    {tsr_u8, tsr_s8, tsr_u8},
            {tsr_s8, tsr_f32, tsr_u8},   {tsr_f32, tsr_u8, tsr_s8},
            {tsr_f32, tsr_f32, tsr_u8},  {tsr_u8, tsr_u8, tsr_f32},
            {tsr_bf16, tsr_f32, tsr_s8}, {tsr_f32, tsr_s8, tsr_s32}};
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 6; i++)
            for (int a = 0; a < N_ALGS; a += 3) {
                tensor_t t0 = tensor4(2, 17, 4, 5, same[i], tags[t]);
                tensor_t t1 = tensor4(1, 17, 1, 1, same[i], "abcd");
                tensor_t td = tensor4(2, 17, 4, 5, same[i], tags[t]);
                test_case(all_algs[a], &t0, &t1, &td, 0, &no_extras);
                tensor_t f1 = tensor4(2, 17, 4, 5, same[i], tags[t]);
                test_case(all_algs[a + 2], &t0, &f1, &td, 0, &no_extras);
            }
        for (int i = 0; i < 8; i++)
            for (int a = 0; a < N_ALGS; a++) {
                tensor_t t0 = tensor4(2, 17, 4, 5, mixed[i][0], tags[t]);
                tensor_t t1 = tensor4(1, 1, 1, 1, mixed[i][1], "abcd");
                tensor_t td = tensor4(2, 17, 4, 5, mixed[i][2], tags[t]);
                test_case(all_algs[a], &t0, &t1, &td, 0, &no_extras);
                tensor_t f1 = tensor4(2, 17, 4, 5, mixed[i][1], tags[t]);
                test_case(all_algs[a], &t0, &f1, &td, 0, &no_extras);
            }
    }
    /* Saturation of products into 8-bit destinations. */
    tensor_t t0 = tensor4(2, 16, 3, 7, tsr_u8, "acdb");
    tensor_t t1 = tensor4(2, 16, 3, 7, tsr_u8, "acdb");
    tensor_t ts8 = tensor4(2, 16, 3, 7, tsr_s8, "acdb");
    test_case(tsr_binary_mul, &t0, &t1, &ts8, 0, &no_extras);
    tensor_t tu8 = tensor4(2, 16, 3, 7, tsr_u8, "acdb");
    test_case(tsr_binary_mul, &t0, &t1, &tu8, 0, &no_extras);
}

/* u8 activations with s8 weights into u8, s8 and f32: the same shape and
 * per channel, rows with vector tails, in place, with scales and both
 * round modes (the int8 kernels compiled with constant types). */
static void test_u8_s8(void) {
    static const tsr_data_type_t ddts[] = {tsr_u8, tsr_s8, tsr_f32};
    static const tsr_alg_kind_t algs[] = {tsr_binary_add, tsr_binary_mul,
                                          tsr_binary_max};
    const extras_t scaled = {0, 0, 0, 0, 0.75f, 1.5f, 0};
    const extras_t scaled_down = {0, 0, 0, 0, 0.5f, 0.25f, 1};
    const extras_t *extras[] = {&no_extras, &scaled, &scaled_down};
    for (int d = 0; d < 3; d++)
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++) {
                tensor_t t0 = tensor4(3, 19, 5, 7, tsr_u8, "abcd");
                tensor_t same = tensor4(3, 19, 5, 7, tsr_s8, "abcd");
                tensor_t per_c = tensor4(1, 19, 1, 1, tsr_s8, "abcd");
                tensor_t td = tensor4(3, 19, 5, 7, ddts[d], "abcd");
                CHECK(test_case(algs[a], &t0, &same, &td, 0, extras[e]) > 1);
                CHECK(test_case(algs[a], &t0, &per_c, &td, 0, extras[e]) > 1);
            }
    tensor_t t0 = tensor4(2, 33, 3, 11, tsr_u8, "abcd");
    tensor_t t1 = tensor4(1, 33, 1, 1, tsr_s8, "abcd");
    tensor_t f1 = tensor4(2, 33, 3, 11, tsr_s8, "abcd");
    CHECK(test_case(tsr_binary_add, &t0, &t1, &t0, 1, &no_extras) > 1);
    CHECK(test_case(tsr_binary_mul, &t0, &f1, &t0, 1, &no_extras) > 1);
    tensor_t big = {1, {1000003}, tsr_u8, "a"};
    tensor_t big1 = {1, {1000003}, tsr_s8, "a"};
    tensor_t bigd = {1, {1000003}, tsr_s8, "a"};
    CHECK(test_case(tsr_binary_mul, &big, &big1, &bigd, 0, &no_extras) > 1);
}

static void test_in_place(void) {
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    static const tsr_data_type_t dts[] = {tsr_f32, tsr_s8, tsr_bf16};
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < 3; i++) {
            tensor_t t0 = tensor4(3, 17, 2, 9, dts[i], tags[t]);
            tensor_t t1 = tensor4(1, 17, 1, 1, tsr_f32, "abcd");
            tensor_t td = t0;
            test_case(tsr_binary_add, &t0, &t1, &td, 1, &no_extras);
            tensor_t s1 = tensor4(1, 1, 1, 1, dts[i], "abcd");
            test_case(tsr_binary_max, &t0, &s1, &td, 1, &no_extras);
            tensor_t f1 = t0;
            test_case(tsr_binary_mul, &t0, &f1, &td, 1, &no_extras);
        }
}

static void test_attributes(void) {
    static const char *tags[] = {"abcd", "acdb", "aBcd16b"};
    /* sum, relu, linear, binary mul, scale0, scale1, round down */
    const extras_t cases[] = {
            {1, 0, 0, 0, 0.f, 0.f, 0},    {0, 1, 0, 0, 0.f, 0.f, 0},
            {0, 0, 1, 0, 0.f, 0.f, 0},    {0, 0, 0, 1, 0.f, 0.f, 0},
            {0, 0, 0, 0, 0.25f, 0.5f, 0}, {1, 1, 1, 1, 0.25f, 0.5f, 0},
            {0, 0, 0, 0, 0.f, 3.f, 0},    {1, 0, 1, 0, 1.5f, 0.f, 0},
            {0, 0, 0, 0, 0.5f, 0.25f, 1}, {1, 1, 0, 0, 0.5f, 0.f, 1}};
    const int ncases = (int)(sizeof(cases) / sizeof(cases[0]));
    static const tsr_data_type_t dts[] = {tsr_f32, tsr_u8, tsr_s8};
    for (int t = 0; t < 3; t++)
        for (int c = 0; c < ncases; c++)
            for (int i = 0; i < 3; i++) {
                tensor_t t0 = tensor4(2, 17, 3, 5, dts[i], tags[t]);
                tensor_t t1 = tensor4(1, 17, 1, 1, tsr_f32, "abcd");
                tensor_t td = tensor4(2, 17, 3, 5, dts[i], tags[t]);
                test_case(tsr_binary_add, &t0, &t1, &td, 0, &cases[c]);
                test_case(tsr_binary_mul, &t0, &t0, &td, 1, &cases[c]);
            }
}

/* Other ranks and a tensor every thread gets a part of, in sizes that are
 * not multiples of a vector. */
static void test_shapes(void) {
    tensor_t a = {1, {1000003}, tsr_f32, "a"};
    tensor_t s = {1, {1}, tsr_f32, "a"};
    test_case(tsr_binary_add, &a, &a, &a, 0, &no_extras);
    test_case(tsr_binary_mul, &a, &s, &a, 1, &no_extras);
    tensor_t a8 = {1, {1000003}, tsr_u8, "a"};
    test_case(tsr_binary_sub, &a8, &s, &a, 0, &no_extras);
    tensor_t b = {2, {1037, 33}, tsr_f32, "ab"};
    tensor_t bc = {2, {1, 33}, tsr_f32, "ab"};
    tensor_t br = {2, {1037, 1}, tsr_f32, "ab"};
    test_case(tsr_binary_sub, &b, &bc, &b, 0, &no_extras);
    test_case(tsr_binary_min, &b, &br, &b, 0, &no_extras);
    tensor_t c = {5, {2, 19, 3, 4, 5}, tsr_f32, "acdeb"};
    tensor_t cc = {5, {1, 19, 1, 1, 1}, tsr_f32, "abcde"};
    test_case(tsr_binary_div, &c, &cc, &c, 0, &no_extras);
    tensor_t e = {3, {7, 130, 11}, tsr_s8, "abc"};
    tensor_t ec = {3, {7, 1, 11}, tsr_s8, "abc"};
    tensor_t ed = {3, {7, 130, 11}, tsr_s8, "any"};
    test_case(tsr_binary_max, &e, &ec, &ed, 0, &no_extras);
}

/* A dst beyond the caches (the non-temporal stores), its buffer not
 * aligned to a vector: every implementation against the naive sum. */
static void test_large_unaligned(void) {
    const tsr_dim_t n = (9 << 20) + 5;
    tsr_memory_desc_t md;
    tsr_memory_desc_init_by_tag(&md, 1, &n, tsr_f32, "a");
    tsr_binary_desc_t desc;
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &md, &md, &md) ==
          tsr_success);
    if (!CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) ==
               tsr_success))
        return;
    float *a = malloc(sizeof(float) * (size_t)n);
    float *b = malloc(sizeof(float) * (size_t)n);
    float *buf = malloc(sizeof(float) * (size_t)(n + 1));
    for (tsr_dim_t i = 0; i < n; i++) {
        a[i] = fill_value(tsr_f32, i, 0);
        b[i] = fill_value(tsr_f32, i, 1);
    }
    tsr_memory_t ma = NULL, mb = NULL, md_dst = NULL;
    tsr_memory_create(&ma, &md, engine, a);
    tsr_memory_create(&mb, &md, engine, b);
    tsr_memory_create(&md_dst, &md, engine, buf + 1);
    do {
        tally(tsr_primitive_desc_impl_name(pd));
        memset(buf, 0, sizeof(float) * (size_t)(n + 1));
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        tsr_exec_arg_t args[3] = {{TSR_ARG_SRC_0, ma},
                                  {TSR_ARG_SRC_1, mb},
                                  {TSR_ARG_DST, md_dst}};
        CHECK(tsr_primitive_execute(prim, stream, 3, args) == tsr_success);
        tsr_primitive_destroy(prim);
        tsr_dim_t bad = 0;
        for (tsr_dim_t i = 0; i < n; i++)
            bad += buf[i + 1] != a[i] + b[i];
        if (!CHECK(bad == 0 && buf[0] == 0.f))
            fprintf(stderr, "  impl %s: %lld wrong of %lld\n",
                    tsr_primitive_desc_impl_name(pd), (long long)bad,
                    (long long)n);
    } while (tsr_primitive_desc_next_impl(pd) == tsr_success);
    tsr_memory_destroy(ma);
    tsr_memory_destroy(mb);
    tsr_memory_destroy(md_dst);
    tsr_primitive_desc_destroy(pd);
    free(a);
    free(b);
    free(buf);
}

/* Refusals: tsr_invalid_arguments, the descriptor untouched. */
static void test_bad_arguments(void) {
    tsr_memory_desc_t a, bad_c, rank3, big;
    const tsr_dim_t da[4] = {2, 17, 5, 3}, dc[4] = {2, 3, 5, 3},
                    d3[3] = {2, 17, 5}, db[4] = {4, 17, 5, 3};
    tsr_memory_desc_init_by_tag(&a, 4, da, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&bad_c, 4, dc, tsr_f32, "abcd");
    tsr_memory_desc_init_by_tag(&rank3, 3, d3, tsr_f32, "abc");
    tsr_memory_desc_init_by_tag(&big, 4, db, tsr_f32, "abcd");
    tsr_binary_desc_t desc, before;
    memset(&desc, 0x3c, sizeof(desc));
    before = desc;
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, &bad_c, &a) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, &rank3, &a) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_eltwise_relu, &a, &a, &a) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_alg_last, &a, &a, &a) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, &a, &big) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, &a, &rank3) ==
          tsr_invalid_arguments);
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, NULL, &a) ==
          tsr_invalid_arguments);
    CHECK(memcmp(&desc, &before, sizeof(desc)) == 0);

    /* A descriptor changed after init is checked again at creation. */
    CHECK(tsr_binary_desc_init(&desc, tsr_binary_add, &a, &a, &a) ==
          tsr_success);
    tsr_binary_desc_t broken = desc;
    broken.src_desc[1] = bad_c;
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_primitive_desc_create(&pd, &broken, NULL, engine) ==
          tsr_invalid_arguments);
    CHECK(pd == NULL);

    /* Execution without src1, or with src1 of another shape: refused and
     * dst untouched. */
    CHECK(tsr_primitive_desc_create(&pd, &desc, NULL, engine) == tsr_success);
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
    tsr_memory_t m0 = make_memory(&a), mc = make_memory(&bad_c),
                 mdst = make_memory(&a);
    fill(&a, data_of(m0), 0);
    memset(data_of(mdst), 0x77, tsr_memory_desc_get_size(&a));
    tsr_exec_arg_t missing[2] = {{TSR_ARG_SRC_0, m0}, {TSR_ARG_DST, mdst}};
    CHECK(tsr_primitive_execute(prim, stream, 2, missing) ==
          tsr_invalid_arguments);
    tsr_exec_arg_t wrong[3] = {
            {TSR_ARG_SRC_0, m0}, {TSR_ARG_SRC_1, mc}, {TSR_ARG_DST, mdst}};
    CHECK(tsr_primitive_execute(prim, stream, 3, wrong) ==
          tsr_invalid_arguments);
    /* Scales set but not passed. */
    tsr_primitive_attr_t attr = NULL;
    tsr_primitive_attr_create(&attr);
    CHECK(tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC_1, 0) ==
          tsr_success);
    tsr_primitive_desc_t pd_scaled = NULL;
    CHECK(tsr_primitive_desc_create(&pd_scaled, &desc, attr, engine) ==
          tsr_success);
    tsr_primitive_t prim_scaled = NULL;
    CHECK(tsr_primitive_create(&prim_scaled, pd_scaled) == tsr_success);
    tsr_exec_arg_t no_scale[3] = {
            {TSR_ARG_SRC_0, m0}, {TSR_ARG_SRC_1, m0}, {TSR_ARG_DST, mdst}};
    CHECK(tsr_primitive_execute(prim_scaled, stream, 3, no_scale) ==
          tsr_invalid_arguments);
    const unsigned char *d = data_of(mdst);
    int untouched = 1;
    for (size_t i = 0; i < tsr_memory_desc_get_size(&a); i++)
        untouched &= d[i] == 0x77;
    CHECK(untouched);

    /* SRC_1 scales mean nothing to a reorder. */
    tsr_primitive_desc_t rpd = NULL;
    CHECK(tsr_reorder_primitive_desc_create(&rpd, &a, engine, &a, engine,
                                            attr) == tsr_invalid_arguments);
    tsr_primitive_attr_destroy(attr);
    tsr_primitive_destroy(prim_scaled);
    tsr_primitive_desc_destroy(pd_scaled);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
    tsr_memory_destroy(m0);
    tsr_memory_destroy(mc);
    tsr_memory_destroy(mdst);
}

int main(void) {
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    test_algs_broadcasts_layouts();
    test_data_types();
    test_u8_s8();
    test_in_place();
    test_attributes();
    test_shapes();
    test_large_unaligned();
    test_bad_arguments();
    for (int i = 0; i < 8 && impl_tally[i].name; i++)
        printf("%s: %d runs\n", impl_tally[i].name, impl_tally[i].runs);
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
