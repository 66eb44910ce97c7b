/* Reorder: every implementation that accepts a problem is run (walking the
 * list with tsr_primitive_desc_next_impl) and must produce, byte for byte,
 * what this test computes from the documented formula
 *   dst = saturate(round(src_scale / dst_scale * (src - src_zp)
 *                        + sum_scale * (dst_old - sum_zp) + dst_zp))
 * and what the reference implementation produces; the destination's zero
 * padding must come out zero and its gaps untouched. Covers every pair of a
 * set of plain, strided and blocked layouts with several data type pairs,
 * the attributes (scales of both kinds, zero points, sum, round modes),
 * saturation, round trips, and the refusals. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/data_type.h"
#include "common/memory_desc.h"
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

static int runs_of(const char *name) {
    for (int i = 0; i < 8 && impl_tally[i].name; i++)
        if (strcmp(impl_tally[i].name, name) == 0)
            return impl_tally[i].runs;
    return 0;
}

static uint32_t rng_state = 2463534242u;
static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* Values that exercise rounding ties and saturation for the type. */
static float random_value(tsr_data_type_t dt) {
    const int r = (int)(next_random() % 2401) - 1200;
    switch (dt) {
    case tsr_s8:
        return (float)(r % 128);
    case tsr_u8:
        return (float)(abs(r) % 256);
    case tsr_s32:
        return (float)(r * 1000 + (int)(next_random() % 1000));
    default:
        return (float)r * 0.25f; /* quarters and halves: ties */
    }
}

typedef struct {
    int src_scale_mask, dst_scale_mask; /* -1: none */
    int legacy_mask;                    /* legacy output scales; -1: none */
    int src_zp_mask, dst_zp_mask;
    int sum;
    float sum_scale;
    int32_t sum_zp;
    tsr_round_mode_t round_mode;
} attr_spec_t;

static const attr_spec_t no_attr = {-1, -1, -1, -1, -1, 0, 0.f, 0, 0};

/* Values of one quantity, dense over the dims in its mask. */
typedef struct {
    tsr_dim_t count;
    float f[4096];
    int32_t s[4096];
    tsr_memory_t mem;
} q_values_t;

static tsr_dim_t mask_count(int mask, const tsr_memory_desc_t *md) {
    tsr_dim_t n = 1;
    for (int d = 0; d < md->ndims; d++)
        if (mask & (1 << d))
            n *= md->dims[d];
    return n;
}

static tsr_dim_t mask_index(int mask, const tsr_memory_desc_t *md,
                            const tsr_dim_t *pos) {
    tsr_dim_t idx = 0;
    for (int d = 0; d < md->ndims; d++)
        if (mask & (1 << d))
            idx = idx * md->dims[d] + pos[d];
    return idx;
}

static void make_q_values(q_values_t *q, int mask, const tsr_memory_desc_t *md,
                          int is_zero_point) {
    static const float scales[] = {0.5f, 0.3f, 2.f, 1.7f, 3.f, 0.7f, 1.f};
    q->mem = NULL;
    q->count = mask < 0 ? 0 : mask_count(mask, md);
    for (tsr_dim_t i = 0; i < q->count; i++) {
        q->f[i] = scales[next_random() % 7];
        q->s[i] = (int32_t)(next_random() % 11) - 5;
    }
    if (mask < 0)
        return;
    tsr_memory_desc_t vmd;
    const tsr_dim_t dims[1] = {q->count};
    tsr_memory_desc_init_by_tag(&vmd, 1, dims,
                                is_zero_point ? tsr_s32 : tsr_f32, "a");
    CHECK(tsr_memory_create(&q->mem, &vmd, engine,
                            is_zero_point ? (void *)q->s : (void *)q->f) ==
          tsr_success);
}

typedef struct {
    attr_spec_t spec;
    q_values_t src_scale, dst_scale, legacy, src_zp, dst_zp;
} attr_values_t;

static tsr_primitive_attr_t make_attr(const attr_spec_t *spec, attr_values_t *v,
                                      const tsr_memory_desc_t *md) {
    v->spec = *spec;
    make_q_values(&v->src_scale, spec->src_scale_mask, md, 0);
    make_q_values(&v->dst_scale, spec->dst_scale_mask, md, 0);
    make_q_values(&v->src_zp, spec->src_zp_mask, md, 1);
    make_q_values(&v->dst_zp, spec->dst_zp_mask, md, 1);
    make_q_values(&v->legacy, -1, md, 0);
    tsr_primitive_attr_t attr = NULL;
    CHECK(tsr_primitive_attr_create(&attr) == tsr_success);
    if (spec->src_scale_mask >= 0)
        CHECK(tsr_primitive_attr_set_scales_mask(
                      attr, TSR_ARG_SRC, spec->src_scale_mask) == tsr_success);
    if (spec->dst_scale_mask >= 0)
        CHECK(tsr_primitive_attr_set_scales_mask(
                      attr, TSR_ARG_DST, spec->dst_scale_mask) == tsr_success);
    if (spec->src_zp_mask >= 0)
        CHECK(tsr_primitive_attr_set_zero_points_mask(
                      attr, TSR_ARG_SRC, spec->src_zp_mask) == tsr_success);
    if (spec->dst_zp_mask >= 0)
        CHECK(tsr_primitive_attr_set_zero_points_mask(
                      attr, TSR_ARG_DST, spec->dst_zp_mask) == tsr_success);
    if (spec->legacy_mask >= 0) {
        /* Legacy scales live in the attr: values here, no memory. */
        v->legacy.count = mask_count(spec->legacy_mask, md);
        for (tsr_dim_t i = 0; i < v->legacy.count; i++)
            v->legacy.f[i] = 0.25f * (float)(1 + next_random() % 12);
        CHECK(tsr_primitive_attr_set_output_scales(attr, v->legacy.count,
                                                   spec->legacy_mask,
                                                   v->legacy.f) == tsr_success);
    }
    if (spec->round_mode != tsr_round_nearest)
        CHECK(tsr_primitive_attr_set_round_mode(attr, spec->round_mode) ==
              tsr_success);
    if (spec->sum) {
        tsr_post_ops_t ops = NULL;
        CHECK(tsr_post_ops_create(&ops) == tsr_success);
        CHECK(tsr_post_ops_append_sum(ops, spec->sum_scale, spec->sum_zp,
                                      tsr_data_type_undef) == tsr_success);
        CHECK(tsr_primitive_attr_set_post_ops(attr, ops) == tsr_success);
        tsr_post_ops_destroy(ops);
    }
    return attr;
}

