/* Memory descriptors: the offset formulas and examples of the memory
 * format seeds (plain, strided, blocked with zero padding, OpenVINO's
 * b_fs_yx_fsv16), size queries, equality, offset0, and memory objects. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common/memory_desc.h"
#include "tessera.h"

enum { N = 2, C = 17, H = 5, W = 4 };

static tsr_memory_desc_t make_md(int ndims, const tsr_dim_t *dims,
                                 tsr_data_type_t dt, const char *tag) {
    tsr_memory_desc_t md;
    memset(&md, 0, sizeof(md));
    const tsr_status_t st =
            tsr_memory_desc_init_by_tag(&md, ndims, dims, dt, tag);
    if (!CHECK(st == tsr_success))
        fprintf(stderr, "  tag %s\n", tag);
    return md;
}

static tsr_dim_t offset_of(const tsr_memory_desc_t *md, tsr_dim_t n,
                           tsr_dim_t c, tsr_dim_t h, tsr_dim_t w) {
    const tsr_dim_t pos[4] = {n, c, h, w};
    return tsr_memory_desc_offset(md, pos);
}

/* offset_nchw, offset_nhwc, offset_chwn and offset_nChw8c of seed 000. */
static void test_plain_and_blocked_offsets(void) {
    const tsr_dim_t dims[4] = {N, C, H, W};
    const tsr_memory_desc_t nchw = make_md(4, dims, tsr_f32, "nchw");
    const tsr_memory_desc_t nhwc = make_md(4, dims, tsr_f32, "nhwc");
    const tsr_memory_desc_t chwn = make_md(4, dims, tsr_f32, "chwn");
    const tsr_memory_desc_t blk = make_md(4, dims, tsr_f32, "nChw8c");
    const tsr_dim_t C_padded = 24;
    int bad = 0;
    for (tsr_dim_t n = 0; n < N; n++)
        for (tsr_dim_t c = 0; c < C; c++)
            for (tsr_dim_t h = 0; h < H; h++)
                for (tsr_dim_t w = 0; w < W; w++) {
                    bad += offset_of(&nchw, n, c, h, w) !=
                           n * C * H * W + c * H * W + h * W + w;
                    bad += offset_of(&nhwc, n, c, h, w) !=
                           n * H * W * C + h * W * C + w * C + c;
                    bad += offset_of(&chwn, n, c, h, w) !=
                           c * H * W * N + h * W * N + w * N + n;
                    bad += offset_of(&blk, n, c, h, w) !=
                           n * C_padded * H * W + (c / 8) * H * W * 8 +
                                   h * W * 8 + w * 8 + (c % 8);
                }
    CHECK(bad == 0);

    /* The seed's nChw8c expectations for C = 17. */
    CHECK(blk.dims[0] == N && blk.dims[1] == C && blk.dims[2] == H &&
          blk.dims[3] == W);
    CHECK(blk.padded_dims[0] == N && blk.padded_dims[1] == C_padded &&
          blk.padded_dims[2] == H && blk.padded_dims[3] == W);
    CHECK(blk.blocking.strides[0] == C_padded * H * W);
    CHECK(blk.blocking.strides[1] == H * W * 8);
    CHECK(blk.blocking.strides[2] == W * 8);
    CHECK(blk.blocking.strides[3] == 8);
    CHECK(blk.blocking.inner_nblks == 1);
    CHECK(blk.blocking.inner_idxs[0] == 1);
    CHECK(blk.blocking.inner_blks[0] == 8);
    CHECK(blk.format_kind == tsr_format_kind_blocked);
    CHECK(tsr_memory_desc_get_size(&blk) ==
          (size_t)(N * C_padded * H * W) * sizeof(float));
    CHECK(tsr_memory_desc_nelems(&blk) == N * C * H * W);
    CHECK(md_has_padding(&blk) && !md_has_padding(&nchw));

    /* The seed's note: NCHW is the strided format with these strides. */
    CHECK(nchw.blocking.strides[0] == C * H * W &&
          nchw.blocking.strides[1] == H * W && nchw.blocking.strides[2] == W &&
          nchw.blocking.strides[3] == 1);
}

