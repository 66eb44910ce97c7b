/* Format tags: every alias and OpenVINO name gives the same descriptor as
 * its letter form; letter forms give the offsets their definition says;
 * malformed strings are refused without touching the descriptor. */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "common/memory_desc.h"
#include "tessera.h"

/* Tag and its letter-form equivalent, written out here independently of
 * the library's own table. */
static const struct {
    const char *tag, *letters;
} equivalents[] = {
        {"x", "a"},
        {"nc", "ab"},
        {"cn", "ba"},
        {"ncw", "abc"},
        {"nwc", "acb"},
        {"tnc", "abc"},
        {"ntc", "bac"},
        {"nchw", "abcd"},
        {"nhwc", "acdb"},
        {"chwn", "bcda"},
        {"ncdhw", "abcde"},
        {"ndhwc", "acdeb"},
        {"nCw8c", "aBc8b"},
        {"nCw16c", "aBc16b"},
        {"nChw4c", "aBcd4b"},
        {"nChw8c", "aBcd8b"},
        {"nChw16c", "aBcd16b"},
        {"nCdhw8c", "aBcde8b"},
        {"nCdhw16c", "aBcde16b"},
        {"NChw16n16c", "ABcd16a16b"},
        {"oi", "ab"},
        {"io", "ba"},
        {"oiw", "abc"},
        {"wio", "cba"},
        {"oihw", "abcd"},
        {"ohwi", "acdb"},
        {"hwio", "cdba"},
        {"ihwo", "bcda"},
        {"iohw", "bacd"},
        {"oidhw", "abcde"},
        {"dhwio", "cdeba"},
        {"goiw", "abcd"},
        {"goihw", "abcde"},
        {"hwigo", "decab"},
        {"gohwi", "abdec"},
        {"giohw", "acbde"},
        {"goidhw", "abcdef"},
        {"OIw16i16o", "ABc16b16a"},
        {"Owi16o", "Acb16a"},
        {"Oihw16o", "Abcd16a"},
        {"Ohwi16o", "Acdb16a"},
        {"Ohwi8o", "Acdb8a"},
        {"OIhw16i16o", "ABcd16b16a"},
        {"OIhw16o16i", "ABcd16a16b"},
        {"OIhw8i8o", "ABcd8b8a"},
        {"OIhw8o8i", "ABcd8a8b"},
        {"OIhw4i4o", "ABcd4b4a"},
        {"IOhw16o16i", "BAcd16a16b"},
        {"OIhw4i16o4i", "ABcd4b16a4b"},
        {"OIhw8i16o2i", "ABcd8b16a2b"},
        {"OIdhw16i16o", "ABcde16b16a"},
        {"OIdhw16o16i", "ABcde16a16b"},
        {"Odhwi16o", "Acdeb16a"},
        {"gOIhw16i16o", "aBCde16c16b"},
        {"gOIhw16o16i", "aBCde16b16c"},
        {"gOIhw8i8o", "aBCde8c8b"},
        {"gOhwi16o", "aBdec16b"},
        {"gOihw16o", "aBcde16b"},
        {"Goihw16g", "Abcde16a"},
        {"Goihw8g", "Abcde8a"},
        {"Goiw16g", "Abcd16a"},
        {"gOIdhw16i16o", "aBCdef16c16b"},
        {"Goidhw16g", "Abcdef16a"},
        /* OpenVINO GPU plugin names (seed 002). */
        {"bfyx", "abcd"},
        {"byxf", "acdb"},
        {"yxfb", "cdba"},
        {"fyxb", "bcda"},
        {"bfzyx", "abcde"},
        {"bfwzyx", "abcdef"},
        {"b_fs_yx_fsv16", "aBcd16b"},
        {"b_fs_yx_fsv32", "aBcd32b"},
        {"b_fs_zyx_fsv16", "aBcde16b"},
        {"b_fs_zyx_fsv32", "aBcde32b"},
        {"bs_fs_yx_bsv16_fsv16", "ABcd16a16b"},
        {"bs_fs_zyx_bsv16_fsv16", "ABcde16a16b"},
        {"fs_b_yx_fsv32", "Bacd32b"},
        {"oiyx", "abcd"},
        {"yxio", "cdba"},
        {"goiyx", "abcde"},
        {"os_iyx_osv16", "Abcd16a"},
        {"os_is_yx_isv16_osv16", "ABcd16b16a"},
        {"is_os_yx_isv16_osv16", "BAcd16b16a"},
        {"g_os_iyx_osv16", "aBcde16b"},
};

static const char *const bad_tags[] = {
        "",
        "abcdx",
        "aBcd",
        "abcd16b",
        "aBcd16c",
        "aBcd16B",
        "aBcd0b",
        "aBcd016b",
        "aBcd16",
        "aacd",
        "abce",
        "bcd",
        "abcdefghijklm",
        "nchw16c",
        "NCHW",
        "nChw8",
        "nchwx",
        "hcwn",
        "OIhw16i",
        "b_fs_yx",
        "b_fs_yx_fsv0",
        "b_fs_yx_fsv16x",
        "b_f_yx_fsv16",
        "bfyxb",
        "bf__yx",
        "_bfyx",
        "bfio",
        "os_iyx_fsv16",
        "b_fs_yx_osv16",
        "anyy",
        "ANY",
        "aBcd99999999999999999999b",
};

/* The rank of a letter form: its letters before the first block. */
static int rank_of(const char *letters) {
    int n = 0;
    while (isalpha((unsigned char)letters[n]))
        n++;
    return n;
}