static void free_attr_values(attr_values_t *v) {
    tsr_memory_destroy(v->src_scale.mem);
    tsr_memory_destroy(v->dst_scale.mem);
    tsr_memory_destroy(v->src_zp.mem);
    tsr_memory_destroy(v->dst_zp.mem);
}

/* The formula, evaluated by the test in the documented order. */
static float expected_value(const attr_values_t *v, const tsr_memory_desc_t *md,
                            const tsr_dim_t *pos, float src, float dst_old) {
    const attr_spec_t *s = &v->spec;
    float src_scale = 1.f, dst_scale = 1.f, src_zp = 0.f;
    if (s->legacy_mask >= 0)
        src_scale = v->legacy.f[mask_index(s->legacy_mask, md, pos)];
    if (s->src_scale_mask >= 0)
        src_scale = v->src_scale.f[mask_index(s->src_scale_mask, md, pos)];
    if (s->dst_scale_mask >= 0)
        dst_scale = v->dst_scale.f[mask_index(s->dst_scale_mask, md, pos)];
    if (s->src_zp_mask >= 0)
        src_zp = (float)v->src_zp.s[mask_index(s->src_zp_mask, md, pos)];
    float r = src_scale / dst_scale * (src - src_zp);
    if (s->sum)
        r += s->sum_scale * (dst_old - (float)s->sum_zp);
    if (s->dst_zp_mask >= 0)
        r += (float)v->dst_zp.s[mask_index(s->dst_zp_mask, md, pos)];
    return r;
}

/* Next logical point in row-major order; 0 after the last. */
static int next_point(const tsr_memory_desc_t *md, tsr_dim_t *pos) {
    for (int d = md->ndims - 1; d >= 0; d--) {
        if (++pos[d] < md->dims[d])
            return 1;
        pos[d] = 0;
    }
    return 0;
}

/* Marks the bytes of every logical point (1) and of the zero padding (2). */
static void mark_bytes(const tsr_memory_desc_t *md, unsigned char *marks) {
    const size_t es = tsr_data_type_size(md->data_type);
    memset(marks, 0, tsr_memory_desc_get_size(md));
    tsr_dim_t pos[TSR_MAX_NDIMS] = {0}, n = 1;
    for (int d = 0; d < md->ndims; d++)
        n *= md->padded_dims[d];
    for (tsr_dim_t l = 0; l < n; l++) {
        tsr_dim_t rest = l;
        int inside = 1;
        for (int d = md->ndims - 1; d >= 0; d--) {
            pos[d] = rest % md->padded_dims[d];
            rest /= md->padded_dims[d];
            inside &= pos[d] < md->dims[d];
        }
        memset(marks + (size_t)md_off_v(md, pos) * es, inside ? 1 : 2, es);
    }
}

/* Runs every implementation that accepts the problem. Returns how many
 * ran; the reference's output is left in `ref_out` when given. */