/* Seed 002: bfyx and b_fs_yx_fsv16 index tables for b = f = y = x = 2. */
static void test_openvino_tables(void) {
    const tsr_dim_t dims[4] = {2, 2, 2, 2};
    const tsr_memory_desc_t bfyx = make_md(4, dims, tsr_f32, "bfyx");
    const tsr_memory_desc_t fsv16 = make_md(4, dims, tsr_f32, "b_fs_yx_fsv16");
    CHECK(tsr_memory_desc_get_size(&bfyx) == 16 * sizeof(float));
    /* "Actual buffer size becomes [b: 2; f: 16; y: 2; x: 2] ... 128". */
    CHECK(tsr_memory_desc_get_size(&fsv16) == 128 * sizeof(float));
    CHECK(fsv16.padded_dims[1] == 16);
    int bad = 0;
    for (int b = 0; b < 2; b++)
        for (int f = 0; f < 2; f++)
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 2; x++) {
                    bad += offset_of(&bfyx, b, f, y, x) !=
                           b * 8 + f * 4 + y * 2 + x;
                    bad += offset_of(&fsv16, b, f, y, x) !=
                           b * 64 + y * 32 + x * 16 + f;
                }
    CHECK(bad == 0);
    /* A few rows of the seed's table verbatim. */
    CHECK(offset_of(&bfyx, 0, 1, 0, 1) == 5);
    CHECK(offset_of(&bfyx, 1, 1, 1, 0) == 14);
    CHECK(offset_of(&fsv16, 0, 1, 0, 0) == 1);
    CHECK(offset_of(&fsv16, 0, 0, 0, 1) == 16);
    CHECK(offset_of(&fsv16, 0, 1, 1, 0) == 33);
    CHECK(offset_of(&fsv16, 1, 0, 0, 1) == 80);
    CHECK(offset_of(&fsv16, 1, 1, 1, 1) == 113);
}

static void test_strided_and_offset0(void) {
    const tsr_dim_t dims[2] = {4, 5};
    const tsr_dim_t row_pitch[2] = {8, 1};
    tsr_memory_desc_t md;
    CHECK(tsr_memory_desc_init_by_strides(&md, 2, dims, tsr_f32, row_pitch) ==
          tsr_success);
    const tsr_dim_t p[2] = {3, 4};
    CHECK(tsr_memory_desc_offset(&md, p) == 3 * 8 + 4);
    /* Up to and including the last element, nothing beyond. */
    CHECK(tsr_memory_desc_get_size(&md) == (3 * 8 + 4 + 1) * sizeof(float));

    const tsr_dim_t col_major[2] = {1, 4};
    CHECK(tsr_memory_desc_init_by_strides(&md, 2, dims, tsr_s8, col_major) ==
          tsr_success);
    CHECK(tsr_memory_desc_offset(&md, p) == 3 + 4 * 4);
    CHECK(tsr_memory_desc_matches_tag(&md, "ba"));

    /* The dims and strides of the descriptor being written. */
    CHECK(tsr_memory_desc_init_by_strides(&md, 2, md.dims, tsr_s8,
                                          md.blocking.strides) == tsr_success);
    CHECK(md.dims[0] == 4 && md.dims[1] == 5 && md.padded_dims[1] == 5);
    CHECK(tsr_memory_desc_offset(&md, p) == 3 + 4 * 4);

    tsr_memory_desc_t dense;
    CHECK(tsr_memory_desc_init_by_strides(&dense, 2, dims, tsr_f32, NULL) ==
          tsr_success);
    CHECK(tsr_memory_desc_matches_tag(&dense, "ab"));

    /* Overlapping, zero and negative strides are refused; md untouched. */
    const tsr_dim_t overlap[2] = {4, 1}, zero[2] = {5, 0},
                    negative[2] = {-5, 1};
    tsr_memory_desc_t guard, before;
    memset(&guard, 0x5a, sizeof(guard));
    before = guard;
    CHECK(tsr_memory_desc_init_by_strides(&guard, 2, dims, tsr_f32, overlap) ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_strides(&guard, 2, dims, tsr_f32, zero) ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_strides(&guard, 2, dims, tsr_f32, negative) ==
          tsr_invalid_arguments);
    CHECK(memcmp(&guard, &before, sizeof(guard)) == 0);
    /* A size-1 dim may have any positive stride. */
    const tsr_dim_t single[2] = {1, 5}, any_stride[2] = {1, 1};
    CHECK(tsr_memory_desc_init_by_strides(&md, 2, single, tsr_f32,
                                          any_stride) == tsr_success);

    /* offset0 moves every point and is part of the size. */
    tsr_memory_desc_t shifted = dense;
    shifted.offset0 = 10;
    const tsr_dim_t origin[2] = {0, 0};
    CHECK(tsr_memory_desc_offset(&shifted, origin) == 10);
    CHECK(tsr_memory_desc_offset(&shifted, p) == 10 + 3 * 5 + 4);
    CHECK(tsr_memory_desc_get_size(&shifted) ==
          tsr_memory_desc_get_size(&dense) + 10 * sizeof(float));
    CHECK(!tsr_memory_desc_equal(&shifted, &dense));

    /* Out of range and "any" have no offset. */
    const tsr_dim_t outside[2] = {4, 0}, minus[2] = {0, -1};
    CHECK(tsr_memory_desc_offset(&dense, outside) == -1);
    CHECK(tsr_memory_desc_offset(&dense, minus) == -1);
    CHECK(tsr_memory_desc_offset(NULL, p) == -1);
    CHECK(tsr_memory_desc_offset(&dense, NULL) == -1);
}