static void test_equivalents(void) {
    /* Odd sizes so that padding and every stride differ. */
    const tsr_dim_t dims[TSR_MAX_NDIMS] = {3, 5, 7, 2, 3, 2};
    for (size_t i = 0; i < sizeof(equivalents) / sizeof(*equivalents); i++) {
        const int ndims = rank_of(equivalents[i].letters);
        tsr_memory_desc_t by_tag, by_letters;
        const tsr_status_t st1 = tsr_memory_desc_init_by_tag(
                &by_tag, ndims, dims, tsr_f32, equivalents[i].tag);
        const tsr_status_t st2 = tsr_memory_desc_init_by_tag(
                &by_letters, ndims, dims, tsr_f32, equivalents[i].letters);
        const int ok = CHECK(st1 == tsr_success) && CHECK(st2 == tsr_success) &&
                       CHECK(tsr_memory_desc_equal(&by_tag, &by_letters)) &&
                       CHECK(tsr_memory_desc_matches_tag(&by_letters,
                                                         equivalents[i].tag));
        if (!ok)
            fprintf(stderr, "  %s vs %s\n", equivalents[i].tag,
                    equivalents[i].letters);
        /* Wrong rank is refused. */
        tsr_memory_desc_t md;
        CHECK(tsr_memory_desc_init_by_tag(&md, ndims + 1, dims, tsr_f32,
                                          equivalents[i].tag) ==
              tsr_invalid_arguments);
    }
}

static void test_bad_tags(void) {
    const tsr_dim_t dims[4] = {2, 3, 4, 5};
    for (size_t i = 0; i < sizeof(bad_tags) / sizeof(*bad_tags); i++) {
        for (int ndims = 1; ndims <= 4; ndims++) {
            tsr_memory_desc_t md, before;
            memset(&md, 0xa5, sizeof(md));
            before = md;
            const tsr_status_t st = tsr_memory_desc_init_by_tag(
                    &md, ndims, dims, tsr_f32, bad_tags[i]);
            const int ok = CHECK(st == tsr_invalid_arguments) &&
                           CHECK(memcmp(&md, &before, sizeof(md)) == 0);
            if (!ok)
                fprintf(stderr, "  tag \"%s\" ndims %d\n", bad_tags[i], ndims);
        }
    }
}

/* Letter forms against their definition: outer dims by the letters' order
 * over the padded dims divided by the blocks, inner blocks row-major with
 * the innermost block taking the lowest part of its dim's index. */
static void test_letter_form_offsets(void) {
    const tsr_dim_t dims[4] = {19, 37, 3, 2};
    tsr_memory_desc_t md;
    /* ABcd4b16a4b: O padded to 32, I padded to 48 (block 16 on b). */
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "ABcd4b16a4b") ==
          tsr_success);
    CHECK(md.padded_dims[0] == 32 && md.padded_dims[1] == 48);
    int bad = 0;
    for (tsr_dim_t o = 0; o < dims[0]; o++)
        for (tsr_dim_t i = 0; i < dims[1]; i++)
            for (tsr_dim_t h = 0; h < dims[2]; h++)
                for (tsr_dim_t w = 0; w < dims[3]; w++) {
                    const tsr_dim_t pos[4] = {o, i, h, w};
                    const tsr_dim_t tile = 4 * 16 * 4;
                    const tsr_dim_t expected =
                            (o / 16) * (48 / 16) * 3 * 2 * tile +
                            (i / 16) * 3 * 2 * tile + h * 2 * tile + w * tile +
                            ((i % 16) / 4) * 16 * 4 + (o % 16) * 4 + (i % 4);
                    bad += tsr_memory_desc_offset(&md, pos) != expected;
                }
    CHECK(bad == 0);
    CHECK(tsr_memory_desc_get_size(&md) == 32 * 48 * 3 * 2 * sizeof(float));

    /* Inner blocks on dims that come in any outer order: dcBa8b. */
    CHECK(tsr_memory_desc_init_by_tag(&md, 4, dims, tsr_f32, "dcBa8b") ==
          tsr_success);
    bad = 0;
    for (tsr_dim_t a = 0; a < dims[0]; a++)
        for (tsr_dim_t b = 0; b < dims[1]; b++)
            for (tsr_dim_t c = 0; c < dims[2]; c++)
                for (tsr_dim_t d = 0; d < dims[3]; d++) {
                    const tsr_dim_t pos[4] = {a, b, c, d};
                    const tsr_dim_t expected =
                            ((((d * 3 + c) * 5 + b / 8) * 19 + a) * 8) + b % 8;
                    bad += tsr_memory_desc_offset(&md, pos) != expected;
                }
    CHECK(bad == 0);
}

static void test_any_and_limits(void) {
    const tsr_dim_t dims[TSR_MAX_NDIMS] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    tsr_memory_desc_t md;
    for (int ndims = 1; ndims <= TSR_MAX_NDIMS; ndims++) {
        CHECK(tsr_memory_desc_init_by_tag(&md, ndims, dims, tsr_s8, "any") ==
              tsr_success);
        CHECK(md.format_kind == tsr_format_kind_any && md.ndims == ndims);
    }
    CHECK(tsr_memory_desc_init_by_tag(&md, 12, dims, tsr_f32, "abcdefghijkl") ==
          tsr_success);
    CHECK(tsr_memory_desc_init_by_tag(&md, 12, dims, tsr_f32, "lkjihgfedcba") ==
          tsr_success);
    const tsr_dim_t last[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(tsr_memory_desc_offset(&md, last) == (1 << 12) - 1);
    CHECK(tsr_memory_desc_init_by_tag(&md, 1, dims, tsr_f32, "A16a") ==
          tsr_success);
    CHECK(md.padded_dims[0] == 16);
}

int main(void) {
    test_equivalents();
    test_bad_tags();
    test_letter_form_offsets();
    test_any_and_limits();
    return check_failures() != 0;
}