static int run_all_impls(const tsr_memory_desc_t *smd,
                         const tsr_memory_desc_t *dmd, const attr_spec_t *spec,
                         const char *label, void *ref_out) {
    const size_t ssize = tsr_memory_desc_get_size(smd);
    const size_t dsize = tsr_memory_desc_get_size(dmd);
    unsigned char *src = malloc(ssize), *dst = malloc(dsize);
    unsigned char *dst_init = malloc(dsize), *ref = malloc(dsize);
    unsigned char *marks = malloc(dsize);
    unsigned char *expected = malloc(dsize);
    attr_values_t values;
    tsr_primitive_attr_t attr = make_attr(spec, &values, smd);

    /* Source: values at the logical points, zeros elsewhere. Destination:
     * old values at the points (for the sum), garbage in the padding. */
    memset(src, 0, ssize);
    tsr_dim_t pos[TSR_MAX_NDIMS] = {0};
    do {
        tsr_store_f32(smd->data_type, src, tsr_memory_desc_offset(smd, pos),
                      random_value(smd->data_type), tsr_round_nearest);
    } while (next_point(smd, pos));
    for (size_t i = 0; i < dsize; i++)
        dst_init[i] = (unsigned char)(0xa5 ^ i);
    memset(pos, 0, sizeof(pos));
    do {
        tsr_store_f32(dmd->data_type, dst_init,
                      tsr_memory_desc_offset(dmd, pos),
                      random_value(dmd->data_type), tsr_round_nearest);
    } while (next_point(dmd, pos));

    /* What the formula says. */
    mark_bytes(dmd, marks);
    memcpy(expected, dst_init, dsize);
    memset(pos, 0, sizeof(pos));
    do {
        const tsr_dim_t so = tsr_memory_desc_offset(smd, pos);
        const tsr_dim_t d_off = tsr_memory_desc_offset(dmd, pos);
        const float v = expected_value(
                &values, smd, pos, tsr_load_f32(smd->data_type, src, so),
                tsr_load_f32(dmd->data_type, dst_init, d_off));
        tsr_store_f32(dmd->data_type, expected, d_off, v, spec->round_mode);
    } while (next_point(dmd, pos));
    for (size_t i = 0; i < dsize; i++)
        if (marks[i] == 2)
            expected[i] = 0;

    tsr_memory_t src_mem = NULL, dst_mem = NULL;
    CHECK(tsr_memory_create(&src_mem, smd, engine, src) == tsr_success);
    CHECK(tsr_memory_create(&dst_mem, dmd, engine, dst) == tsr_success);
    tsr_exec_arg_t args[8] = {{TSR_ARG_FROM, src_mem}, {TSR_ARG_TO, dst_mem}};
    int nargs = 2;
    const struct {
        int arg;
        tsr_memory_t mem;
    } extra[] = {
            {TSR_ARG_ATTR_SCALES | TSR_ARG_SRC, values.src_scale.mem},
            {TSR_ARG_ATTR_SCALES | TSR_ARG_DST, values.dst_scale.mem},
            {TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_SRC, values.src_zp.mem},
            {TSR_ARG_ATTR_ZERO_POINTS | TSR_ARG_DST, values.dst_zp.mem},
    };
    for (size_t i = 0; i < sizeof(extra) / sizeof(*extra); i++)
        if (extra[i].mem)
            args[nargs++] = (tsr_exec_arg_t){extra[i].arg, extra[i].mem};

    int runs = 0, ref_ran = 0;
    tsr_primitive_desc_t pd = NULL;
    tsr_status_t st = tsr_reorder_primitive_desc_create(&pd, smd, engine, dmd,
                                                        engine, attr);
    if (!CHECK(st == tsr_success))
        fprintf(stderr, "  %s: pd creation gave %s\n", label,
                tsr_status2str(st));
    while (st == tsr_success) {
        const char *name = tsr_primitive_desc_impl_name(pd);
        tsr_primitive_t prim = NULL;
        CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
        memcpy(dst, dst_init, dsize);
        CHECK(tsr_primitive_execute(prim, stream, nargs, args) == tsr_success);
        tsr_primitive_destroy(prim);
        tally(name);
        runs++;
        size_t first_bad = dsize;
        for (size_t i = 0; i < dsize && first_bad == dsize; i++)
            if (dst[i] != expected[i])
                first_bad = i;
        if (!CHECK(first_bad == dsize)) {
            fprintf(stderr,
                    "  %s, impl %s: byte %zu is %02x, expected %02x"
                    " (%s)\n",
                    label, name, first_bad, dst[first_bad], expected[first_bad],
                    marks[first_bad] == 1   ? "data"
                    : marks[first_bad] == 2 ? "padding"
                                            : "gap");
        }
        if (strcmp(name, "ref:any") == 0) {
            memcpy(ref, dst, dsize);
            ref_ran = 1;
        }
        st = tsr_primitive_desc_next_impl(pd);
        if (st == tsr_success && ref_ran)
            CHECK(!"an implementation after the reference");
    }
    CHECK(st == tsr_last_impl_reached || runs == 0);
    tsr_primitive_desc_destroy(pd);
    /* The reference ran last; each other run already equalled `expected`,
     * and so must the reference's own output. */
    if (CHECK(ref_ran) && !CHECK(memcmp(ref, expected, dsize) == 0))
        fprintf(stderr, "  %s: reference differs from the formula\n", label);
    if (ref_out && ref_ran)
        memcpy(ref_out, ref, dsize);

    tsr_memory_destroy(src_mem);
    tsr_memory_destroy(dst_mem);
    tsr_primitive_attr_destroy(attr);
    free_attr_values(&values);
    free(src);
    free(dst);
    free(dst_init);
    free(ref);
    free(marks);
    free(expected);
    return runs;
}

static tsr_memory_desc_t tag_md(int ndims, const tsr_dim_t *dims,
                                tsr_data_type_t dt, const char *tag) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    if (!CHECK(tsr_memory_desc_init_by_tag(&md, ndims, dims, dt, tag) ==
               tsr_success))
        fprintf(stderr, "  tag %s\n", tag);
    return md;
}

/* A plain layout with gaps between rows and a non-zero offset0. */
static tsr_memory_desc_t strided_md(int ndims, const tsr_dim_t *dims,
                                    tsr_data_type_t dt) {
    tsr_dim_t strides[TSR_MAX_NDIMS], stride = 1;
    for (int d = ndims - 1; d >= 0; d--) {
        strides[d] = stride;
        stride *= dims[d] + (d == ndims - 1 ? 3 : 0);
    }
    tsr_memory_desc_t md;
    CHECK(tsr_memory_desc_init_by_strides(&md, ndims, dims, dt, strides) ==
          tsr_success);
    md.offset0 = 7;
    return md;
}

static const char *const layouts_4d[] = {
        "nchw",       "nhwc",        "chwn",          "nChw8c",     "nChw16c",
        "NChw16n16c", "OIhw16i16o",  "OIhw8i8o",      "OIhw16o16i", "Ohwi16o",
        "hwio",       "OIhw4i16o4i", "b_fs_yx_fsv32", "aBcd12b",    "strided"};