static void test_sizes_and_equality(void) {
    const tsr_dim_t dims[4] = {N, C, H, W};
    const tsr_memory_desc_t f32 = make_md(4, dims, tsr_f32, "nchw");
    const tsr_memory_desc_t bf16 = make_md(4, dims, tsr_bf16, "nchw");
    const tsr_memory_desc_t u8 = make_md(4, dims, tsr_u8, "nchw");
    const tsr_memory_desc_t any = make_md(4, dims, tsr_f32, "any");
    const tsr_memory_desc_t nhwc = make_md(4, dims, tsr_f32, "nhwc");
    CHECK(tsr_memory_desc_get_size(&f32) == (size_t)(N * C * H * W) * 4);
    CHECK(tsr_memory_desc_get_size(&bf16) == (size_t)(N * C * H * W) * 2);
    CHECK(tsr_memory_desc_get_size(&u8) == (size_t)(N * C * H * W));
    CHECK(tsr_memory_desc_get_size(&any) == 0);
    CHECK(tsr_memory_desc_get_size(NULL) == 0);
    CHECK(any.format_kind == tsr_format_kind_any && any.dims[1] == C);
    CHECK(tsr_memory_desc_nelems(&any) == N * C * H * W);
    CHECK(tsr_memory_desc_nelems(NULL) == 0);

    const tsr_memory_desc_t f32_again = make_md(4, dims, tsr_f32, "abcd");
    CHECK(tsr_memory_desc_equal(&f32, &f32_again));
    CHECK(!tsr_memory_desc_equal(&f32, &bf16));
    CHECK(!tsr_memory_desc_equal(&f32, &nhwc));
    CHECK(!tsr_memory_desc_equal(&f32, &any));
    CHECK(!tsr_memory_desc_equal(&f32, NULL));
    const tsr_dim_t other_dims[4] = {N, C, H, W + 1};
    const tsr_memory_desc_t wider = make_md(4, other_dims, tsr_f32, "nchw");
    CHECK(!tsr_memory_desc_equal(&f32, &wider));

    /* With one channel nchw and nhwc are the same memory. */
    const tsr_dim_t one_channel[4] = {N, 1, H, W};
    const tsr_memory_desc_t a = make_md(4, one_channel, tsr_f32, "nchw");
    const tsr_memory_desc_t b = make_md(4, one_channel, tsr_f32, "nhwc");
    CHECK(tsr_memory_desc_equal(&a, &b));
    CHECK(tsr_memory_desc_matches_tag(&b, "nchw"));

    CHECK(tsr_memory_desc_matches_tag(&f32, "nchw"));
    CHECK(tsr_memory_desc_matches_tag(&f32, "bfyx"));
    CHECK(!tsr_memory_desc_matches_tag(&f32, "nhwc"));
    CHECK(!tsr_memory_desc_matches_tag(&f32, "ncdhw"));
    CHECK(!tsr_memory_desc_matches_tag(&f32, "no_such_tag"));
    CHECK(tsr_memory_desc_matches_tag(&any, "any"));
    CHECK(!tsr_memory_desc_matches_tag(&f32, "any"));
}