static tsr_memory_desc_t layout_md(int ndims, const tsr_dim_t *dims,
                                   tsr_data_type_t dt, const char *layout) {
    return strcmp(layout, "strided") == 0 ? strided_md(ndims, dims, dt)
                                          : tag_md(ndims, dims, dt, layout);
}

/* Every pair of layouts, for a few data type pairs. */
static void test_layout_pairs(void) {
    const tsr_dim_t dims[4] = {9, 19, 2, 3};
    const tsr_data_type_t dt_pairs[][2] = {
            {tsr_f32, tsr_f32},  {tsr_f32, tsr_s8}, {tsr_u8, tsr_f32},
            {tsr_bf16, tsr_f16}, {tsr_s32, tsr_u8}, {tsr_s8, tsr_s8}};
    const size_t nl = sizeof(layouts_4d) / sizeof(*layouts_4d);
    char label[128];
    for (size_t i = 0; i < nl; i++)
        for (size_t j = 0; j < nl; j++)
            for (size_t t = 0; t < sizeof(dt_pairs) / sizeof(*dt_pairs); t++) {
                const tsr_memory_desc_t smd =
                        layout_md(4, dims, dt_pairs[t][0], layouts_4d[i]);
                const tsr_memory_desc_t dmd =
                        layout_md(4, dims, dt_pairs[t][1], layouts_4d[j]);
                snprintf(label, sizeof(label), "%s:%s -> %s:%s", layouts_4d[i],
                         tsr_data_type2str(dt_pairs[t][0]), layouts_4d[j],
                         tsr_data_type2str(dt_pairs[t][1]));
                run_all_impls(&smd, &dmd, &no_attr, label, NULL);
            }
}

/* Every data type pair, through a fast-path layout pair and the same
 * layout, in both round modes. */
static void test_data_type_pairs(void) {
    const tsr_data_type_t dts[] = {tsr_f32, tsr_bf16, tsr_f16,
                                   tsr_s32, tsr_s8,   tsr_u8};
    const tsr_dim_t dims[4] = {3, 21, 3, 5};
    const char *const pairs[][2] = {{"nchw", "nChw16c"},
                                    {"nChw16c", "nchw"},
                                    {"nchw", "nchw"},
                                    {"nhwc", "nchw"}};
    char label[128];
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++)
            for (size_t p = 0; p < sizeof(pairs) / sizeof(*pairs); p++)
                for (int mode = 0; mode < 2; mode++) {
                    attr_spec_t spec = no_attr;
                    spec.round_mode = (tsr_round_mode_t)mode;
                    const tsr_memory_desc_t smd =
                            tag_md(4, dims, dts[a], pairs[p][0]);
                    const tsr_memory_desc_t dmd =
                            tag_md(4, dims, dts[b], pairs[p][1]);
                    snprintf(label, sizeof(label), "%s:%s -> %s:%s mode %d",
                             pairs[p][0], tsr_data_type2str(dts[a]),
                             pairs[p][1], tsr_data_type2str(dts[b]), mode);
                    run_all_impls(&smd, &dmd, &spec, label, NULL);
                }
}

/* Scales of both kinds, zero points, sum, round modes. */
static void test_attributes(void) {
    const tsr_dim_t dims[4] = {5, 19, 3, 4};
    const char *const pairs[][2] = {
            {"nchw", "nChw16c"}, {"nChw8c", "nchw"},     {"nhwc", "nchw"},
            {"nchw", "nchw"},    {"oihw", "OIhw16i16o"}, {"nChw8c", "nChw16c"},
            {"strided", "nhwc"}};
    const tsr_data_type_t dt_pairs[][2] = {
            {tsr_f32, tsr_s8}, {tsr_f32, tsr_u8},   {tsr_s8, tsr_f32},
            {tsr_u8, tsr_s8},  {tsr_f32, tsr_bf16}, {tsr_s32, tsr_s8},
            {tsr_f32, tsr_f32}};
    const attr_spec_t specs[] = {
            {0, -1, -1, -1, -1, 0, 0.f, 0, tsr_round_nearest},
            {2, 0, -1, -1, -1, 0, 0.f, 0, tsr_round_nearest},
            {-1, 3, -1, -1, -1, 0, 0.f, 0, tsr_round_down},
            {-1, -1, 0, -1, -1, 0, 0.f, 0, tsr_round_nearest},
            {-1, -1, 3, -1, -1, 0, 0.f, 0, tsr_round_nearest},
            {-1, -1, -1, 0, 0, 0, 0.f, 0, tsr_round_nearest},
            {-1, -1, -1, 2, 1, 0, 0.f, 0, tsr_round_down},
            {-1, -1, -1, -1, -1, 1, 0.5f, 2, tsr_round_nearest},
            {2, 0, -1, 0, 2, 1, 2.f, -1, tsr_round_down},
            {-1, -1, -1, -1, -1, 0, 0.f, 0, tsr_round_down},
            {0, -1, -1, 0, -1, 0, 0.f, 0, tsr_round_nearest},
            {-1, 0, -1, -1, 0, 1, 1.5f, 0, tsr_round_nearest},
    };
    char label[160];
    for (size_t p = 0; p < sizeof(pairs) / sizeof(*pairs); p++)
        for (size_t t = 0; t < sizeof(dt_pairs) / sizeof(*dt_pairs); t++)
            for (size_t s = 0; s < sizeof(specs) / sizeof(*specs); s++) {
                const tsr_memory_desc_t smd =
                        layout_md(4, dims, dt_pairs[t][0], pairs[p][0]);
                const tsr_memory_desc_t dmd =
                        layout_md(4, dims, dt_pairs[t][1], pairs[p][1]);
                snprintf(label, sizeof(label), "%s:%s -> %s:%s attr #%zu",
                         pairs[p][0], tsr_data_type2str(dt_pairs[t][0]),
                         pairs[p][1], tsr_data_type2str(dt_pairs[t][1]), s);
                run_all_impls(&smd, &dmd, &specs[s], label, NULL);
            }
}