static void test_layout_str(void) {
    const tsr_dim_t dims[4] = {N, C, H, W};
    char buf[64];
    struct {
        const char *tag, *expected;
    } cases[] = {{"nchw", "abcd"},
                 {"nhwc", "acdb"},
                 {"chwn", "bcda"},
                 {"nChw8c", "aBcd8b"},
                 {"OIhw16i16o", "ABcd16b16a"},
                 {"OIhw4i16o4i", "ABcd4b16a4b"},
                 {"b_fs_yx_fsv16", "aBcd16b"},
                 {"any", "any"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        const tsr_memory_desc_t md = make_md(4, dims, tsr_f32, cases[i].tag);
        CHECK(tsr_memory_desc_layout_str(&md, buf, sizeof(buf)) == tsr_success);
        if (!CHECK(strcmp(buf, cases[i].expected) == 0))
            fprintf(stderr, "  %s gave %s\n", cases[i].tag, buf);
    }
    /* Unit dims keep the order the tag gave them. */
    const tsr_dim_t unit[4] = {1, 1, 1, 1};
    const tsr_memory_desc_t md = make_md(4, unit, tsr_f32, "nhwc");
    tsr_memory_desc_layout_str(&md, buf, sizeof(buf));
    CHECK(strcmp(buf, "abcd") == 0 || strcmp(buf, "acdb") == 0);

    const tsr_memory_desc_t blk = make_md(4, dims, tsr_f32, "nChw16c");
    char small[4];
    CHECK(tsr_memory_desc_layout_str(&blk, small, sizeof(small)) ==
          tsr_success);
    CHECK(strcmp(small, "aBc") == 0);
    CHECK(tsr_memory_desc_layout_str(&blk, NULL, 4) == tsr_invalid_arguments);
    tsr_memory_desc_t zero;
    memset(&zero, 0, sizeof(zero));
    tsr_memory_desc_layout_str(&zero, buf, sizeof(buf));
    CHECK(strcmp(buf, "undef") == 0);
}

static void test_bad_input(void) {
    const tsr_dim_t dims[5] = {N, C, H, W, 1};
    tsr_memory_desc_t md, before;
    memset(&md, 0x3c, sizeof(md));
    before = md;
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "nosuch") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 5, dims, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 3, dims, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_data_type_undef,
                                      "nchw") == tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, NULL) ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, NULL, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 0, dims, tsr_f32, "any") ==
          tsr_invalid_arguments);
    const tsr_dim_t zero_dim[4] = {N, 0, H, W}, negative[4] = {N, C, -1, W};
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, zero_dim, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, negative, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    const tsr_dim_t huge[4] = {(tsr_dim_t)1 << 40, (tsr_dim_t)1 << 40, 2, 2};
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, huge, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
    CHECK(memcmp(&md, &before, sizeof(md)) == 0);
    CHECK(tsr_memory_desc_init_by_tag(NULL, 4, dims, tsr_f32, "nchw") ==
          tsr_invalid_arguments);
}

/* A descriptor whose product of dims passes 2^58: refused by every init,
 * and by the size queries when built by hand. */
static void test_dims_product_limit(void) {
    const tsr_dim_t big = (tsr_dim_t)1 << 58;
    const tsr_dim_t dims[2] = {3, big};
    tsr_memory_desc_t md, before;
    memset(&md, 0x3c, sizeof(md));
    before = md;
    CHECK(tsr_memory_desc_init_by_tag(&md, 2, dims, tsr_f32, "any") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_tag(&md, 2, dims, tsr_f32, "ab") ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_desc_init_by_strides(&md, 2, dims, tsr_f32, NULL) ==
          tsr_invalid_arguments);
    CHECK(memcmp(&md, &before, sizeof(md)) == 0);

    const tsr_dim_t one[2] = {1, big};
    tsr_memory_desc_t any = make_md(2, one, tsr_f32, "any");
    CHECK(tsr_memory_desc_nelems(&any) == big);
    any.dims[0] = 3;
    CHECK(!md_is_valid(&any));
    CHECK(tsr_memory_desc_nelems(&any) == 0);
    CHECK(tsr_memory_desc_get_size(&any) == 0);
    any.ndims = TSR_MAX_NDIMS + 1;
    CHECK(tsr_memory_desc_nelems(&any) == 0);
}

/* Hand-built blocked descriptors that break one rule each. */
typedef enum {
    BREAK_NBLKS,
    BREAK_BLK_IDX,
    BREAK_BLK_SIZE,
    BREAK_PADDED_SHORT,
    BREAK_PADDED_PARTIAL,
    BREAK_PADDED_OFFSET,
    BREAK_STRIDE_NEG40,
    BREAK_STRIDE_NEG62,
    BREAK_STRIDE_HUGE,
    BREAK_OVERLAP,
    BREAK_OFFSET0_NEG,
    BREAK_OFFSET0_END,
    BREAK_EXTRA,
    BREAK_DT,
    BREAK_NDIMS,
    BREAK_COUNT,
} md_break_t;

static tsr_memory_desc_t broken_md(md_break_t how) {
    const tsr_dim_t dims[4] = {N, C, H, W};
    tsr_memory_desc_t md = make_md(4, dims, tsr_f32, "nChw8c");
    switch (how) {
    case BREAK_NBLKS:
        md.blocking.inner_nblks = 1000;
        break;
    case BREAK_BLK_IDX:
        md.blocking.inner_idxs[0] = 4;
        break;
    case BREAK_BLK_SIZE:
        md.blocking.inner_blks[0] = 0;
        break;
    case BREAK_PADDED_SHORT:
        md.padded_dims[2] = H - 1;
        break;
    case BREAK_PADDED_PARTIAL:
        md.padded_dims[1] = 20;
        break;
    case BREAK_PADDED_OFFSET:
        md.padded_offsets[0] = 1;
        break;
    case BREAK_STRIDE_NEG40:
        md.blocking.strides[1] = -((tsr_dim_t)1 << 40);
        break;
    case BREAK_STRIDE_NEG62:
        md.blocking.strides[0] = -((tsr_dim_t)1 << 62);
        break;
    case BREAK_STRIDE_HUGE:
        md.blocking.strides[0] = (tsr_dim_t)1 << 62;
        break;
    case BREAK_OVERLAP:
        md.blocking.strides[2] = md.blocking.strides[3];
        break;
    case BREAK_OFFSET0_NEG:
        md.offset0 = -1;
        break;
    case BREAK_OFFSET0_END:
        md.offset0 = (tsr_dim_t)1 << 58;
        break;
    case BREAK_EXTRA:
        md.extra.flags = tsr_memory_extra_flag_compensation;
        break;
    case BREAK_DT:
        md.data_type = (tsr_data_type_t)77;
        break;
    case BREAK_NDIMS:
        md.ndims = TSR_MAX_NDIMS + 1;
        break;
    default:
        break;
    }
    return md;
}