/* Other ranks: 1D, 2D, 3D, 5D and grouped 6D weights. */
static void test_other_ranks(void) {
    const struct {
        int ndims;
        tsr_dim_t dims[6];
        const char *tags[4];
    } cases[] = {
            {1, {37}, {"x", "A16a", "A8a", NULL}},
            {2, {19, 35}, {"nc", "cn", "AB16b16a", "aB8b"}},
            {3, {2, 19, 9}, {"ncw", "nwc", "nCw16c", "nCw8c"}},
            {5,
             {2, 19, 2, 3, 4},
             {"ncdhw", "ndhwc", "nCdhw16c", "OIdhw16i16o"}},
            {6,
             {3, 5, 17, 2, 2, 3},
             {"goidhw", "gOIdhw16i16o", "Goidhw8g", "gOdhwi16o"}},
            {5,
             {2, 20, 19, 2, 3},
             {"goihw", "gOIhw16i16o", "Goihw16g", "hwigo"}},
    };
    char label[128];
    for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++)
        for (int i = 0; i < 4 && cases[c].tags[i]; i++)
            for (int j = 0; j < 4 && cases[c].tags[j]; j++) {
                const tsr_memory_desc_t smd =
                        tag_md(cases[c].ndims, cases[c].dims, tsr_f32,
                               cases[c].tags[i]);
                const tsr_memory_desc_t dmd =
                        tag_md(cases[c].ndims, cases[c].dims, tsr_s8,
                               cases[c].tags[j]);
                attr_spec_t spec = no_attr;
                spec.src_scale_mask = cases[c].ndims > 1 ? 2 : 1;
                snprintf(label, sizeof(label), "%s -> %s", cases[c].tags[i],
                         cases[c].tags[j]);
                run_all_impls(&smd, &dmd, &spec, label, NULL);
                run_all_impls(&smd, &smd, &no_attr, label, NULL);
            }
}

/* Bigger problems: many threads' worth of work, long rows, chunking. */
static void test_large(void) {
    const tsr_dim_t dims[4] = {3, 67, 19, 23};
    const char *const pairs[][2] = {{"nchw", "nChw16c"},
                                    {"nChw16c", "nhwc"},
                                    {"nhwc", "nchw"},
                                    {"nchw", "nchw"},
                                    {"oihw", "OIhw16i16o"}};
    attr_spec_t per_channel = no_attr;
    per_channel.src_scale_mask = 2;
    per_channel.dst_zp_mask = 0;
    char label[128];
    for (size_t p = 0; p < sizeof(pairs) / sizeof(*pairs); p++) {
        const tsr_memory_desc_t f32_src = tag_md(4, dims, tsr_f32, pairs[p][0]);
        const tsr_memory_desc_t f32_dst = tag_md(4, dims, tsr_f32, pairs[p][1]);
        const tsr_memory_desc_t u8_dst = tag_md(4, dims, tsr_u8, pairs[p][1]);
        snprintf(label, sizeof(label), "large %s -> %s", pairs[p][0],
                 pairs[p][1]);
        CHECK(run_all_impls(&f32_src, &f32_dst, &no_attr, label, NULL) >= 2);
        CHECK(run_all_impls(&f32_src, &u8_dst, &per_channel, label, NULL) >= 2);
    }
    const tsr_dim_t long_row[2] = {3, 100003};
    const tsr_memory_desc_t a = tag_md(2, long_row, tsr_f32, "ab");
    const tsr_memory_desc_t b = tag_md(2, long_row, tsr_bf16, "aB16b");
    CHECK(run_all_impls(&a, &b, &no_attr, "long row", NULL) >= 2);
    /* Whole 16-blocks of channels: the transposed lines go straight to
     * the destination, past the caches from 32 MiB on. */
    const tsr_dim_t whole[2][4] = {{3, 32, 19, 23}, {2, 64, 256, 260}};
    for (int w = 0; w < 2; w++) {
        const tsr_memory_desc_t s = tag_md(4, whole[w], tsr_f32, "nchw");
        const tsr_memory_desc_t d = tag_md(4, whole[w], tsr_f32, "nChw16c");
        CHECK(run_all_impls(&s, &d, &no_attr, "whole blocks", NULL) >= 2);
    }
}