static void test_hand_built_descriptors(void) {
    tsr_engine_t engine;
    CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success);
    const tsr_memory_desc_t good = broken_md(BREAK_COUNT);
    CHECK(md_is_valid(&good));
    const tsr_dim_t origin[4] = {0, 0, 0, 0};
    for (int how = 0; how < BREAK_COUNT; how++) {
        const tsr_memory_desc_t md = broken_md((md_break_t)how);
        if (!CHECK(!md_is_valid(&md)))
            fprintf(stderr, "  broken rule %d passes\n", how);
        CHECK(tsr_memory_desc_get_size(&md) == 0);
        tsr_memory_t mem = (tsr_memory_t)&engine; /* a sentinel */
        CHECK(tsr_memory_create(&mem, &md, engine, TSR_MEMORY_ALLOCATE) ==
              tsr_invalid_arguments);
        CHECK(mem == (tsr_memory_t)&engine);
        float buf[16];
        CHECK(tsr_memory_create(&mem, &md, engine, buf) ==
              tsr_invalid_arguments);
        /* Queries stay in bounds whatever the descriptor holds. */
        char str[64];
        CHECK(tsr_memory_desc_layout_str(&md, str, sizeof(str)) == tsr_success);
        (void)tsr_memory_desc_equal(&md, &good);
        (void)tsr_memory_desc_matches_tag(&md, "nChw8c");
        (void)tsr_memory_desc_offset(&md, origin);
        tsr_primitive_desc_t pd = (tsr_primitive_desc_t)&engine;
        CHECK(tsr_reorder_primitive_desc_create(&pd, &md, engine, &good, engine,
                                                NULL) == tsr_invalid_arguments);
        CHECK(tsr_reorder_primitive_desc_create(&pd, &good, engine, &md, engine,
                                                NULL) == tsr_invalid_arguments);
        CHECK(pd == (tsr_primitive_desc_t)&engine);
    }
    const tsr_memory_desc_t nblks = broken_md(BREAK_NBLKS);
    char str[64];
    tsr_memory_desc_layout_str(&nblks, str, sizeof(str));
    CHECK(strcmp(str, "undef") == 0);
    CHECK(!tsr_memory_desc_equal(&nblks, &nblks));
    CHECK(tsr_memory_desc_offset(&nblks, origin) == -1);

    /* A stride of 0 on a dim of one index is harmless; on more, two
     * points would share an offset. */
    const tsr_dim_t dims[3] = {1, 4, 5};
    tsr_memory_desc_t md = make_md(3, dims, tsr_f32, "abc");
    md.blocking.strides[0] = 0;
    CHECK(md_is_valid(&md));
    md.blocking.strides[1] = 0;
    CHECK(!md_is_valid(&md));

    /* Strides that overflow the offset of a point in range. */
    const tsr_dim_t pos[3] = {0, 3, 4};
    md = make_md(3, dims, tsr_f32, "abc");
    md.blocking.strides[1] = (tsr_dim_t)1 << 62;
    md.blocking.strides[2] = (tsr_dim_t)1 << 62;
    CHECK(tsr_memory_desc_offset(&md, pos) == -1);
    CHECK(tsr_engine_destroy(engine) == tsr_success);
}

/* md_zero_pad clears exactly the padded tail. */
static void test_zero_pad(void) {
    const tsr_dim_t dims[4] = {N, C, H, W};
    const tsr_memory_desc_t md = make_md(4, dims, tsr_f32, "nChw8c");
    const tsr_dim_t n = md_nelems_padded(&md);
    CHECK(n == N * 24 * H * W);
    float buf[N * 24 * H * W];
    for (tsr_dim_t i = 0; i < n; i++)
        buf[i] = 1.f;
    md_zero_pad(&md, buf);
    int bad = 0;
    for (tsr_dim_t nn = 0; nn < N; nn++)
        for (tsr_dim_t c = 0; c < 24; c++)
            for (tsr_dim_t h = 0; h < H; h++)
                for (tsr_dim_t w = 0; w < W; w++) {
                    const tsr_dim_t pos[4] = {nn, c, h, w};
                    bad += buf[md_off_v(&md, pos)] != (c < C ? 1.f : 0.f);
                }
    CHECK(bad == 0);
}

/* The public zero-padding call on a user buffer: padding zeroed, logical
 * bytes kept. */
static void test_memory_zero_pad(void) {
    tsr_engine_t engine = NULL;
    if (!CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success))
        return;
    const tsr_dim_t dims[4] = {N, C, H, W};
    const tsr_memory_desc_t md = make_md(4, dims, tsr_s8, "aBcd16b");
    static uint8_t buf[N * 32 * H * W];
    memset(buf, 0xFF, sizeof(buf));
    tsr_memory_t mem = NULL;
    CHECK(tsr_memory_create(&mem, &md, engine, buf) == tsr_success);
    CHECK(tsr_memory_zero_pad(mem) == tsr_success);
    int bad = 0;
    for (tsr_dim_t nn = 0; nn < N; nn++)
        for (tsr_dim_t c = 0; c < 32; c++)
            for (tsr_dim_t h = 0; h < H; h++)
                for (tsr_dim_t w = 0; w < W; w++) {
                    const tsr_dim_t pos[4] = {nn, c, h, w};
                    bad += buf[md_off_v(&md, pos)] != (c < C ? 0xFF : 0);
                }
    CHECK(bad == 0);
    CHECK(tsr_memory_zero_pad(NULL) == tsr_invalid_arguments);
    tsr_memory_t empty = NULL;
    CHECK(tsr_memory_create(&empty, &md, engine, TSR_MEMORY_NONE) ==
          tsr_success);
    CHECK(tsr_memory_zero_pad(empty) == tsr_invalid_arguments);
    tsr_memory_destroy(empty);
    tsr_memory_destroy(mem);
    tsr_engine_destroy(engine);
}