/* A -> B -> A gives back the source exactly (no loss in between). */
static void test_round_trips(void) {
    const tsr_dim_t dims[4] = {17, 35, 3, 2};
    const char *const layouts[] = {"nhwc",    "chwn",         "nChw8c",
                                   "nChw16c", "OIhw16i16o",   "OIhw4i16o4i",
                                   "Ohwi16o", "b_fs_yx_fsv16"};
    const tsr_data_type_t dts[] = {tsr_f32, tsr_s8, tsr_bf16};
    for (int t = 0; t < 3; t++)
        for (size_t l = 0; l < sizeof(layouts) / sizeof(*layouts); l++) {
            const tsr_memory_desc_t plain = tag_md(4, dims, dts[t], "nchw");
            const tsr_memory_desc_t other = tag_md(4, dims, dts[t], layouts[l]);
            const size_t psize = tsr_memory_desc_get_size(&plain);
            const size_t osize = tsr_memory_desc_get_size(&other);
            unsigned char *orig = malloc(psize), *mid = calloc(1, osize);
            unsigned char *back = calloc(1, psize);
            for (size_t i = 0; i < psize; i++)
                orig[i] = (unsigned char)next_random();
            if (dts[t] ==
                tsr_bf16) /* keep clear of NaNs: payloads may change */
                for (size_t i = 1; i < psize; i += 2)
                    orig[i] &= 0x3f;
            tsr_memory_t m0, m1, m2;
            tsr_memory_create(&m0, &plain, engine, orig);
            tsr_memory_create(&m1, &other, engine, mid);
            tsr_memory_create(&m2, &plain, engine, back);
            tsr_primitive_desc_t pd1 = NULL, pd2 = NULL;
            tsr_primitive_t p1 = NULL, p2 = NULL;
            CHECK(tsr_reorder_primitive_desc_create(&pd1, &plain, engine,
                                                    &other, engine,
                                                    NULL) == tsr_success);
            CHECK(tsr_reorder_primitive_desc_create(&pd2, &other, engine,
                                                    &plain, engine,
                                                    NULL) == tsr_success);
            CHECK(tsr_primitive_create(&p1, pd1) == tsr_success);
            CHECK(tsr_primitive_create(&p2, pd2) == tsr_success);
            tsr_exec_arg_t there[2] = {{TSR_ARG_FROM, m0}, {TSR_ARG_TO, m1}};
            tsr_exec_arg_t home[2] = {{TSR_ARG_FROM, m1}, {TSR_ARG_TO, m2}};
            CHECK(tsr_primitive_execute(p1, stream, 2, there) == tsr_success);
            CHECK(tsr_primitive_execute(p2, stream, 2, home) == tsr_success);
            if (!CHECK(memcmp(orig, back, psize) == 0))
                fprintf(stderr, "  nchw <-> %s %s\n", layouts[l],
                        tsr_data_type2str(dts[t]));
            tsr_primitive_destroy(p1);
            tsr_primitive_destroy(p2);
            tsr_primitive_desc_destroy(pd1);
            tsr_primitive_desc_destroy(pd2);
            tsr_memory_destroy(m0);
            tsr_memory_destroy(m1);
            tsr_memory_destroy(m2);
            free(orig);
            free(mid);
            free(back);
        }
}

static const char *first_impl(const tsr_memory_desc_t *smd,
                              const tsr_memory_desc_t *dmd,
                              tsr_primitive_attr_t attr) {
    static char name[64];
    tsr_primitive_desc_t pd = NULL;
    name[0] = '\0';
    if (tsr_reorder_primitive_desc_create(&pd, smd, engine, dmd, engine,
                                          attr) == tsr_success)
        snprintf(name, sizeof(name), "%s", tsr_primitive_desc_impl_name(pd));
    tsr_primitive_desc_destroy(pd);
    return name;
}

/* The fast paths take the problems they are for. */
static void test_dispatch(void) {
    const tsr_dim_t dims[4] = {2, 32, 7, 7};
    const tsr_memory_desc_t nchw = tag_md(4, dims, tsr_f32, "nchw");
    const tsr_memory_desc_t nchw_s8 = tag_md(4, dims, tsr_s8, "nchw");
    const tsr_memory_desc_t nhwc = tag_md(4, dims, tsr_f32, "nhwc");
    const tsr_memory_desc_t blk16 = tag_md(4, dims, tsr_f32, "nChw16c");
    const tsr_memory_desc_t blk8 = tag_md(4, dims, tsr_u8, "nChw8c");
    const tsr_memory_desc_t oi = tag_md(4, dims, tsr_f32, "OIhw16i16o");
    const tsr_memory_desc_t oi8 = tag_md(4, dims, tsr_f32, "OIhw8i8o");
    /* Blocks that do not nest (12 against 16) leave the reference. */
    const tsr_memory_desc_t blk12 = tag_md(4, dims, tsr_f32, "aBcd12b");
    CHECK(strcmp(first_impl(&nchw, &nchw_s8, NULL), "simple:copy") == 0);
    /* Transposes go to the AVX-512 kernel where it may run, 4-byte moves
     * to and from a 16-block among them. */
    const int avx512 = tsr_get_effective_cpu_isa() >= tsr_cpu_isa_avx512_core;
    const char *transpose = avx512 ? "simple:transpose" : "simple:tiled";
    CHECK(strcmp(first_impl(&nchw, &blk16, NULL), transpose) == 0);
    CHECK(strcmp(first_impl(&blk16, &nchw, NULL), transpose) == 0);
    CHECK(strcmp(first_impl(&blk16, &nhwc, NULL), "simple:tiled") == 0);
    CHECK(strcmp(first_impl(&nhwc, &nchw, NULL), transpose) == 0);
    CHECK(strcmp(first_impl(&nchw_s8, &nhwc, NULL), transpose) == 0);
    CHECK(strcmp(first_impl(&nchw, &oi, NULL), "simple:tiled") == 0);
    CHECK(strcmp(first_impl(&blk16, &blk8, NULL), "simple:tiled") == 0);
    CHECK(strcmp(first_impl(&oi8, &oi, NULL), "simple:tiled") == 0);
    CHECK(strcmp(first_impl(&blk16, &blk12, NULL), "ref:any") == 0);
    CHECK(strcmp(first_impl(&blk12, &nchw, NULL), "simple:tiled") == 0);
    /* Implementations took part in the runs above. */
    CHECK(runs_of("simple:copy") > 100);
    CHECK(runs_of("simple:tiled") > 1000);
    CHECK(runs_of("ref:any") > 1000);
    CHECK(!avx512 || runs_of("simple:transpose") > 100);
}

static void test_refusals(void) {
    const tsr_dim_t dims[4] = {2, 19, 3, 3}, other_dims[4] = {2, 19, 3, 4};
    const tsr_memory_desc_t src = tag_md(4, dims, tsr_f32, "nchw");
    const tsr_memory_desc_t dst = tag_md(4, dims, tsr_s8, "nChw16c");
    const tsr_memory_desc_t wider = tag_md(4, other_dims, tsr_s8, "nchw");
    const tsr_memory_desc_t any = tag_md(4, dims, tsr_s8, "any");
    tsr_primitive_desc_t pd = NULL;
    CHECK(tsr_reorder_primitive_desc_create(&pd, &src, engine, &wider, engine,
                                            NULL) == tsr_invalid_arguments);
    CHECK(tsr_reorder_primitive_desc_create(&pd, &src, engine, &any, engine,
                                            NULL) == tsr_invalid_arguments);

    /* Post-ops other than one sum are not for reorders. */
    tsr_primitive_attr_t attr = NULL;
    tsr_post_ops_t ops = NULL;
    tsr_primitive_attr_create(&attr);
    tsr_post_ops_create(&ops);
    tsr_post_ops_append_eltwise(ops, 1.f, tsr_eltwise_relu, 0.f, 0.f);
    tsr_primitive_attr_set_post_ops(attr, ops);
    CHECK(tsr_reorder_primitive_desc_create(&pd, &src, engine, &dst, engine,
                                            attr) == tsr_unimplemented);
    tsr_post_ops_destroy(ops);
    tsr_post_ops_create(&ops);
    tsr_post_ops_append_sum(ops, 1.f, 0, tsr_data_type_undef);
    tsr_post_ops_append_sum(ops, 1.f, 0, tsr_data_type_undef);
    tsr_primitive_attr_set_post_ops(attr, ops);
    CHECK(tsr_reorder_primitive_desc_create(&pd, &src, engine, &dst, engine,
                                            attr) == tsr_unimplemented);
    tsr_post_ops_destroy(ops);
    tsr_primitive_attr_destroy(attr);

    /* Runtime scales declared but not passed: refused, dst untouched. */
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_SRC, 0);
    CHECK(tsr_reorder_primitive_desc_create(&pd, &src, engine, &dst, engine,
                                            attr) == tsr_success);
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
    tsr_memory_t s = NULL, d = NULL;
    tsr_memory_create(&s, &src, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&d, &dst, engine, TSR_MEMORY_ALLOCATE);
    void *data = NULL;
    tsr_memory_get_data_handle(d, &data);
    memset(data, 0x11, tsr_memory_desc_get_size(&dst));
    tsr_exec_arg_t args[2] = {{TSR_ARG_FROM, s}, {TSR_ARG_TO, d}};
    CHECK(tsr_primitive_execute(prim, stream, 2, args) ==
          tsr_invalid_arguments);
    int touched = 0;
    for (size_t i = 0; i < tsr_memory_desc_get_size(&dst); i++)
        touched += ((unsigned char *)data)[i] != 0x11;
    CHECK(touched == 0);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
    tsr_primitive_attr_destroy(attr);
    tsr_memory_destroy(s);
    tsr_memory_destroy(d);
}

/* Reorders f32 values (small integers, scaled by 1/2 with rounding to
 * nearest even on the way, and with `saturate` some that saturate) into s8
 * weights `to` that carry compensation sums, and checks the values, every
 * sum, and the pair-narrow word against what is computed here. */