static void test_memory_objects(void) {
    tsr_engine_t engine = NULL;
    tsr_stream_t stream = NULL;
    CHECK(tsr_engine_create(&engine, tsr_cpu, 1) == tsr_invalid_arguments);
    CHECK(tsr_engine_create(&engine, tsr_engine_kind_any, 0) ==
          tsr_invalid_arguments);
    if (!CHECK(tsr_engine_create(&engine, tsr_cpu, 0) == tsr_success))
        return;
    CHECK(tsr_stream_create(&stream, engine) == tsr_success);
    CHECK(tsr_stream_wait(stream) == tsr_success);

    const tsr_dim_t dims[4] = {N, C, H, W};
    const tsr_memory_desc_t md = make_md(4, dims, tsr_f32, "nChw16c");
    tsr_memory_t mem = NULL;
    CHECK(tsr_memory_create(&mem, &md, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_success);
    void *data = NULL;
    CHECK(tsr_memory_get_data_handle(mem, &data) == tsr_success);
    CHECK(data && ((uintptr_t)data % 64) == 0);
    const size_t size = tsr_memory_desc_get_size(&md);
    int nonzero = 0;
    for (size_t i = 0; i < size; i++)
        nonzero += ((unsigned char *)data)[i] != 0;
    CHECK(nonzero == 0);
    const tsr_memory_desc_t *got = NULL;
    CHECK(tsr_memory_get_desc(mem, &got) == tsr_success);
    CHECK(got && tsr_memory_desc_equal(got, &md));

    /* A user buffer: kept as given, its padding made zero. */
    static float user[N * 32 * H * W];
    for (size_t i = 0; i < sizeof(user) / sizeof(*user); i++)
        user[i] = 7.f;
    CHECK(tsr_memory_set_data_handle(mem, user) == tsr_success);
    CHECK(tsr_memory_get_data_handle(mem, &data) == tsr_success);
    CHECK(data == user);
    const tsr_dim_t last_pad[4] = {0, 31, 0, 0}, last_real[4] = {0, 16, 0, 0};
    CHECK(user[md_off_v(&md, last_pad)] == 0.f);
    CHECK(user[md_off_v(&md, last_real)] == 7.f);
    CHECK(tsr_memory_set_data_handle(mem, TSR_MEMORY_NONE) == tsr_success);
    CHECK(tsr_memory_get_data_handle(mem, &data) == tsr_success && !data);
    CHECK(tsr_memory_destroy(mem) == tsr_success);

    const tsr_memory_desc_t any = make_md(4, dims, tsr_f32, "any");
    mem = NULL;
    CHECK(tsr_memory_create(&mem, &any, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_invalid_arguments);
    CHECK(mem == NULL);
    CHECK(tsr_memory_create(&mem, &md, NULL, TSR_MEMORY_ALLOCATE) ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_create(&mem, NULL, engine, TSR_MEMORY_ALLOCATE) ==
          tsr_invalid_arguments);
    CHECK(tsr_memory_get_desc(NULL, &got) == tsr_invalid_arguments);

    CHECK(tsr_stream_destroy(stream) == tsr_success);
    CHECK(tsr_engine_destroy(engine) == tsr_success);
}

int main(void) {
    test_plain_and_blocked_offsets();
    test_openvino_tables();
    test_strided_and_offset0();
    test_sizes_and_equality();
    test_layout_str();
    test_bad_input();
    test_dims_product_limit();
    test_hand_built_descriptors();
    test_zero_pad();
    test_memory_objects();
    test_memory_zero_pad();
    return check_failures() != 0;
}