static void check_compensation(const tsr_memory_desc_t *from,
                               const tsr_memory_desc_t *to, int mask_dims,
                               int saturate) {
    tsr_primitive_attr_t attr = NULL;
    tsr_primitive_attr_create(&attr);
    tsr_primitive_attr_set_scales_mask(attr, TSR_ARG_DST, 0);
    tsr_primitive_desc_t pd = NULL;
    if (!CHECK(tsr_reorder_primitive_desc_create(&pd, from, engine, to, engine,
                                                 attr) == tsr_success)) {
        tsr_primitive_attr_destroy(attr);
        return;
    }
    tsr_primitive_t prim = NULL;
    CHECK(tsr_primitive_create(&prim, pd) == tsr_success);
    tsr_memory_t s = NULL, d = NULL, sc = NULL;
    tsr_memory_create(&s, from, engine, TSR_MEMORY_ALLOCATE);
    tsr_memory_create(&d, to, engine, TSR_MEMORY_ALLOCATE);
    const tsr_dim_t one = 1;
    tsr_memory_desc_t sc_md;
    tsr_memory_desc_init_by_tag(&sc_md, 1, &one, tsr_f32, "a");
    tsr_memory_create(&sc, &sc_md, engine, TSR_MEMORY_ALLOCATE);
    float *src = NULL, *scale = NULL;
    int8_t *dst = NULL;
    tsr_memory_get_data_handle(s, (void **)&src);
    tsr_memory_get_data_handle(d, (void **)&dst);
    tsr_memory_get_data_handle(sc, (void **)&scale);
    *scale = 2.f;
    const tsr_dim_t n = tsr_memory_desc_nelems(from);
    tsr_dim_t count = 1;
    for (int k = 0; k < mask_dims; k++)
        count *= from->dims[k];
    int32_t *want = calloc((size_t)count, sizeof(int32_t));
    tsr_dim_t pos[TSR_MAX_NDIMS];
    for (tsr_dim_t l = 0; l < n; l++) {
        md_l2pos(from, l, pos);
        /* 300 saturates, odd values round to even. */
        const float v =
                saturate && l % 97 == 5 ? 300.f : (float)((int)(l % 41) - 20);
        src[md_off_v(from, pos)] = v;
        const float q = rintf(v / 2.f);
        want[l / (n / count)] += (int32_t)(q > 127.f ? 127.f : q);
    }
    const tsr_exec_arg_t args[] = {{TSR_ARG_FROM, s},
                                   {TSR_ARG_TO, d},
                                   {TSR_ARG_ATTR_SCALES | TSR_ARG_DST, sc}};
    CHECK(tsr_primitive_execute(prim, stream, 3, args) == tsr_success);
    const int32_t *sums =
            (const int32_t *)((const char *)dst + md_extra_offset(to));
    CHECK(md_extra_offset(to) % 64 == 0 &&
          md_extra_offset(to) >= (size_t)md_nelems_padded(to));
    CHECK(tsr_memory_desc_get_size(to) ==
          md_extra_offset(to) + (size_t)(count + 1) * sizeof(int32_t));
    /* Without saturated values all |q| <= 10: narrow; with them, some 127
     * sits next to a value beyond 1 in every layout tested. */
    int narrow = 1;
    for (size_t j = 0; j + 1 < md_values_size(to); j += 2)
        narrow &= abs(dst[j]) + abs(dst[j + 1]) <= 128;
    CHECK(narrow == !saturate);
    CHECK(md_extra_pairs_narrow(to, dst) == narrow);
    int bad = 0;
    for (tsr_dim_t i = 0; i < count; i++)
        bad += sums[i] != want[i];
    for (tsr_dim_t l = 0; l < n; l++) {
        md_l2pos(to, l, pos);
        const float q = rintf(src[md_off_v(from, pos)] / 2.f);
        bad += dst[md_off_v(to, pos)] != (int8_t)(q > 127.f ? 127.f : q);
    }
    CHECK(bad == 0);
    free(want);
    tsr_memory_destroy(s);
    tsr_memory_destroy(d);
    tsr_memory_destroy(sc);
    tsr_primitive_destroy(prim);
    tsr_primitive_desc_destroy(pd);
    tsr_primitive_attr_destroy(attr);
}

/* Weights with compensation sums (extra data): sums per output channel, and
 * per group and channel, for plain and blocked layouts and every
 * implementation path; descriptors with extra data the library does not
 * support are refused. */
static void test_compensation(void) {
    const tsr_dim_t dims[4] = {19, 5, 3, 3}, gdims[5] = {3, 8, 4, 3, 1};
    static const char *const tags[] = {"oihw", "hwio", "OIhw16i16o", "Ohwi16o"};
    for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
        const tsr_memory_desc_t from = tag_md(4, dims, tsr_f32, "oihw");
        tsr_memory_desc_t to = tag_md(4, dims, tsr_s8, tags[t]);
        to.extra.flags = tsr_memory_extra_flag_compensation;
        to.extra.compensation_mask = 1;
        check_compensation(&from, &to, 1, 1);
        check_compensation(&from, &to, 1, 0);
        /* The same source in the target layout (a copy path). */
        tsr_memory_desc_t same = to;
        same.data_type = tsr_f32;
        memset(&same.extra, 0, sizeof(same.extra));
        check_compensation(&same, &to, 1, 1);
        CHECK(!tsr_memory_desc_equal(&same, &to));
    }
    const tsr_memory_desc_t gfrom = tag_md(5, gdims, tsr_f32, "goihw");
    tsr_memory_desc_t gto = tag_md(5, gdims, tsr_s8, "hwigo");
    gto.extra.flags = tsr_memory_extra_flag_compensation;
    gto.extra.compensation_mask = 3;
    check_compensation(&gfrom, &gto, 2, 1);

    tsr_memory_desc_t bad[3];
    bad[0] = tag_md(4, dims, tsr_f32, "oihw"); /* not s8 */
    bad[0].extra.flags = tsr_memory_extra_flag_compensation;
    bad[0].extra.compensation_mask = 1;
    bad[1] = tag_md(4, dims, tsr_s8, "oihw"); /* mask not leading dims */
    bad[1].extra.flags = tsr_memory_extra_flag_compensation;
    bad[1].extra.compensation_mask = 2;
    bad[2] = tag_md(4, dims, tsr_s8, "oihw"); /* unknown flag */
    bad[2].extra.flags = 4;
    const tsr_memory_desc_t from = tag_md(4, dims, tsr_f32, "oihw");
    for (int i = 0; i < 3; i++) {
        tsr_primitive_desc_t pd = NULL;
        CHECK(tsr_reorder_primitive_desc_create(&pd, &from, engine, &bad[i],
                                                engine,
                                                NULL) == tsr_invalid_arguments);
    }
}

int main(void) {
    if (!CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success) ||
        !CHECK(tsr_stream_create(&stream, engine) == tsr_success))
        return 1;
    test_layout_pairs();
    test_data_type_pairs();
    test_attributes();
    test_other_ranks();
    test_large();
    test_round_trips();
    test_dispatch();
    test_refusals();
    test_compensation();
    tsr_stream_destroy(stream);
    tsr_engine_destroy(engine);
    return check_failures() != 0;
}
